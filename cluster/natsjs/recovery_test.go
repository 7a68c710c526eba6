package natsjs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// writeOrders creates n orders from first on, spread over the nodes given,
// cancelling every third.
func writeOrders(t *testing.T, first, n int, nodes ...*testNode) {
	t.Helper()
	for i := range n {
		tn := nodes[i%len(nodes)]
		rec := testOrder(first + i)
		if err := create(tn.journal, rec); err != nil {
			t.Fatalf("create %d on %s: %v", first+i, tn.cfg.Node, err)
		}
		if i%3 == 0 {
			if err := tn.journal.AppendOrder(context.Background(), next(rec, orderstore.StatusCancelled)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// waitReady waits until every node reports ready.
func waitReady(t *testing.T, nodes ...*testNode) {
	t.Helper()
	for _, tn := range nodes {
		waitFor(t, tn.cfg.Node+" ready", func() bool { return tn.node.Ready() == nil })
	}
}

// waitWritable waits until a write through tn succeeds (the streams whose
// leader was on a stopped node have elected another).
func waitWritable(t *testing.T, tn *testNode, first int) int {
	t.Helper()
	for p := 0; ; first++ {
		rec := testOrder(first)
		err := create(tn.journal, rec)
		if err == nil && Partition(rec.Hash, tn.cfg.OrderPartitions) == p {
			p++
			if p == tn.cfg.OrderPartitions {
				return first + 1
			}
		}
		if err != nil && !errors.Is(err, persistence.ErrUnavailable) {
			t.Fatalf("write while the cluster recovers: %v", err)
		}
		if err != nil {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// TestNodeRestartCatchesUp: a node stopped while the others take writes
// catches up after its restart, to the same orders, indexes and positions.
func TestNodeRestartCatchesUp(t *testing.T) {
	nodes := startCluster(t, 3)
	writeOrders(t, 1000, 12, nodes...)
	nodes[2].stop()
	next := waitWritable(t, nodes[0], 2000)
	writeOrders(t, next, 24, nodes[0], nodes[1])
	startNodes(t, nodes[2])
	waitReady(t, nodes...)
	assertSameStores(t, nodes)
}

// TestEmptyFolderRebuilds: a node whose data folder is lost comes back
// under a new name once the old one is removed from the cluster: its
// store rebuilds from the streams to the same orders, and it takes the
// lost node's replicas.
func TestEmptyFolderRebuilds(t *testing.T) {
	nodes := startCluster(t, 3)
	writeOrders(t, 3000, 30, nodes...)
	lost := nodes[2]
	lost.stop()
	if err := os.RemoveAll(lost.dir); err != nil {
		t.Fatal(err)
	}
	repl := &testNode{cfg: lost.cfg, dir: t.TempDir()}
	repl.cfg.Node = "n3"
	startNodes(t, repl)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var err error
	waitFor(t, "the lost node's routes to drop", func() bool {
		err = nodes[0].node.RemovePeer(ctx, lost.cfg.Node)
		return err == nil || !strings.Contains(err.Error(), "is connected")
	})
	if err != nil {
		t.Fatal(err)
	}
	live := []*testNode{nodes[0], nodes[1], repl}
	waitReady(t, live...)
	assertSameStores(t, live)
	waitFor(t, "n3 to hold a replica of every stream", func() bool {
		for p := range repl.cfg.OrderPartitions {
			s, err := nodes[0].node.stream(orderStream(p))
			if err != nil {
				return false
			}
			info, err := s.Info(ctx)
			if err != nil || info.Cluster == nil {
				return false
			}
			names := []string{info.Cluster.Leader}
			for _, r := range info.Cluster.Replicas {
				names = append(names, r.Name)
			}
			if !slices.Contains(names, "n3") || slices.Contains(names, lost.cfg.Node) {
				return false
			}
		}
		return true
	})
	writeOrders(t, 4000, 6, live...)
	waitFor(t, "the new writes everywhere", func() bool {
		for _, tn := range live {
			if _, ok, _ := tn.orders.Load(testOrder(4005).Hash); !ok {
				return false
			}
		}
		return true
	})
	assertSameStores(t, live)
}

// TestRetrySameMessageIDNotAppliedTwice: a publish retried with its
// message id is acknowledged with the first one's sequence and stored and
// applied once; a write that may have landed is resolved to its own
// sequence, or to a conflict when another write won.
func TestRetrySameMessageIDNotAppliedTwice(t *testing.T) {
	nodes := sharedCluster(t)
	assertSameStores(t, nodes) // what earlier tests wrote is applied everywhere
	before := make([]int, len(nodes))
	for i, tn := range nodes {
		before[i] = tn.feed.count()
	}
	n := nodes[0]
	base := freshOrders()
	rec := testOrder(base)
	retryID, anotherID := fmt.Sprintf("retry-%d", base), fmt.Sprintf("another-%d", base)
	data, err := orderstore.EncodeTransition(&orderstore.Transition{Record: rec}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	p := Partition(rec.Hash, n.cfg.OrderPartitions)
	stream, subj := orderStream(p), orderSubject(p, rec.Hash)
	ctx := context.Background()
	first, err := n.node.publishCAS(ctx, stream, subj, retryID, 0, data)
	if err != nil {
		t.Fatal(err)
	}
	again, err := n.node.publishCAS(ctx, stream, subj, retryID, 0, data)
	if err != nil || again != first {
		t.Fatalf("retry: seq %d (first %d), %v", again, first, err)
	}
	if _, err := n.node.publishCAS(ctx, stream, subj, anotherID, 0, data); !errors.Is(err, errCASConflict) {
		t.Fatalf("another write at the same expected sequence: %v", err)
	}
	if seq, err := n.node.resolve(ctx, stream, subj, retryID, 0); err != nil || seq != first {
		t.Fatalf("resolve own write: %d %v", seq, err)
	}
	if _, err := n.node.resolve(ctx, stream, subj, anotherID, 0); !errors.Is(err, errCASConflict) {
		t.Fatalf("resolve a write that lost: %v", err)
	}
	if err := n.mat.WaitApplied(ctx, p, first); err != nil {
		t.Fatal(err)
	}
	s, _ := n.node.stream(stream)
	info, err := s.Info(ctx, jetstream.WithSubjectFilter(subj))
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Subjects[subj] != 1 {
		t.Fatalf("%s holds %d messages", subj, info.State.Subjects[subj])
	}
	for i, tn := range nodes {
		waitFor(t, "the order on "+tn.cfg.Node, func() bool { return tn.feed.count()-before[i] == 1 })
	}
	time.Sleep(100 * time.Millisecond)
	for i, tn := range nodes {
		if c := tn.feed.count() - before[i]; c != 1 {
			t.Fatalf("%s's feed heard %d changes", tn.cfg.Node, c)
		}
	}
}

// TestNoQuorumFailsFast: a node that reaches no other refuses writes and
// authoritative reads at once with ErrUnavailable (nothing written, so not
// "outcome unknown") and reports NO_QUORUM from Ready.
func TestNoQuorumFailsFast(t *testing.T) {
	nodes := startCluster(t, 3)
	writeOrders(t, 6000, 3, nodes...)
	nodes[1].stop()
	nodes[2].stop()
	alone := nodes[0]
	waitFor(t, "the routes to drop", func() bool { return alone.node.Peers() == 0 })
	err := create(alone.journal, testOrder(6100))
	if !errors.Is(err, persistence.ErrUnavailable) || errors.Is(err, persistence.ErrOutcomeUnknown) {
		t.Fatalf("write without quorum: %v", err)
	}
	if _, _, err := alone.journal.LoadOrder(testOrder(6000).Hash); !errors.Is(err, persistence.ErrUnavailable) {
		t.Fatalf("load without quorum: %v", err)
	}
	var apiErr *orderengine.Error
	if err := alone.node.Ready(); !errors.As(err, &apiErr) || apiErr.Code != orderengine.CodeNoQuorum {
		t.Fatalf("Ready without quorum: %v", err)
	}
	tx := alone.store.BeginShared(context.Background(), "accounts")
	err = tx.Commit(context.Background(), func(b *pebble.Batch) error { return b.Set([]byte("a/acc_x"), []byte("{}"), nil) })
	if !errors.Is(err, persistence.ErrUnavailable) {
		t.Fatalf("shared write without quorum: %v", err)
	}
}
