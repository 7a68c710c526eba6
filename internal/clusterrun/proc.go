package clusterrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// Proc is one child process of the cluster: its command, its environment
// and its log file. It can be started again after it exited (a restart
// appends to the same log).
type Proc struct {
	// Name names the process in messages and its log file.
	Name string
	// Path is the binary; Args its arguments; Env its whole environment.
	Path string
	Args []string
	Env  []string
	// Log is the file the process's stdout and stderr are appended to.
	Log string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when the current run exited
	err  error         // the current run's exit (nil: status 0)
}

// ErrNotRunning is returned by the signals of a process that has exited.
var ErrNotRunning = errors.New("clusterrun: process not running")

// Start starts the process. It fails when it is already running.
func (p *Proc) Start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil && !closed(p.done) {
		return fmt.Errorf("clusterrun: %s is already running (pid %d)", p.Name, p.cmd.Process.Pid)
	}
	if err := os.MkdirAll(filepath.Dir(p.Log), 0o755); err != nil {
		return err
	}
	logf, err := os.OpenFile(p.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(logf, "==== %s: %s %v (%s)\n", p.Name, filepath.Base(p.Path), p.Args, time.Now().Format(time.RFC3339))
	cmd := exec.Command(p.Path, p.Args...)
	cmd.Env = p.Env
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		_ = logf.Close()
		return fmt.Errorf("clusterrun: start %s: %w", p.Name, err)
	}
	done := make(chan struct{})
	p.cmd, p.done, p.err = cmd, done, nil
	go func() {
		err := cmd.Wait()
		_ = logf.Close()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(done)
	}()
	return nil
}

func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// Pid is the current run's process id (0 before the first start).
func (p *Proc) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// Done is closed when the current run exits.
func (p *Proc) Done() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done == nil {
		ch := make(chan struct{})
		close(ch)
		return ch
	}
	return p.done
}

// Running reports whether the process was started and has not exited.
func (p *Proc) Running() bool {
	select {
	case <-p.Done():
		return false
	default:
		return true
	}
}

// Err is how the last run ended: nil while running or after status 0,
// else the *exec.ExitError.
func (p *Proc) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// signal sends sig to the current run.
func (p *Proc) signal(sig os.Signal) error {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil || closed(done) {
		return ErrNotRunning
	}
	if err := cmd.Process.Signal(sig); err != nil {
		if errors.Is(err, os.ErrProcessDone) {
			return ErrNotRunning
		}
		return fmt.Errorf("clusterrun: signal %s: %w", p.Name, err)
	}
	return nil
}

// Wait waits until the current run exits or ctx ends.
func (p *Proc) Wait(ctx context.Context) error {
	select {
	case <-p.Done():
		return p.Err()
	case <-ctx.Done():
		return fmt.Errorf("clusterrun: %s still running: %w", p.Name, ctx.Err())
	}
}

// Kill ends the process with SIGKILL (kill -9: no shutdown at all) and
// waits for it.
func (p *Proc) Kill() error {
	if err := p.signal(os.Kill); err != nil && !errors.Is(err, ErrNotRunning) {
		return err
	}
	<-p.Done()
	return nil
}

// Stop asks the process to shut down (SIGTERM: serve drains its
// listeners and closes its store) and waits up to grace, then kills it.
// It returns how the process ended: nil for status 0.
func (p *Proc) Stop(grace time.Duration) error {
	if err := p.terminate(); err != nil {
		if errors.Is(err, ErrNotRunning) {
			return p.Err()
		}
		return err
	}
	select {
	case <-p.Done():
		return p.Err()
	case <-time.After(grace):
	}
	_ = p.Kill()
	return fmt.Errorf("clusterrun: %s did not stop within %s of SIGTERM: killed", p.Name, grace)
}

// Tail is the last n lines of the process's log.
func (p *Proc) Tail(n int) string {
	data, err := os.ReadFile(p.Log)
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	return tailLines(data, n)
}

// Lines returns the last n lines of the process's log that contain sub.
func (p *Proc) Lines(sub string, n int) string {
	data, err := os.ReadFile(p.Log)
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	var out [][]byte
	for line := range bytes.Lines(data) {
		if bytes.Contains(line, []byte(sub)) {
			out = append(out, line)
		}
	}
	return string(bytes.Join(out[max(0, len(out)-n):], nil))
}

// tailLines returns the last n lines of data.
func tailLines(data []byte, n int) string {
	data = bytes.TrimRight(data, "\n")
	end := len(data)
	for i := 0; i < n; i++ {
		j := bytes.LastIndexByte(data[:end], '\n')
		if j < 0 {
			return string(data)
		}
		end = j
	}
	return string(data[end+1:])
}
