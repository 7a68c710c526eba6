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

// TestParseHop: the forms proxies write a hop in are read, IPv4-mapped
// addresses as IPv4; a zone, a name or garbage is no address.
func TestParseHop(t *testing.T) {
	for in, want := range map[string]string{
		"203.0.113.7": "203.0.113.7", " 203.0.113.7 ": "203.0.113.7", "203.0.113.7:4711": "203.0.113.7",
		`"203.0.113.7:4711"`: "203.0.113.7", "2001:db8::1": "2001:db8::1", "[2001:db8::1]": "2001:db8::1",
		`"[2001:db8::1]:4711"`: "2001:db8::1", "::ffff:203.0.113.7": "203.0.113.7",
		"unknown": "", "_hidden": "", "fe80::1%eth0": "", "[fe80::1%eth0]:80": "", "": "", `""`: "",
		"203.0.113.7:x": "", "[203.0.113.7]": "", "example.com": "",
	} {
		a, ok := parseHop([]byte(in))
		if got := map[bool]string{true: a.String(), false: ""}[ok]; got != want {
			t.Errorf("parseHop(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"for=192.0.2.60;proto=http;by=203.0.113.43": "192.0.2.60",
		` proto=https ; For="[2001:db8::17]:4711"`:  `"[2001:db8::17]:4711"`,
		"by=10.0.0.1": "",
	} {
		if got := string(forwardedFor([]byte(in))); got != want {
			t.Errorf("forwardedFor(%q) = %q, want %q", in, got, want)
		}
	}
}
