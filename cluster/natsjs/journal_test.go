package natsjs

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/orderengine/orderengine/persistence/orderstore"
)

// TestFsyncAlways: the servers are configured and run with an fsync after
// every write, and the streams acknowledge after persisting.
func TestFsyncAlways(t *testing.T) {
	nodes := sharedCluster(t)
	for _, tn := range nodes {
		so, err := ServerOptions(Options{Cluster: tn.cfg, DataDir: tn.dir})
		if err != nil {
			t.Fatal(err)
		}
		if !so.SyncAlways {
			t.Fatal("server options without SyncAlways")
		}
		if jc := tn.node.Server().JetStreamConfig(); jc == nil || !jc.SyncAlways {
			t.Fatalf("running server's JetStream config: %+v", jc)
		}
	}
	s, err := nodes[0].node.stream(orderStream(0))
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c := info.Config
	if c.Replicas != 3 || c.PersistMode != 0 || !c.AllowDirect || !c.DenyDelete || c.Duplicates < 2*time.Minute {
		t.Fatalf("order stream config %+v", c)
	}
}

// TestCreateConflictAcrossNodes: an order created through one node is
// ALREADY_EXISTS (ErrVersionConflict) through every other, even when the
// others have not applied it yet, and only one of two racing creates wins.
func TestCreateConflictAcrossNodes(t *testing.T) {
	nodes := sharedCluster(t)
	base := freshOrders()
	rec := testOrder(base + 1)
	if err := create(nodes[0].journal, rec); err != nil {
		t.Fatal(err)
	}
	for _, tn := range nodes[1:] {
		if err := create(tn.journal, testOrder(base+1)); !errors.Is(err, orderstore.ErrVersionConflict) {
			t.Fatalf("second create: %v", err)
		}
	}
	// Racing creates of one new order on all three nodes: one wins.
	race := testOrder(base + 2)
	errs := make(chan error, 3)
	for _, tn := range nodes {
		go func() {
			r := race.Clone()
			r.AccountID = tn.cfg.Node
			errs <- create(tn.journal, r)
		}()
	}
	won, lost := 0, 0
	for range nodes {
		switch err := <-errs; {
		case err == nil:
			won++
		case errors.Is(err, orderstore.ErrVersionConflict):
			lost++
		default:
			t.Fatalf("racing create: %v", err)
		}
	}
	if won != 1 || lost != 2 {
		t.Fatalf("racing creates: %d won, %d lost", won, lost)
	}
}

// TestVersionConflictAndReadYourWrites: a transition from a stale version
// is refused; an accepted one is readable from the writer's store as soon
// as AppendOrder returns, and LoadOrder on any node gives the latest.
func TestVersionConflictAndReadYourWrites(t *testing.T) {
	nodes := sharedCluster(t)
	base := freshOrders()
	a, b := nodes[0], nodes[1]
	rec := testOrder(base + 3)

	if err := create(a.journal, rec); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := a.orders.Load(rec.Hash); err != nil || !ok || got.Version != 1 {
		t.Fatalf("writer's store after create: %+v %v %v", got, ok, err)
	}
	loaded, ok, err := b.journal.LoadOrder(rec.Hash)
	if err != nil || !ok || loaded.Version != 1 {
		t.Fatalf("LoadOrder on another node: %+v %v %v", loaded, ok, err)
	}
	active := next(loaded, orderstore.StatusActive)
	if err := b.journal.AppendOrder(context.Background(), active); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := b.orders.Load(rec.Hash); got == nil || got.Version != 2 {
		t.Fatalf("writer's store after the transition: %+v", got)
	}
	// Node a still holds version 1 in its sequence cache: its append from
	// version 1 is refused, and nothing is written.
	stale := next(rec, orderstore.StatusCancelled)
	if err := a.journal.AppendOrder(context.Background(), stale); !errors.Is(err, orderstore.ErrVersionConflict) {
		t.Fatalf("stale append: %v", err)
	}
	latest, _, err := a.journal.LoadOrder(rec.Hash)
	if err != nil || latest.Version != 2 || latest.Status != orderstore.StatusActive {
		t.Fatalf("LoadOrder after the stale append: %+v %v", latest, err)
	}
	if _, found, err := a.journal.LoadOrder(testOrder(base + 999).Hash); found || err != nil {
		t.Fatalf("LoadOrder of an unknown order: %v %v", found, err)
	}
}

// TestMaterialisedEqualEverywhere: orders written through every node reach
// every node's store, with the same records, indexes and positions, and
// every node's feed hears every change once.
func TestMaterialisedEqualEverywhere(t *testing.T) {
	nodes := sharedCluster(t)
	base := freshOrders()
	const n = 60
	assertSameStores(t, nodes) // what earlier tests wrote is applied everywhere
	before := make([]int, len(nodes))
	for i, tn := range nodes {
		before[i] = tn.feed.count()
	}
	for i := range n {
		tn := nodes[i%3]
		rec := testOrder(base + 100 + i)
		if err := create(tn.journal, rec); err != nil {
			t.Fatal(err)
		}
		if i%4 == 0 {
			if err := tn.journal.AppendOrder(context.Background(), next(rec, orderstore.StatusCancelled)); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := n + (n+3)/4
	for i, tn := range nodes {
		waitFor(t, "every change applied on "+tn.cfg.Node, func() bool { return tn.feed.count()-before[i] == want })
	}
	assertSameStores(t, nodes)
}

// assertSameStores checks that every node comes to hold the same orders
// (records through their decoded form), list indexes and positions: the
// nodes apply the streams on their own time, so it waits up to 20 s for
// them to agree.
func assertSameStores(t *testing.T, nodes []*testNode) {
	t.Helper()
	var diff string
	deadline := time.Now().Add(20 * time.Second)
	for {
		if diff = storesDiffer(t, nodes); diff == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(diff)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// storesDiffer describes the first difference between the nodes' stores
// ("" when they agree).
func storesDiffer(t *testing.T, nodes []*testNode) string {
	ref := snapshot(t, nodes[0])
	for _, tn := range nodes[1:] {
		got := snapshot(t, tn)
		if len(got) != len(ref) {
			return fmt.Sprintf("%s holds %d entries, %s %d", tn.cfg.Node, len(got), nodes[0].cfg.Node, len(ref))
		}
		for k, v := range ref {
			if got[k] != v {
				return fmt.Sprintf("%s differs at %s: %q vs %q", tn.cfg.Node, k, got[k], v)
			}
		}
	}
	return ""
}

// snapshot lists a node's orders by status and the positions it applied.
func snapshot(t *testing.T, tn *testNode) map[string]string {
	t.Helper()
	out := make(map[string]string)
	for _, st := range orderstore.Statuses {
		list, _, err := tn.orders.List(orderstore.ListFilter{Status: st, Limit: 10_000})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range list {
			out[r.Hash.Hex()] = r.Status.String() + "/" + r.UpdatedAt.String() + "/" + r.AccountID
		}
	}
	for p := range tn.cfg.OrderPartitions {
		pos, err := tn.orders.LogPosition(orderStream(p))
		if err != nil {
			t.Fatal(err)
		}
		out[orderStream(p)] = time.Duration(pos).String()
	}
	return out
}
