package webhook_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/internal/clock"
)

// TestWebhookAPI drives the management API end to end through the real
// server; every answer is validated against the OpenAPI document.
func TestWebhookAPI(t *testing.T) {
	s := apptest.NewTestServer(t)
	rc := newRecorder(t, func() int { return 200 })
	key := map[string]string{"X-API-Key": s.APIKey}
	post := func(path, body string) *apptest.Response {
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
	acct, err := s.System.Accounts.CreateAccount("other", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	otherKey, _, err := s.System.Accounts.IssueKey(acct.ID)
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
	got, bodies := rc.all()
	req, body := got[0], bodies[0]
	if req.URL.Path != "/a" || req.Header.Get(webhook.HeaderDelivery) != ping.DeliveryID {
		t.Fatalf("ping request %s %v", req.URL.Path, req.Header)
	}
	if err := webhook.Verify(req.Header.Get(webhook.HeaderSignature), body, created.Secret, time.Now(), webhook.DefaultTolerance); err != nil {
		t.Fatalf("ping signature: %v", err)
	}

	// Metrics carry the webhook counters.
	m := s.Raw(s.AdminURL, "GET", "/metrics", nil, nil) // http.metricsOnAdmin
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
	s := apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) { c.Dev = false }))
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

// TestWebhookAPIRetriesDisableAndRecreate: over HTTP with the engine's
// clock moved by hand, a failing endpoint gets the same delivery (same id,
// signed each time) on the retry schedule of contract.md section 7 until
// it is failed after about a day; the endpoint, failing for 24 h, is then
// disabled (GET shows it, with reason and time). Re-creating it (same URL)
// re-enables it with the same id and a new secret, even when the account
// is at its 3 endpoints, and the next test.ping arrives signed with the
// new secret.
func TestWebhookAPIRetriesDisableAndRecreate(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	clk := clock.NewManual(t0)
	s := apptest.NewTestServer(t, apptest.WithClock(clk),
		apptest.WithTier(config.TierEnterprise, config.BucketLimits{Quote: 1000, Read: 1000, Order: 1000}),
		apptest.WithConfig(func(c *config.Config) { c.Webhooks.JitterPpm = 0 }))
	var healthy atomic.Bool
	rc := newRecorder(t, func() int {
		if healthy.Load() {
			return 204
		}
		return 500
	})
	key := map[string]string{"X-API-Key": s.APIKey}
	type created struct {
		ID, Secret, DisabledReason string
		Enabled                    bool
		DisabledAt                 *time.Time
	}
	r := s.Do("POST", "/v1/webhooks", []byte(`{"url":"`+rc.URL+`/hook"}`), key)
	ep := decode[created](t, r.Body)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	for _, p := range []string{"/b", "/c"} {
		if r := s.Do("POST", "/v1/webhooks", []byte(`{"url":"`+rc.URL+p+`"}`), key); r.Status != 201 {
			t.Fatalf("create %s: %d %s", p, r.Status, r.Body)
		}
	}
	ping := decode[struct{ DeliveryID string }](t, s.Do("POST", "/v1/webhooks/"+ep.ID+"/test", nil, key).Body)
	type deliveryView struct {
		ID, Status  string
		Attempts    int
		NextRetryAt *time.Time
		AttemptLog  []struct{ At time.Time }
	}
	delivery := func() deliveryView {
		t.Helper()
		l := decode[struct{ Deliveries []deliveryView }](t, s.Get("/v1/webhooks/"+ep.ID+"/deliveries").Body)
		if len(l.Deliveries) != 1 {
			t.Fatalf("%d deliveries", len(l.Deliveries))
		}
		return l.Deliveries[0]
	}
	waitAttempts := func(n int) deliveryView {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			if d := delivery(); d.Attempts == n {
				return d
			}
			if time.Now().After(deadline) {
				t.Fatalf("attempt %d never recorded: %+v", n, delivery())
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	schedule := []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour}
	d := waitAttempts(1)
	for i, delay := range schedule {
		if d.Status != "pending" || d.NextRetryAt == nil || !d.NextRetryAt.Equal(clk.Now().Add(delay)) {
			t.Fatalf("after attempt %d: %+v, want the next one %v later", i+1, d, delay)
		}
		clk.Advance(delay)
		s.Webhooks.Wake()
		d = waitAttempts(i + 2)
	}
	if d.Status != "failed" || d.NextRetryAt != nil || d.ID != ping.DeliveryID {
		t.Fatalf("after the schedule: %+v", d)
	}
	if span := d.AttemptLog[len(d.AttemptLog)-1].At.Sub(d.AttemptLog[0].At); span < 24*time.Hour || span > 30*time.Hour {
		t.Fatalf("the attempts span %v, want about a day", span)
	}
	got, bodies := rc.all()
	for i, req := range got {
		if req.Header.Get(webhook.HeaderDelivery) != ping.DeliveryID || req.Header.Get(webhook.HeaderEvent) != "test.ping" ||
			webhook.Verify(req.Header.Get(webhook.HeaderSignature), bodies[i], ep.Secret, d.AttemptLog[i].At, webhook.DefaultTolerance) != nil {
			t.Errorf("attempt %d: headers %v", i+1, req.Header)
		}
	}
	n := len(got)
	if n != 8 {
		t.Fatalf("%d requests, want 8 attempts", n)
	}
	var view created
	deadline := time.Now().Add(10 * time.Second)
	for view = decode[created](t, s.Get("/v1/webhooks/"+ep.ID).Body); view.Enabled; view = decode[created](t, s.Get("/v1/webhooks/"+ep.ID).Body) {
		if time.Now().After(deadline) {
			t.Fatal("endpoint not disabled after 24 h of failures")
		}
		time.Sleep(2 * time.Millisecond)
	}
	if view.DisabledReason == "" || view.DisabledAt == nil || view.DisabledAt.Sub(t0) < 24*time.Hour {
		t.Fatalf("disabled endpoint %+v", view)
	}
	// Three endpoints, one disabled: a fourth is still refused, the
	// disabled one is re-created.
	if r := s.Do("POST", "/v1/webhooks", []byte(`{"url":"`+rc.URL+`/d"}`), key); r.Status != 409 || r.Code() != "LIMIT_REACHED" {
		t.Fatalf("4th endpoint: %d %s", r.Status, r.Body)
	}
	healthy.Store(true)
	r = s.Do("POST", "/v1/webhooks", []byte(`{"url":"`+rc.URL+`/hook","events":["order.filled"]}`), key)
	again := decode[created](t, r.Body)
	if r.Status != 201 || again.ID != ep.ID || !again.Enabled || again.Secret == ep.Secret || again.DisabledReason != "" || again.DisabledAt != nil {
		t.Fatalf("re-create: %d %s", r.Status, r.Body)
	}
	if l := decode[struct{ Webhooks []created }](t, s.Get("/v1/webhooks").Body); len(l.Webhooks) != 3 {
		t.Fatalf("re-creating added an endpoint: %d", len(l.Webhooks))
	}
	ping2 := decode[struct{ DeliveryID string }](t, s.Do("POST", "/v1/webhooks/"+ep.ID+"/test", nil, key).Body)
	deadline = time.Now().Add(10 * time.Second)
	for {
		var last *http.Request
		var body []byte
		if got, bodies := rc.all(); len(got) > n {
			last, body = got[len(got)-1], bodies[len(bodies)-1]
		}
		if last != nil {
			if last.Header.Get(webhook.HeaderDelivery) != ping2.DeliveryID ||
				webhook.Verify(last.Header.Get(webhook.HeaderSignature), body, again.Secret, clk.Now(), webhook.DefaultTolerance) != nil {
				t.Fatalf("ping after re-create: %v", last.Header)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no delivery after re-create")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// recorder is a webhook receiver that answers status() and keeps every
// request with its body.
type recorder struct {
	*httptest.Server
	mu     sync.Mutex
	reqs   []*http.Request
	bodies [][]byte
}

func newRecorder(t *testing.T, status func() int) *recorder {
	rc := &recorder{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.reqs, rc.bodies = append(rc.reqs, r), append(rc.bodies, b)
		rc.mu.Unlock()
		w.WriteHeader(status())
	}))
	t.Cleanup(rc.Close)
	return rc
}

// all returns the requests received so far and their bodies.
func (rc *recorder) all() ([]*http.Request, [][]byte) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.reqs), slices.Clone(rc.bodies)
}
