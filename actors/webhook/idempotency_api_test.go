package webhook_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/clock"
)

// TestCreateWebhookIdempotencyKey: POST /v1/webhooks with an
// Idempotency-Key answers a retried create with its first answer (the same
// endpoint and secret, nothing created), also after a restart, and also to
// concurrent retries; the key with another body is 400 INVALID_REQUEST;
// keys are per account; a failed create is not remembered; after 24 hours
// the key makes a new endpoint.
func TestCreateWebhookIdempotencyKey(t *testing.T) {
	clk := clock.NewManual(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	s := apptest.NewTestServer(t, apptest.WithClock(clk), apptest.WithConfig(func(c *config.Config) {
		c.Dev = true
		c.Webhooks.MaxEndpoints = 3
	}))
	rc := newSignedReceiver(t)
	create := func(idem, body string) *apptest.Response {
		t.Helper()
		return s.Do("POST", "/v1/webhooks", []byte(body), map[string]string{"X-API-Key": s.APIKey, "Idempotency-Key": idem})
	}
	count := func() int {
		t.Helper()
		var l struct{ Webhooks []createdHook }
		decodeJSON(t, s.Get("/v1/webhooks").Body, &l)
		return len(l.Webhooks)
	}
	body := `{"url":"` + rc.url + `","events":["order.filled","test.ping"]}`

	first := create("create-1", body)
	if first.Status != 201 {
		t.Fatalf("create: %d %s", first.Status, first.Body)
	}
	hook := decode[createdHook](t, first.Body)
	// The same body with its events in another order is the same request.
	same := `{"events":["test.ping","order.filled"],"url":"` + rc.url + `"}`
	for _, b := range []string{body, same} {
		r := create("create-1", b)
		if r.Status != 201 || string(r.Body) != string(first.Body) {
			t.Fatalf("retry: %d %s, want the first answer %s", r.Status, r.Body, first.Body)
		}
	}
	var wg sync.WaitGroup
	answers := make([]string, 8)
	for i := range answers {
		wg.Go(func() { answers[i] = string(create("create-1", body).Body) })
	}
	wg.Wait()
	for _, a := range answers {
		if a != string(first.Body) {
			t.Fatalf("a concurrent retry answered %s", a)
		}
	}
	if n := count(); n != 1 {
		t.Fatalf("%d endpoints after the retries, want 1", n)
	}
	// The secret of the replayed answer signs the deliveries.
	if r := s.Do("POST", "/v1/webhooks/"+hook.ID+"/test", nil, map[string]string{"X-API-Key": s.APIKey}); r.Status != 200 {
		t.Fatalf("test: %d %s", r.Status, r.Body)
	}
	s.Webhooks.Wake()
	if d := rc.waitFor(t, 1)[0]; !d.signedWith(hook.Secret) {
		t.Fatalf("the delivery %s is not signed with the secret of the answer", d.signature)
	}

	r := create("create-1", `{"url":"`+rc.url+`/other"}`)
	if r.Status != 400 || r.Code() != "INVALID_REQUEST" || !strings.Contains(string(r.Body), "Idempotency-Key") {
		t.Fatalf("the key with another body: %d %s", r.Status, r.Body)
	}
	for _, bad := range []string{strings.Repeat("k", 256), "tab\there"} {
		if r := create(bad, body); r.Status != 400 || r.Code() != "INVALID_REQUEST" {
			t.Fatalf("key %q: %d %s", bad, r.Status, r.Body)
		}
	}

	// After a restart the key still answers the same.
	s.Restart()
	if r := create("create-1", body); r.Status != 201 || string(r.Body) != string(first.Body) {
		t.Fatalf("retry after a restart: %d %s", r.Status, r.Body)
	}

	// Keys are per account: another account's create with the same key is
	// its own.
	other := otherKey(t, s)
	other["Idempotency-Key"] = "create-1"
	r = s.Do("POST", "/v1/webhooks", []byte(body), other)
	if r.Status != 201 || decode[createdHook](t, r.Body).ID == hook.ID {
		t.Fatalf("another account with the same key: %d %s", r.Status, r.Body)
	}

	// A failed create is not remembered: once there is room, the retry
	// with the same key creates.
	for i, u := range []string{"/b", "/c"} {
		if r := create("fill-"+string(rune('a'+i)), `{"url":"`+rc.url+u+`"}`); r.Status != 201 {
			t.Fatalf("fill: %d %s", r.Status, r.Body)
		}
	}
	if r := create("late", `{"url":"`+rc.url+`/d"}`); r.Status != 409 || r.Code() != "LIMIT_REACHED" {
		t.Fatalf("4th endpoint: %d %s", r.Status, r.Body)
	}
	if r := s.Do("DELETE", "/v1/webhooks/"+hook.ID, nil, map[string]string{"X-API-Key": s.APIKey}); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	late := create("late", `{"url":"`+rc.url+`/d"}`)
	if late.Status != 201 {
		t.Fatalf("the refused create retried once there is room: %d %s", late.Status, late.Body)
	}
	// The deleted endpoint's key still answers its create (24 h), and
	// creates nothing.
	if r := create("create-1", body); r.Status != 201 || string(r.Body) != string(first.Body) || count() != 3 {
		t.Fatalf("replay of a deleted endpoint's create: %d %s, %d endpoints", r.Status, r.Body, count())
	}

	// 24 hours later the key is forgotten: the same create is a new one.
	clk.Advance(24*time.Hour + time.Second)
	if r := s.Do("DELETE", "/v1/webhooks/"+decode[createdHook](t, late.Body).ID, nil, map[string]string{"X-API-Key": s.APIKey}); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	again := create("create-1", body)
	if again.Status != 201 || decode[createdHook](t, again.Body).ID == hook.ID || decode[createdHook](t, again.Body).Secret == hook.Secret {
		t.Fatalf("the key after 24 h: %d %s, want a new endpoint", again.Status, again.Body)
	}
}
