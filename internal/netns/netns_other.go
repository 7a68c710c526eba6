//go:build !linux

package netns

import (
	"context"
	"errors"
	"net"
)

// errLinux answers every call: network namespaces are Linux's.
var errLinux = errors.New("netns: network namespaces need Linux")

// Available reports that the network cannot be built on this system.
func Available() error { return errLinux }

// Dialer returns a dialer that fails: there are no namespaces here.
func Dialer(string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(context.Context, string, string) (net.Conn, error) { return nil, errLinux }
}
