package natsjs

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/orderengine/orderengine/persistence"
)

// TestFollowerResumesWhenTheStreamLeaderStops: a node whose follower of a
// stream reads through a consumer on the stream's leader keeps
// read-your-writes when that leader stops: the follower loses its
// consumer and recreates it from its applied position on a live node, and
// a write on the node, once the stream has a new leader,
// is durable and applied here within its deadline (not "durable but not
// applied"). The survivors' stores end equal: nothing skipped or applied
// twice.
func TestFollowerResumesWhenTheStreamLeaderStops(t *testing.T) {
	nodes := startCluster(t, 3)
	writeOrders(t, 7000, 8, nodes...)
	waitReady(t, nodes...)
	const p = 0
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := nodes[0].node.stream(orderStream(p))
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil || info.Cluster == nil {
		t.Fatalf("stream info: %v", err)
	}
	var leader, survivor *testNode
	for _, tn := range nodes {
		if tn.cfg.Node == info.Cluster.Leader {
			leader = tn
		} else if survivor == nil {
			survivor = tn
		}
	}
	if leader == nil {
		t.Fatalf("no node is the leader %q of %s", info.Cluster.Leader, orderStream(p))
	}
	f := (*survivor.mat.followers.Load())[p]
	// A consumer of one replica is placed on a random replica of the
	// stream: delete it until the follower has recreated it on the leader.
	waitFor(t, survivor.cfg.Node+"'s consumer on the leader "+leader.cfg.Node, func() bool {
		name := f.consumerName()
		if name == "" {
			return false
		}
		c, err := s.Consumer(ctx, name)
		if err != nil {
			return false
		}
		if ci := c.CachedInfo(); ci.Cluster != nil && ci.Cluster.Leader == leader.cfg.Node {
			return true
		}
		_ = s.DeleteConsumer(ctx, name)
		return false
	})
	leader.stop()
	stopped := time.Now()
	refused := writeUntilApplied(t, survivor, p, 7100)
	t.Logf("a write on %s applied there %v after %s stopped (%d refused for want of a leader before)",
		survivor.cfg.Node, time.Since(stopped).Round(time.Millisecond), leader.cfg.Node, refused)
	survivors := []*testNode{}
	for _, tn := range nodes {
		if tn != leader {
			survivors = append(survivors, tn)
		}
	}
	writeOrders(t, 7200, 8, survivors...)
	waitFor(t, "the survivors to apply the same orders", func() bool { return storesDiffer(t, survivors) == "" })
}

// writeUntilApplied creates orders of partition p on tn, from order first
// on, until one is durable and applied on tn. Refusals for want of a
// leader (nothing stored, or perhaps stored: a new order is tried) are
// expected while the stream elects one; a write durable on a quorum but
// not applied on tn within its deadline fails the test. It returns the
// number of writes refused.
func writeUntilApplied(t *testing.T, tn *testNode, p, first int) (refused int) {
	t.Helper()
	for i := first; ; i++ {
		rec := testOrder(i)
		if Partition(rec.Hash, tn.cfg.OrderPartitions) != p {
			continue
		}
		err := create(tn.journal, rec)
		switch {
		case err == nil:
			return refused
		case errors.Is(err, persistence.ErrOutcomeUnknown) && !errors.Is(err, persistence.ErrUnavailable):
			t.Fatalf("a write on %s was durable but not applied there within its deadline: %v", tn.cfg.Node, err)
		case !errors.Is(err, persistence.ErrUnavailable):
			t.Fatalf("write while %s elects a leader: %v", orderStream(p), err)
		}
		refused++
		time.Sleep(10 * time.Millisecond)
	}
}

// TestFollowerStalledAt: the watchdog recreates a consumer only when the
// follower has waited for it stallAfter while a writer has waited as long
// for a message not applied.
func TestFollowerStalledAt(t *testing.T) {
	now := time.Now()
	long, short := now.Add(-2*stallAfter), now.Add(-stallAfter/2)
	cases := []struct {
		name    string
		idle    time.Time
		waiters []waiter
		want    bool
	}{
		{"waiting long for a message, idle long", long, []waiter{{seq: 11, since: long}}, true},
		{"no writer waits", long, nil, false},
		{"the writer waits for a message applied", long, []waiter{{seq: 10, since: long}}, false},
		{"the writer began waiting just now", long, []waiter{{seq: 11, since: short}}, false},
		{"the consumer delivered just now", short, []waiter{{seq: 11, since: long}}, false},
		{"applying, not waiting for the consumer", time.Time{}, []waiter{{seq: 11, since: long}}, false},
	}
	for _, c := range cases {
		f := newFollower(nil, "S", 10, func([]record) error { return nil })
		f.idleSince = c.idle
		for _, w := range c.waiters {
			f.waiters[make(chan struct{})] = w
		}
		if got := f.stalledAt(now); got != c.want {
			t.Errorf("%s: stalled %v, want %v", c.name, got, c.want)
		}
	}
}
