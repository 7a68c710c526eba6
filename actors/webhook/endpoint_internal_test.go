package webhook

import (
	"strconv"
	"testing"

	"github.com/orderengine/orderengine/persistence"
)

// A delivery enqueued again after it finished is not attempted again (the
// start-up reload can see a row before its producer sends it), while the
// memory of finished ids stays bounded.
func TestFinishedDeliveryIsNotQueuedAgain(t *testing.T) {
	a := newEndpointActor(nil, "wh_test", nil)
	// A pending delivery is queued again after a failed attempt.
	retry := &persistence.WebhookDelivery{EventID: "evt_0", Status: persistence.DeliveryPending}
	a.settle(retry)
	if a.queue.Len() != 1 {
		t.Fatal("a pending delivery was not queued again")
	}
	_ = a.queue.Pop()
	d := &persistence.WebhookDelivery{EventID: "evt_1", Status: persistence.DeliveryPending}
	a.add(d)
	a.add(d)
	if a.queue.Len() != 1 {
		t.Fatalf("queued %d times, want once", a.queue.Len())
	}
	// Taken for an attempt, then finished.
	_ = a.queue.Pop()
	d.Status = persistence.DeliveryDelivered
	a.settle(d)
	a.add(d)
	if a.queue.Len() != 0 {
		t.Fatal("a finished delivery was queued again")
	}
	for i := range recentFinished {
		a.recent.add("evt_other_" + strconv.Itoa(i))
	}
	if len(a.recent.set) != recentFinished || a.recent.has(d.EventID) {
		t.Fatalf("recent ids: %d remembered, evt_1 still there: %v", len(a.recent.set), a.recent.has(d.EventID))
	}
}
