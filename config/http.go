package config

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// HTTPConfig configures the public and admin listeners.
type HTTPConfig struct {
	// Listen is the public API address. Default 127.0.0.1:8080.
	Listen string `json:"listen"`
	// PublicURL is the base URL clients reach the public API at, served as
	// the OpenAPI document's servers entry: behind a proxy or load
	// balancer, its https URL (https://api.example.org). Empty derives it
	// from Listen: http://<host>:<port>, 127.0.0.1 for an unspecified host
	// (the default serves http://127.0.0.1:8080).
	PublicURL string `json:"publicURL"`
	// AdminListen is the admin API address; it must be a loopback address.
	// Default 127.0.0.1:8081.
	AdminListen string `json:"adminListen"`
	// AdminToken guards the admin API. Empty means a random token is
	// generated at start and written to <DataDir>/admin.token (mode 0600).
	AdminToken string `json:"adminToken"`
	// BodyLimit is the largest accepted request body. Default 64 KiB.
	BodyLimit int `json:"bodyLimit"`
	// ReadTimeout, WriteTimeout and IdleTimeout bound each connection.
	ReadTimeout  time.Duration `json:"readTimeout"`
	WriteTimeout time.Duration `json:"writeTimeout"`
	IdleTimeout  time.Duration `json:"idleTimeout"`
	// ShutdownTimeout bounds the drain of in-flight requests on SIGTERM.
	ShutdownTimeout time.Duration `json:"shutdownTimeout"`
	// ShutdownDelay is how long serve keeps its listeners open after
	// SIGTERM, answering GET /readyz 503 so that a load balancer takes the
	// instance out of rotation before the drain starts. Default 0.
	ShutdownDelay time.Duration `json:"shutdownDelay"`
	// TrustedProxies are the reverse proxies and load balancers in front of
	// the public listener, as CIDRs ("10.0.0.0/8") or single addresses.
	// When the TCP peer of a request is inside one, the client address of
	// the keyless per-address limits and of the access log is the one the
	// proxies reported in ClientAddressHeader: the right-most address not
	// inside a trusted CIDR. From any other peer that header is ignored.
	// Default empty: the TCP peer is the client.
	TrustedProxies []string `json:"trustedProxies"`
	// ClientAddressHeader is the header the trusted proxies write the
	// client address to: "X-Forwarded-For" (default; each proxy appends the
	// address it received the request from) or "Forwarded" (RFC 7239, its
	// for= parameters). Only this one is read: a proxy passes on the other
	// as the client sent it, so reading it too would let a client choose
	// its own address.
	ClientAddressHeader string `json:"clientAddressHeader"`
	// MetricsOnAdmin serves GET /metrics on the admin listener (loopback
	// only, without the admin token) instead of the public one. Default
	// true: a public /metrics shows anyone the traffic per route and error
	// code and makes the store count the webhook backlog at each request.
	MetricsOnAdmin bool `json:"metricsOnAdmin"`
}

// The values of HTTPConfig.ClientAddressHeader.
const (
	HeaderXForwardedFor = "X-Forwarded-For"
	HeaderForwarded     = "Forwarded"
)

func defaultHTTP() HTTPConfig {
	return HTTPConfig{
		Listen:              "127.0.0.1:8080",
		AdminListen:         "127.0.0.1:8081",
		BodyLimit:           64 << 10,
		ReadTimeout:         10 * time.Second,
		WriteTimeout:        30 * time.Second,
		IdleTimeout:         60 * time.Second,
		ShutdownTimeout:     15 * time.Second,
		TrustedProxies:      []string{},
		ClientAddressHeader: HeaderXForwardedFor,
		MetricsOnAdmin:      true,
	}
}

func (h HTTPConfig) validate() error {
	var errs []error
	if err := checkHostPort(h.Listen); err != nil {
		errs = append(errs, fmt.Errorf("http.listen: %w", err))
	}
	if err := checkPublicURL(h.PublicURL); err != nil {
		errs = append(errs, fmt.Errorf("http.publicURL: %w", err))
	}
	if err := CheckLoopback(h.AdminListen); err != nil {
		errs = append(errs, fmt.Errorf("http.adminListen: %w", err))
	}
	if h.BodyLimit <= 0 {
		errs = append(errs, fmt.Errorf("http.bodyLimit must be positive, got %d", h.BodyLimit))
	}
	for _, t := range []namedDuration{{"http.readTimeout", h.ReadTimeout}, {"http.writeTimeout", h.WriteTimeout},
		{"http.idleTimeout", h.IdleTimeout}, {"http.shutdownTimeout", h.ShutdownTimeout}} {
		if t.d <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive, got %s", t.path, t.d))
		}
	}
	if h.ShutdownDelay < 0 {
		errs = append(errs, fmt.Errorf("http.shutdownDelay must not be negative, got %s", h.ShutdownDelay))
	}
	if _, err := h.TrustedProxyPrefixes(); err != nil {
		errs = append(errs, err)
	}
	if h.ClientAddressHeader != HeaderXForwardedFor && h.ClientAddressHeader != HeaderForwarded {
		errs = append(errs, fmt.Errorf("http.clientAddressHeader must be %q or %q, got %q", HeaderXForwardedFor, HeaderForwarded, h.ClientAddressHeader))
	}
	return errors.Join(errs...)
}

// BaseURL is PublicURL without a trailing slash, or the URL derived from
// Listen when PublicURL is empty.
func (h HTTPConfig) BaseURL() string {
	if h.PublicURL != "" {
		return strings.TrimRight(h.PublicURL, "/")
	}
	host, port, err := net.SplitHostPort(h.Listen)
	if err != nil {
		return "http://127.0.0.1:8080"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// checkPublicURL returns an error unless u is empty or an absolute
// http(s) URL with a host and no query, fragment or user information.
func checkPublicURL(u string) error {
	if u == "" {
		return nil
	}
	p, err := url.Parse(u)
	if err != nil {
		return fmt.Errorf("%q is not a URL: %w", u, err)
	}
	if (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || p.RawQuery != "" || p.Fragment != "" || p.User != nil {
		return fmt.Errorf("%q must be an http:// or https:// URL with a host and no query, fragment or user information", u)
	}
	return nil
}

// TrustedProxyPrefixes parses TrustedProxies: a CIDR as its network, a
// single address as a prefix of its full length, IPv4-mapped IPv6
// addresses as IPv4. Every entry that parses as neither is reported.
func (h HTTPConfig) TrustedProxyPrefixes() ([]netip.Prefix, error) {
	var out []netip.Prefix
	var errs []error
	for i, s := range h.TrustedProxies {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil || a.Zone() != "" {
				errs = append(errs, fmt.Errorf("http.trustedProxies[%d]: %q is neither a CIDR nor an IP address", i, s))
				continue
			}
			a = a.Unmap()
			p = netip.PrefixFrom(a, a.BitLen())
		} else if p.Addr().Is4In6() && p.Bits() >= 96 {
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		out = append(out, p.Masked())
	}
	return out, errors.Join(errs...)
}

// checkHostPort returns an error unless addr is host:port with a numeric
// port (the host may be empty: every interface).
func checkHostPort(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not host:port: %w", addr, err)
	}
	if n, err := strconv.ParseUint(port, 10, 16); err != nil || (n == 0 && port != "0") {
		return fmt.Errorf("%q: port %q is not a number from 0 to 65535", addr, port)
	}
	return nil
}

// CheckLoopback returns an error unless addr is host:port with a loopback
// host (127.0.0.0/8, ::1 or localhost). The admin API must never be exposed
// beyond the machine.
func CheckLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not host:port: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q is not a loopback address; the admin API listens on loopback only", addr)
	}
	return nil
}
