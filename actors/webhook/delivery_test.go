package webhook_test

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/webhookstore"
)

func TestPingDeliveredSigned(t *testing.T) {
	h := newHarness(t, nil)
	rc := newReceiver(t, nil)
	ep := h.create("acc_a", rc.srv.URL+"/hook")
	if !strings.HasPrefix(ep.Secret, "whsec_") || !ep.Enabled || !ep.AllEvents {
		t.Fatalf("created: %+v", ep)
	}
	res, err := h.m.Test("acc_a", ep.ID)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "ping received", func() bool { return rc.count() == 1 })
	got := rc.all()[0]
	if ct := got.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	if ev := got.Header.Get(webhook.HeaderEvent); ev != "test.ping" {
		t.Errorf("%s %q", webhook.HeaderEvent, ev)
	}
	if id := got.Header.Get(webhook.HeaderDelivery); id != res.DeliveryID {
		t.Errorf("%s %q, want %q", webhook.HeaderDelivery, id, res.DeliveryID)
	}
	sig := got.Header.Get(webhook.HeaderSignature)
	if err := webhook.Verify(sig, got.Body, ep.Secret, h.clock.Now(), webhook.DefaultTolerance); err != nil {
		t.Fatalf("signature %q does not verify: %v", sig, err)
	}
	if !strings.HasPrefix(sig, "t="+strconv.FormatInt(h.clock.Now().Unix(), 10)+",v1=") {
		t.Errorf("signature timestamp not from the engine clock: %q", sig)
	}
	body := decode[struct {
		ID, Trigger, CreatedAt string
		Data                   map[string]any
	}](t, got.Body)
	if body.ID != res.DeliveryID || body.Trigger != "test.ping" || body.Data == nil {
		t.Fatalf("body %s", got.Body)
	}
	if ts, err := time.Parse(time.RFC3339, body.CreatedAt); err != nil || !ts.Equal(t0) {
		t.Fatalf("createdAt %q not RFC 3339 at the engine clock: %v", body.CreatedAt, err)
	}
	eventually(t, "outcome persisted", func() bool {
		l, err := h.m.Deliveries("acc_a", ep.ID)
		return err == nil && len(l.Deliveries) == 1 && l.Deliveries[0].Status == webhookstore.DeliveryDelivered
	})
	l, _ := h.m.Deliveries("acc_a", ep.ID)
	d := l.Deliveries[0]
	if d.ID != res.DeliveryID || d.Attempts != 1 || d.ResponseCode == nil || *d.ResponseCode != 200 || d.NextRetryAt != nil || d.LatencyMs == nil {
		t.Fatalf("delivery view %+v", d)
	}
	if s := h.m.Stats(); s.Attempted != 1 || s.Succeeded != 1 || s.Failed != 0 {
		t.Fatalf("stats %+v", s)
	}
}

func TestFanoutHonoursSubscriptions(t *testing.T) {
	h := newHarness(t, nil)
	all := newReceiver(t, nil)
	filled := newReceiver(t, nil)
	other := newReceiver(t, nil)
	h.create("acc_a", all.srv.URL)
	h.create("acc_a", filled.srv.URL, "order.filled")
	h.create("acc_b", other.srv.URL)
	h.emit("acc_a", persistence.TriggerOrderCancelled)
	h.emit("acc_a", persistence.TriggerOrderFilled)
	h.emit("acc_a", persistence.TriggerOrderFailed)
	eventually(t, "all three at the all-events endpoint", func() bool { return all.count() == 3 })
	eventually(t, "the filled event at the subset endpoint", func() bool { return filled.count() == 1 })
	if got := filled.all()[0].Header.Get(webhook.HeaderEvent); got != "order.filled" {
		t.Fatalf("subset endpoint got %q", got)
	}
	seen := map[string]bool{}
	for _, r := range all.all() {
		seen[r.Header.Get(webhook.HeaderEvent)] = true
	}
	if !seen["order.cancelled"] || !seen["order.filled"] || !seen["order.failed"] {
		t.Fatalf("all-events endpoint got %v", seen)
	}
	// The outbox is drained by the fan-out.
	eventually(t, "outbox empty", func() bool {
		left, err := h.outbox.Scan("acc_a", 0, 10)
		return err == nil && len(left) == 0
	})
	if other.count() != 0 {
		t.Fatalf("another account's endpoint got %d deliveries", other.count())
	}
}

// lastDelivery returns the newest delivery of an endpoint.
func (h *harness) lastDelivery(account, id string) webhook.DeliveryView {
	h.t.Helper()
	l, err := h.m.Deliveries(account, id)
	if err != nil || len(l.Deliveries) == 0 {
		h.t.Fatalf("deliveries: %+v %v", l, err)
	}
	return l.Deliveries[0]
}

func TestRetriesFollowScheduleAndRetryAfter(t *testing.T) {
	h := newHarness(t, nil)
	var failUntil atomic.Int32
	failUntil.Store(100)
	rc := newReceiver(t, func(r *http.Request, n int) (int, http.Header) {
		if n == 3 {
			return 503, http.Header{"Retry-After": {"120"}}
		}
		if int32(n) <= failUntil.Load() {
			return 500, nil
		}
		return 200, nil
	})
	ep := h.create("acc_a", rc.srv.URL)
	if _, err := h.m.Test("acc_a", ep.ID); err != nil {
		t.Fatal(err)
	}
	start := h.clock.Now()
	waitAttempts := func(n int) webhook.DeliveryView {
		t.Helper()
		eventually(t, "attempt "+strconv.Itoa(n), func() bool {
			l, err := h.m.Deliveries("acc_a", ep.ID)
			return err == nil && len(l.Deliveries) == 1 && l.Deliveries[0].Attempts == n
		})
		return h.lastDelivery("acc_a", ep.ID)
	}
	d := waitAttempts(1)
	if d.Status != "pending" || d.NextRetryAt == nil || !d.NextRetryAt.Equal(start.Add(5*time.Second)) || *d.ResponseCode != 500 {
		t.Fatalf("after attempt 1: %+v", d)
	}
	// Just before the retry is due nothing happens.
	h.advance(5*time.Second - time.Millisecond)
	h.m.Wake()
	if rc.count() != 1 {
		t.Fatalf("retried early: %d requests", rc.count())
	}
	h.advance(time.Millisecond)
	d = waitAttempts(2)
	if !d.NextRetryAt.Equal(start.Add(5*time.Second + 5*time.Minute)) {
		t.Fatalf("after attempt 2 next retry %v", d.NextRetryAt)
	}
	h.advance(5 * time.Minute)
	d = waitAttempts(3) // answered 503 with Retry-After: 120
	want := start.Add(5*time.Second + 5*time.Minute + 120*time.Second)
	if !d.NextRetryAt.Equal(want) || *d.ResponseCode != 503 {
		t.Fatalf("Retry-After not honoured: next %v want %v (%+v)", d.NextRetryAt, want, d)
	}
	failUntil.Store(0)
	h.advance(120 * time.Second)
	d = waitAttempts(4)
	eventually(t, "delivered", func() bool { return h.lastDelivery("acc_a", ep.ID).Status == "delivered" })
	ids := map[string]bool{}
	for _, r := range rc.all() {
		ids[r.Header.Get(webhook.HeaderDelivery)] = true
	}
	if len(ids) != 1 || rc.count() != 4 {
		t.Fatalf("delivery id changed across retries or wrong count: %v, %d requests", ids, rc.count())
	}
	if s := h.m.Stats(); s.Attempted != 4 || s.Retried != 3 || s.Failed != 3 || s.Succeeded != 1 {
		t.Fatalf("stats %+v", s)
	}
}

func TestJitterWithinBounds(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.cfg.JitterPpm = 200_000 })
	rc := newReceiver(t, func(*http.Request, int) (int, http.Header) { return 500, nil })
	ep := h.create("acc_a", rc.srv.URL)
	for range 20 {
		if _, err := h.m.Test("acc_a", ep.ID); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "20 first attempts", func() bool {
		l, _ := h.m.Deliveries("acc_a", ep.ID)
		n := 0
		for _, d := range l.Deliveries {
			if d.Attempts == 1 {
				n++
			}
		}
		return n == 20
	})
	l, _ := h.m.Deliveries("acc_a", ep.ID)
	distinct := map[time.Duration]bool{}
	for _, d := range l.Deliveries {
		delay := d.NextRetryAt.Sub(*d.LastAttemptAt)
		if delay < 4*time.Second || delay > 6*time.Second {
			t.Fatalf("jittered delay %v outside 5 s ± 20 %%", delay)
		}
		distinct[delay] = true
	}
	if len(distinct) < 2 {
		t.Fatalf("no jitter: %v", distinct)
	}
}

func TestDisableAfterHorizonAndReenable(t *testing.T) {
	h := newHarness(t, nil)
	var healthy atomic.Bool
	rc := newReceiver(t, func(*http.Request, int) (int, http.Header) {
		if healthy.Load() {
			return 204, nil
		}
		return 500, nil
	})
	ep := h.create("acc_a", rc.srv.URL, "order.filled")
	h.emit("acc_a", persistence.TriggerOrderFilled)
	attempts := func() int {
		l, _ := h.m.Deliveries("acc_a", ep.ID)
		if len(l.Deliveries) == 0 {
			return 0
		}
		return l.Deliveries[0].Attempts
	}
	eventually(t, "first attempt", func() bool { return attempts() == 1 })
	for i, d := range h.cfg.Retry {
		got, _ := h.m.Get("acc_a", ep.ID)
		if !got.Enabled {
			break
		}
		h.advance(d)
		eventually(t, "attempt "+strconv.Itoa(i+2), func() bool { return attempts() == i+2 })
	}
	eventually(t, "endpoint disabled", func() bool {
		got, _ := h.m.Get("acc_a", ep.ID)
		return !got.Enabled
	})
	got, _ := h.m.Get("acc_a", ep.ID)
	if got.DisabledReason == "" || got.DisabledAt == nil || got.DisabledAt.Sub(t0) < 24*time.Hour {
		t.Fatalf("disabled view %+v", got)
	}
	if s := h.m.Stats(); s.DisabledTotal != 1 || s.Disabled != 1 {
		t.Fatalf("stats %+v", s)
	}
	// Disabled: new events are not delivered to it.
	n := rc.count()
	h.emit("acc_a", persistence.TriggerOrderFilled)
	eventually(t, "outbox drained", func() bool {
		left, _ := h.outbox.Scan("acc_a", 0, 10)
		return len(left) == 0
	})
	if rc.count() != n {
		t.Fatalf("a disabled endpoint received a delivery")
	}
	// Re-creating re-enables (same id, new secret).
	healthy.Store(true)
	again := h.create("acc_a", rc.srv.URL, "order.filled")
	if again.ID != ep.ID || !again.Enabled || again.Secret == ep.Secret || again.DisabledReason != "" {
		t.Fatalf("re-create: %+v", again)
	}
	if l, err := h.m.List("acc_a"); err != nil || len(l.Webhooks) != 1 {
		t.Fatalf("re-create added an endpoint: %+v", l)
	}
	h.emit("acc_a", persistence.TriggerOrderFilled)
	eventually(t, "delivered after re-enable", func() bool {
		for _, r := range rc.all()[n:] {
			if webhook.Verify(r.Header.Get(webhook.HeaderSignature), r.Body, again.Secret, h.clock.Now(), webhook.DefaultTolerance) == nil {
				return true
			}
		}
		return false
	})
	if s := h.m.Stats(); s.Disabled != 0 {
		t.Fatalf("stats after re-enable %+v", s)
	}
}

func TestRestartResumesOutstanding(t *testing.T) {
	h := newHarness(t, nil)
	var healthy atomic.Bool
	rc := newReceiver(t, func(*http.Request, int) (int, http.Header) {
		if healthy.Load() {
			return 200, nil
		}
		return 500, nil
	})
	ep := h.create("acc_a", rc.srv.URL)
	for range 5 {
		h.emit("acc_a", persistence.TriggerOrderCancelled)
	}
	eventually(t, "five failed first attempts", func() bool { return rc.count() == 5 })
	eventually(t, "outcomes persisted", func() bool {
		l, _ := h.m.Deliveries("acc_a", ep.ID)
		for _, d := range l.Deliveries {
			if d.Attempts != 1 {
				return false
			}
		}
		return len(l.Deliveries) == 5
	})
	h.restart()
	healthy.Store(true)
	h.advance(5 * time.Second)
	eventually(t, "all five delivered after restart", func() bool {
		l, err := h.m.Deliveries("acc_a", ep.ID)
		if err != nil || len(l.Deliveries) != 5 {
			return false
		}
		for _, d := range l.Deliveries {
			if d.Status != "delivered" || d.Attempts != 2 {
				return false
			}
		}
		return true
	})
	// The secret survived the restart (sealed at rest): the retries verify.
	for _, r := range rc.all()[5:] {
		var secretOK bool
		for _, s := range []string{ep.Secret} {
			secretOK = webhook.Verify(r.Header.Get(webhook.HeaderSignature), r.Body, s, h.clock.Now(), webhook.DefaultTolerance) == nil
		}
		if !secretOK {
			t.Fatal("retry after restart not signed with the endpoint's secret")
		}
	}
}

func TestSlowEndpointDoesNotDelayAnother(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.cfg.Concurrency = 2 })
	release := make(chan struct{})
	var inFlight, maxInFlight atomic.Int32
	slow := newReceiver(t, func(r *http.Request, _ int) (int, http.Header) {
		n := inFlight.Add(1)
		for {
			m := maxInFlight.Load()
			if n <= m || maxInFlight.CompareAndSwap(m, n) {
				break
			}
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		inFlight.Add(-1)
		return 200, nil
	})
	fast := newReceiver(t, nil)
	h.create("acc_slow", slow.srv.URL)
	h.create("acc_fast", fast.srv.URL)
	for range 20 {
		h.emit("acc_slow", persistence.TriggerOrderFilled)
		h.emit("acc_fast", persistence.TriggerOrderFilled)
	}
	eventually(t, "fast endpoint got all 20 while the slow one hangs", func() bool { return fast.count() == 20 })
	eventually(t, "slow endpoint saturated", func() bool { return inFlight.Load() == 2 })
	if slow.count() != 2 {
		t.Fatalf("slow endpoint got %d requests with concurrency 2", slow.count())
	}
	close(release)
	eventually(t, "slow endpoint catches up", func() bool { return slow.count() == 20 })
	if maxInFlight.Load() > 2 {
		t.Fatalf("concurrency bound exceeded: %d in flight", maxInFlight.Load())
	}
}

func TestManagementRules(t *testing.T) {
	h := newHarness(t, nil)
	rc := newReceiver(t, nil)
	code := func(err error) orderengine.Code { return orderengine.AsError(err).Code }
	if _, err := h.m.Create(t.Context(), "acc_a", rc.srv.URL, []string{"order.filled", "order.exploded"}); code(err) != orderengine.CodeInvalidRequest {
		t.Fatalf("unknown event: %v", err)
	}
	sub := h.create("acc_a", rc.srv.URL+"/1", "order.failed", "order.filled")
	if sub.AllEvents || len(sub.Events) != 2 || sub.Events[0] != "order.filled" {
		t.Fatalf("subset view %+v", sub)
	}
	h.create("acc_a", rc.srv.URL+"/2")
	h.create("acc_a", rc.srv.URL+"/3")
	if _, err := h.m.Create(t.Context(), "acc_a", rc.srv.URL+"/4", nil); code(err) != orderengine.CodeLimitReached {
		t.Fatalf("4th endpoint: %v", err)
	}
	h.create("acc_b", rc.srv.URL+"/4") // the limit is per account
	if _, err := h.m.Get("acc_b", sub.ID); code(err) != orderengine.CodeNotFound {
		t.Fatalf("another account's endpoint: %v", err)
	}
	if err := h.m.Delete("acc_b", sub.ID); code(err) != orderengine.CodeNotFound {
		t.Fatalf("delete another account's endpoint: %v", err)
	}
	if err := h.m.Delete("acc_a", sub.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := h.m.Get("acc_a", sub.ID); code(err) != orderengine.CodeNotFound {
		t.Fatalf("deleted endpoint: %v", err)
	}
	h.create("acc_a", rc.srv.URL+"/5") // room again
	h.restart()
	if l, err := h.m.List("acc_a"); err != nil || len(l.Webhooks) != 3 {
		t.Fatalf("after restart: %+v", l)
	}
}

// Close waits for the fan-outs in progress, so the store can close right
// after it: a fan-out that committed after the store closed used to panic
// the process at shutdown ("pebble: closed").
func TestCloseWaitsForTheFanOut(t *testing.T) {
	for range 20 {
		h := newHarness(t, nil)
		rc := newReceiver(t, func(*http.Request, int) (int, http.Header) { return 204, nil })
		for i := range 3 {
			h.create("acc_a", rc.srv.URL+"/"+strconv.Itoa(i), "order.filled")
		}
		// One commit of many events: its fan-out takes several batches
		// (a delivery per endpoint per event), so Close finds it
		// running.
		events := make([]persistence.OutboxEvent, 5000)
		for i := range events {
			events[i].Trigger = persistence.TriggerOrderFilled
		}
		emitEvents(t, h.outbox, h.store, "acc_a", events...)
		h.m.Close()
		if err := h.store.Close(); err != nil { // panicked in a fan-out still committing
			t.Fatal(err)
		}
		h.system.Shutdown()
		h.m = nil
	}
}

// backlog reads the two backlog gauges from the manager's collector.
func (h *harness) backlog() (outstanding, unfanned float64) {
	h.t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(h.m.Collector())
	mfs, err := reg.Gather()
	if err != nil {
		h.t.Fatal(err)
	}
	outstanding, unfanned = -1, -1
	for _, mf := range mfs {
		switch mf.GetName() {
		case "orderengine_webhook_deliveries_outstanding":
			outstanding = mf.GetMetric()[0].GetGauge().GetValue()
		case "orderengine_webhook_events_unfanned":
			unfanned = mf.GetMetric()[0].GetGauge().GetValue()
		}
	}
	return outstanding, unfanned
}

// The backlog gauges count what is waiting in the store: deliveries not yet
// delivered (here while the receiver fails) and events not yet fanned out
// (here while no manager runs), and fall to zero once it is done.
func TestBacklogGauges(t *testing.T) {
	h := newHarness(t, nil)
	var ok atomic.Bool
	rc := newReceiver(t, func(*http.Request, int) (int, http.Header) {
		if ok.Load() {
			return 200, nil
		}
		return 500, nil
	})
	h.create("acc_a", rc.srv.URL)
	for range 3 {
		h.emit("acc_a", persistence.TriggerOrderFilled)
	}
	eventually(t, "three failed first attempts", func() bool { return rc.count() == 3 })
	if out, unfanned := h.backlog(); out != 3 || unfanned != 0 {
		t.Fatalf("while the receiver fails: outstanding %v, unfanned %v (want 3, 0)", out, unfanned)
	}
	ok.Store(true)
	h.advance(time.Hour)
	eventually(t, "the backlog delivered", func() bool { out, _ := h.backlog(); return out == 0 })

	h.m.Close() // no fan-out: new events stay in the outbox
	h.emit("acc_a", persistence.TriggerOrderFilled)
	h.emit("acc_a", persistence.TriggerOrderCancelled)
	if out, unfanned := h.backlog(); out != 0 || unfanned != 2 {
		t.Fatalf("without a manager: outstanding %v, unfanned %v (want 0, 2)", out, unfanned)
	}
	h.restart()
	eventually(t, "the events fanned out and delivered", func() bool {
		out, unfanned := h.backlog()
		return out == 0 && unfanned == 0 && rc.count() == 8 // 3 failed, 3 retried, 2 new
	})
}

// An event handed on twice (logged again under a new seq; a crash before
// the outbox cursor's move hands the same row on again) is one delivery
// per endpoint: the second create of the delivery writes nothing and
// sends nothing.
func TestEventHandedOnTwiceIsDeliveredOnce(t *testing.T) {
	h := newHarness(t, nil)
	rc := newReceiver(t, nil)
	ep := h.create("acc_a", rc.srv.URL)
	ev := persistence.OutboxEvent{ID: persistence.NewEventID(), Trigger: persistence.TriggerOrderFilled}
	emitEvents(t, h.outbox, h.store, "acc_a", ev)
	newest := func() webhook.DeliveryView {
		l, err := h.m.Deliveries("acc_a", ep.ID)
		if err != nil || len(l.Deliveries) == 0 {
			return webhook.DeliveryView{}
		}
		return l.Deliveries[0]
	}
	eventually(t, "delivered", func() bool { return newest().Status == webhookstore.DeliveryDelivered })
	emitEvents(t, h.outbox, h.store, "acc_a", ev)
	eventually(t, "the second row consumed", func() bool {
		left, err := h.outbox.Scan("acc_a", 0, 10)
		return err == nil && len(left) == 0
	})
	// A ping queued after the second create: once it arrives, an attempt
	// the second create had queued would have been started too.
	ping, err := h.m.Test("acc_a", ep.ID)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "ping delivered", func() bool {
		for _, r := range rc.all() {
			if r.Header.Get(webhook.HeaderDelivery) == ping.DeliveryID {
				return true
			}
		}
		return false
	})
	n := 0
	for _, r := range rc.all() {
		if r.Header.Get(webhook.HeaderDelivery) == ev.ID {
			n++
		}
	}
	l, _ := h.m.Deliveries("acc_a", ep.ID)
	if n != 1 || len(l.Deliveries) != 2 {
		t.Fatalf("the event was sent %d times; deliveries %+v", n, l.Deliveries)
	}
	for _, d := range l.Deliveries {
		if d.ID == ev.ID && d.Attempts != 1 {
			t.Fatalf("the event's delivery was attempted %d times", d.Attempts)
		}
	}
}

// However many creates of one account race, it ends with at most
// webhooks.maxEndpoints endpoints, every other create is answered
// LIMIT_REACHED, and no actor is left for a refused one.
func TestConcurrentCreatesHoldTheLimit(t *testing.T) {
	h := newHarness(t, nil)
	rc := newReceiver(t, nil)
	const tries = 12
	var ok, limited atomic.Int32
	var wg sync.WaitGroup
	for i := range tries {
		wg.Go(func() {
			_, err := h.m.Create(t.Context(), "acc_a", rc.srv.URL+"/"+strconv.Itoa(i), nil)
			switch {
			case err == nil:
				ok.Add(1)
			case orderengine.AsError(err).Code == orderengine.CodeLimitReached:
				limited.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	max := int32(h.cfg.MaxEndpoints)
	if ok.Load() != max || limited.Load() != tries-max {
		t.Fatalf("%d created, %d refused; want %d and %d", ok.Load(), limited.Load(), max, tries-max)
	}
	if l, err := h.m.List("acc_a"); err != nil || len(l.Webhooks) != int(max) {
		t.Fatalf("list: %+v %v", l, err)
	}
	if n := webhook.LiveEndpointActors(h.m); n != int(max) {
		t.Fatalf("%d endpoint actors live, want %d", n, max)
	}
	// A deleted endpoint's actor stops; an unknown id starts none.
	l, _ := h.m.List("acc_a")
	if err := h.m.Delete("acc_a", l.Webhooks[0].ID); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{l.Webhooks[0].ID, "wh_unknown"} {
		if _, err := h.m.Test("acc_a", id); orderengine.AsError(err).Code != orderengine.CodeNotFound {
			t.Fatalf("test of %s: %v", id, err)
		}
	}
	if n := webhook.LiveEndpointActors(h.m); n != int(max)-1 {
		t.Fatalf("%d endpoint actors live after a delete, want %d", n, max-1)
	}
}

// TestEndpointGetsEventsFromItsCreationOn: an endpoint gets the events of
// the transitions recorded from its creation on; an event of an earlier
// transition handed on only now (a node's fan-out that resumed after an
// outage) is not delivered to it, while an event of a later one is.
func TestEndpointGetsEventsFromItsCreationOn(t *testing.T) {
	h := newHarness(t, nil)
	rv := newReceiver(t, nil)
	h.clock.Advance(time.Hour)
	h.create("acc_a", rv.srv.URL)
	early := persistence.OutboxEvent{ID: "evt_early", Trigger: persistence.TriggerOrderCancelled, CreatedAt: t0,
		Data: persistence.EventData{OrderType: "limit"}}
	emitEvents(t, h.outbox, h.store, "acc_a", early)
	h.emit("acc_a", persistence.TriggerOrderFilled)
	eventually(t, "the later event delivered", func() bool { return rv.count() == 1 })
	eventually(t, "outbox empty", func() bool {
		left, err := h.outbox.Scan("acc_a", 0, 10)
		return err == nil && len(left) == 0
	})
	if got := rv.all()[0].Header.Get(webhook.HeaderEvent); rv.count() != 1 || got != "order.filled" {
		t.Fatalf("the endpoint got %d deliveries, the first %q; want the later order.filled alone", rv.count(), got)
	}
}

// A planned stop lets the attempts in flight finish and keeps their
// outcomes: after the restart nothing the receiver took is sent again.
func TestStopWaitsForAttemptsInFlight(t *testing.T) {
	h := newHarness(t, nil)
	release := make(chan struct{})
	var once sync.Once
	open := func() { once.Do(func() { close(release) }) }
	rc := newReceiver(t, func(*http.Request, int) (int, http.Header) {
		<-release
		return 200, nil
	})
	t.Cleanup(open) // before the receiver's own cleanup, which waits for its handlers
	ep := h.create("acc_a", rc.srv.URL)
	for range 5 {
		h.emit("acc_a", persistence.TriggerOrderCancelled)
	}
	eventually(t, "five attempts in flight", func() bool { return rc.count() == 5 })
	stopped := make(chan struct{})
	go func() {
		h.close()
		close(stopped)
	}()
	select {
	case <-stopped:
		t.Fatal("the stop returned while five attempts were in flight")
	case <-time.After(200 * time.Millisecond):
	}
	open()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the stop did not return once the attempts were answered")
	}
	h.open()
	h.advance(time.Hour) // past every retry delay
	l, err := h.m.Deliveries("acc_a", ep.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Deliveries) != 5 {
		t.Fatalf("%d deliveries after the restart, want 5", len(l.Deliveries))
	}
	for _, d := range l.Deliveries {
		if d.Status != "delivered" || d.Attempts != 1 {
			t.Fatalf("delivery %s after the restart: %s after %d attempts, want delivered after 1", d.ID, d.Status, d.Attempts)
		}
	}
	time.Sleep(100 * time.Millisecond) // a resend would come now
	if n := rc.count(); n != 5 {
		t.Fatalf("the receiver got %d requests, want 5 (none sent again after the restart)", n)
	}
}
