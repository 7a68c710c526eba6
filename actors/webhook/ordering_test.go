package webhook_test

import (
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/webhookstore"
)

// Two orders of one account, as event bodies name them.
var (
	orderA = "0x" + strings.Repeat("a1", 32)
	orderB = "0x" + strings.Repeat("b2", 32)
)

// emitAbout writes an event of order in a transition of its own, under a
// fixed id.
func (h *harness) emitAbout(account, id, trigger, order string) {
	h.t.Helper()
	emitEvents(h.t, h.outbox, h.store, account, persistence.OutboxEvent{ID: id, Trigger: trigger, Data: persistence.EventData{
		OrderType: "stop_loss", OrderHash: order, AmountIn: "1000", AmountOut: "990",
	}})
}

// arrivals returns the delivery ids a receiver got, in arrival order.
func (rc *receiver) arrivals() []string {
	var ids []string
	for _, r := range rc.all() {
		ids = append(ids, r.Header.Get(webhook.HeaderDelivery))
	}
	return ids
}

// only keeps the ids of ids that are in set, in order.
func only(ids []string, set ...string) []string {
	return slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return !slices.Contains(set, id) })
}

// attemptsOf returns the attempts made of an endpoint's delivery of event
// (-1 when it has none).
func (h *harness) attemptsOf(account, endpoint, event string) int {
	h.t.Helper()
	l, err := h.m.Deliveries(account, endpoint)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, d := range l.Deliveries {
		if d.ID == event {
			return d.Attempts
		}
	}
	return -1
}

// startOrderA registers an endpoint of acc_a at rc, emits order A's stop
// trigger (evt_a1) and first fill (evt_a2), and waits for a1's first
// attempt.
func (h *harness) startOrderA(rc *receiver) *webhook.CreatedView {
	h.t.Helper()
	ep := h.create("acc_a", rc.srv.URL)
	h.emitAbout("acc_a", "evt_a1", persistence.TriggerStopTriggered, orderA)
	h.emitAbout("acc_a", "evt_a2", persistence.TriggerOrderFilled, orderA)
	eventually(h.t, "a1's first attempt", func() bool { return h.attemptsOf("acc_a", ep.ID, "evt_a1") == 1 })
	return ep
}

// TestOrderEventsArriveInSequence: the events of one order reach an
// endpoint in the order of its transitions even when one in the middle
// fails and is retried (the later one waits, across a restart too), while
// another order's events are not held back.
func TestOrderEventsArriveInSequence(t *testing.T) {
	h := newHarness(t, nil)
	var failA2 atomic.Bool
	failA2.Store(true)
	rc := newReceiver(t, func(r *http.Request, _ int) (int, http.Header) {
		if r.Header.Get(webhook.HeaderDelivery) == "evt_a2" && failA2.Load() {
			return 503, nil
		}
		return 204, nil
	})
	ep := h.create("acc_a", rc.srv.URL)
	h.emitAbout("acc_a", "evt_a1", persistence.TriggerStopTriggered, orderA)
	h.emitAbout("acc_a", "evt_a2", persistence.TriggerOrderFilled, orderA)
	h.emitAbout("acc_a", "evt_b1", persistence.TriggerOrderFilled, orderB)
	h.emitAbout("acc_a", "evt_a3", persistence.TriggerOrderFilled, orderA)
	h.emitAbout("acc_a", "evt_b2", persistence.TriggerOrderFilled, orderB)
	// Order B is not held back: b1 and b2 arrive while a2 waits for its
	// retry (the clock does not move until the end). Their outcomes are
	// recorded before the restart below: a delivery whose outcome a
	// restart cut off is made again (at least once), which is not what
	// this test looks at.
	eventually(t, "a1, a2's failed attempt, b1 and b2", func() bool {
		return len(only(rc.arrivals(), "evt_a1", "evt_a2", "evt_b1", "evt_b2")) == 4 && h.attemptsOf("acc_a", ep.ID, "evt_a2") == 1 &&
			h.attemptsOf("acc_a", ep.ID, "evt_b1") == 1 && h.attemptsOf("acc_a", ep.ID, "evt_b2") == 1
	})
	if n := h.attemptsOf("acc_a", ep.ID, "evt_a3"); n != 0 {
		t.Fatalf("a3 was attempted %d times while a2 waits for its retry", n)
	}

	// A restart keeps a3 behind a2: another order's new event goes out,
	// a3 does not.
	h.restart()
	h.emitAbout("acc_a", "evt_b3", persistence.TriggerOrderCancelled, orderB)
	eventually(t, "b3 after the restart", func() bool { return h.attemptsOf("acc_a", ep.ID, "evt_b3") == 1 })
	if n := h.attemptsOf("acc_a", ep.ID, "evt_a3"); n != 0 {
		t.Fatalf("after a restart a3 was attempted %d times while a2 waits for its retry", n)
	}

	failA2.Store(false)
	h.advance(h.cfg.Retry[0])
	eventually(t, "a3 delivered", func() bool { return h.attemptsOf("acc_a", ep.ID, "evt_a3") == 1 })
	got := rc.arrivals()
	if a := only(got, "evt_a1", "evt_a2", "evt_a3"); !slices.Equal(a, []string{"evt_a1", "evt_a2", "evt_a2", "evt_a3"}) {
		t.Fatalf("order A's events arrived as %v, want a1, a2 (failed), a2, a3", a)
	}
	if b := only(got, "evt_b1", "evt_b2", "evt_b3"); !slices.Equal(b, []string{"evt_b1", "evt_b2", "evt_b3"}) {
		t.Fatalf("order B's events arrived as %v", b)
	}
}

// TestOrderSequenceAcrossADisable: an endpoint disabled while an order's
// event is retried keeps that event and the later ones it already had, in
// sequence, and gets none of the events of the time it was disabled; once
// re-created it gets what waited, in sequence.
func TestOrderSequenceAcrossADisable(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.cfg.DisableAfter = time.Minute })
	var healthy atomic.Bool
	rc := newReceiver(t, func(*http.Request, int) (int, http.Header) {
		if healthy.Load() {
			return 204, nil
		}
		return 500, nil
	})
	ep := h.startOrderA(rc)
	// The outcome that disables the endpoint is written before the
	// disable: after each retry, wait for the next attempt or the disable.
	enabled := func() bool { got, _ := h.m.Get("acc_a", ep.ID); return got.Enabled }
	for i := 0; enabled(); i++ {
		h.advance(h.cfg.Retry[i])
		eventually(t, "a1's next attempt or the endpoint disabled", func() bool {
			return h.attemptsOf("acc_a", ep.ID, "evt_a1") == i+2 || !enabled()
		})
	}
	if n := h.attemptsOf("acc_a", ep.ID, "evt_a2"); n != 0 {
		t.Fatalf("a2 was attempted %d times before a1 succeeded", n)
	}
	h.emitAbout("acc_a", "evt_a3", persistence.TriggerOrderFilled, orderA) // while disabled
	eventually(t, "outbox drained", func() bool {
		left, _ := h.outbox.Scan("acc_a", 0, 10)
		return len(left) == 0
	})

	healthy.Store(true)
	h.create("acc_a", rc.srv.URL) // re-enables it
	h.advance(time.Hour)          // a1's next scheduled attempt
	eventually(t, "a2 delivered", func() bool { return h.attemptsOf("acc_a", ep.ID, "evt_a2") == 1 })
	a := only(rc.arrivals(), "evt_a1", "evt_a2", "evt_a3")
	if len(a) < 2 || a[len(a)-1] != "evt_a2" || a[len(a)-2] != "evt_a1" || slices.Contains(a, "evt_a3") {
		t.Fatalf("order A's events arrived as %v: want a1's attempts, then a2, and never a3 (it happened while disabled)", a)
	}
	if n := h.attemptsOf("acc_a", ep.ID, "evt_a3"); n != -1 {
		t.Fatalf("a delivery of a3 exists (%d attempts): events of a disabled endpoint's time are not queued", n)
	}
}

// TestOrderSequenceGoesOnAfterAGivenUpDelivery: once an order's delivery
// has failed its every scheduled attempt, the next event of the order is
// sent.
func TestOrderSequenceGoesOnAfterAGivenUpDelivery(t *testing.T) {
	h := newHarness(t, func(h *harness) { h.cfg.Retry = []time.Duration{5 * time.Second} })
	rc := newReceiver(t, func(r *http.Request, _ int) (int, http.Header) {
		if r.Header.Get(webhook.HeaderDelivery) == "evt_a1" {
			return 500, nil
		}
		return 204, nil
	})
	ep := h.startOrderA(rc)
	h.advance(5 * time.Second)
	eventually(t, "a2 delivered", func() bool { return h.attemptsOf("acc_a", ep.ID, "evt_a2") == 1 })
	if a := only(rc.arrivals(), "evt_a1", "evt_a2"); !slices.Equal(a, []string{"evt_a1", "evt_a1", "evt_a2"}) {
		t.Fatalf("order A's events arrived as %v, want a1 twice (given up), then a2", a)
	}
	if d := h.lastDelivery("acc_a", ep.ID); d.ID != "evt_a2" || d.Status != webhookstore.DeliveryDelivered {
		t.Fatalf("newest delivery %+v", d)
	}
}
