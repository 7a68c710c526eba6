package config

import (
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
