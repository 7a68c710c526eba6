package http_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/app/apptest"
	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/internal/syncbuf"
	"github.com/orderengine/orderengine/market"
)

func TestErrorContract(t *testing.T) {
	panicRoute := apihttp.Route{Method: "GET", Path: "/v1/test-panic", Access: apihttp.Keyless, Status: 200,
		Doc: apihttp.OpDoc{ID: "testPanic", Tag: "meta", Summary: "panics", Response: "Health"}}
	ts := apptest.NewTestServer(t, apptest.WithRoutes(apihttp.PanicRouteForTest(panicRoute)))
	h := keyHeader(ts.APIKey)

	checkCode(t, ts.Do("GET", "/v1/nope", nil, h), 404, orderengine.CodeNotFound)
	checkCode(t, ts.Do("GET", "/nope", nil, nil), 404, orderengine.CodeNotFound)
	r := ts.Do("PUT", "/v1/orders", nil, h)
	checkCode(t, r, 405, orderengine.CodeMethodNotAllowed)
	if !strings.Contains(r.Header.Get("Allow"), "GET") || !strings.Contains(r.Header.Get("Allow"), "POST") {
		t.Fatalf("Allow header %q", r.Header.Get("Allow"))
	}
	// POST /v1/orders leaves the body to the order service, which reads it
	// as JSON once (Route.ParsesBody): without the service this build
	// answers 501 whatever the body; orders.TestSubmitBodyShape checks the
	// service's 400 for a body that is not JSON.
	checkCode(t, ts.Do("POST", "/v1/orders", []byte(`{"orderType": "limit",`), h), 501, orderengine.CodeNotImplemented)
	checkCode(t, ts.Do("DELETE", "/v1/orders/0x"+strings.Repeat("ab", 32), []byte(`not json`), h), 400, orderengine.CodeInvalidRequest)
	checkCode(t, ts.Do("DELETE", "/v1/orders/0x"+strings.Repeat("ab", 32), []byte(`{}`), h), 400, orderengine.CodeInvalidRequest)
	checkCode(t, ts.Do("POST", "/v1/webhooks", []byte(`[1,2`), h), 400, orderengine.CodeInvalidRequest)
	checkCode(t, ts.Do("GET", "/v1/quote?tokenIn=0x1111111111111111111111111111111111111111", nil, h), 400, orderengine.CodeInvalidRequest)
	checkCode(t, ts.Do("GET", "/v1/orders?limit=501", nil, h), 400, orderengine.CodeInvalidRequest)

	big := bytes.Repeat([]byte("a"), 64<<10+1)
	checkCode(t, ts.Do("POST", "/v1/orders", big, h), 413, orderengine.CodePayloadTooLarge)
	exact := append([]byte(`"`), append(bytes.Repeat([]byte("a"), 64<<10-2), '"')...)
	if r := ts.Do("POST", "/v1/orders", exact, h); r.Status != 501 {
		t.Fatalf("64 KiB body: %d %s", r.Status, r.Body)
	}
	// Far above the limit (but under fasthttp's hard cap) still the JSON error.
	checkCode(t, ts.Do("POST", "/v1/webhooks", bytes.Repeat([]byte("a"), 900<<10), h), 413, orderengine.CodePayloadTooLarge)

	r = ts.Do("GET", "/v1/test-panic", nil, map[string]string{"X-Request-ID": "trace-123"})
	checkCode(t, r, 500, orderengine.CodeInternal)
	if r.Header.Get("X-Request-ID") != "trace-123" || !bytes.Contains(r.Body, []byte(`"requestId":"trace-123"`)) ||
		bytes.Contains(r.Body, []byte("goroutine")) || bytes.Contains(r.Body, []byte("boom")) {
		t.Fatalf("panic answer: %s %v", r.Body, r.Header)
	}
	// The server survives the panic.
	if r := ts.Do("GET", "/healthz", nil, nil); r.Status != 200 {
		t.Fatalf("after panic: %d", r.Status)
	}
}

// TestRequestID: a client's X-Request-ID is used only when it is 1 to 64
// characters of letters, digits, '-', '_', '.' and ':'; any other is
// replaced by a generated id, on success and error answers of both
// listeners, and none of its text reaches the log.
func TestRequestID(t *testing.T) {
	var logs syncbuf.Buffer
	ts := apptest.NewTestServer(t, apptest.WithLogger(debugLogger(&logs)))
	good := []string{"abc-DEF_1.2:3", strings.Repeat("x", 64), "7f8e9d0c-1b2a-4c3d-8e9f-0a1b2c3d4e5f"}
	for _, id := range good {
		r := ts.Do("GET", "/v1/config", nil, map[string]string{"X-Request-ID": id})
		if r.Header.Get("X-Request-ID") != id {
			t.Fatalf("sane id %q not echoed: %q", id, r.Header.Get("X-Request-ID"))
		}
	}
	bad := []string{strings.Repeat("y", 65), "a b", "<script>", `id"quoted"`, "path/like", "key=value",
		"caf\u00e9", "\u65e5\u672c", "tab\there", "msg=forged level=ERROR"}
	for _, id := range bad {
		for _, c := range []struct{ base, path string }{
			{ts.URL, "/v1/config"},              // answered 200
			{ts.URL, "/v1/stats"},               // 401 without a key
			{ts.AdminURL, "/admin/v1/accounts"}, // 401 without the token
		} {
			resp, body := rawExchange(t, hostOf(c.base), "GET "+c.path+" HTTP/1.1\r\nHost: x\r\nX-Request-ID: "+id+"\r\n\r\n")
			got := resp.Header.Get("X-Request-ID")
			if got == "" || got == id || strings.Contains(got, id) {
				t.Fatalf("%s: bad id %q answered with %q", c.path, id, got)
			}
			if resp.StatusCode != 200 && !bytes.Contains(body, []byte(`"requestId":"`+got+`"`)) {
				t.Fatalf("%s: error body %s does not carry the id %q", c.path, body, got)
			}
		}
	}
	out := logs.String()
	for _, id := range good {
		if !strings.Contains(out, "rid="+id) {
			t.Errorf("sane id %q is not in the log", id)
		}
	}
	for _, id := range bad {
		if strings.Contains(out, id) {
			t.Errorf("client text %q reached the log:\n%s", id, out)
		}
	}
	a := ts.Do("GET", "/v1/config", nil, nil).Header.Get("X-Request-ID")
	b := ts.Do("GET", "/v1/config", nil, nil).Header.Get("X-Request-ID")
	if a == "" || a == b {
		t.Fatalf("generated ids %q %q", a, b)
	}
}

// TestServiceErrorsAreMapped checks that a service double answers through
// the same plumbing as the built services, and that its *orderengine.Error
// is mapped.
func TestServiceErrorsAreMapped(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithServices(apihttp.Services{Market: fakeMarket{}}))
	r := ts.Get("/v1/stats")
	if r.Status != 200 || !bytes.Contains(r.Body, []byte(`"openOrders":3`)) {
		t.Fatalf("stats: %d %s", r.Status, r.Body)
	}
	checkCode(t, ts.Get("/v1/volume"), 422, orderengine.CodeNoPool)
	checkCode(t, ts.Get("/v1/swaps"), 500, orderengine.CodeInternal)
}

type fakeMarket struct{}

func (fakeMarket) Swaps(context.Context, api.SwapsRequest) (*market.SwapList, error) {
	return nil, errors.New("database on fire") // unknown errors must be hidden
}

func (fakeMarket) Volume(context.Context) (*market.VolumeBody, error) {
	return nil, orderengine.Errorf(orderengine.CodeNoPool, "no pools yet")
}

func (fakeMarket) Stats(context.Context) (*market.StatsBody, error) {
	return &market.StatsBody{OpenOrders: 3, ActorsAlive: map[string]int{}, Orders: market.OrderCounts{
		ByStatus: map[string]int{}, ByClass: map[string]int{}, ByStatusAndClass: map[string]map[string]int{}}}, nil
}

// TestOnlyCatalogCodes scans the module's non-test Go sources for error
// codes: every Code constant used must be in the catalog, and no code is
// built from a string literal outside errors.go. Together with checkCode
// (every code a test receives is checked against the catalog) this keeps
// handlers from answering with an undocumented code.
func TestOnlyCatalogCodes(t *testing.T) {
	root := filepath.Join("..")
	known := map[string]bool{}
	for _, c := range orderengine.Catalog() {
		known[string(c.Code)] = true
	}
	constRe := regexp.MustCompile(`\bCode[A-Z][A-Za-z]+\b`)
	literalRe := regexp.MustCompile(`(orderengine\.)?Code\("`)
	consts := map[string]string{}
	src, err := os.ReadFile(filepath.Join(root, "errors.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(Code[A-Z][A-Za-z]+)\s+Code = "([A-Z_]+)"`).FindAllStringSubmatch(string(src), -1) {
		consts[m[1]] = m[2]
	}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(data)
		if filepath.Base(path) != "errors.go" && literalRe.MatchString(text) {
			t.Errorf("%s builds an error code from a string literal; add a constant to the catalog", path)
		}
		for _, name := range constRe.FindAllString(text, -1) {
			if v, ok := consts[name]; ok && !known[v] {
				t.Errorf("%s uses %s (%s), which is not in the catalog", path, name, v)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range consts {
		if !known[v] {
			t.Errorf("constant %s = %s is missing from the catalog", name, v)
		}
	}
}

func TestValidatorRejectsWrongShapes(t *testing.T) {
	ts := apptest.NewTestServer(t)
	v, err := apptest.NewValidator(context.Background(), ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	req := ts.Raw(ts.URL, "GET", "/v1/config", nil, nil)
	_ = req
	httpReq, _ := newRequest(ts.URL + "/v1/errors")
	real := ts.Raw(ts.URL, "GET", "/v1/errors", nil, nil)
	if err := v.Check(httpReq, 200, real.Header, []byte(`{"errors":[{"code":"NOT_A_CODE"}]}`)); err == nil {
		t.Fatal("validator accepted an unknown code")
	}
	if err := v.Check(httpReq, 200, real.Header, real.Body); err != nil {
		t.Fatalf("validator refused the real catalog: %v", err)
	}
	if err := v.Check(httpReq, 200, jsonHeader(), real.Body); err == nil {
		t.Fatal("validator accepted an answer without the rate-limit headers")
	}
	unknown, _ := newRequest(ts.URL + "/v1/unknown")
	if err := v.Check(unknown, 404, jsonHeader(), []byte(`{"message":"x"}`)); err == nil {
		t.Fatal("validator accepted a non-error body on an unknown route")
	}
}

var _ = fiber.StatusOK

// TestJSONBodyContentType: a JSON-body route (POST /v1/orders, DELETE
// /v1/orders/{hash}, POST /v1/webhooks) refuses a body declared as another
// media type with 400 INVALID_REQUEST naming Content-Type, and parses it as
// JSON when the header is absent or JSON (any parameters, +json suffix).
func TestJSONBodyContentType(t *testing.T) {
	ts := apptest.NewTestServer(t)
	body := []byte(`{"orderType":"limit"}`)
	// fasthttp refuses a body that is not the multipart it declares before
	// the handler runs: the same code, a generic message.
	checkCode(t, ts.Do("POST", "/v1/orders", body, map[string]string{"X-API-Key": ts.APIKey, "Content-Type": "multipart/form-data; boundary=x"}),
		400, orderengine.CodeInvalidRequest)
	for _, ct := range []string{"text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "application/jsonx"} {
		r := ts.Do("POST", "/v1/orders", body, map[string]string{"X-API-Key": ts.APIKey, "Content-Type": ct})
		checkCode(t, r, 400, orderengine.CodeInvalidRequest)
		if !strings.Contains(string(r.Body), "Content-Type") {
			t.Fatalf("%s: message does not name Content-Type: %s", ct, r.Body)
		}
	}
	r := ts.Do("POST", "/v1/webhooks", []byte(`{"url":"https://example.com"}`), map[string]string{"X-API-Key": ts.APIKey, "Content-Type": "text/plain"})
	checkCode(t, r, 400, orderengine.CodeInvalidRequest)
	for _, ct := range []string{"", "application/json", "Application/JSON; charset=utf-8", "application/vnd.orderengine+json"} {
		// The order service is not plugged in: a body that passes the
		// checks reaches the 501 stub.
		if r := ts.Do("POST", "/v1/orders", body, map[string]string{"X-API-Key": ts.APIKey, "Content-Type": ct}); r.Status != 501 {
			t.Fatalf("Content-Type %q: %d %s", ct, r.Status, r.Body)
		}
	}
}
