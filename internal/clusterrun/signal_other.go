//go:build !unix

package clusterrun

import (
	"errors"
	"os"
	"syscall"
)

// errNoSignals is the answer of Pause and Resume where there are no
// job-control signals.
var errNoSignals = errors.New("clusterrun: pausing a process needs SIGSTOP and SIGCONT (unix)")

func sysProcAttr() *syscall.SysProcAttr { return nil }

// terminate kills the process: there is no SIGTERM to send.
func (p *Proc) terminate() error { return p.signal(os.Kill) }

// Pause is not available without SIGSTOP.
func (p *Proc) Pause() error { return errNoSignals }

// Resume is not available without SIGCONT.
func (p *Proc) Resume() error { return errNoSignals }
