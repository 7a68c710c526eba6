package http

import (
	"net/netip"
	"testing"
)

// TestAddressSubject: keyless limits count an IPv4 client per address
// (mapped or not) and an IPv6 client per /64, so addresses of one /64 share
// one budget.
func TestAddressSubject(t *testing.T) {
	for _, c := range []struct{ ip, want string }{
		{"203.0.113.7", "ip:203.0.113.7"},
		{"::ffff:203.0.113.7", "ip:203.0.113.7"},
		{"2001:db8:1:2::1", "ip:2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "ip:2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "ip:2001:db8:1:3::/64"},
		{"::1", "ip:::/64"},
	} {
		if got := addressSubject(netip.MustParseAddr(c.ip).Unmap()); got != c.want {
			t.Errorf("%s: subject %q, want %q", c.ip, got, c.want)
		}
	}
}
