package persistence

import (
	"fmt"
	"testing"
	"time"
)

// TestTrimKeepsDeliveriesFannedOutMeanwhile: a fan-out that commits more
// new deliveries than the history keeps, while a trim runs, must not have
// them deleted: after the trim (and a restart, which reloads outstanding
// deliveries from the store) every one of them is still outstanding.
func TestTrimKeepsDeliveriesFannedOutMeanwhile(t *testing.T) {
	s, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Close() }()
	w := NewWebhookStore(s)
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	add := func(from, n int, status string) {
		t.Helper()
		b := s.db.NewBatch()
		defer b.Close()
		var ds []*WebhookDelivery
		for i := from; i < from+n; i++ {
			d := &WebhookDelivery{EndpointID: "we_1", EventID: fmt.Sprintf("evt_%04d", i), Trigger: TriggerOrderFilled,
				Body: []byte(`{}`), CreatedAt: t0.Add(time.Duration(i) * time.Millisecond), Status: DeliveryPending, NextAttemptAt: t0}
			if err := w.AddDelivery(b, d); err != nil {
				t.Fatal(err)
			}
			ds = append(ds, d)
		}
		if err := b.Commit(nil); err != nil {
			t.Fatal(err)
		}
		if status != DeliveryPending {
			for _, d := range ds {
				d.Status = status
			}
			if err := w.SaveDeliveries(ds); err != nil {
				t.Fatal(err)
			}
		}
	}
	const keep = 5
	add(0, 20, DeliveryDelivered) // history to trim
	testHookTrimBetweenReads = func() { add(100, 3*keep, DeliveryPending) }
	defer func() { testHookTrimBetweenReads = nil }()
	if err := w.TrimDeliveries("we_1", keep); err != nil {
		t.Fatal(err)
	}
	pending, err := w.PendingDeliveries("we_1")
	if err != nil {
		t.Fatal(err)
	}
	if len(pending) != 3*keep {
		t.Fatalf("%d outstanding deliveries after the trim, want the %d fanned out during it", len(pending), 3*keep)
	}
	recent, err := w.RecentDeliveries("we_1", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(recent) != 3*keep+keep {
		t.Fatalf("%d deliveries after the trim, want %d outstanding + %d kept", len(recent), 3*keep, keep)
	}
}
