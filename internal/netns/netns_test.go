//go:build linux

package netns_test

import (
	"context"
	"io"
	"net"
	"testing"
	"time"

	"github.com/orderengine/orderengine/internal/netns"
)

// echoOn serves, inside host h on port 9, one line back per connection.
func echoOn(t *testing.T, h *netns.Host) {
	t.Helper()
	l, err := h.Listen("tcp", net.JoinHostPort(h.Addr.String(), "9"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = io.CopyN(c, c, 4)
			}()
		}
	}()
}

// reaches reports whether a four-byte echo from dial to addr comes back
// within 700 ms.
func reaches(t *testing.T, dial func(ctx context.Context, network, addr string) (net.Conn, error), to *netns.Host) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer cancel()
	c, err := dial(ctx, "tcp", net.JoinHostPort(to.Addr.String(), "9"))
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(700 * time.Millisecond))
	if _, err := c.Write([]byte("ping")); err != nil {
		return false
	}
	buf := make([]byte, 4)
	_, err = io.ReadFull(c, buf)
	return err == nil && string(buf) == "ping"
}

func TestPartitionsAndHeal(t *testing.T) {
	if err := netns.Available(); err != nil {
		t.Fatal(err)
	}
	nw, err := netns.New(3)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := nw.Close(); err != nil {
			t.Error(err)
		}
	})
	a, b, c := nw.Hosts[0], nw.Hosts[1], nw.Hosts[2]
	for _, h := range nw.Hosts {
		echoOn(t, h)
	}
	var root net.Dialer
	check := func(stage string, want map[[2]*netns.Host]bool) {
		t.Helper()
		for pair, ok := range want {
			if got := reaches(t, pair[0].DialContext, pair[1]); got != ok {
				t.Errorf("%s: %s reaches %s: %v, want %v", stage, pair[0].NS, pair[1].NS, got, ok)
			}
		}
		for _, h := range nw.Hosts {
			if !reaches(t, root.DialContext, h) {
				t.Errorf("%s: the caller does not reach %s", stage, h.NS)
			}
		}
	}
	check("whole", map[[2]*netns.Host]bool{{a, b}: true, {b, c}: true, {c, a}: true})

	if err := nw.Isolate(a); err != nil {
		t.Fatal(err)
	}
	check("a isolated", map[[2]*netns.Host]bool{{a, b}: false, {b, a}: false, {a, c}: false, {b, c}: true})

	if err := nw.Heal(); err != nil {
		t.Fatal(err)
	}
	check("healed", map[[2]*netns.Host]bool{{a, b}: true, {b, a}: true, {a, c}: true})

	if err := nw.Cut(a, b); err != nil {
		t.Fatal(err)
	}
	check("ring", map[[2]*netns.Host]bool{{a, b}: false, {b, a}: false, {a, c}: true, {b, c}: true})

	if err := nw.Heal(); err != nil {
		t.Fatal(err)
	}
	if err := nw.Loss(100); err != nil {
		t.Fatal(err)
	}
	check("all lost", map[[2]*netns.Host]bool{{a, b}: false, {c, a}: false})
	if err := nw.Heal(); err != nil {
		t.Fatal(err)
	}
	check("healed again", map[[2]*netns.Host]bool{{a, b}: true, {c, a}: true})
}
