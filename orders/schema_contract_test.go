package orders_test

import (
	"context"
	"encoding/json"
	nethttp "net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/persistence/chainstore"
)

// TestReadResponsesMatchTheServedSchemas checks real answers of the five
// operations against the schemas of the served OpenAPI document: every
// answer validates (e.srv.Do checks each one), no answer carries a field
// the document does not declare, and the validator does refuse bodies
// that break the order schemas (so the first check means something).
func TestReadResponsesMatchTheServedSchemas(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	reg := e.svc().Registry()
	now := e.clk.Now()
	doc, err := apptest.LoadDocument(ctx, e.srv.Do("GET", "/v1/openapi.json", nil, nil).Body)
	if err != nil {
		t.Fatal(err)
	}
	key := newKey(t)
	var hashes []common.Hash
	for _, class := range []string{"limit", "stop_loss", "take_profit", "dca", "trailing"} {
		hashes = append(hashes, e.submit(defaultSpec(class, key)))
	}
	if _, err := e.chainFillOf(hashes[0], testFill(5, 1, "10", "20", "10", 1, now)); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Trigger(ctx, hashes[1], uint256.NewInt(1), chainstore.View{}, now); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Fail(ctx, hashes[1], "no route", "NoRoute", now); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Stall(ctx, hashes[3], true, chainstore.View{}, now); err != nil {
		t.Fatal(err)
	}
	pair := tokA.Hex() + "-" + tokB.Hex()
	type call struct {
		method, path, opPath string
		body                 []byte
		status               int
	}
	calls := []call{
		{"GET", "/v1/orders", "/v1/orders", nil, 200},
		{"GET", "/v1/orders?limit=2", "/v1/orders", nil, 200},
		{"GET", "/v1/orders?status=open", "/v1/orders", nil, 400},
		{"GET", "/v1/orders/" + hashes[0].Hex() + "/fills", "/v1/orders/{hash}/fills", nil, 200},
		{"GET", "/v1/orders/" + hashes[2].Hex() + "/fills", "/v1/orders/{hash}/fills", nil, 200},
		{"GET", "/v1/orders/0x" + strings.Repeat("ab", 32) + "/fills", "/v1/orders/{hash}/fills", nil, 404},
		{"GET", "/v1/orderbook/" + pair, "/v1/orderbook/{pair}", nil, 200},
		{"GET", "/v1/orderbook/" + pair + "?limit=2", "/v1/orderbook/{pair}", nil, 200},
		{"GET", "/v1/orderbook/0x12-0x34", "/v1/orderbook/{pair}", nil, 400},
		{"GET", "/v1/orders/0x12", "/v1/orders/{hash}", nil, 400},
		{"GET", "/v1/orders/0x" + strings.Repeat("ab", 32), "/v1/orders/{hash}", nil, 404},
		{"DELETE", "/v1/orders/" + hashes[4].Hex(), "/v1/orders/{hash}", cancelBody(signCancel(t, e.domain, hashes[4], newKey(t))), 400},
		{"DELETE", "/v1/orders/" + hashes[4].Hex(), "/v1/orders/{hash}", cancelBody(signCancel(t, e.domain, hashes[4], key)), 200},
		{"DELETE", "/v1/orders/" + hashes[1].Hex(), "/v1/orders/{hash}", cancelBody(signCancel(t, e.domain, hashes[1], key)), 409},
		{"DELETE", "/v1/orders/0x" + strings.Repeat("ab", 32), "/v1/orders/{hash}", cancelBody(signCancel(t, e.domain, hashes[1], key)), 404},
	}
	for _, h := range hashes {
		calls = append(calls, call{"GET", "/v1/orders/" + h.Hex(), "/v1/orders/{hash}", nil, 200})
	}
	var detail []byte
	for _, c := range calls {
		r := e.srv.Do(c.method, c.path, c.body, map[string]string{"X-API-Key": e.srv.APIKey})
		if r.Status != c.status {
			t.Fatalf("%s %s: %d %s, want %d", c.method, c.path, r.Status, r.Body, c.status)
		}
		op := doc.Paths.Find(c.opPath).GetOperation(c.method)
		resp := op.Responses.Status(c.status)
		if resp == nil {
			t.Fatalf("%s %s: status %d is not documented", c.method, c.opPath, c.status)
		}
		var v any
		if err := json.Unmarshal(r.Body, &v); err != nil {
			t.Fatal(err)
		}
		if extra := apptest.UndeclaredFields(resp.Value.Content.Get("application/json").Schema, v); len(extra) > 0 {
			t.Errorf("%s %s: fields the document does not declare: %v", c.method, c.path, extra)
		}
		if c.path == "/v1/orders/"+hashes[1].Hex() {
			detail = r.Body
		}
	}
	// The validator refuses broken order bodies.
	v, err := apptest.NewValidator(ctx, e.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	check := func(path string, body []byte) error {
		req, _ := nethttp.NewRequest("GET", e.srv.URL+path, nil)
		return v.Check(req, 200, nethttp.Header{"Content-Type": {"application/json"},
			"X-Ratelimit-Limit": {"600"}, "X-Ratelimit-Remaining": {"599"}, "X-Ratelimit-Reset": {"60"},
			"Ratelimit-Policy": {`"read";q=600;w=60`}, "Ratelimit": {`"read";r=599;t=60`}}, body)
	}
	if err := check("/v1/orders/"+hashes[1].Hex(), detail); err != nil {
		t.Fatalf("the validator refuses a real order: %v", err)
	}
	for name, edit := range map[string]func(m map[string]any){
		"no executions":        func(m map[string]any) { delete(m, "executions") },
		"executions a string":  func(m map[string]any) { m["executions"] = "1" },
		"an unknown status":    func(m map[string]any) { m["status"] = "open" },
		"accountId a number":   func(m map[string]any) { m["accountId"] = 5 },
		"a short maker":        func(m map[string]any) { m["order"].(map[string]any)["maker"] = "0x12" },
		"no triggerAmountOut":  func(m map[string]any) { delete(m["order"].(map[string]any), "triggerAmountOut") },
		"a decimal amount":     func(m map[string]any) { m["filledAmountIn"] = "1.5" },
		"triggeredAt a number": func(m map[string]any) { m["triggeredAt"] = 5 },
		"funded not a boolean": func(m map[string]any) { m["funded"] = "yes" },
		"referralFeePpm > 1e6": func(m map[string]any) { m["order"].(map[string]any)["referralFeePpm"] = 1000001 },
	} {
		var m map[string]any
		if err := json.Unmarshal(detail, &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		body, _ := json.Marshal(m)
		if check("/v1/orders/"+hashes[1].Hex(), body) == nil {
			t.Errorf("the validator accepts an order with %s", name)
		}
	}
	for path, body := range map[string]string{
		"/v1/orders":                               `{"orders":[{"orderHash":"0x12"}],"nextCursor":null}`,
		"/v1/orders?limit=1":                       `{"orders":[]}`,
		"/v1/orderbook/" + pair:                    `{"pair":"` + pair + `","orders":[{"orderHash":"` + hashes[0].Hex() + `"}],"nextCursor":null}`,
		"/v1/orderbook/" + pair + "?limit=1":       `{"pair":"` + pair + `","orders":[],"nextCursor":5}`,
		"/v1/orders/" + hashes[0].Hex() + "/fills": `{"fills":[{"txHash":"0x12"}]}`,
	} {
		if check(path, []byte(body)) == nil {
			t.Errorf("the validator accepts %s for %s", body, path)
		}
	}
}
