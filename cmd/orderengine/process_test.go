package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/orderengine/orderengine/internal/syncbuf"
	"github.com/orderengine/orderengine/internal/testport"
)

// The binary, built once for the tests that need a real process (signals,
// the process's own stderr).
var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// TestMain removes the binary once the package's tests are done.
func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		_ = os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

func binary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "orderengine-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "orderengine")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// process is a running `orderengine serve`.
type process struct {
	cmd      *exec.Cmd
	pub      string
	out, err *syncbuf.Buffer
}

// startProcess runs the binary's serve on a fresh data folder and loopback
// ports (the dev chain's JSON-RPC on a free port), with extra flags, and
// waits until /healthz answers.
func startProcess(t *testing.T, ctx context.Context, extra ...string) *process {
	t.Helper()
	p := &process{pub: testport.Addr(t), out: &syncbuf.Buffer{}, err: &syncbuf.Buffer{}}
	args := append([]string{"serve", "--data-dir", t.TempDir(), "--http-listen", p.pub,
		"--http-admin-listen", testport.Addr(t), "--chain-dev-rpc-listen", "127.0.0.1:0"}, extra...)
	p.cmd = exec.Command(binary(t), args...)
	p.cmd.Env = withoutEngineEnv(os.Environ())
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.err
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			_ = p.cmd.Wait()
		}
	})
	waitHealthy(t, ctx, "http://"+p.pub, p.err)
	return p
}

// withoutEngineEnv drops the ORDERENGINE_* variables of the test's own
// environment, so that only the flags configure the process.
func withoutEngineEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "ORDERENGINE_") {
			out = append(out, kv)
		}
	}
	return out
}

// TestServeJSONLogsAndCleanExit runs serve with log.format=json, makes a
// request, stops it with SIGTERM and checks that it exited 0 and that every
// line it wrote to stderr, from the start to the shutdown, is one JSON
// object with a level and a message (a collector parses each line; a single
// text line from a library breaks it).
func TestServeJSONLogsAndCleanExit(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := startProcess(t, ctx, "--log-format", "json")
	if code := get(t, "http://"+p.pub+"/no-such-route", ""); code != 404 {
		t.Fatalf("unknown route: %d", code)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("serve after SIGTERM: %v (want exit status 0)\n%s", err, p.err.String())
	}
	var msgs []string
	sc := bufio.NewScanner(strings.NewReader(p.err.String()))
	for sc.Scan() {
		var line struct{ Level, Msg string }
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil || line.Level == "" || line.Msg == "" {
			t.Fatalf("stderr line is not a JSON log record (%v): %q", err, sc.Text())
		}
		msgs = append(msgs, line.Msg)
	}
	joined := strings.Join(msgs, "|")
	for _, want := range []string{"actor system started", "listening", "request", "shutting down: draining in-flight requests", "engine closed"} {
		if !strings.Contains(joined, want) {
			t.Fatalf("no %q record in the log: %v", want, msgs)
		}
	}
}

// TestServeSecondSignalExitsAtOnce holds a request in flight (headers read,
// body pending, under a one-minute read and shutdown timeout), sends
// SIGTERM, which starts the drain, then a second SIGTERM, which must end
// the process at once (killed by the signal) rather than wait for the
// drain.
func TestServeSecondSignalExitsAtOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := startProcess(t, ctx, "--http-shutdown-timeout", "1m", "--http-read-timeout", "1m")
	conn := holdRequest(t, p.pub)
	defer conn.Close()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for !strings.Contains(p.err.String(), "shutting down") { // the drain has begun
		select {
		case <-ctx.Done():
			t.Fatalf("no drain after SIGTERM:\n%s", p.err.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := p.cmd.Wait()
	ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Fatalf("after a second SIGTERM during the drain: %v (want killed by SIGTERM)\n%s", err, p.err.String())
	}
}

// TestServeDrainTimeoutIsNamed holds a request in flight past
// http.shutdownTimeout: serve must exit non-zero with an error that names
// the setting, not a bare "context deadline exceeded".
func TestServeDrainTimeoutIsNamed(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := startProcess(t, ctx, "--http-shutdown-timeout", "200ms", "--http-read-timeout", "1m")
	conn := holdRequest(t, p.pub)
	defer conn.Close()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := p.cmd.Wait()
	if p.cmd.ProcessState.ExitCode() != 1 || !strings.Contains(p.err.String(), "not drained within http.shutdownTimeout (200ms)") {
		t.Fatalf("drain past http.shutdownTimeout: %v\n%s", err, p.err.String())
	}
}

// holdRequest starts a request on addr and leaves it in flight: its headers
// are read, its body never comes. Expect: 100-continue makes the server
// say when it has read the headers; from then on the connection is active
// and a drain waits for it.
func holdRequest(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Write([]byte("POST /v1/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.Contains(status, "100 Continue") {
		t.Fatalf("no 100 Continue: %q %v", status, err)
	}
	return conn
}

// TestServeOnAFolderInUse starts a second serve on the data folder of a
// running one: it must exit 1 saying the folder is in use, not only the
// lock's errno text ("resource temporarily unavailable").
func TestServeOnAFolderInUse(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	startProcess(t, ctx, "--data-dir", dir)
	second := exec.CommandContext(ctx, binary(t), "serve", "--data-dir", dir, "--http-listen", testport.Addr(t),
		"--http-admin-listen", testport.Addr(t), "--chain-dev-rpc-listen", "127.0.0.1:0")
	second.Env = withoutEngineEnv(os.Environ())
	out, err := second.CombinedOutput()
	if second.ProcessState == nil || second.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), "in use by another process") {
		t.Fatalf("serve on a folder in use: %v\n%s", err, out)
	}
}
