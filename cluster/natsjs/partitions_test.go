package natsjs

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// TestOrderPartitionsSettle checks how a node comes by the number of order
// streams: a new cluster with cluster.orderPartitions 0 makes one; a node
// with 0 takes the number the cluster's streams were made for; a node
// with another number than theirs does not set up.
func TestOrderPartitionsSettle(t *testing.T) {
	cfg := clusterConfigs(t, 1)[0]
	dir := t.TempDir()
	setup := func(partitions int) (*Node, error) {
		t.Helper()
		c := cfg
		c.OrderPartitions = partitions
		n, err := Start(Options{Cluster: c, DataDir: dir, Log: testLog})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		return n, n.Setup(ctx)
	}
	streams := func(n *Node) []string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		js, err := jetstream.New(n.Conn())
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for p := range 8 {
			s, err := js.Stream(ctx, orderStream(p))
			if errors.Is(err, jetstream.ErrStreamNotFound) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, s.CachedInfo().Config.Name+"/"+s.CachedInfo().Config.Metadata[partitionsKey])
		}
		return names
	}

	n, err := setup(0)
	if err != nil {
		t.Fatalf("a new cluster with cluster.orderPartitions 0: %v", err)
	}
	if got := n.OrderPartitions(); got != defaultPartitions {
		t.Fatalf("a new cluster with cluster.orderPartitions 0 has %d order streams, want %d", got, defaultPartitions)
	}
	if got := streams(n); len(got) != 1 || got[0] != "ORDERS_0/1" {
		t.Fatalf("order streams of a new cluster: %v, want [ORDERS_0/1]", got)
	}
	_ = n.Close()

	// A cluster made for four streams (a cluster made before the default
	// was one) keeps them when its nodes start with the default.
	dir = t.TempDir()
	if n, err = setup(4); err != nil {
		t.Fatalf("cluster.orderPartitions 4: %v", err)
	}
	_ = n.Close()
	if n, err = setup(0); err != nil {
		t.Fatalf("cluster.orderPartitions 0 over streams made for 4: %v", err)
	}
	if got := n.OrderPartitions(); got != 4 {
		t.Fatalf("cluster.orderPartitions 0 over streams made for 4 takes %d, want 4", got)
	}
	if got := streams(n); len(got) != 4 {
		t.Fatalf("order streams: %v, want the four made first", got)
	}

	// Another node made the streams between this node's reading (which
	// found none, so it took one stream) and its setting them up: the
	// update to one is refused, not final, and the streams keep their
	// number, which the next attempt takes.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	n.partitions.Store(1)
	for _, c := range n.streamConfigs() {
		if c.Name != orderStream(0) {
			continue
		}
		if _, err := n.ensureStream(ctx, c); err == nil || errors.Is(err, errPartitionsChanged) {
			t.Fatalf("setting up ORDERS_0 for one partition over the streams made for four: err %v, want a retry", err)
		}
	}
	if got := streams(n); len(got) != 4 || got[0] != "ORDERS_0/4" {
		t.Fatalf("order streams after the refused update: %v, want the four made first, ORDERS_0/4", got)
	}
	if err := n.Setup(ctx); err != nil || n.OrderPartitions() != 4 {
		t.Fatalf("the next setup: err %v, %d partitions, want 4", err, n.OrderPartitions())
	}
	_ = n.Close()

	n, err = setup(2)
	defer n.Close()
	if !errors.Is(err, errPartitionsChanged) {
		t.Fatalf("cluster.orderPartitions 2 over streams made for 4: err %v, want errPartitionsChanged", err)
	}
}
