package http_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/config"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/limiter"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/internal/syncbuf"
)

// addressCount is how many keyless requests the limiter counted for
// subject in the current window (0 when it has no state).
func addressCount(t *testing.T, ts *apptest.Server, subject string) int64 {
	t.Helper()
	u, ok, err := ts.System.Limiter.Usage(t.Context(), subject)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		return 0
	}
	return u.Counts[limiter.Read]
}

func trustProxies(header string, cidrs ...string) apptest.Option {
	return apptest.WithConfig(func(c *config.Config) {
		c.HTTP.TrustedProxies = cidrs
		c.HTTP.ClientAddressHeader = header
	})
}

// TestTrustedProxyClientAddress: behind a trusted proxy (the test client
// on loopback) a keyless request counts against the address the proxies
// reported, the right-most one that is not a trusted proxy's, and the
// access log shows it.
func TestTrustedProxyClientAddress(t *testing.T) {
	var logs syncbuf.Buffer
	ts := apptest.NewTestServer(t, trustProxies(config.HeaderXForwardedFor, "127.0.0.0/8", "10.0.0.0/8"),
		apptest.WithLogger(debugLogger(&logs)))
	for _, c := range []struct {
		name, headers, subject string
	}{
		{"one hop", "X-Forwarded-For: 203.0.113.7\r\n", "ip:203.0.113.7"},
		{"a spoofed hop left of the client", "X-Forwarded-For: 198.51.100.1, 203.0.113.8, 10.0.0.5\r\n", "ip:203.0.113.8"},
		{"a line per proxy", "X-Forwarded-For: 198.51.100.1\r\nX-Forwarded-For: 203.0.113.9\r\n", "ip:203.0.113.9"},
		{"a port and brackets", "X-Forwarded-For: [2001:db8:1:2::17]:4711\r\n", "ip:2001:db8:1:2::/64"},
		{"only trusted hops", "X-Forwarded-For: 10.0.0.9, 10.0.0.5\r\n", "ip:10.0.0.9"},
		{"a hop that is no address", "X-Forwarded-For: 198.51.100.1, unknown, 10.0.0.6\r\n", "ip:10.0.0.6"},
		{"no header", "", "ip:127.0.0.1"},
		{"Forwarded is not read", "Forwarded: for=198.51.100.2\r\n", "ip:127.0.0.1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := addressCount(t, ts, c.subject)
			resp, body := rawExchange(t, hostOf(ts.URL), "GET /v1/errors HTTP/1.1\r\nHost: x\r\n"+c.headers+"\r\n")
			if resp.StatusCode != 200 {
				t.Fatalf("%d %s", resp.StatusCode, body)
			}
			if after := addressCount(t, ts, c.subject); after != before+1 {
				t.Fatalf("%s counted %d then %d", c.subject, before, after)
			}
			if ip := strings.TrimPrefix(c.subject, "ip:"); !strings.Contains(ip, "/") && !strings.Contains(logs.String(), "ip="+ip) {
				t.Errorf("the access log does not show ip=%s", ip)
			}
		})
	}
	for _, spoofed := range []string{"ip:198.51.100.1", "ip:198.51.100.2"} {
		if n := addressCount(t, ts, spoofed); n != 0 {
			t.Errorf("%s, written by the client, counted %d requests", spoofed, n)
		}
	}
}

// TestForwardedHeader: with http.clientAddressHeader Forwarded the for=
// parameters are read (quoted, bracketed, with a port) and X-Forwarded-For
// is ignored.
func TestForwardedHeader(t *testing.T) {
	ts := apptest.NewTestServer(t, trustProxies(config.HeaderForwarded, "127.0.0.1"))
	for _, c := range []struct{ headers, subject string }{
		{"Forwarded: for=203.0.113.7;proto=https\r\n", "ip:203.0.113.7"},
		{"Forwarded: for=198.51.100.1, For=\"[2001:db8:cafe::17]:4711\";by=10.0.0.1\r\n", "ip:2001:db8:cafe::/64"},
		{"Forwarded: for=\"203.0.113.8:80\"\r\nX-Forwarded-For: 198.51.100.3\r\n", "ip:203.0.113.8"},
		{"Forwarded: for=_hidden\r\n", "ip:127.0.0.1"},
		{"X-Forwarded-For: 198.51.100.4\r\n", "ip:127.0.0.1"},
	} {
		before := addressCount(t, ts, c.subject)
		if resp, body := rawExchange(t, hostOf(ts.URL), "GET /v1/errors HTTP/1.1\r\nHost: x\r\n"+c.headers+"\r\n"); resp.StatusCode != 200 {
			t.Fatalf("%q: %d %s", c.headers, resp.StatusCode, body)
		}
		if after := addressCount(t, ts, c.subject); after != before+1 {
			t.Errorf("%q: %s counted %d then %d", c.headers, c.subject, before, after)
		}
	}
}

// TestUntrustedPeerHeadersIgnored: a peer outside http.trustedProxies
// cannot choose its address, and by default no peer is trusted; clients
// reported by a trusted proxy each have their own budget.
func TestUntrustedPeerHeadersIgnored(t *testing.T) {
	small := apptest.WithConfig(func(c *config.Config) { c.Limits.Free.Read = 3 })
	for name, opts := range map[string][]apptest.Option{
		"default":       {small},
		"other proxies": {small, trustProxies(config.HeaderXForwardedFor, "10.0.0.0/8", "::1/128")},
	} {
		t.Run(name, func(t *testing.T) {
			ts := apptest.NewTestServer(t, opts...)
			// The harness fetched the OpenAPI document from this address.
			for i := addressCount(t, ts, "ip:127.0.0.1"); i < 3; i++ {
				r := ts.Do("GET", "/v1/errors", nil, map[string]string{"X-Forwarded-For": "203.0.113." + strconv.FormatInt(i+1, 10)})
				if r.Status != 200 {
					t.Fatalf("request %d: %d", i, r.Status)
				}
			}
			checkCode(t, ts.Do("GET", "/v1/errors", nil, map[string]string{"X-Forwarded-For": "203.0.113.99"}), 429, orderengine.CodeRateLimited)
			for _, spoofed := range []string{"ip:203.0.113.1", "ip:203.0.113.2", "ip:203.0.113.3", "ip:203.0.113.99"} {
				if n := addressCount(t, ts, spoofed); n != 0 {
					t.Errorf("%s, named by an untrusted peer, counted %d", spoofed, n)
				}
			}
		})
	}
	ts := apptest.NewTestServer(t, small, trustProxies(config.HeaderXForwardedFor, "127.0.0.0/8"))
	a := map[string]string{"X-Forwarded-For": "203.0.113.1"}
	for range 3 {
		ts.Do("GET", "/v1/errors", nil, a)
	}
	checkCode(t, ts.Do("GET", "/v1/errors", nil, a), 429, orderengine.CodeRateLimited)
	if r := ts.Do("GET", "/v1/errors", nil, map[string]string{"X-Forwarded-For": "203.0.113.2"}); r.Status != 200 || header(t, r, "X-RateLimit-Remaining") != 2 {
		t.Fatalf("another client behind the proxy: %d remaining %s", r.Status, r.Header.Get("X-RateLimit-Remaining"))
	}
}

// TestProbesAreNeverRateLimited: /healthz and /readyz answer 200 however
// often they are called, carry no rate-limit headers and spend nothing of
// the client address's budget, also once that budget is spent.
func TestProbesAreNeverRateLimited(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) { c.Limits.Free.Read = 3 }))
	before := addressCount(t, ts, "ip:127.0.0.1") // the harness's fetch of the OpenAPI document
	for range 10 {
		for _, p := range []string{"/healthz", "/readyz"} {
			r := ts.Do("GET", p, nil, nil)
			if r.Status != 200 {
				t.Fatalf("%s: %d %s", p, r.Status, r.Body)
			}
			noLimitHeaders(t, p, r)
		}
	}
	if after := addressCount(t, ts, "ip:127.0.0.1"); after != before {
		t.Fatalf("the probes spent the address budget: %d counted, then %d", before, after)
	}
	for i := before; i < 3; i++ {
		ts.Do("GET", "/v1/errors", nil, nil)
	}
	checkCode(t, ts.Do("GET", "/v1/errors", nil, nil), 429, orderengine.CodeRateLimited)
	for _, p := range []string{"/healthz", "/readyz"} {
		if r := ts.Do("GET", p, nil, nil); r.Status != 200 {
			t.Fatalf("%s with the address budget spent: %d %s", p, r.Status, r.Body)
		}
	}
}

// TestMetricsListener: by default /metrics is served on the admin listener
// without the admin token (every other admin route still needs it) and
// not on the public one; http.metricsOnAdmin false serves it publicly,
// keyless and limited per address, and not on the admin listener.
func TestMetricsListener(t *testing.T) {
	ts := apptest.NewTestServer(t)
	ts.Do("GET", "/v1/errors", nil, nil)
	if r := ts.Raw(ts.URL, "GET", "/metrics", nil, nil); r.Status != 404 {
		t.Fatalf("public /metrics by default: %d", r.Status)
	}
	r := ts.Raw(ts.AdminURL, "GET", "/metrics", nil, nil)
	if r.Status != 200 || !bytes.Contains(r.Body, []byte(`orderengine_http_requests_total{method="GET",route="/v1/errors",status="200"}`)) ||
		!bytes.Contains(r.Body, []byte("orderengine_http_request_duration_seconds_bucket")) {
		t.Fatalf("admin /metrics without a token: %d\n%s", r.Status, r.Body)
	}
	if r := ts.Raw(ts.AdminURL, "GET", "/admin/v1/accounts", nil, nil); r.Status != 401 {
		t.Fatalf("admin route without the token: %d", r.Status)
	}
	if r := ts.Raw(ts.AdminURL, "POST", "/metrics", nil, nil); r.Status != 401 {
		t.Fatalf("POST /metrics on the admin listener without the token: %d", r.Status)
	}
	if r := ts.Do("GET", "/v1/openapi.json", nil, nil); bytes.Contains(r.Body, []byte(`"/metrics"`)) {
		t.Fatal("the public document describes /metrics, which the public listener does not serve")
	}

	pub := apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) { c.HTTP.MetricsOnAdmin = false }))
	r = pub.Do("GET", "/metrics", nil, nil)
	if r.Status != 200 || !bytes.Contains(r.Body, []byte("orderengine_http_requests_total")) {
		t.Fatalf("public /metrics with metricsOnAdmin false: %d", r.Status)
	}
	limitHeaders(t, "public /metrics", r, pub.Config.Limits.Free.Read)
	if got := rateLimitBucket(r); got != "address" {
		t.Fatalf("public /metrics counts in %q", got)
	}
	if r := pub.Raw(pub.AdminURL, "GET", "/metrics", nil, map[string]string{"Authorization": "Bearer " + pub.AdminToken}); r.Status != 404 {
		t.Fatalf("admin /metrics with metricsOnAdmin false: %d", r.Status)
	}
	if r := pub.Do("GET", "/v1/openapi.json", nil, nil); !bytes.Contains(r.Body, []byte(`"/metrics"`)) {
		t.Fatal("the public document does not describe the public /metrics")
	}
}

// TestRateLimitFields: every keyed answer names its bucket in RateLimit and
// RateLimit-Policy with the tier's quota and the window, keyless answers
// the address bucket, and a 429 carries r=0 and a Retry-After no earlier
// than t.
func TestRateLimitFields(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithConfig(smallLimits))
	for bucket, bp := range bucketPaths {
		r := ts.Do(bp.method, bp.path, bp.body, keyHeader(ts.APIKey))
		limitHeaders(t, bucket, r, 0)
		q := map[string]int{"quote": 4, "read": 6, "order": 3}[bucket]
		if got, want := r.Header.Get("RateLimit-Policy"), `"`+bucket+`";q=`+strconv.Itoa(q)+";w=60"; got != want {
			t.Errorf("%s: RateLimit-Policy %q, want %q", bucket, got, want)
		}
		if got, want := r.Header.Get("RateLimit"), `"`+bucket+`";r=`+strconv.Itoa(q-1)+";t="; !strings.HasPrefix(got, want) {
			t.Errorf("%s: RateLimit %q, want %q…", bucket, got, want)
		}
	}
	r := ts.Do("GET", "/v1/config", nil, nil)
	limitHeaders(t, "keyless", r, 6)
	if got := rateLimitBucket(r); got != "address" {
		t.Errorf("keyless answer names bucket %q", got)
	}
	for range 5 { // the read bucket (6) counted one above
		ts.Do("GET", "/v1/stats", nil, keyHeader(ts.APIKey))
	}
	r = ts.Do("GET", "/v1/stats", nil, keyHeader(ts.APIKey))
	checkCode(t, r, 429, orderengine.CodeRateLimited)
	limitHeaders(t, "429", r, 6)
	_, tail, _ := strings.Cut(r.Header.Get("RateLimit"), ";t=")
	if !strings.HasPrefix(r.Header.Get("RateLimit"), `"read";r=0;t=`) || header(t, r, "Retry-After") < atoi(t, tail) {
		t.Errorf("429: RateLimit %q, Retry-After %s", r.Header.Get("RateLimit"), r.Header.Get("Retry-After"))
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q is not an integer", s)
	}
	return n
}
