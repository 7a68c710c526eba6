package natsjs

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/accountstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// TestCompaction: a compaction round removes from the order streams the
// orders closed longer ago than the retention that every node applied,
// and leaves the open ones and the recently closed ones; every node's
// store still holds every order; a create of a removed order is refused
// (ALREADY_EXISTS, from the store); the shared log keeps each subject's
// last message and still takes conditional writes; the horizon is
// recorded, and a node whose store is behind it refuses to follow the
// streams (ErrBehindCompaction) instead of skipping what was removed.
func TestCompaction(t *testing.T) {
	nodes := startCluster(t, 3)
	ctx := context.Background()
	first := freshOrders()
	const n = 40
	recs := make([]*orderstore.Record, n)
	for i := range recs {
		recs[i] = testOrder(first + i)
		if err := create(nodes[i%3].journal, recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	// The first half closes now, before the retention's cutoff.
	old := time.Now().Add(-time.Hour).UTC()
	for i := range n / 2 {
		tr := next(recs[i], orderstore.StatusCancelled)
		tr.Record.UpdatedAt = old
		if err := nodes[0].journal.AppendOrder(ctx, tr); err != nil {
			t.Fatal(err)
		}
		recs[i] = tr.Record
	}
	// One closes within the retention: it stays.
	recent := next(recs[n/2], orderstore.StatusCancelled)
	recent.Record.UpdatedAt = time.Now().UTC()
	if err := nodes[1].journal.AppendOrder(ctx, recent); err != nil {
		t.Fatal(err)
	}
	accts := accountstore.NewAccounts(nodes[2].store, nil)
	for range 5 {
		if _, err := accts.CreateAccount("compacted", config.TierFree, config.BucketLimits{}); err != nil {
			t.Fatal(err)
		}
	}
	waitApplied(t, nodes)

	compactors := make([]*Compactor, len(nodes))
	for i, tn := range nodes {
		compactors[i] = NewCompactor(tn.node, tn.store, tn.orders, CompactOptions{Retention: 30 * time.Minute})
		if err := compactors[i].Report(ctx); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	if err := compactors[0].Compact(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("a round removing %d orders took %v", n/2, time.Since(start))

	for i, rec := range recs {
		p := Partition(rec.Hash, 4)
		_, found, err := nodes[0].node.leaderGet(ctx, orderStream(p), orderSubject(p, rec.Hash), 0)
		if err != nil {
			t.Fatal(err)
		}
		if removed := i < n/2; found == removed {
			t.Fatalf("order %d (closed an hour ago: %v): in its stream %v", i, removed, found)
		}
		for _, tn := range nodes {
			got, ok, err := tn.orders.Load(rec.Hash)
			if err != nil || !ok || got.Version != rec.Version && i < n/2 {
				t.Fatalf("order %d on %s: %+v %v %v", i, tn.cfg.Node, got, ok, err)
			}
		}
	}
	// The order actor reads a removed order from the store (its cancel is
	// "closed", not "not found"; its resubmit ALREADY_EXISTS).
	got, found, err := nodes[1].journal.LoadOrder(recs[0].Hash)
	if err != nil || !found || got.Version != recs[0].Version || got.Status.Open() {
		t.Fatalf("LoadOrder of a removed order: %+v %v %v, want its closed record", got, found, err)
	}
	err = create(nodes[1].journal, testOrder(first))
	if !errors.Is(err, orderstore.ErrVersionConflict) {
		t.Fatalf("a create of a removed order: %v, want a version conflict (ALREADY_EXISTS)", err)
	}

	h, err := nodes[2].node.Horizon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for p := range 4 {
		if h[orderStream(p)] == 0 {
			t.Errorf("no horizon for %s: %v", orderStream(p), h)
		}
	}
	if h[sharedStream] != 0 {
		t.Errorf("the shared log's messages are within the retention, yet its horizon is %d", h[sharedStream])
	}
	// A shared write still lands after the round (its entity's last
	// message stayed).
	if _, err := accts.CreateAccount("after", config.TierFree, config.BucketLimits{}); err != nil {
		t.Fatal(err)
	}

	// A fresh store (an empty folder) would skip the removed messages: its
	// follower refuses to start.
	store, err := persistence.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	orders := orderstore.New(store, persistence.NewOutbox(store, nil, nil))
	err = NewMaterialiser(nodes[0].node, orders, nil).Start(ctx)
	if !errors.Is(err, ErrBehindCompaction) {
		t.Fatalf("a materialiser of an empty store after a compaction: %v, want ErrBehindCompaction", err)
	}
}

// TestCompactionWaitsForEveryNode: an order closed past the retention is
// not removed while some node's report says it has not applied it.
func TestCompactionWaitsForEveryNode(t *testing.T) {
	nodes := startCluster(t, 3)
	ctx := context.Background()
	rec := testOrder(freshOrders())
	if err := create(nodes[0].journal, rec); err != nil {
		t.Fatal(err)
	}
	tr := next(rec, orderstore.StatusExpired)
	tr.Record.UpdatedAt = time.Now().Add(-2 * time.Hour).UTC()
	if err := nodes[0].journal.AppendOrder(ctx, tr); err != nil {
		t.Fatal(err)
	}
	waitApplied(t, nodes)
	// node 2 reports before it applied anything (as a node starting from
	// an empty store does before it follows the streams).
	stale := NewCompactor(nodes[2].node, nodes[2].store, nodes[2].orders, CompactOptions{Retention: time.Hour})
	c := NewCompactor(nodes[0].node, nodes[0].store, nodes[0].orders, CompactOptions{Retention: time.Hour})
	if err := c.Report(ctx); err != nil {
		t.Fatal(err)
	}
	if err := nodes[2].node.publishPositions(ctx, map[string]uint64{orderStream(Partition(rec.Hash, 4)): 0}, time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := c.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	p := Partition(rec.Hash, 4)
	if _, found, err := nodes[0].node.leaderGet(ctx, orderStream(p), orderSubject(p, rec.Hash), 0); err != nil || !found {
		t.Fatalf("the order was removed although a node had not applied it: found %v, %v", found, err)
	}
	if err := stale.Report(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	if _, found, err := nodes[0].node.leaderGet(ctx, orderStream(p), orderSubject(p, rec.Hash), 0); err != nil || found {
		t.Fatalf("once every node applied it, the order stays in its stream: found %v, %v", found, err)
	}
}

// waitApplied waits until every node has applied every stream as far as
// the node furthest ahead has (the writes may have gone through any node,
// and the first node may trail the others).
func waitApplied(t *testing.T, nodes []*testNode) {
	t.Helper()
	waitFor(t, "every node applying every stream", func() bool {
		for p := range 4 {
			var pos []uint64
			for _, tn := range nodes {
				got, err := tn.orders.LogPosition(orderStream(p))
				if err != nil {
					t.Fatal(err)
				}
				pos = append(pos, got)
			}
			if slices.Min(pos) != slices.Max(pos) {
				return false
			}
		}
		var pos []uint64
		for _, tn := range nodes {
			got, _ := tn.store.SharedPosition(sharedStream)
			pos = append(pos, got)
		}
		return slices.Min(pos) == slices.Max(pos)
	})
}
