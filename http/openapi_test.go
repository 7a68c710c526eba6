package http_test

import (
	"context"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/app/apptest"
)

// TestOpenAPIDocumentCoversSpec checks the served document: OpenAPI 3.1,
// version 1.0.0, valid for kin-openapi, every endpoint of specification
// section 4, the webhook management of contract.md section 7 and the keeper
// extension, both key forms as security schemes, and keyless operations
// marked as such.
func TestOpenAPIDocumentCoversSpec(t *testing.T) {
	ts := apptest.NewTestServer(t)
	doc, err := apptest.LoadDocument(context.Background(), ts.Do("GET", "/v1/openapi.json", nil, nil).Body)
	if err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" || doc.Info.Version != "1.0.0" {
		t.Fatalf("openapi %s version %s", doc.OpenAPI, doc.Info.Version)
	}
	want := [][2]string{
		{"GET", "/v1/route"}, {"GET", "/v1/quote"}, {"GET", "/v1/order-preflight"},
		{"POST", "/v1/orders"}, {"GET", "/v1/orders/{hash}"}, {"DELETE", "/v1/orders/{hash}"},
		{"GET", "/v1/orders/{hash}/fills"}, {"GET", "/v1/orders"}, {"GET", "/v1/orderbook/{pair}"},
		{"GET", "/v1/swaps"}, {"GET", "/v1/volume"}, {"GET", "/v1/stats"}, {"GET", "/v1/tokens"},
		{"GET", "/v1/errors"}, {"GET", "/v1/config"}, {"GET", "/v1/openapi.json"}, {"GET", "/api/spot"},
		{"POST", "/v1/webhooks"}, {"GET", "/v1/webhooks"}, {"GET", "/v1/webhooks/{id}"}, {"DELETE", "/v1/webhooks/{id}"},
		{"POST", "/v1/webhooks/{id}/test"}, {"GET", "/v1/webhooks/{id}/deliveries"}, {"GET", "/v1/keeper/executable"},
		{"POST", "/v1/webhooks/{id}/deliveries/{deliveryId}/resend"}, {"POST", "/v1/webhooks/{id}/rotate-secret"},
		{"GET", "/healthz"}, {"GET", "/readyz"},
		// contract.md section 10.
		{"GET", "/v1/auth/nonce"}, {"POST", "/v1/auth/signin"}, {"POST", "/v1/auth/signout"},
		{"GET", "/v1/account"}, {"POST", "/v1/account/wallets"}, {"DELETE", "/v1/account/wallets/{address}"},
		{"GET", "/v1/account/keys"}, {"POST", "/v1/account/keys"}, {"POST", "/v1/account/keys/{id}/disable"},
		{"POST", "/v1/account/keys/{id}/reissue"}, {"POST", "/v1/account/tier-application"},
		{"GET", "/v1/platform/fee-accruals"}, {"GET", "/v1/platform/referees"},
		{"GET", "/v1/keeper/stream"}, {"GET", "/v1/orders/stream"},
	}
	keyless := map[string]bool{"/v1/errors": true, "/v1/config": true, "/v1/openapi.json": true, "/healthz": true, "/readyz": true,
		"/v1/auth/nonce": true, "/v1/auth/signin": true, "/v1/auth/signout": true}
	for _, w := range want {
		item := doc.Paths.Find(w[1])
		if item == nil || item.GetOperation(w[0]) == nil {
			t.Errorf("%s %s is not described", w[0], w[1])
			continue
		}
		op := item.GetOperation(w[0])
		if op.Security == nil {
			t.Errorf("%s %s has no security requirement", w[0], w[1])
			continue
		}
		if keyless[w[1]] != (len(*op.Security) == 0) {
			t.Errorf("%s %s: keyless %v but security %v", w[0], w[1], keyless[w[1]], *op.Security)
		}
		if !keyless[w[1]] && op.Responses.Status(401) == nil {
			t.Errorf("%s %s documents no 401", w[0], w[1])
		}
		if probe := w[1] == "/healthz" || w[1] == "/readyz"; probe != (op.Responses.Status(429) == nil) {
			t.Errorf("%s %s documents 429: %v (only the health probes are never rate limited)", w[0], w[1], op.Responses.Status(429) != nil)
		}
	}
	if n := len(doc.Paths.Map()); n != 38 {
		t.Errorf("%d paths described, want 38 (update this test with the table)", n)
	}
	schemes := doc.Components.SecuritySchemes
	if s := schemes["ApiKeyHeader"]; s == nil || s.Value.In != "header" || s.Value.Name != "X-API-Key" {
		t.Error("no X-API-Key security scheme")
	}
	if s := schemes["BearerKey"]; s == nil || s.Value.Type != "http" || s.Value.Scheme != "bearer" {
		t.Error("no bearer security scheme")
	}
	if s := schemes["SessionCookie"]; s == nil || s.Value.In != "cookie" || !strings.Contains(s.Value.Description, "X-CSRF-Token") {
		t.Error("no session cookie security scheme describing the CSRF token")
	}
	// A session never authorises order submission.
	if sec := doc.Paths.Find("/v1/orders").Post.Security; sec == nil || len(*sec) != 2 || (*sec)[0]["SessionCookie"] != nil || (*sec)[1]["SessionCookie"] != nil {
		t.Errorf("POST /v1/orders security %v, want the key schemes only", sec)
	}
}
