package webhook_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestScheduleExhaustedMarksFailed: with a two-retry schedule the third
// failure ends the delivery as failed, with no next retry, and counts it
// as abandoned.
func TestScheduleExhaustedMarksFailed(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.cfg.Retry = []time.Duration{time.Second, time.Minute} })
	rc := newReceiver(t, func(*http.Request, int) (int, http.Header) { return 500, nil })
	ep := h.create("acc_a", rc.srv.URL)
	if _, err := h.m.Test("acc_a", ep.ID); err != nil {
		t.Fatal(err)
	}
	for i, d := range []time.Duration{0, time.Second, time.Minute} {
		h.advance(d)
		eventually(t, "attempt "+strconv.Itoa(i+1), func() bool {
			l, _ := h.m.Deliveries("acc_a", ep.ID)
			return len(l.Deliveries) == 1 && l.Deliveries[0].Attempts == i+1
		})
	}
	eventually(t, "failed", func() bool { return h.lastDelivery("acc_a", ep.ID).Status == "failed" })
	d := h.lastDelivery("acc_a", ep.ID)
	if d.NextRetryAt != nil || len(d.AttemptLog) != 3 || d.AttemptLog[2].Attempt != 3 {
		t.Fatalf("failed delivery %+v", d)
	}
	h.advance(time.Hour)
	if rc.count() != 3 {
		t.Fatalf("attempted after the schedule ended: %d requests", rc.count())
	}
	if s := h.m.Stats(); s.Abandoned != 1 || s.Failed != 3 || s.Retried != 2 {
		t.Fatalf("stats %+v", s)
	}
}

// TestRedirectAndTimeoutAreFailures: a 3xx is not followed and counts as a
// failed attempt; an answer slower than the timeout is a failed attempt,
// recorded (dev mode, loopback receiver) as the generic "connection
// failed" (failure_internal_test.go has the production texts).
func TestRedirectAndTimeoutAreFailures(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.cfg.Timeout = 300 * time.Millisecond })
	target := newReceiver(t, nil)
	redirect := newReceiver(t, func(*http.Request, int) (int, http.Header) {
		return 307, http.Header{"Location": {target.srv.URL}}
	})
	release := make(chan struct{})
	defer close(release)
	slow := newReceiver(t, func(r *http.Request, _ int) (int, http.Header) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		return 200, nil
	})
	red := h.create("acc_a", redirect.srv.URL)
	slo := h.create("acc_b", slow.srv.URL)
	for _, c := range []struct{ acct, id string }{{"acc_a", red.ID}, {"acc_b", slo.ID}} {
		if _, err := h.m.Test(c.acct, c.id); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "both attempted", func() bool {
		a, _ := h.m.Deliveries("acc_a", red.ID)
		b, _ := h.m.Deliveries("acc_b", slo.ID)
		return len(a.Deliveries) == 1 && a.Deliveries[0].Attempts == 1 && len(b.Deliveries) == 1 && b.Deliveries[0].Attempts == 1
	})
	if d := h.lastDelivery("acc_a", red.ID); d.Status != "pending" || d.ResponseCode == nil || *d.ResponseCode != 307 {
		t.Fatalf("redirect: %+v", d)
	}
	if target.count() != 0 {
		t.Fatal("the redirect was followed")
	}
	if d := h.lastDelivery("acc_b", slo.ID); d.Status != "pending" || d.Error != "connection failed" || d.ResponseCode != nil {
		t.Fatalf("timeout: %+v", d)
	}
}
