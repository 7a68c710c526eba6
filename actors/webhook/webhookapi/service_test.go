package webhookapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/http/testserver"
)

func decode[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return v
}

// TestWebhookAPI drives the management API end to end through the real
// server; every answer is validated against the OpenAPI document.
func TestWebhookAPI(t *testing.T) {
	s := testserver.NewTestServer(t)
	var mu sync.Mutex
	var got []*http.Request
	var bodies [][]byte
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got, bodies = append(got, r), append(bodies, b)
		mu.Unlock()
		w.WriteHeader(200)
	}))
	defer rc.Close()
	key := map[string]string{"X-API-Key": s.APIKey}
	post := func(path, body string) *testserver.Response {
		return s.Do("POST", path, []byte(body), key)
	}

	r := post("/v1/webhooks", `{"url":"`+rc.URL+`/a"}`)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	created := decode[struct {
		ID, URL, Secret string
		Events          []string
		Enabled         bool
	}](t, r.Body)
	if !strings.HasPrefix(created.Secret, "whsec_") || !created.Enabled || len(created.Events) != 8 {
		t.Fatalf("created %s", r.Body)
	}
	r = post("/v1/webhooks", `{"url":"`+rc.URL+`/b","events":["order.filled","dca.stalled"]}`)
	sub := decode[struct {
		ID     string
		Events []string
	}](t, r.Body)
	if r.Status != 201 || len(sub.Events) != 2 {
		t.Fatalf("subset: %d %s", r.Status, r.Body)
	}
	if r := post("/v1/webhooks", `{"url":"`+rc.URL+`/c","events":["order.exploded"]}`); r.Status != 400 || r.Code() != "INVALID_REQUEST" {
		t.Fatalf("unknown event: %d %s", r.Status, r.Body)
	}
	if r := post("/v1/webhooks", `{"url":"ftp://example.com"}`); r.Status != 400 || r.Code() != "INVALID_REQUEST" {
		t.Fatalf("bad url: %d %s", r.Status, r.Body)
	}
	post("/v1/webhooks", `{"url":"`+rc.URL+`/c"}`)
	if r := post("/v1/webhooks", `{"url":"`+rc.URL+`/d"}`); r.Status != 409 || r.Code() != "LIMIT_REACHED" {
		t.Fatalf("4th endpoint: %d %s", r.Status, r.Body)
	}

	// The secret is shown only at creation.
	r = s.Get("/v1/webhooks")
	if r.Status != 200 || strings.Contains(string(r.Body), "whsec_") {
		t.Fatalf("list: %d %s", r.Status, r.Body)
	}
	if l := decode[struct{ Webhooks []json.RawMessage }](t, r.Body); len(l.Webhooks) != 3 {
		t.Fatalf("list has %d", len(l.Webhooks))
	}
	r = s.Get("/v1/webhooks/" + created.ID)
	if r.Status != 200 || strings.Contains(string(r.Body), "whsec_") || !strings.Contains(string(r.Body), `"enabled":true`) {
		t.Fatalf("get: %d %s", r.Status, r.Body)
	}

	// Another account sees none of it: 404, like an unknown id.
	acct, err := s.Engine.Accounts.CreateAccount("other", orderengine.TierFree, orderengine.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	otherKey, _, err := s.Engine.Accounts.IssueKey(acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	other := map[string]string{"X-API-Key": otherKey}
	for _, c := range []struct{ method, path string }{
		{"GET", "/v1/webhooks/" + created.ID}, {"DELETE", "/v1/webhooks/" + created.ID},
		{"POST", "/v1/webhooks/" + created.ID + "/test"}, {"GET", "/v1/webhooks/" + created.ID + "/deliveries"},
	} {
		if r := s.Do(c.method, c.path, nil, other); r.Status != 404 || r.Code() != "NOT_FOUND" {
			t.Fatalf("%s %s by another account: %d %s", c.method, c.path, r.Status, r.Body)
		}
	}
	if r := s.Do("GET", "/v1/webhooks", nil, other); !strings.Contains(string(r.Body), `"webhooks":[]`) {
		t.Fatalf("other account's list: %s", r.Body)
	}

	// test.ping arrives signed, and shows in the deliveries.
	r = post("/v1/webhooks/"+created.ID+"/test", "")
	if r.Status != 200 {
		t.Fatalf("test: %d %s", r.Status, r.Body)
	}
	ping := decode[struct{ DeliveryID string }](t, r.Body)
	deadline := time.Now().Add(10 * time.Second)
	for {
		r = s.Get("/v1/webhooks/" + created.ID + "/deliveries")
		if strings.Contains(string(r.Body), `"status":"delivered"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ping not delivered: %s", r.Body)
		}
		time.Sleep(5 * time.Millisecond)
	}
	dl := decode[struct {
		Deliveries []struct {
			ID, Event, Status string
			Attempts          int
			ResponseCode      *int
			NextRetryAt       *string
		}
	}](t, r.Body)
	if d := dl.Deliveries[0]; d.ID != ping.DeliveryID || d.Event != "test.ping" || d.Attempts != 1 || *d.ResponseCode != 200 || d.NextRetryAt != nil {
		t.Fatalf("delivery %+v", d)
	}
	mu.Lock()
	req, body := got[0], bodies[0]
	mu.Unlock()
	if req.URL.Path != "/a" || req.Header.Get(webhook.HeaderDelivery) != ping.DeliveryID {
		t.Fatalf("ping request %s %v", req.URL.Path, req.Header)
	}
	if err := webhook.Verify(req.Header.Get(webhook.HeaderSignature), body, created.Secret, time.Now(), webhook.DefaultTolerance); err != nil {
		t.Fatalf("ping signature: %v", err)
	}

	// Metrics carry the webhook counters.
	m := s.Raw(s.URL, "GET", "/metrics", nil, nil)
	if !strings.Contains(string(m.Body), "orderengine_webhook_deliveries_succeeded_total 1") {
		t.Fatalf("metrics lack the webhook counters")
	}

	// Delete, then it is gone and there is room again.
	if r := s.Do("DELETE", "/v1/webhooks/"+created.ID, nil, key); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if r := s.Get("/v1/webhooks/" + created.ID); r.Status != 404 {
		t.Fatalf("deleted: %d", r.Status)
	}
	if r := post("/v1/webhooks", `{"url":"`+rc.URL+`/d"}`); r.Status != 201 {
		t.Fatalf("after delete: %d %s", r.Status, r.Body)
	}
}

// TestWebhookAPIRefusesInternalTargets: outside dev mode POST /v1/webhooks
// refuses, with 400 INVALID_REQUEST and nothing stored, every target that
// is not https to a public address (docs/webhooks.md, "URL"), zoned IPv6
// literals included.
func TestWebhookAPIRefusesInternalTargets(t *testing.T) {
	s := testserver.NewTestServer(t, testserver.WithConfig(func(c *orderengine.Config) { c.Dev = false }))
	key := map[string]string{"X-API-Key": s.APIKey}
	for _, u := range []string{
		"http://93.184.216.34/hook", "https://127.0.0.1/hook", "https://localhost/hook", "https://10.1.2.3/hook",
		"https://169.254.169.254/latest/meta-data", "https://[::1]/hook", "https://[::ffff:127.0.0.1]/hook",
		"https://[fd00:ec2::254]/latest", "https://[::1%25lo]/hook", "https://[fe80::1%25eth0]/hook",
		"https://[fd00:ec2::254%25eth0]/latest", "https://100.64.0.1/hook", "https://0.0.0.0/hook",
	} {
		body, _ := json.Marshal(map[string]string{"url": u})
		r := s.Do("POST", "/v1/webhooks", body, key)
		if r.Status != 400 || r.Code() != "INVALID_REQUEST" {
			t.Errorf("POST /v1/webhooks %s: %d %s, want 400 INVALID_REQUEST", u, r.Status, r.Body)
		}
	}
	if r := s.Get("/v1/webhooks"); !strings.Contains(string(r.Body), `"webhooks":[]`) {
		t.Fatalf("a refused target was stored: %s", r.Body)
	}
	// A public https target is accepted.
	if r := s.Do("POST", "/v1/webhooks", []byte(`{"url":"https://93.184.216.34/hook"}`), key); r.Status != 201 {
		t.Fatalf("public https target: %d %s", r.Status, r.Body)
	}
}
