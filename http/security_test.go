package http_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	nethttp "net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/limiter"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/internal/syncbuf"
)

func debugLogger(b *syncbuf.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// rawExchange writes req as is on a new connection to addr (host:port) and
// reads one response. The deadline only keeps a broken server from hanging
// the test; nothing is asserted about time.
func rawExchange(t *testing.T, addr, req string) (*nethttp.Response, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	resp, err := nethttp.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no response to %q: %v", req[:min(len(req), 60)], err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp, body
}

func hostOf(url string) string { return strings.TrimPrefix(url, "http://") }

// checkRawError fails unless the raw answer is the JSON error object with
// status and code, and carries the request id.
func checkRawError(t *testing.T, resp *nethttp.Response, body []byte, status int, code orderengine.Code) {
	t.Helper()
	var e struct{ Error, Code, RequestID string }
	if err := json.Unmarshal(body, &e); err != nil || resp.StatusCode != status || e.Code != string(code) {
		t.Fatalf("got %d %s, want %d %s", resp.StatusCode, body, status, code)
	}
	if rid := resp.Header.Get("X-Request-ID"); rid == "" || rid != e.RequestID {
		t.Fatalf("request id header %q, body %q", rid, e.RequestID)
	}
}

// TestMalformedRequestDoesNotLogCredentials: fasthttp's error for a request
// it cannot parse quotes the raw header block. The rejection is logged, but
// never with the API key or the admin token the request carried, whether
// fasthttp refused the request (a malformed request line) or the
// engine's own framing checks did (a space in a field name).
func TestMalformedRequestDoesNotLogCredentials(t *testing.T) {
	var logs syncbuf.Buffer
	ts := apptest.NewTestServer(t, apptest.WithLogger(debugLogger(&logs)))
	for _, c := range []struct{ base, header string }{
		{ts.URL, "X-API-Key: " + ts.APIKey},
		{ts.URL, "Authorization: Bearer " + ts.APIKey},
		{ts.AdminURL, "Authorization: Bearer " + ts.AdminToken},
	} {
		for _, req := range []string{
			"GET /v1/stats HTTP/1.1\r\nHost: x\r\n" + c.header + "\r\nBad Header: x\r\n\r\n",
			"GET /v1/stats HTTP/1.1 x\r\nHost: x\r\n" + c.header + "\r\n\r\n",
		} {
			resp, body := rawExchange(t, hostOf(c.base), req)
			checkRawError(t, resp, body, 400, orderengine.CodeInvalidRequest)
		}
	}
	out := logs.String()
	if !strings.Contains(out, "request rejected") {
		t.Fatalf("the rejections were not logged:\n%s", out)
	}
	for name, secret := range map[string]string{"API key": ts.APIKey, "admin token": ts.AdminToken} {
		if strings.Contains(out, secret) {
			t.Errorf("the %s is in the log:\n%s", name, out)
		}
	}
}

// TestOversizedBodyRefusedBeforeItIsSent: a Content-Length over the body
// limit is answered 413 from the headers alone, on both listeners. fasthttp
// allocates the announced length before reading, so a limit above the
// configured one (it was 1 MiB) let a client that sends only headers make
// the server hold that much per connection until the read timeout.
func TestOversizedBodyRefusedBeforeItIsSent(t *testing.T) {
	ts := apptest.NewTestServer(t)
	over := strconv.Itoa(ts.Config.HTTP.BodyLimit + 1)
	for _, c := range []struct{ base, path, auth string }{
		{ts.URL, "/v1/orders", "X-API-Key: " + ts.APIKey},
		{ts.AdminURL, "/admin/v1/accounts", "Authorization: Bearer " + ts.AdminToken},
	} {
		// Headers only: the body is never sent, the answer must not wait
		// for it.
		resp, body := rawExchange(t, hostOf(c.base), "POST "+c.path+" HTTP/1.1\r\nHost: x\r\n"+c.auth+
			"\r\nContent-Type: application/json\r\nContent-Length: "+over+"\r\n\r\n{")
		checkRawError(t, resp, body, 413, orderengine.CodePayloadTooLarge)
		if want := "request body exceeds " + strconv.Itoa(ts.Config.HTTP.BodyLimit) + " bytes"; !strings.Contains(string(body), want) {
			t.Errorf("%s: message %s, want %q", c.path, body, want)
		}
	}
	// A body of exactly the limit is read and reaches the route.
	r := ts.Do("POST", "/v1/webhooks", bytes.Repeat([]byte(" "), ts.Config.HTTP.BodyLimit), keyHeader(ts.APIKey))
	checkCode(t, r, 400, orderengine.CodeInvalidRequest)
}

// TestOversizedHeadersNamed: a request line and headers over the read
// buffer are INVALID_REQUEST saying so, with the request id.
func TestOversizedHeadersNamed(t *testing.T) {
	ts := apptest.NewTestServer(t)
	long := strings.Repeat("a", 5000)
	for _, req := range []string{
		"GET /v1/orders/0x" + long + " HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /v1/stats HTTP/1.1\r\nHost: x\r\nX-Filler: " + long + "\r\n\r\n",
	} {
		resp, body := rawExchange(t, hostOf(ts.URL), req)
		checkRawError(t, resp, body, 400, orderengine.CodeInvalidRequest)
		if !strings.Contains(string(body), "request line and headers exceed 4096 bytes") {
			t.Errorf("message %s", body)
		}
	}
}

// TestUnknownMethodIsTheErrorObject: a method Fiber does not know is
// answered like any other refused method, on both listeners: the JSON
// error object with its request id (and the rate-limit headers on the
// public one), not Fiber's text/plain "Invalid http method".
func TestUnknownMethodIsTheErrorObject(t *testing.T) {
	ts := apptest.NewTestServer(t)
	for _, base := range []string{ts.URL, ts.AdminURL} {
		for _, m := range []string{"FOO", "get", "PROPFIND"} {
			resp, body := rawExchange(t, hostOf(base), m+" /v1/config HTTP/1.1\r\nHost: x\r\n\r\n")
			checkRawError(t, resp, body, 405, orderengine.CodeMethodNotAllowed)
			if base == ts.URL && resp.Header.Get("X-RateLimit-Limit") == "" {
				t.Errorf("%s: no rate-limit headers: %v", m, resp.Header)
			}
		}
	}
}

// TestIPv6ClientCountedPerPrefix drives the real server on [::1]: the
// keyless request counts in the /64 subject, not in the single address's.
func TestIPv6ClientCountedPerPrefix(t *testing.T) {
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Fatalf("IPv6 loopback unavailable: %v", err)
	}
	_ = ln.Close()
	ts := apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) { c.HTTP.Listen = "[::1]:0" }))
	if r := ts.Do("GET", "/v1/errors", nil, nil); r.Status != 200 {
		t.Fatalf("keyless request over IPv6: %d %s", r.Status, r.Body)
	}
	u, ok, err := ts.System.Limiter.Usage(t.Context(), "ip:::/64")
	if err != nil || !ok || u.Counts[limiter.Read] < 1 {
		t.Fatalf("usage of ip:::/64: %+v %v %v", u, ok, err)
	}
	if _, ok, _ := ts.System.Limiter.Usage(t.Context(), "ip:::1"); ok {
		t.Fatal("the single address ::1 has a limiter of its own")
	}
}

// TestRepeatedQueryParameterRefused: a single-valued query parameter sent
// twice is INVALID_REQUEST naming it, not silently read as its first value;
// exclude, a list, may be repeated.
func TestRepeatedQueryParameterRefused(t *testing.T) {
	ts := apptest.NewTestServer(t)
	for _, p := range []struct{ path, name string }{
		{"/v1/orders?limit=1&limit=500", "limit"},
		{"/v1/orders?wallet=0x1111111111111111111111111111111111111111&status=pending&wallet=0x2222222222222222222222222222222222222222", "wallet"},
		{"/v1/swaps?cursor=a&cursor=b", "cursor"},
		{"/v1/quote?tokenIn=0x1111111111111111111111111111111111111111&tokenOut=0x2222222222222222222222222222222222222222&amountIn=1&amountIn=2", "amountIn"},
	} {
		r := ts.Get(p.path)
		checkCode(t, r, 400, orderengine.CodeInvalidRequest)
		if want := "query parameter " + p.name + " is repeated"; !strings.Contains(string(r.Body), want) {
			t.Errorf("%s: %s, want %q", p.path, r.Body, want)
		}
	}
	// A repeated exclude reaches the (unimplemented) routing service.
	r := ts.Get("/v1/route?tokenIn=0x1111111111111111111111111111111111111111&tokenOut=0x2222222222222222222222222222222222222222&amountIn=1&exclude=cpmm&exclude=stableswap")
	checkCode(t, r, 501, orderengine.CodeNotImplemented)
}
