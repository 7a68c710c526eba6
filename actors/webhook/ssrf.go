package webhook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"

	"github.com/orderengine/orderengine/config"
)

// Resolver resolves a host name to addresses. *net.Resolver satisfies it;
// tests of the DNS-rebinding check plug in a resolver they control.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// ErrTargetRefused wraps every refusal of a target URL or address.
var ErrTargetRefused = errors.New("webhook: target refused")

// blockedPrefixes are the destinations a webhook may never reach outside dev
// mode: anything that is not a public unicast address. IPv4-mapped IPv6 is
// unmapped before the check; NAT64 and 6to4 prefixes are refused whole, as
// they can embed any IPv4 address.
var blockedPrefixes = func() []struct {
	p      netip.Prefix
	reason string
} {
	rows := []struct{ cidr, reason string }{
		{"0.0.0.0/8", "unspecified"},
		{"10.0.0.0/8", "private"},
		{"100.64.0.0/10", "carrier-grade NAT"},
		{"127.0.0.0/8", "loopback"},
		{"169.254.0.0/16", "link-local (cloud metadata)"},
		{"172.16.0.0/12", "private"},
		{"192.0.0.0/24", "IETF protocol assignments"},
		{"192.0.2.0/24", "documentation"},
		{"192.88.99.0/24", "6to4 relay"},
		{"192.168.0.0/16", "private"},
		{"198.18.0.0/15", "benchmarking"},
		{"198.51.100.0/24", "documentation"},
		{"203.0.113.0/24", "documentation"},
		{"224.0.0.0/4", "multicast"},
		{"240.0.0.0/4", "reserved"},
		{"::/128", "unspecified"},
		{"::1/128", "loopback"},
		{"::/96", "IPv4-compatible (deprecated, embeds an IPv4 address)"},
		{"::ffff:0:0:0/96", "IPv4-translated (embeds an IPv4 address)"},
		{"64:ff9b::/96", "NAT64"},
		{"64:ff9b:1::/48", "NAT64"},
		{"100::/64", "discard"},
		{"2001:db8::/32", "documentation"},
		{"2002::/16", "6to4"},
		{"fc00::/7", "unique local (private, incl. fd00:ec2::254 metadata)"},
		{"fe80::/10", "link-local"},
		{"ff00::/8", "multicast"},
	}
	out := make([]struct {
		p      netip.Prefix
		reason string
	}, len(rows))
	for i, r := range rows {
		out[i].p, out[i].reason = netip.MustParsePrefix(r.cidr), r.reason
	}
	return out
}()

// CheckAddr returns an error wrapping ErrTargetRefused when a is not a
// public unicast address. A zoned (scoped) IPv6 address is refused whatever
// its prefix.
func CheckAddr(a netip.Addr) error { return Policy{}.checkAddr(a) }

// checkAddr is CheckAddr that, in dev mode, also lets the loopback
// addresses through (127.0.0.0/8 and ::1, IPv4-mapped or not), and lets
// the addresses of the operator's allowed ranges through (Allow) except
// the ranges no configuration may open (config.NeverAllowedTargets).
func (p Policy) checkAddr(a netip.Addr) error {
	a = a.Unmap()
	if p.Dev && a.IsLoopback() && a.Zone() == "" {
		return nil
	}
	if !a.IsValid() {
		return fmt.Errorf("%w: invalid address", ErrTargetRefused)
	}
	if p.allowed(a) {
		return nil
	}
	if a.Zone() != "" {
		// A zone (fe80::1%eth0, ::1%lo) scopes an address to an interface:
		// never a public target, and netip.Prefix.Contains is false for
		// any zoned address, so the table below would let it through.
		return fmt.Errorf("%w: %s is a scoped (zoned) IPv6 address", ErrTargetRefused, a)
	}
	for _, b := range blockedPrefixes {
		if b.p.Contains(a) {
			return fmt.Errorf("%w: %s is a %s address", ErrTargetRefused, a, b.reason)
		}
	}
	return nil
}

// checkResolved checks every address host resolved to. A refusal names the
// address only when host is that address (an IP literal the caller wrote):
// for a name it says only that an address is not public, so that the
// creation error and the delivery log cannot be used to read what the
// server's resolver answers for internal names.
func (p Policy) checkResolved(host string, addrs []netip.Addr) error {
	for _, a := range addrs {
		if err := p.checkAddr(a); err != nil {
			if isIPLiteral(host) {
				return err
			}
			return fmt.Errorf("%w: %s resolves to an address that is not public", ErrTargetRefused, host)
		}
	}
	return nil
}

func isIPLiteral(host string) bool {
	_, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil
}

// Policy decides which webhook targets are allowed. Outside dev mode a URL
// must be https and every address its host resolves to must be public;
// the same check runs again when a delivery dials (DialContext), on the
// addresses resolved at that moment, and the connection goes to the
// checked address, so a DNS answer that changes between the checks
// (rebinding) cannot reach an internal host. Dev mode relaxes loopback
// only: loopback addresses are allowed, and plain http is accepted for a
// host whose addresses are all loopback; private, link-local (cloud
// metadata), CGNAT and every other blocked range stay refused. Allow
// (webhooks.allowTargets) opens the operator's own ranges in any mode,
// over plain http too for a host whose addresses are all in them; the
// link-local, metadata, unspecified and multicast ranges stay refused even
// if listed.
type Policy struct {
	// Dev allows loopback targets, over plain http too (dev mode with
	// webhooks.allowLoopbackHTTP).
	Dev bool
	// Allow are the ranges allowed although internal.
	Allow    []netip.Prefix
	Resolver Resolver
}

// allowed reports whether a (unmapped) is in an allowed range and in none
// of the ranges never allowed. A zoned address is never allowed.
func (p Policy) allowed(a netip.Addr) bool {
	if a.Zone() != "" {
		return false
	}
	for _, n := range config.NeverAllowedTargets {
		if n.Contains(a) {
			return false
		}
	}
	for _, pr := range p.Allow {
		if pr.Contains(a) {
			return true
		}
	}
	return false
}

// opaque reports whether the deliveries log must show every failed
// connection alike ("connection failed", no latency): when internal
// addresses can be reached (dev mode's loopback, or listed ranges), a text
// or a latency that told a closed port from a filtered one or from a
// service that does not speak HTTP would make the log a port scanner of
// those addresses.
func (p Policy) opaque() bool { return p.Dev || len(p.Allow) > 0 }

// plainHTTP reports whether plain http may reach every one of addrs: all
// loopback in dev mode, or all in the allowed ranges.
func (p Policy) plainHTTP(addrs []netip.Addr) bool {
	for _, a := range addrs {
		a = a.Unmap()
		if !(p.Dev && a.IsLoopback() && a.Zone() == "") && !p.allowed(a) {
			return false
		}
	}
	return true
}

func (p Policy) resolver() Resolver {
	if p.Resolver != nil {
		return p.Resolver
	}
	return net.DefaultResolver
}

// CheckURL validates raw as a webhook target at creation time and returns
// it parsed.
func (p Policy) CheckURL(ctx context.Context, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return nil, fmt.Errorf("%w: url must be absolute, like https://example.com/hook", ErrTargetRefused)
	}
	if u.User != nil || u.Fragment != "" {
		return nil, fmt.Errorf("%w: url must not carry credentials or a fragment", ErrTargetRefused)
	}
	if len(raw) > 2048 {
		return nil, fmt.Errorf("%w: url longer than 2048 characters", ErrTargetRefused)
	}
	addrs, err := p.lookup(ctx, u.Hostname())
	if err != nil {
		return nil, err
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !p.Dev && len(p.Allow) == 0 {
			return nil, fmt.Errorf("%w: url must be https", ErrTargetRefused)
		}
		if !p.plainHTTP(addrs) {
			return nil, fmt.Errorf("%w: plain http is allowed only for loopback hosts in dev mode and for the addresses of webhooks.allowTargets", ErrTargetRefused)
		}
	default:
		return nil, fmt.Errorf("%w: url must be https", ErrTargetRefused)
	}
	if err := p.checkResolved(u.Hostname(), addrs); err != nil {
		return nil, err
	}
	return u, nil
}

// lookup resolves host (an IP literal resolves to itself).
func (p Policy) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return []netip.Addr{a}, nil
	}
	addrs, err := p.resolver().LookupNetIP(ctx, "ip", host)
	if err != nil {
		// The resolver's own text names the server's DNS server
		// ("lookup x on 10.0.0.2:53: ..."): only its kind is given.
		why := "lookup failed"
		var de *net.DNSError
		if errors.As(err, &de) && de.IsNotFound {
			why = "no such host"
		} else if errors.As(err, &de) && de.IsTimeout {
			why = "DNS timeout"
		}
		return nil, fmt.Errorf("%w: cannot resolve %s (%s)", ErrTargetRefused, host, why)
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%w: %s has no addresses", ErrTargetRefused, host)
	}
	return addrs, nil
}

// DialContext returns a dial function for an http.Transport that resolves
// the host itself, checks every address (dev mode lets loopback through,
// Allow its ranges) and dials a checked address.
func (p Policy) DialContext(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		addrs, err := p.lookup(ctx, host)
		if err != nil {
			return nil, err
		}
		if err := p.checkResolved(host, addrs); err != nil {
			return nil, err
		}
		var last error
		for _, a := range addrs {
			c, err := d.DialContext(ctx, network, net.JoinHostPort(a.Unmap().String(), port))
			if err == nil {
				return c, nil
			}
			last = err
		}
		return nil, last
	}
}
