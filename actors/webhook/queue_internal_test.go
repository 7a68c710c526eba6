package webhook

import (
	"slices"
	"testing"
	"time"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/webhookstore"
)

// TestQueueKeepsEachOrderInSequence drives the queue directly: one
// delivery of an order in flight at a time, in creation order, also for a
// delivery added back older than the others (a resend) and after replace
// (a reload) while one is in flight; deliveries of no order are never
// held back.
func TestQueueKeepsEachOrderInSequence(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	mk := func(id, order string, created int) *pending {
		at := t0.Add(time.Duration(created) * time.Nanosecond)
		return &pending{order: order, d: &webhookstore.Delivery{EventID: id, CreatedAt: at, NextAttemptAt: at}}
	}
	takeAll := func(q *queue) []string {
		var ids []string
		for p := q.take(t0.Add(time.Second)); p != nil; p = q.take(t0.Add(time.Second)) {
			ids = append(ids, p.d.EventID)
		}
		return ids
	}
	want := func(what string, got []string, want ...string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
	}

	q := newQueue()
	a1, a2, a3, b1, ping := mk("a1", "A", 1), mk("a2", "A", 2), mk("a3", "A", 3), mk("b1", "B", 4), mk("ping", "", 5)
	for _, p := range []*pending{a2, b1, a1, ping, a3} {
		q.add(p)
	}
	want("first takes", takeAll(&q), "a1", "b1", "ping")
	q.land("b1")
	q.land("ping")
	want("while a1 flies", takeAll(&q))
	// a1 failed: added back, due later; a2 still waits behind it.
	q.land("a1")
	a1.d.NextAttemptAt = t0.Add(time.Hour)
	q.add(a1)
	want("while a1 waits for its retry", takeAll(&q))
	if at, ok := q.nextAt(); !ok || !at.Equal(a1.d.NextAttemptAt) {
		t.Fatalf("next attempt %v %v, want a1's", at, ok)
	}
	a1.d.NextAttemptAt = t0 // resent now
	q.rescheduled(a1)
	want("a1 resent", takeAll(&q), "a1")
	q.land("a1")
	want("after a1", takeAll(&q), "a2")

	// A reload while a2 flies holds a3 back, and the older a0 (resent)
	// goes first once a2 lands.
	a0 := mk("a0", "A", 0)
	q.replace([]*pending{mk("a2", "A", 2), mk("a3", "A", 3), a0})
	want("reload while a2 flies", takeAll(&q))
	q.land("a2")
	want("after a2", takeAll(&q), "a0")
	q.land("a0")
	want("after a0", takeAll(&q), "a3")
	q.land("a3")
	if len(q.lines) != 0 || len(q.due) != 0 || q.inFlight() != 0 {
		t.Fatalf("queue not empty: %d lines, %d due, %d flying", len(q.lines), len(q.due), q.inFlight())
	}
}

// TestOrderOf reads the order hash of an event body, and nothing from a
// body without one (test.ping) or from a string value that quotes the key.
func TestOrderOf(t *testing.T) {
	ev := persistence.OutboxEvent{ID: "evt_1", Trigger: "order.failed", CreatedAt: time.Unix(1, 0),
		Data: persistence.EventData{Reason: `"orderHash":"0xbad"`, OrderHash: "0xabc"}}
	body, err := ev.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := orderOf(body); got != "0xabc" {
		t.Fatalf("orderOf(%s) = %q", body, got)
	}
	ping := persistence.OutboxEvent{ID: "evt_2", Trigger: "test.ping", CreatedAt: time.Unix(1, 0),
		Data: persistence.EventData{Message: `"orderHash":"0xbad"`}}
	if body, _ = ping.AppendJSON(nil); orderOf(body) != "" {
		t.Fatalf("orderOf(%s) = %q", body, orderOf(body))
	}
}
