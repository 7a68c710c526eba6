package http

import (
	"bytes"
	"net"
	"net/netip"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"
	"github.com/valyala/fasthttp"

	"github.com/orderengine/orderengine/config"
)

// proxies decides the client address of a request behind trusted reverse
// proxies (http.trustedProxies, http.clientAddressHeader).
type proxies struct {
	trusted []netip.Prefix
	// forwarded: read Forwarded (RFC 7239) instead of X-Forwarded-For.
	forwarded bool
}

func newProxies(cfg config.HTTPConfig) (proxies, error) {
	trusted, err := cfg.TrustedProxyPrefixes()
	return proxies{trusted: trusted, forwarded: cfg.ClientAddressHeader == config.HeaderForwarded}, err
}

func (p *proxies) trusts(a netip.Addr) bool {
	for _, t := range p.trusted {
		if t.Contains(a) {
			return true
		}
	}
	return false
}

// clientAddr returns the address of the client of c: the TCP peer, unless
// the peer is a trusted proxy. Then it is the right-most address of the
// configured header that is not a trusted proxy's (each proxy appends the
// address it received the request from, so everything left of the first
// untrusted hop was written by someone the engine does not trust); when
// every listed hop is trusted, the left-most one. A hop that is not an
// address ("unknown", an obfuscated identifier, garbage) ends the walk:
// the client is then the trusted hop that reported it. Without the header
// the peer itself is the client. Nothing is allocated.
func (s *Server) clientAddr(c *fiber.Ctx) netip.Addr {
	peer := peerAddr(c.Context())
	if len(s.proxies.trusted) == 0 || !s.proxies.trusts(peer) {
		return peer
	}
	name := headerXForwardedFor
	if s.proxies.forwarded {
		name = headerForwarded
	}
	client := peer
	// The header lines as received (trailers excluded), last to first:
	// proxies that add a line of their own instead of appending to the
	// existing one put the nearest hop last.
	raw := c.Request().Header.RawHeaders()
	for end := len(raw); end > 0; {
		start := bytes.LastIndexByte(raw[:end-1], '\n') + 1
		line := bytes.TrimRight(raw[start:end], "\r\n")
		end = start
		colon := bytes.IndexByte(line, ':')
		if colon < 0 || !bytes.EqualFold(line[:colon], name) {
			continue
		}
		var done bool
		if client, done = s.walkHops(line[colon+1:], client); done {
			return client
		}
	}
	return client
}

// walkHops walks the hops of one header value right to left from client
// (the nearest trusted hop so far) and returns the client address, and
// whether the walk ended in this value.
func (s *Server) walkHops(v []byte, client netip.Addr) (netip.Addr, bool) {
	if bytes.IndexByte(v, '\\') >= 0 || bytes.Count(v, []byte{'"'})%2 != 0 {
		return client, true // an address never needs an escape, and a quote left open is not a list
	}
	for len(v) > 0 {
		i := lastListComma(v)
		hop := v[i+1:]
		if i < 0 {
			v = nil
		} else {
			v = v[:i]
		}
		if len(bytes.TrimSpace(hop)) == 0 {
			continue // empty list elements are allowed (RFC 9110 section 5.6.1)
		}
		if s.proxies.forwarded {
			hop = forwardedFor(hop)
		}
		a, ok := parseHop(hop)
		if !ok {
			return client, true
		}
		client = a
		if !s.proxies.trusts(a) {
			return client, true
		}
	}
	return client, false
}

// lastListComma returns the index of the last comma of v outside a quoted
// string (v holds balanced quotes and no escapes), or -1.
func lastListComma(v []byte) int {
	quoted := false
	for i := len(v) - 1; i >= 0; i-- {
		switch v[i] {
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				return i
			}
		}
	}
	return -1
}

// forwardedFor returns the value of the for= parameter of one Forwarded
// element (RFC 7239 section 4), quotes included, or nil.
func forwardedFor(elem []byte) []byte {
	for len(elem) > 0 {
		pair := elem
		if i := bytes.IndexByte(elem, ';'); i >= 0 {
			pair, elem = elem[:i], elem[i+1:]
		} else {
			elem = nil
		}
		name, value, ok := bytes.Cut(bytes.TrimSpace(pair), []byte("="))
		if ok && bytes.EqualFold(name, []byte("for")) {
			return value
		}
	}
	return nil
}

// parseHop reads one hop: an IPv4 or IPv6 address, optionally quoted,
// bracketed (IPv6) or with a port, as proxies write them
// (203.0.113.7, 203.0.113.7:4711, 2001:db8::1, "[2001:db8::1]:4711").
// A zone, "unknown" or an obfuscated identifier is not an address.
func parseHop(b []byte) (netip.Addr, bool) {
	b = bytes.TrimSpace(b)
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		b = b[1 : len(b)-1]
	}
	if len(b) == 0 || bytes.IndexByte(b, '%') >= 0 {
		return netip.Addr{}, false
	}
	// The strings do not outlive the call: a zone, the only part
	// netip keeps, was refused above.
	s := utils.UnsafeString(b)
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if b[0] == '[' && b[len(b)-1] == ']' {
		if a, err := netip.ParseAddr(s[1 : len(s)-1]); err == nil && a.Is6() {
			return a.Unmap(), true
		}
		return netip.Addr{}, false
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}

// peerAddr is the TCP peer of a request, IPv4-mapped addresses as IPv4.
func peerAddr(ctx *fasthttp.RequestCtx) netip.Addr {
	if tcp, ok := ctx.RemoteAddr().(*net.TCPAddr); ok {
		if a, ok := netip.AddrFromSlice(tcp.IP); ok {
			return a.Unmap()
		}
	}
	return netip.IPv4Unspecified()
}

var (
	headerXForwardedFor = []byte(config.HeaderXForwardedFor)
	headerForwarded     = []byte(config.HeaderForwarded)
)
