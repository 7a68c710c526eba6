//go:build unix

package clusterrun

import "syscall"

// terminate sends SIGTERM: serve drains and closes its store.
func (p *Proc) terminate() error { return p.signal(syscall.SIGTERM) }

// Pause stops the process with SIGSTOP: it keeps its sockets and state
// but runs no code (a node that froze, a long GC pause, a VM stalled)
// until Resume.
func (p *Proc) Pause() error { return p.signal(syscall.SIGSTOP) }

// Resume continues a paused process (SIGCONT).
func (p *Proc) Resume() error { return p.signal(syscall.SIGCONT) }
