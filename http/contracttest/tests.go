package contracttest

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/accountstore"
)

// The HTTP contract of every operation, driven from the served OpenAPI
// document itself: authentication (specification section 5), the bucket
// each operation counts in (section 8), the rate-limit headers on every
// response, and that the server serves exactly the described operations.
// The engine runs without a chain, so a request that passes authentication
// and the limiter gets whatever a chainless service answers: what is
// asserted here is the HTTP layer every route shares.

// op is one described operation with a concrete request for it.
type op struct {
	method, path, template string
	keyless                bool
	// sessionOnly operations take a dashboard session, never a key.
	sessionOnly bool
	bucket      string // x-rate-limit-bucket
	body        []byte
}

func (o op) String() string { return o.method + " " + o.template }

// operations loads the served document and returns every operation.
func operations(t *testing.T, ts *apptest.Server) (*openapi3.T, []op) {
	t.Helper()
	doc, err := apptest.LoadDocument(context.Background(), ts.Do("GET", "/v1/openapi.json", nil, nil).Body)
	if err != nil {
		t.Fatal(err)
	}
	fill := strings.NewReplacer("{hash}", "0x"+strings.Repeat("ab", 32),
		"{pair}", "0x1111111111111111111111111111111111111111-0x2222222222222222222222222222222222222222",
		"{id}", "wh_unknown", "{address}", "0x3333333333333333333333333333333333333333")
	var out []op
	for path, item := range doc.Paths.Map() {
		for method, o := range item.Operations() {
			x := op{method: method, template: path, path: fill.Replace(path), keyless: o.Security != nil && len(*o.Security) == 0}
			x.sessionOnly = o.Security != nil && len(*o.Security) == 1 && (*o.Security)[0]["SessionCookie"] != nil
			x.bucket, _ = o.Extensions["x-rate-limit-bucket"].(string)
			if o.RequestBody != nil {
				x.body = []byte(`{}`)
			}
			out = append(out, x)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return doc, out
}

func (o op) do(ts *apptest.Server, h map[string]string) *apptest.Response {
	return ts.Do(o.method, o.path, o.body, h)
}

// everyKeyedOperationNeedsAKey: every operation not marked keyless
// answers 401 with the error object, UNAUTHORIZED for a missing, malformed,
// unknown or wrongly presented key and KEY_DISABLED for a disabled one,
// and takes the key in both header forms; keyless ones need none. The
// session-only operations (account management) answer 401 UNAUTHORIZED
// to every key, valid or not: a key never manages the account.
func everyKeyedOperationNeedsAKey(t *testing.T, tg *Target) {
	ts := tg.server(t, config.TierEnterprise, config.BucketLimits{Quote: 1000, Read: 1000, Order: 1000})
	_, ops := operations(t, ts)
	other := accountstore.NewAPIKey() // a well-formed key no node issued
	keyless := map[string]bool{}
	for _, o := range ops {
		// A refused key counts for the client address at the free read
		// limit: each operation's requests start in a fresh window.
		tg.nextWindow()
		if o.keyless {
			keyless[o.template] = true
			if o.method != "GET" && !strings.HasPrefix(o.template, "/v1/auth/") {
				t.Errorf("%s: keyless", o)
			}
			if r := o.do(ts, nil); r.Status == 401 || r.Status == 403 || (o.method == "GET" && r.Status != 200) {
				t.Errorf("%s without a key: %d %s", o, r.Status, r.Body)
			}
			continue
		}
		if o.sessionOnly {
			for _, h := range []map[string]string{nil, {"X-API-Key": ts.APIKey}, {"Authorization": "Bearer " + ts.APIKey}, {"X-API-Key": "svc_wrong"}} {
				r := o.do(ts, h)
				CheckCode(t, r, 401, orderengine.CodeUnauthorized)
				LimitHeaders(t, o.String(), r, 0)
			}
			continue
		}
		for _, h := range []map[string]string{nil, {"X-API-Key": ""}, {"X-API-Key": "svc_wrong"}, {"X-API-Key": other},
			{"Authorization": "Bearer " + other}, {"Authorization": "Basic " + ts.APIKey}, {"Authorization": ts.APIKey},
			{"X-Api-Key": strings.ToUpper(ts.APIKey)}} {
			r := o.do(ts, h)
			CheckCode(t, r, 401, orderengine.CodeUnauthorized)
			LimitHeaders(t, o.String(), r, 0)
		}
		for _, h := range []map[string]string{{"X-API-Key": ts.APIKey}, {"Authorization": "Bearer " + ts.APIKey}, {"Authorization": "bearer  " + ts.APIKey}} {
			if r := o.do(ts, h); r.Status == 401 || r.Status == 403 {
				t.Errorf("%s with %v: %d %s", o, h, r.Status, r.Body)
			}
		}
	}
	want := map[string]bool{"/v1/errors": true, "/v1/config": true, "/v1/openapi.json": true, "/healthz": true, "/readyz": true,
		"/v1/auth/nonce": true, "/v1/auth/signin": true, "/v1/auth/signout": true}
	if len(keyless) != len(want) {
		t.Errorf("keyless operations %v, want %v", keyless, want)
	}
	for p := range want {
		if !keyless[p] {
			t.Errorf("%s is not keyless", p)
		}
	}
	if r := ts.Admin("POST", "/admin/v1/keys/"+ts.KeyID+"/disable", nil); r.Status != 200 {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	// On a cluster the disabled record reaches every node through the
	// replicated key-value bucket's watch (docs/cluster.md), within a
	// bound; the answering node refuses the key once it has it.
	ts.WaitFor("the disabled key refused", func() bool {
		_, err := ts.System.Accounts.Authenticate(ts.APIKey)
		return err != nil
	})
	for _, o := range ops {
		tg.nextWindow()
		for _, h := range []map[string]string{{"X-API-Key": ts.APIKey}, {"Authorization": "Bearer " + ts.APIKey}} {
			if o.keyless {
				if r := o.do(ts, h); r.Status == 401 || r.Status == 403 || (o.method == "GET" && r.Status != 200) {
					t.Errorf("%s with a disabled key: %d (keyless ignores keys)", o, r.Status)
				}
				continue
			}
			r := o.do(ts, h)
			if o.sessionOnly {
				CheckCode(t, r, 401, orderengine.CodeUnauthorized)
				continue
			}
			CheckCode(t, r, 401, orderengine.CodeKeyDisabled)
			LimitHeaders(t, o.String(), r, 0)
		}
	}
}

// specBuckets is specification section 8's table, plus the operations it
// does not name: /api/spot in the read bucket (contract.md section 9), the
// webhook management, the keeper list and the streams (once per
// connection) in the read bucket (this
// server's choice, declared per operation as x-rate-limit-bucket), and the
// health probes in none. GET /metrics is on the admin listener
// (http.metricsOnAdmin, the default), so not among the operations.
var specBuckets = map[string]string{
	"GET /v1/quote": "quote", "GET /v1/route": "quote", "GET /v1/order-preflight": "quote",
	"POST /v1/orders": "order", "DELETE /v1/orders/{hash}": "order",
	"GET /v1/orders": "read", "GET /v1/orders/{hash}": "read", "GET /v1/orders/{hash}/fills": "read",
	"GET /v1/orderbook/{pair}": "read", "GET /v1/swaps": "read", "GET /v1/volume": "read", "GET /v1/stats": "read",
	"GET /v1/tokens": "read", "GET /api/spot": "read",
	"POST /v1/webhooks": "read", "GET /v1/webhooks": "read", "GET /v1/webhooks/{id}": "read", "DELETE /v1/webhooks/{id}": "read",
	"POST /v1/webhooks/{id}/test": "read", "GET /v1/webhooks/{id}/deliveries": "read", "GET /v1/keeper/executable": "read",
	"GET /v1/keeper/stream": "read", "GET /v1/orders/stream": "read",
	"POST /v1/webhooks/{id}/deliveries/{deliveryId}/resend": "read", "POST /v1/webhooks/{id}/rotate-secret": "read",
	"GET /v1/errors": "address", "GET /v1/config": "address", "GET /v1/openapi.json": "address", "GET /healthz": "none", "GET /readyz": "none",
	"GET /v1/auth/nonce": "address", "POST /v1/auth/signin": "address", "POST /v1/auth/signout": "address",
	"GET /v1/account": "read", "POST /v1/account/wallets": "read", "DELETE /v1/account/wallets/{address}": "read",
	"GET /v1/account/keys": "read", "POST /v1/account/keys": "read", "POST /v1/account/keys/{id}/disable": "read",
	"POST /v1/account/keys/{id}/reissue": "read", "POST /v1/account/tier-application": "read",
	"GET /v1/platform/fee-accruals": "read", "GET /v1/platform/referees": "read",
}

// everyOperationCountsInItsBucket: with distinct limits per bucket and
// tier, each operation's X-RateLimit-Limit shows the bucket it counts in,
// which is the one the specification names and the one the document
// declares; builder is five times free; keyless operations count per
// client address at the free read rate.
func everyOperationCountsInItsBucket(t *testing.T, tg *Target) {
	for _, tier := range []config.Tier{config.TierFree, config.TierBuilder} {
		t.Run(string(tier), func(t *testing.T) {
			ts := tg.server(t, tier, config.BucketLimits{})
			limits := ts.Config.Limits.ForTier(tier, config.BucketLimits{})
			_, ops := operations(t, ts)
			if len(ops) != len(specBuckets) {
				t.Errorf("%d operations described, %d in the table", len(ops), len(specBuckets))
			}
			for _, o := range ops {
				bucket, ok := specBuckets[o.String()]
				if !ok {
					t.Errorf("%s: not in the bucket table", o)
					continue
				}
				if o.bucket != bucket {
					t.Errorf("%s: the document declares bucket %q, want %q", o, o.bucket, bucket)
				}
				want := map[string]int{"quote": limits.Quote, "read": limits.Read, "order": limits.Order, "address": free.Read}[bucket]
				if o.sessionOnly {
					continue // a key is refused before any bucket; accounts_test.go counts sessions
				}
				r := o.do(ts, keyHeader(ts.APIKey))
				if bucket == "none" {
					NoLimitHeaders(t, o.String(), r)
					continue
				}
				LimitHeaders(t, o.String(), r, want)
				if got := RateLimitBucket(r); got != bucket {
					t.Errorf("%s: RateLimit-Policy names bucket %q, want %q", o, got, bucket)
				}
			}
		})
	}
}

// servesExactlyTheDescribedOperations: every described operation is
// routed, and no other method on a described path, nor another spelling of
// a path (trailing slash, other case), is served.
func servesExactlyTheDescribedOperations(t *testing.T, tg *Target) {
	ts := tg.server(t, config.TierEnterprise, config.BucketLimits{Quote: 1000, Read: 1000, Order: 1000})
	_, ops := operations(t, ts)
	described := map[string]bool{}
	paths := map[string]string{}
	for _, o := range ops {
		described[o.method+" "+o.path] = true
		paths[o.path] = o.template
		if r := o.do(ts, keyHeader(ts.APIKey)); r.Status == 405 || (r.Status == 404 && strings.Contains(string(r.Body), "no such route")) {
			t.Errorf("%s is described but not routed: %d %s", o, r.Status, r.Body)
		}
	}
	for path, template := range paths {
		// An unrouted request counts for the client address at the free
		// read limit: each path's probes start in a fresh window, so the
		// limit is never what answers them.
		tg.nextWindow()
		for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"} {
			if described[m+" "+path] {
				continue
			}
			r := ts.Raw(ts.URL, m, path, nil, keyHeader(ts.APIKey))
			if r.Status != 405 {
				t.Errorf("%s %s is not described but answers %d", m, template, r.Status)
			}
		}
		for _, alias := range []string{path + "/", strings.ToUpper(path)} {
			if alias == path {
				continue
			}
			if r := ts.Raw(ts.URL, "GET", alias, nil, keyHeader(ts.APIKey)); r.Status != 404 {
				t.Errorf("GET %s (an alias of %s) answers %d, want 404", alias, template, r.Status)
			}
		}
	}
}

// everyResponseCarriesLimitHeaders: the rate-limit headers come with
// every answer of the public API, including the ones refused before a
// route counted them (unknown route, wrong method, oversized body, a
// failed key check), and the document declares them required on every
// response but the health probes', which declare none. A panicking
// handler's answer is checked in package http's tests, whose test-only
// route cannot be built here (TestPanicAnswerCarriesLimitHeaders).
func everyResponseCarriesLimitHeaders(t *testing.T, tg *Target) {
	ts := tg.server(t, config.TierFree, config.BucketLimits{})
	big := bytes.Repeat([]byte("a"), 64<<10+1)
	for _, c := range []struct {
		name, method, path string
		body               []byte
		h                  map[string]string
		status             int
	}{
		{"unknown route", "GET", "/v1/nope", nil, keyHeader(ts.APIKey), 404},
		{"unknown route without key", "GET", "/nope", nil, nil, 404},
		{"wrong method", "PUT", "/v1/stats", nil, keyHeader(ts.APIKey), 405},
		{"oversized body with key", "POST", "/v1/orders", big, keyHeader(ts.APIKey), 413},
		{"oversized body without key", "POST", "/v1/webhooks", big, nil, 413},
		{"oversized body on a keyless route", "GET", "/v1/config", big, nil, 413},
		{"missing key", "GET", "/v1/stats", nil, nil, 401},
		{"bad JSON", "POST", "/v1/orders", []byte(`{`), keyHeader(ts.APIKey), 400},
		{"headers over fasthttp's read buffer", "GET", "/v1/stats", nil, map[string]string{"X-Big": strings.Repeat("b", 8<<10)}, 400},
		{"keyed", "GET", "/v1/stats", nil, keyHeader(ts.APIKey), 200},
		{"keyless", "GET", "/v1/errors", nil, nil, 200},
	} {
		r := ts.Do(c.method, c.path, c.body, c.h)
		if r.Status != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, r.Status, r.Body, c.status)
		}
		LimitHeaders(t, c.name, r, 0)
	}
	doc, _ := operations(t, ts)
	for path, item := range doc.Paths.Map() {
		for method, o := range item.Operations() {
			probe := o.Extensions["x-rate-limit-bucket"] == "none"
			for status, resp := range o.Responses.Map() {
				for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit"} {
					hr := resp.Value.Headers[h]
					if probe && hr != nil {
						t.Errorf("%s %s %s: a probe declares %s", method, path, status, h)
					}
					if !probe && (hr == nil || !hr.Value.Required) {
						t.Errorf("%s %s %s: %s is not a required header", method, path, status, h)
					}
				}
			}
		}
	}
}

// errorCatalogServesTheContract: GET /v1/errors (keyless) serves every
// code of contract.md section 4 with its status and retryability, and
// retry guidance for each, and no code twice.
func errorCatalogServesTheContract(t *testing.T, tg *Target) {
	ts := tg.server(t, config.TierFree, config.BucketLimits{})
	r := ts.Do("GET", "/v1/errors", nil, nil)
	var cat struct {
		Errors []struct {
			Code, Retry, Description string
			Status                   int
			Retryable                bool
		} `json:"errors"`
	}
	if err := json.Unmarshal(r.Body, &cat); err != nil || r.Status != 200 {
		t.Fatalf("GET /v1/errors: %d %v", r.Status, err)
	}
	type row struct {
		status    int
		retryable bool
	}
	contract := map[string]row{
		"INVALID_REQUEST": {400, false}, "INVALID_ORDER": {400, false}, "INVALID_TRAITS": {400, false}, "ORDER_EXPIRED": {400, false},
		"BAD_SIGNATURE": {400, false}, "FEE_PARAMS_MISMATCH": {400, false}, "UNAUTHORIZED": {401, false}, "KEY_DISABLED": {401, false},
		"FORBIDDEN": {403, false}, "NOT_FOUND": {404, false}, "ALREADY_EXISTS": {409, false}, "NOT_CANCELLABLE": {409, false},
		"LIMIT_REACHED": {409, false}, "PAYLOAD_TOO_LARGE": {413, false}, "UNSUPPORTED_PAIR": {422, false}, "NO_ORACLE": {422, false},
		"NO_ROUTE": {422, true}, "NO_POOL": {422, true}, "RATE_LIMITED": {429, true}, "MAKER_RATE_LIMITED": {429, true},
		"INTERNAL": {500, true}, "CHAIN_UNAVAILABLE": {503, true},
	}
	seen := map[string]bool{}
	for _, e := range cat.Errors {
		if seen[e.Code] {
			t.Errorf("%s listed twice", e.Code)
		}
		seen[e.Code] = true
		if e.Retry == "" || e.Description == "" {
			t.Errorf("%s: no retry guidance or description", e.Code)
		}
		if w, ok := contract[e.Code]; ok && (w.status != e.Status || w.retryable != e.Retryable) {
			t.Errorf("%s: status %d retryable %v, contract.md says %d %v", e.Code, e.Status, e.Retryable, w.status, w.retryable)
		}
	}
	for code := range contract {
		if !seen[code] {
			t.Errorf("%s is missing from GET /v1/errors", code)
		}
	}
}

// webhookOperationsDocumentWhatTheyAnswer: another account's endpoint
// id answers 404 NOT_FOUND, exactly like an unknown one (docs/webhooks.md),
// so the {id} operations document 404; 403 only where a dashboard session
// must send its CSRF token (the calls that change state), never on a read.
func webhookOperationsDocumentWhatTheyAnswer(t *testing.T, tg *Target) {
	ts := tg.server(t, config.TierFree, config.BucketLimits{})
	doc, _ := operations(t, ts)
	for _, p := range []string{"/v1/webhooks/{id}", "/v1/webhooks/{id}/test", "/v1/webhooks/{id}/deliveries",
		"/v1/webhooks/{id}/deliveries/{deliveryId}/resend", "/v1/webhooks/{id}/rotate-secret"} {
		for method, o := range doc.Paths.Find(p).Operations() {
			changes := method != "GET"
			if o.Responses.Status(404) == nil || (o.Responses.Status(403) != nil) != changes {
				t.Errorf("%s %s documents 404 %v, 403 %v; want 404, and 403 only on a change", method, p, o.Responses.Status(404) != nil, o.Responses.Status(403) != nil)
			}
		}
	}
}

// GET /v1/config answers only fields its schema declares (the rate limits
// it serves were once undeclared).
func configDeclaresEveryField(t *testing.T, tg *Target) {
	s := tg.server(t, config.TierFree, config.BucketLimits{})
	if r := s.GetStrict("/v1/config"); r.Status != 200 {
		t.Fatalf("GET /v1/config: %d %s", r.Status, r.Body)
	}
}

// The 401 and 429 messages say what to fix: an Authorization header
// without the Bearer scheme is named as such, and a 429 names what was
// counted (the key's bucket, or the client address) with its limit.
func authAndLimitMessagesSayWhatToFix(t *testing.T, tg *Target) {
	s := tg.server(t, config.TierEnterprise, config.BucketLimits{Quote: 1, Read: 1, Order: 1})
	r := s.Do("GET", "/v1/stats", nil, map[string]string{"Authorization": s.APIKey})
	if r.Status != 401 || !strings.Contains(errorMessage(r), `"Bearer <API key>"`) {
		t.Fatalf("Authorization without Bearer: %d %s", r.Status, r.Body)
	}
	key := map[string]string{"X-API-Key": s.APIKey}
	s.Do("GET", "/v1/stats", nil, key)
	if r := s.Do("GET", "/v1/stats", nil, key); r.Status != 429 || !strings.Contains(errorMessage(r), "the API key's read bucket reached (1 requests per window)") {
		t.Fatalf("second read: %d %s", r.Status, r.Body)
	}
	for range s.Config.Limits.Free.Read + 1 { // keyless: the client address's limit
		r := s.Do("GET", "/v1/config", nil, nil)
		if r.Status == 429 {
			if !strings.Contains(errorMessage(r), "this client address") {
				t.Fatalf("keyless over the address limit: %s", r.Body)
			}
			return
		}
	}
	t.Fatal("the client address was never limited")
}

// errorMessage is the message of an error body.
func errorMessage(r *apptest.Response) string {
	var e struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &e)
	return e.Error
}
