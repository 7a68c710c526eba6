// Package testport gives tests a loopback TCP port to hand to a server they
// start (a child process, or a listener configured by address).
//
// Asking the kernel for port 0 and closing the listener is racy: the port
// comes from the ephemeral range, which every outgoing connection of every
// other test process also draws from, so it can be taken before the server
// binds it. Port picks instead a random port below Linux's default ephemeral
// range (32768–60999) that is free now; only another test picking the same
// port at the same moment can take it, and callers that can should still
// retry on "address already in use".
package testport

import (
	"math/rand/v2"
	"net"
	"strconv"
	"testing"
)

// Lowest and highest+1 ports Port picks from.
const (
	low  = 20000
	high = 32000
)

// Port returns a loopback TCP port that was free when checked.
func Port(t testing.TB) int {
	t.Helper()
	for range 100 {
		p := low + rand.IntN(high-low)
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			continue
		}
		if err := ln.Close(); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Fatal("testport: no free loopback port found in 100 tries")
	return 0
}

// Addr returns "127.0.0.1:<Port>".
func Addr(t testing.TB) string {
	t.Helper()
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(Port(t)))
}
