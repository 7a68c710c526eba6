package config

import (
	"net/netip"
	"slices"
	"strings"
	"testing"
)

// TestPublicURL checks the base URL the OpenAPI document serves: the
// setting when given (without a trailing slash), else derived from
// http.listen, and that a URL clients could not use is refused at load.
func TestPublicURL(t *testing.T) {
	for _, c := range []struct{ listen, public, want string }{
		{"127.0.0.1:8080", "", "http://127.0.0.1:8080"},
		{"0.0.0.0:9000", "", "http://127.0.0.1:9000"},
		{":9000", "", "http://127.0.0.1:9000"},
		{"[::]:9000", "", "http://127.0.0.1:9000"},
		{"[::1]:9000", "", "http://[::1]:9000"},
		{"api.internal:80", "", "http://api.internal:80"},
		{"0.0.0.0:8080", "https://api.example.org/", "https://api.example.org"},
		{"0.0.0.0:8080", "https://example.org/engine", "https://example.org/engine"},
	} {
		h := defaultHTTP()
		h.Listen, h.PublicURL = c.listen, c.public
		if err := h.validate(); err != nil {
			t.Errorf("listen %q publicURL %q: %v", c.listen, c.public, err)
		}
		if got := h.BaseURL(); got != c.want {
			t.Errorf("listen %q publicURL %q: BaseURL %q, want %q", c.listen, c.public, got, c.want)
		}
	}
	for _, bad := range []string{"api.example.org", "/v1", "ftp://api.example.org", "https://", "https://api.example.org/?x=1",
		"https://api.example.org/#top", "https://user:pw@api.example.org", "https://bad host/"} {
		h := defaultHTTP()
		h.PublicURL = bad
		err := h.validate()
		if err == nil || !strings.Contains(err.Error(), "http.publicURL") {
			t.Errorf("publicURL %q: got %v, want an error naming http.publicURL", bad, err)
		}
	}
}

// TestTrustedProxiesValidated: http.trustedProxies takes CIDRs and single
// addresses (IPv4-mapped ones as IPv4); anything else, and a client
// address header other than the two read, is refused naming the entry.
func TestTrustedProxiesValidated(t *testing.T) {
	h := Default().HTTP
	h.TrustedProxies = []string{"10.0.0.0/8", "192.0.2.1", "::ffff:10.1.0.0/112", "2001:db8::/32", "10.1.2.3/8"}
	got, err := h.TrustedProxyPrefixes()
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.1/32"),
		netip.MustParsePrefix("10.1.0.0/16"), netip.MustParsePrefix("2001:db8::/32"), netip.MustParsePrefix("10.0.0.0/8")}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("prefixes %v %v, want %v", got, err, want)
	}
	cfg := Default()
	cfg.HTTP.TrustedProxies = []string{"10.0.0.0/8", "proxy.internal", "10.0.0.0/33", "fe80::1%eth0"}
	cfg.HTTP.ClientAddressHeader = "X-Real-IP"
	err = cfg.Validate()
	for _, want := range []string{`http.trustedProxies[1]: "proxy.internal"`, `http.trustedProxies[2]: "10.0.0.0/33"`,
		`http.trustedProxies[3]: "fe80::1%eth0"`, `http.clientAddressHeader must be "X-Forwarded-For" or "Forwarded", got "X-Real-IP"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("validation %v does not say %s", err, want)
		}
	}
	if err != nil && strings.Contains(err.Error(), "trustedProxies[0]") {
		t.Errorf("a valid entry refused: %v", err)
	}
	if d := Default().HTTP; len(d.TrustedProxies) != 0 || !d.MetricsOnAdmin || d.ClientAddressHeader != HeaderXForwardedFor {
		t.Errorf("defaults %+v", d)
	}
}
