package http_test

import (
	"strings"
	"testing"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
	apihttp "github.com/orderengine/orderengine/http"
)

// TestPagesServed: the dashboard, the reference and their assets are served
// keyless with their media type, the strict CSP and the other security
// headers, counted in the address bucket; a matching ETag is answered 304
// without a body; other methods, HEAD included, are 405 and an unknown
// asset 404, as the JSON error object.
func TestPagesServed(t *testing.T) {
	ts := apptest.NewTestServer(t)
	for _, c := range []struct{ path, ctype, contains string }{
		{"/", "text/html; charset=utf-8", `src="/assets/dashboard/main.js"`},
		{"/docs", "text/html; charset=utf-8", `src="/assets/docs/main.js"`},
		{"/assets/docs/main.js", "text/javascript; charset=utf-8", "/v1/openapi.json"},
		{"/assets/base.css", "text/css; charset=utf-8", "prefers-color-scheme: dark"},
		{"/assets/icon.svg", "image/svg+xml", "<svg"},
	} {
		r := ts.Raw(ts.URL, "GET", c.path, nil, nil)
		if r.Status != 200 || r.Header.Get("Content-Type") != c.ctype || !strings.Contains(string(r.Body), c.contains) {
			t.Errorf("GET %s: %d %q, body has %q: %v", c.path, r.Status, r.Header.Get("Content-Type"), c.contains, strings.Contains(string(r.Body), c.contains))
			continue
		}
		for name, want := range map[string]string{
			"Content-Security-Policy": apihttp.PagesCSP, "X-Content-Type-Options": "nosniff",
			"Referrer-Policy": "same-origin", "X-Frame-Options": "DENY", "Cache-Control": "no-cache",
			"RateLimit-Policy": `"address";q=600;w=60`,
		} {
			if got := r.Header.Get(name); got != want {
				t.Errorf("GET %s: %s %q, want %q", c.path, name, got, want)
			}
		}
		etag := r.Header.Get("ETag")
		if len(etag) < 10 || etag[0] != '"' {
			t.Errorf("GET %s: ETag %q", c.path, etag)
		}
		again := ts.Raw(ts.URL, "GET", c.path, nil, map[string]string{"If-None-Match": `W/"other", ` + etag})
		if again.Status != 304 || len(again.Body) != 0 || again.Header.Get("ETag") != etag {
			t.Errorf("GET %s with If-None-Match %s: %d, %d bytes", c.path, etag, again.Status, len(again.Body))
		}
		if stale := ts.Raw(ts.URL, "GET", c.path, nil, map[string]string{"If-None-Match": `"stale"`}); stale.Status != 200 {
			t.Errorf("GET %s with a stale ETag: %d, want 200", c.path, stale.Status)
		}
	}
	if !strings.Contains(apihttp.PagesCSP, "script-src 'self';") || strings.Contains(apihttp.PagesCSP, "unsafe") {
		t.Errorf("the pages' CSP allows more than the engine's own scripts: %s", apihttp.PagesCSP)
	}
	for _, m := range []string{"POST", "HEAD", "DELETE"} {
		r := ts.Raw(ts.URL, m, "/docs", nil, nil)
		if r.Status != 405 {
			t.Errorf("%s /docs: %d, want 405", m, r.Status)
		}
	}
	r := ts.Raw(ts.URL, "GET", "/assets/nope.js", nil, nil)
	if r.Status != 404 || r.Code() != string(orderengine.CodeNotFound) {
		t.Errorf("GET /assets/nope.js: %d %s, want 404 NOT_FOUND", r.Status, r.Body)
	}
	if r := ts.Raw(ts.URL, "GET", "/docs/", nil, nil); r.Status != 404 {
		t.Errorf("GET /docs/: %d, want 404 (strict routing)", r.Status)
	}
}
