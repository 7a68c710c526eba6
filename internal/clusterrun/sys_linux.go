package clusterrun

import "syscall"

// sysProcAttr puts a child in its own process group, so that the
// terminal's Ctrl-C reaches only the orchestrator, which then stops each
// child once (a second signal would end serve without its drain), and
// has the kernel send it SIGTERM when the orchestrator dies, so no node
// outlives a killed `orderengine cluster`.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
