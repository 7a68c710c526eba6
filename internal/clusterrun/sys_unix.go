//go:build unix && !linux

package clusterrun

import "syscall"

// sysProcAttr puts a child in its own process group, so that the
// terminal's Ctrl-C reaches only the orchestrator, which then stops each
// child once (a second signal would end serve without its drain).
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
