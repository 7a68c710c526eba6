package webhook_test

import (
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/clock"
)

type deliveryLog struct {
	Deliveries []struct {
		ID, Event, Status string
		Attempts          int
		NextRetryAt       *time.Time
		AttemptLog        []struct{ Attempt, ResponseCode int }
	}
}

// TestRotateWebhookSecret: a rotation answers a new secret; during the
// overlap every delivery carries two v1 signatures (the new secret's
// first), each verified here with its own secret, also after a restart;
// the endpoint shows when the overlap ends. Once it ended, and after a
// rotation with no overlap, one v1 of the newest secret. An overlap out of
// range or an unknown field is 400, another account's endpoint 404.
func TestRotateWebhookSecret(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	clk := clock.NewManual(t0)
	s := apptest.NewTestServer(t, apptest.WithClock(clk), apptest.WithConfig(func(c *config.Config) { c.Dev = true }))
	rc := newSignedReceiver(t)
	key := map[string]string{"X-API-Key": s.APIKey}
	hook := decode[createdHook](t, s.Do("POST", "/v1/webhooks", []byte(`{"url":"`+rc.url+`"}`), key).Body)
	ping := func(n int) delivery {
		t.Helper()
		if r := s.Do("POST", "/v1/webhooks/"+hook.ID+"/test", nil, key); r.Status != 200 {
			t.Fatalf("test: %d %s", r.Status, r.Body)
		}
		return rc.waitFor(t, n)[n-1]
	}
	rotate := func(body string) *apptest.Response {
		t.Helper()
		return s.Do("POST", "/v1/webhooks/"+hook.ID+"/rotate-secret", []byte(body), key)
	}

	for _, body := range []string{`{"overlapSeconds":-1}`, `{"overlapSeconds":604801}`, `{"overlap":60}`, `[]`} {
		if r := rotate(body); r.Status != 400 || r.Code() != "INVALID_REQUEST" {
			t.Fatalf("rotate %s: %d %s", body, r.Status, r.Body)
		}
	}
	if r := s.Do("POST", "/v1/webhooks/"+hook.ID+"/rotate-secret", []byte(`{}`), otherKey(t, s)); r.Status != 404 || r.Code() != "NOT_FOUND" {
		t.Fatalf("another account rotates the endpoint: %d %s", r.Status, r.Body)
	}

	r := rotate(`{"overlapSeconds":3600}`)
	if r.Status != 200 {
		t.Fatalf("rotate: %d %s", r.Status, r.Body)
	}
	var rotated struct {
		createdHook
		PreviousSecretExpiresAt time.Time
	}
	decodeJSON(t, r.Body, &rotated)
	if rotated.ID != hook.ID || !strings.HasPrefix(rotated.Secret, "whsec_") || rotated.Secret == hook.Secret ||
		!rotated.PreviousSecretExpiresAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("rotation answer %s", r.Body)
	}
	if r := s.Get("/v1/webhooks/" + hook.ID); strings.Contains(string(r.Body), "whsec_") || !strings.Contains(string(r.Body), `"previousSecretExpiresAt":"2026-11-22T13:00:00Z"`) {
		t.Fatalf("GET during the overlap: %s", r.Body)
	}
	both := func(d delivery) {
		t.Helper()
		_, v1 := d.signatures()
		if len(v1) != 2 || !d.signedWith(rotated.Secret) || !d.signedWith(hook.Secret) {
			t.Fatalf("during the overlap: %s, want a v1 of each secret", d.signature)
		}
		new := delivery{signature: "t=" + strings.Split(strings.TrimPrefix(d.signature, "t="), ",")[0] + ",v1=" + v1[0], body: d.body}
		if !new.signedWith(rotated.Secret) {
			t.Fatalf("the first v1 of %s is not the new secret's", d.signature)
		}
	}
	both(ping(1))
	s.Restart()
	both(ping(2))

	clk.Advance(time.Hour)
	s.Webhooks.Wake()
	d := ping(3)
	if _, v1 := d.signatures(); len(v1) != 1 || !d.signedWith(rotated.Secret) {
		t.Fatalf("after the overlap: %s, want one v1 of the new secret", d.signature)
	}
	if r := s.Get("/v1/webhooks/" + hook.ID); strings.Contains(string(r.Body), "previousSecretExpiresAt") {
		t.Fatalf("GET after the overlap: %s", r.Body)
	}

	r = rotate(`{"overlapSeconds":0}`)
	third := decode[createdHook](t, r.Body)
	if r.Status != 200 || third.Secret == rotated.Secret || strings.Contains(string(r.Body), "previousSecretExpiresAt") {
		t.Fatalf("rotate without overlap: %d %s", r.Status, r.Body)
	}
	d = ping(4)
	if _, v1 := d.signatures(); len(v1) != 1 || !d.signedWith(third.Secret) || d.signedWith(rotated.Secret) {
		t.Fatalf("after a rotation without overlap: %s, want one v1 of the newest secret", d.signature)
	}
	// {} rotates with the default overlap of a day.
	r = rotate(`{}`)
	var def struct{ PreviousSecretExpiresAt time.Time }
	decodeJSON(t, r.Body, &def)
	if r.Status != 200 || !def.PreviousSecretExpiresAt.Equal(clk.Now().UTC().Add(24*time.Hour)) {
		t.Fatalf("rotate {}: %d %s", r.Status, r.Body)
	}
}

// TestResendWebhookDelivery: a delivered test.ping resent is attempted
// again now under the same delivery id, with the same body and a valid
// signature; the log shows the second attempt. A delivery being retried
// is attempted now instead of at its retry time. An unknown delivery, or
// another account's endpoint, answers 404.
func TestResendWebhookDelivery(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	clk := clock.NewManual(t0)
	s := apptest.NewTestServer(t, apptest.WithClock(clk), apptest.WithConfig(func(c *config.Config) {
		c.Dev = true
		c.Webhooks.JitterPpm = 0
	}))
	rc := newSignedReceiver(t)
	key := map[string]string{"X-API-Key": s.APIKey}
	hook := decode[createdHook](t, s.Do("POST", "/v1/webhooks", []byte(`{"url":"`+rc.url+`"}`), key).Body)
	sent := decode[struct{ DeliveryID string }](t, s.Do("POST", "/v1/webhooks/"+hook.ID+"/test", nil, key).Body)
	first := rc.waitFor(t, 1)[0]
	logOf := func() deliveryLog {
		t.Helper()
		var l deliveryLog
		decodeJSON(t, s.Get("/v1/webhooks/"+hook.ID+"/deliveries").Body, &l)
		return l
	}
	eventually(t, "the test delivery recorded as delivered", func() bool {
		l := logOf()
		return len(l.Deliveries) == 1 && l.Deliveries[0].Status == "delivered"
	})

	path := "/v1/webhooks/" + hook.ID + "/deliveries/" + sent.DeliveryID + "/resend"
	r := s.Do("POST", path, nil, key)
	var resent struct {
		ID, Status  string
		Attempts    int
		NextRetryAt *time.Time
	}
	decodeJSON(t, r.Body, &resent)
	if r.Status != 200 || resent.ID != sent.DeliveryID || resent.Status != "pending" || resent.Attempts != 1 || resent.NextRetryAt == nil {
		t.Fatalf("resend: %d %s", r.Status, r.Body)
	}
	second := rc.waitFor(t, 2)[1]
	if second.id != first.id || string(second.body) != string(first.body) || !second.signedWith(hook.Secret) {
		t.Fatalf("resent delivery %+v, want the first one's id and body, signed", second)
	}
	eventually(t, "the resent delivery recorded", func() bool {
		l := logOf()
		return len(l.Deliveries) == 1 && l.Deliveries[0].Status == "delivered" && l.Deliveries[0].Attempts == 2
	})

	for _, p := range []string{
		"/v1/webhooks/" + hook.ID + "/deliveries/evt_unknown0000000000000/resend",
		"/v1/webhooks/wh_unknown00000000000/deliveries/" + sent.DeliveryID + "/resend",
	} {
		if r := s.Do("POST", p, nil, key); r.Status != 404 || r.Code() != "NOT_FOUND" {
			t.Fatalf("POST %s: %d %s", p, r.Status, r.Body)
		}
	}
	if r := s.Do("POST", path, nil, otherKey(t, s)); r.Status != 404 {
		t.Fatalf("another account resends: %d %s", r.Status, r.Body)
	}

	// A failing endpoint's delivery waits 5 s for its retry; a resend
	// attempts it now.
	failing := newRecorder(t, func() int { return 503 })
	bad := decode[createdHook](t, s.Do("POST", "/v1/webhooks", []byte(`{"url":"`+failing.URL+`"}`), key).Body)
	ping := decode[struct{ DeliveryID string }](t, s.Do("POST", "/v1/webhooks/"+bad.ID+"/test", nil, key).Body)
	eventually(t, "the first attempt", func() bool { reqs, _ := failing.all(); return len(reqs) == 1 })
	var waiting deliveryLog
	eventually(t, "the first attempt recorded", func() bool {
		decodeJSON(t, s.Get("/v1/webhooks/"+bad.ID+"/deliveries").Body, &waiting)
		return len(waiting.Deliveries) == 1 && waiting.Deliveries[0].Attempts == 1
	})
	if w := waiting.Deliveries[0]; w.Status != "pending" || w.NextRetryAt == nil || !w.NextRetryAt.Equal(t0.Add(5*time.Second)) {
		t.Fatalf("after a failed attempt: %+v", w)
	}
	r = s.Do("POST", "/v1/webhooks/"+bad.ID+"/deliveries/"+ping.DeliveryID+"/resend", nil, key)
	if r.Status != 200 || !strings.Contains(string(r.Body), `"nextRetryAt":"2026-11-22T12:00:00Z"`) {
		t.Fatalf("resend of a waiting delivery: %d %s", r.Status, r.Body)
	}
	eventually(t, "the resent attempt, before the retry time", func() bool { reqs, _ := failing.all(); return len(reqs) == 2 })
	var after deliveryLog
	eventually(t, "the second attempt recorded", func() bool {
		decodeJSON(t, s.Get("/v1/webhooks/"+bad.ID+"/deliveries").Body, &after)
		return len(after.Deliveries) == 1 && after.Deliveries[0].Attempts == 2
	})
	if w := after.Deliveries[0]; w.Status != "pending" || !w.NextRetryAt.Equal(t0.Add(5*time.Minute)) {
		t.Fatalf("after the resent attempt failed: %+v (want the schedule's second delay)", w)
	}
}
