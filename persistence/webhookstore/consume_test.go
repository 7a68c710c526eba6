package webhookstore

import (
	"context"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

// A create that hands outbox events on for the last endpoint that needs
// them moves the account's outbox cursor in its own batch; a create
// refused (its endpoint is not stored) moves nothing, and one without a
// cursor leaves it alone.
func TestCreateDeliveriesMovesTheOutboxCursor(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	w := New(s, Options{})
	ep := newEndpoint(t, w, "acc_1", "wh_1")
	cursor := func() uint64 {
		t.Helper()
		v, ok, err := s.Get(persistence.OutboxCursorKey("acc_1"))
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return 0
		}
		return binary.BigEndian.Uint64(v)
	}
	if _, err := w.CreateDeliveries(context.Background(), &Endpoint{ID: "wh_gone", AccountID: "acc_1"},
		[]NewDelivery{newDelivery("wh_gone", "evt_0", 0)}, false, 2); !errors.Is(err, ErrEndpointNotFound) {
		t.Fatalf("create for an endpoint not stored: %v", err)
	}
	if c := cursor(); c != 0 {
		t.Fatalf("cursor %d after a refused create, want none", c)
	}
	created, err := w.CreateDeliveries(context.Background(), ep, []NewDelivery{newDelivery("wh_1", "evt_0", 0)}, false, 2)
	if err != nil || len(created) != 1 || !created[0] {
		t.Fatalf("create: %v %v", created, err)
	}
	if c := cursor(); c != 2 {
		t.Fatalf("cursor %d after the create, want 2", c)
	}
	if _, err := w.CreateDeliveries(context.Background(), ep, []NewDelivery{newDelivery("wh_1", "evt_1", 1)}, false, 0); err != nil {
		t.Fatal(err)
	}
	if c := cursor(); c != 2 {
		t.Fatalf("cursor %d after a create without one, want 2", c)
	}
	if ds, _ := w.PendingDeliveries("wh_1"); len(ds) != 2 || ds[0].EventID != "evt_0" {
		t.Fatalf("deliveries %+v", ds)
	}
}
