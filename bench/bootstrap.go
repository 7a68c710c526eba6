package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/cluster/natsjs"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// runBootstrap measures how long a replaced cluster node takes to be
// ready with n orders stored: three nodes in this process (each its
// embedded JetStream, R3 order streams, its Pebble store and
// materialiser, as a serve node has them), n orders appended through the
// order journal (conditional, quorum-acknowledged and fsynced, applied on
// every node), then node 3 stopped, its store deleted (its JetStream
// store kept) and started again: the time until it is ready (Node.Ready:
// its store applied what the streams acknowledged), from a peer's
// snapshot, and then, with its store deleted again and the snapshot
// turned down, from a replay of the streams, in the same run.
func runBootstrap(ctx context.Context, out io.Writer, args []string) error {
	fs := flag.NewFlagSet("bootstrap", flag.ContinueOnError)
	n := fs.Int("n", 200_000, "orders to store before the node is replaced")
	conns := fs.Int("conns", 256, "appends in flight while loading")
	replay := fs.Bool("replay", true, "also measure a replay of the streams (no snapshot) in the same run")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "orderengine-bench-bootstrap-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	cfgs, err := benchClusterConfigs(3)
	if err != nil {
		return err
	}
	nodes := make([]*benchNode, 3)
	for i := range nodes {
		nodes[i] = &benchNode{cfg: cfgs[i], dir: filepath.Join(dir, cfgs[i].Node)}
	}
	defer func() {
		for _, bn := range nodes {
			bn.stop()
		}
	}()
	if err := startBenchNodes(ctx, nodes, true); err != nil {
		return err
	}
	fmt.Fprintf(out, "mode bootstrap: 3 nodes in this process (%d CPUs), %d orders through the journal, %d in flight\n", runtime.NumCPU(), *n, *conns)
	began := time.Now()
	if err := loadClusterOrders(ctx, nodes, *n, *conns); err != nil {
		return err
	}
	loaded := time.Since(began)
	fmt.Fprintf(out, "loaded %d orders in %v (%.0f/s)\n", *n, loaded.Round(time.Millisecond), float64(*n)/loaded.Seconds())
	if err := waitAllApplied(ctx, nodes); err != nil {
		return err
	}
	all, _ := dirSize(nodes[2].dir)
	js, _ := dirSize(filepath.Join(nodes[2].dir, "jetstream"))
	fmt.Fprintf(out, "node 3's store: %s; its JetStream store: %s\n", mib(all-js), mib(js))

	for _, snapshot := range []bool{true, false} {
		if !snapshot && !*replay {
			break
		}
		replaced := nodes[2]
		replaced.stop()
		if err := wipeStore(replaced.dir); err != nil {
			return err
		}
		how := "a peer's snapshot"
		if !snapshot {
			how = "a replay of the streams"
		}
		t0 := time.Now()
		if err := replaced.start(ctx, snapshot); err != nil {
			return fmt.Errorf("replaced node (%s): %w", how, err)
		}
		opened := time.Since(t0)
		for replaced.node.Ready() != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			time.Sleep(20 * time.Millisecond)
		}
		ready := time.Since(t0)
		got, _, err := replaced.orders.Load(orderHash(*n - 1))
		if err != nil || got == nil {
			return fmt.Errorf("replaced node (%s): the last order is not there (%v)", how, err)
		}
		fmt.Fprintf(out, "replaced node from %s: store open and followers started after %v, ready after %v\n",
			how, opened.Round(time.Millisecond), ready.Round(time.Millisecond))
	}
	return nil
}

// benchNode is one node of runBootstrap's cluster.
type benchNode struct {
	cfg     config.ClusterConfig
	dir     string
	node    *natsjs.Node
	store   *persistence.Store
	orders  *orderstore.Store
	journal *natsjs.Journal
}

func benchClusterConfigs(n int) ([]config.ClusterConfig, error) {
	routes := make([]string, n)
	listens := make([]string, n)
	for i := range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		listens[i] = ln.Addr().String()
		_ = ln.Close()
		routes[i] = "nats://" + listens[i]
	}
	out := make([]config.ClusterConfig, n)
	for i := range n {
		c := config.Default().Cluster
		c.Enabled, c.Name, c.Node = true, "bench", fmt.Sprintf("node%d", i+1)
		c.NATS.Listen, c.NATS.Routes = listens[i], routes
		out[i] = c
	}
	return out, nil
}

// startBenchNodes starts nodes at once (each node's setup needs a quorum).
func startBenchNodes(ctx context.Context, nodes []*benchNode, snapshot bool) error {
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, bn := range nodes {
		wg.Go(func() { errs[i] = bn.start(ctx, snapshot) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// start starts the node as app.New and Start do: the embedded server, the
// store (from a peer's snapshot when it needs one and snapshot is set),
// the streams, the shared log's and the order streams' followers, the
// probe and the snapshot server.
func (bn *benchNode) start(ctx context.Context, snapshot bool) error {
	if err := os.MkdirAll(bn.dir, 0o700); err != nil {
		return err
	}
	log := slog.New(slog.DiscardHandler)
	n, err := natsjs.Start(natsjs.Options{Cluster: bn.cfg, DataDir: bn.dir, Log: log})
	if err != nil {
		return err
	}
	bn.node = n
	shared := natsjs.NewSharedLog(n)
	for {
		if _, _, err := persistence.InstallSnapshot(bn.dir); err != nil {
			return err
		}
		st, err := persistence.OpenWith(bn.dir, persistence.Options{Shared: shared})
		if err != nil {
			return err
		}
		pos, err := st.Positions()
		if err != nil {
			_ = st.Close()
			return err
		}
		fetched := false
		if snapshot {
			if fetched, err = n.Bootstrap(ctx, natsjs.LocalStore{Dir: bn.dir, Positions: pos}); err != nil {
				_ = st.Close()
				return err
			}
		}
		if !fetched {
			bn.store = st
			break
		}
		_ = st.Close()
	}
	bn.orders = orderstore.New(bn.store, persistence.NewOutbox(bn.store, nil, nil))
	mat := natsjs.NewMaterialiser(n, bn.orders, nil)
	bn.journal = natsjs.NewJournal(n, bn.orders, mat, nil)
	sctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := n.Setup(sctx); err != nil {
		return err
	}
	if err := shared.Start(sctx, bn.store); err != nil {
		return err
	}
	if err := mat.Start(sctx); err != nil {
		return err
	}
	n.StartProbe()
	return n.ServeSnapshots(bn.store)
}

func (bn *benchNode) stop() {
	if bn.node != nil {
		_ = bn.node.Close()
		bn.node = nil
	}
	if bn.store != nil {
		_ = bn.store.Close()
		bn.store = nil
	}
}

// wipeStore deletes a data folder's store (its files and a snapshot's),
// leaving its JetStream store.
func wipeStore(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != "jetstream" {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// orderHash is the i-th bench order's hash.
func orderHash(i int) common.Hash {
	return sha256.Sum256(binary.BigEndian.AppendUint64([]byte("bootstrap"), uint64(i)))
}

// benchOrder is a pending limit order of realistic size: a full signed
// struct and a 65-byte signature.
func benchOrder(i int) *orderstore.Record {
	h := orderHash(i)
	maker := common.BytesToAddress(h[:20])
	o := chain.Order{Maker: maker, Receiver: maker,
		TokenIn:  common.HexToAddress("0x1000000000000000000000000000000000000001"),
		TokenOut: common.HexToAddress("0x2000000000000000000000000000000000000002"),
		Referrer: common.HexToAddress("0x000000000000000000000000000000000000FEE5"), ReferralFeePpm: 1000}
	o.Salt.SetUint64(uint64(i))
	o.AmountIn.SetUint64(1_000_000_000_000_000_000 + uint64(i))
	o.TriggerPrice.SetUint64(2_000_000_000)
	o.TriggerAmountOut = *uint256.NewInt(2_000_000_000)
	now := time.Now().UTC()
	return &orderstore.Record{Hash: h, Version: 1, Class: chain.ClassLimit, Status: orderstore.StatusPending,
		Order: o, Signature: make([]byte, 65), AccountID: "acc_bench", CreatedAt: now, UpdatedAt: now}
}

// loadClusterOrders appends n orders through the nodes' journals, conns at once.
func loadClusterOrders(ctx context.Context, nodes []*benchNode, n, conns int) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, conns)
	for c := range conns {
		wg.Go(func() {
			j := nodes[c%len(nodes)].journal
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				if err := j.AppendOrder(ctx, &orderstore.Transition{Record: benchOrder(i)}); err != nil {
					errs <- fmt.Errorf("order %d: %w", i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// waitAllApplied waits until every node's store applied what node 1's
// did.
func waitAllApplied(ctx context.Context, nodes []*benchNode) error {
	for {
		want, err := nodes[0].store.Positions()
		if err != nil {
			return err
		}
		done := true
		for _, bn := range nodes[1:] {
			got, err := bn.store.Positions()
			if err != nil {
				return err
			}
			for s, seq := range want {
				if got[s] < seq {
					done = false
				}
			}
		}
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}
