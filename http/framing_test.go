package http_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	nethttp "net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
)

// refuser is the check that refuses a shape: fasthttp's parser (answered
// with the generic message) or the engine's framingFault (naming the rule).
type refuser int

const (
	byFasthttp refuser = iota
	byEngine
)

// hidden is the request a smuggling attempt hides behind the first one: a
// server that reads the first request's framing differently from a proxy
// in front of it would answer it as a second request on the connection.
const hidden = "GET /v1/errors HTTP/1.1\r\nHost: x\r\n\r\n"

// framingShapes are requests whose framing or header syntax a proxy and
// this server could read differently (RFC 9112 sections 3.2, 5, 6.1, 6.3
// and 11.2). Each must be answered 400 and its connection closed.
var framingShapes = []struct {
	name string
	by   refuser
	req  string
}{
	{"content-length and transfer-encoding", byEngine,
		"POST /v1/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + hidden},
	{"transfer-encoding before content-length", byEngine,
		"POST /v1/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n" + hidden},
	{"content-length and transfer-encoding identity", byEngine,
		"POST /v1/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity\r\nContent-Length: 0\r\n\r\n" + hidden},
	{"two different content-lengths", byFasthttp,
		"POST /v1/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 37\r\n\r\n" + hidden},
	{"the same content-length twice", byFasthttp,
		"POST /v1/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n" + hidden},
	{"content-length list", byFasthttp,
		"POST /v1/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 0, 37\r\n\r\n" + hidden},
	{"folded transfer-encoding", byEngine,
		"POST /v1/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n" + hidden},
	{"folded transfer-encoding after content-length", byEngine,
		"POST /v1/orders HTTP/1.1\r\nHost: x\r\nContent-Length: 44\r\nTransfer-Encoding:\r\n\tchunked\r\n\r\n0\r\n\r\n" + hidden},
	{"folded ordinary header", byEngine,
		"GET /v1/config HTTP/1.1\r\nHost: x\r\nX-Note: a\r\n b\r\n\r\n" + hidden},
	{"transfer-encoding chunked, identity", byFasthttp,
		"POST /v1/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n" + hidden},
	{"transfer-encoding identity, chunked", byFasthttp,
		"POST /v1/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity, chunked\r\n\r\n0\r\n\r\n" + hidden},
	{"two transfer-encoding lines", byFasthttp,
		"POST /v1/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + hidden},
	{"transfer-encoding on HTTP/1.0", byFasthttp,
		"POST /v1/orders HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + hidden},
	{"space before the colon", byFasthttp,
		"POST /v1/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n" + hidden},
	{"space inside a field name", byEngine,
		"POST /v1/orders HTTP/1.1\r\nHost: x\r\nTransfer Encoding: chunked\r\n\r\n0\r\n\r\n" + hidden},
	{"NUL in a header value", byFasthttp,
		"GET /v1/config HTTP/1.1\r\nHost: x\r\nX-Note: a\x00b\r\n\r\n" + hidden},
	{"bare CR in a header value", byFasthttp,
		"GET /v1/config HTTP/1.1\r\nHost: x\r\nX-Note: a\rb\r\n\r\n" + hidden},
	{"bare LF ending a header line", byEngine,
		"GET /v1/config HTTP/1.1\r\nHost: x\nX-Note: a\r\n\r\n" + hidden},
	{"missing Host", byFasthttp,
		"GET /v1/config HTTP/1.1\r\nX-Note: a\r\n\r\n" + hidden},
	{"empty Host", byFasthttp,
		"GET /v1/config HTTP/1.1\r\nHost:\r\n\r\n" + hidden},
	{"two Host lines", byFasthttp,
		"GET /v1/config HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n" + hidden},
	{"Host with a space", byFasthttp,
		"GET /v1/config HTTP/1.1\r\nHost: x y\r\n\r\n" + hidden},
	{"Host with a path", byFasthttp,
		"GET /v1/config HTTP/1.1\r\nHost: x/v1\r\n\r\n" + hidden},
	{"space in the path", byFasthttp,
		"GET /v1/con fig HTTP/1.1\r\nHost: x\r\n\r\n" + hidden},
	{"tab in the path", byFasthttp,
		"GET /v1/con\tfig HTTP/1.1\r\nHost: x\r\n\r\n" + hidden},
}

// TestFramingRefused sends each ambiguous shape on its own connection to
// the real server, followed by a hidden second request, and checks the
// answer is 400 INVALID_REQUEST, that the server closes the connection,
// and that no second response arrives, on both listeners.
func TestFramingRefused(t *testing.T) {
	ts := apptest.NewTestServer(t)
	for _, base := range []string{ts.URL, ts.AdminURL} {
		for _, c := range framingShapes {
			t.Run(c.name, func(t *testing.T) {
				resps, closed := exchangeAll(t, hostOf(base), c.req)
				if len(resps) != 1 {
					t.Fatalf("%d responses, want 1: %v", len(resps), statuses(resps))
				}
				r := resps[0]
				var e struct{ Error, Code, RequestID string }
				if err := json.Unmarshal(r.body, &e); err != nil || r.StatusCode != 400 || e.Code != string(orderengine.CodeInvalidRequest) {
					t.Fatalf("got %d %s, want 400 INVALID_REQUEST", r.StatusCode, r.body)
				}
				if ours := strings.HasPrefix(e.Error, "malformed request: "); ours != (c.by == byEngine) {
					t.Errorf("message %q: refused by the engine's check %v, want %v", e.Error, ours, c.by == byEngine)
				}
				if rid := r.Header.Get("X-Request-ID"); rid == "" || rid != e.RequestID {
					t.Fatalf("request id header %q, body %q", rid, e.RequestID)
				}
				if !r.Close {
					t.Errorf("the answer does not announce Connection: close: %v", r.Header)
				}
				if !closed {
					t.Error("the connection stayed open")
				}
			})
		}
	}
}

// last is hidden asking the server to close the connection after it.
const last = "GET /v1/errors HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"

// TestFramingAccepted: the well-formed neighbours of the refused shapes are
// served, and a pipelined pair gets both its answers (so that the single
// answer above is the server's refusal, not the harness missing one).
func TestFramingAccepted(t *testing.T) {
	ts := apptest.NewTestServer(t)
	for _, c := range []struct {
		name, req string
		want      []int
	}{
		{"pipelined pair", "GET /v1/config HTTP/1.1\r\nHost: x\r\n\r\n" + last, []int{200, 200}},
		{"chunked body", "POST /v1/orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n2\r\n{}\r\n0\r\n\r\n" + last, []int{401, 200}},
		{"content-length body", "POST /v1/orders HTTP/1.1\r\nhost: x:8080\r\nContent-Length: 2\r\n\r\n{}" + last, []int{401, 200}},
		{"HTTP/1.0 without Host", "GET /v1/config HTTP/1.0\r\nConnection: keep-alive\r\n\r\n" + last, []int{200, 200}},
		{"IPv6 Host", "GET /v1/config HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n" + last, []int{200, 200}},
		{"absolute form", "GET http://x/v1/config HTTP/1.1\r\nHost: x\r\n\r\n" + last, []int{200, 200}},
	} {
		t.Run(c.name, func(t *testing.T) {
			resps, _ := exchangeAll(t, hostOf(ts.URL), c.req)
			if got := statuses(resps); !slices.Equal(got, c.want) {
				t.Fatalf("statuses %v, want %v", got, c.want)
			}
		})
	}
}

// rawResponse is one answer read off a raw connection.
type rawResponse struct {
	*nethttp.Response
	body []byte
}

// exchangeAll writes req on a new connection to addr, then reads answers
// until the server closes the connection (closed) or sends nothing more
// for a while (the connection stayed open). The wait only ends a read
// that would otherwise block; nothing is asserted about time.
func exchangeAll(t *testing.T, addr, req string) (resps []rawResponse, closed bool) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	for {
		_ = conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		if _, err := br.Peek(1); err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return resps, false
			}
			return resps, true // EOF or reset: the server closed it
		}
		resp, err := nethttp.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("unreadable answer after %d: %v", len(resps), err)
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		resps = append(resps, rawResponse{resp, body})
	}
}

func statuses(rs []rawResponse) []int {
	out := make([]int, len(rs))
	for i, r := range rs {
		out[i] = r.StatusCode
	}
	return out
}
