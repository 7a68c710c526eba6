package webhookstore

import (
	"context"
	"errors"
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

// A create that hands outbox events on for the last endpoint that needs
// them deletes them from the outbox in its own batch: the rows named go,
// the others stay; a create refused (its endpoint is not stored) deletes
// nothing.
func TestCreateDeliveriesConsumesTheEventsItHandsOn(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	w := New(s, Options{})
	ep := newEndpoint(t, w, "acc_1", "wh_1")
	for seq := range uint64(3) {
		if err := s.DB().Set(persistence.OutboxKey("acc_1", seq), []byte(`{}`), pebble.Sync); err != nil {
			t.Fatal(err)
		}
	}
	left := func() int {
		t.Helper()
		return countKeys(t, s, []byte(persistence.PrefixOutbox+"acc_1/"))
	}
	if _, err := w.CreateDeliveries(context.Background(), &Endpoint{ID: "wh_gone", AccountID: "acc_1"},
		[]NewDelivery{newDelivery("wh_gone", "evt_0", 0)}, false, []uint64{0, 1}); !errors.Is(err, ErrEndpointNotFound) {
		t.Fatalf("create for an endpoint not stored: %v", err)
	}
	if n := left(); n != 3 {
		t.Fatalf("%d outbox rows after a refused create, want 3", n)
	}
	created, err := w.CreateDeliveries(context.Background(), ep, []NewDelivery{newDelivery("wh_1", "evt_0", 0)}, false, []uint64{0, 1})
	if err != nil || len(created) != 1 || !created[0] {
		t.Fatalf("create: %v %v", created, err)
	}
	if n := left(); n != 1 {
		t.Fatalf("%d outbox rows after the create, want the 1 not handed on", n)
	}
	if ds, _ := w.PendingDeliveries("wh_1"); len(ds) != 1 || ds[0].EventID != "evt_0" {
		t.Fatalf("deliveries %+v", ds)
	}
}
