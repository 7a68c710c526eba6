package natsjs

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/orderengine/orderengine/persistence/webhookstore"
)

// TestWebhookJournalAcrossNodes runs the delivery journal on three nodes'
// stores over the shared log: an endpoint created on one node is stored on
// every node; the same deliveries created on all three nodes at once are
// created once in all (each node's create reports a disjoint part, with
// the first creator's time everywhere); an outcome written on one node is
// every node's, and the same outcome from another node is refused as a
// conflict; the account's endpoint limit holds across nodes; a deletion
// (range deletions) leaves no delivery and no body on any node.
func TestWebhookJournalAcrossNodes(t *testing.T) {
	nodes := sharedCluster(t)
	ctx := context.Background()
	ws := make([]*webhookstore.Store, len(nodes))
	for i, tn := range nodes {
		ws[i] = webhookstore.New(tn.store, webhookstore.Options{})
	}
	account := fmt.Sprintf("acc_wh%d", time.Now().UnixNano())
	now := time.Now().UTC().Truncate(time.Millisecond)
	ep := &webhookstore.Endpoint{ID: "we_" + account, AccountID: account, URL: "https://example.com/hook",
		Enabled: true, SealedSecret: []byte("sealed"), CreatedAt: now, UpdatedAt: now}
	if err := ws[0].CreateEndpoint(ctx, ep, 3, nil); err != nil {
		t.Fatal(err)
	}
	for i, w := range ws {
		waitFor(t, fmt.Sprintf("the endpoint on node %d", i), func() bool {
			_, found, err := w.LoadEndpoint(ep.ID)
			return err == nil && found
		})
	}

	const events = 20
	created := make([][]bool, len(nodes))
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, w := range ws {
		wg.Go(func() {
			var nds []webhookstore.NewDelivery
			at := now.Add(time.Duration(i+1) * time.Second) // tells the nodes' creates apart
			for e := range events {
				d := &webhookstore.Delivery{EndpointID: ep.ID, EventID: fmt.Sprintf("evt_%02d", e), Trigger: "order.cancelled",
					CreatedAt: at, Status: webhookstore.DeliveryPending, NextAttemptAt: at}
				nds = append(nds, webhookstore.NewDelivery{Delivery: d, Body: []byte(`{"id":"` + d.EventID + `"}`)})
			}
			created[i], errs[i] = w.CreateDeliveries(ctx, ep, nds, false, 0)
		})
	}
	wg.Wait()
	for e := range events {
		n := 0
		for i := range nodes {
			if errs[i] != nil {
				t.Fatalf("create on node %d: %v", i, errs[i])
			}
			if created[i][e] {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("event %d created by %d nodes", e, n)
		}
	}
	var ref []*webhookstore.Delivery
	for i, w := range ws {
		waitFor(t, fmt.Sprintf("the deliveries on node %d", i), func() bool {
			ds, err := w.PendingDeliveries(ep.ID)
			if err != nil || len(ds) != events {
				return false
			}
			if ref == nil {
				ref = ds
			}
			for j := range ds {
				if ds[j].EventID != ref[j].EventID || !ds[j].CreatedAt.Equal(ref[j].CreatedAt) {
					return false
				}
			}
			return true
		})
	}

	done := *ref[0]
	done.Status, done.NextAttemptAt = webhookstore.DeliveryDelivered, time.Time{}
	done.Attempts = []webhookstore.Attempt{{N: 1, At: now, StatusCode: 204}}
	if c, err := ws[1].RecordOutcomes(ctx, ep, []*webhookstore.Delivery{&done}); err != nil || c[0] != nil {
		t.Fatalf("outcome on node 1: %v %v", c, err)
	}
	again := done
	again.Attempts = []webhookstore.Attempt{{N: 1, At: now.Add(time.Second), StatusCode: 500}}
	if c, err := ws[2].RecordOutcomes(ctx, ep, []*webhookstore.Delivery{&again}); err != nil || !errors.Is(c[0], webhookstore.ErrDeliveryConflict) {
		t.Fatalf("the same outcome on node 2: %v %v, want a conflict", c, err)
	}
	for i, w := range ws {
		waitFor(t, fmt.Sprintf("the outcome on node %d", i), func() bool {
			d, found, err := w.LoadDelivery(ep.ID, done.EventID)
			ds, perr := w.PendingDeliveries(ep.ID)
			return err == nil && perr == nil && found && d.Status == webhookstore.DeliveryDelivered &&
				len(d.Attempts) == 1 && d.Attempts[0].StatusCode == 204 && len(ds) == events-1
		})
	}

	// Three more endpoints created at once on three nodes: the limit of 3
	// per account holds across them.
	limited := 0
	for i, w := range ws {
		wg.Go(func() {
			e := *ep
			e.ID = fmt.Sprintf("%s_%d", ep.ID, i)
			errs[i] = w.CreateEndpoint(ctx, &e, 3, nil)
		})
	}
	wg.Wait()
	for i, err := range errs {
		switch {
		case errors.Is(err, webhookstore.ErrEndpointLimit):
			limited++
		case err != nil:
			t.Fatalf("create endpoint on node %d: %v", i, err)
		}
	}
	if limited != 1 {
		t.Fatalf("%d creates refused by the limit, want 1", limited)
	}

	if err := ws[2].DeleteEndpoint(ctx, ep); err != nil {
		t.Fatal(err)
	}
	for i, w := range ws {
		waitFor(t, fmt.Sprintf("the deletion on node %d", i), func() bool {
			_, found, err := w.LoadEndpoint(ep.ID)
			ds, rerr := w.RecentDeliveries(ep.ID, 100)
			_, body, berr := w.EventBody(account, "evt_00")
			return err == nil && rerr == nil && berr == nil && !found && len(ds) == 0 && !body
		})
	}
}
