package natsjs

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/testport"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// testLog prints warnings and errors of the nodes (NATSJS_TEST_LOG=1).
var testLog = func() *slog.Logger {
	if os.Getenv("NATSJS_TEST_LOG") == "" {
		return nil
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}()

// testNode is one node of a test cluster: the embedded server, its own
// Pebble store, the materialiser, the journal and the shared log.
type testNode struct {
	cfg     config.ClusterConfig
	dir     string
	node    *Node
	store   *persistence.Store
	orders  *orderstore.Store
	mat     *Materialiser
	journal *Journal
	shared  *SharedLog
	feed    *feedLog
}

// feedLog records what the materialiser told the feed.
type feedLog struct {
	mu      sync.Mutex
	changes []string
}

func (f *feedLog) add(prev orderstore.Status, rec *orderstore.Record, _ *common.Address) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.changes = append(f.changes, fmt.Sprintf("%s v%d %s->%s", rec.Hash.Hex()[:10], rec.Version, prev, rec.Status))
}

func (f *feedLog) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.changes)
}

// clusterConfigs returns the cluster sections of n nodes on loopback
// ports (replicas min(n, 3), 4 partitions).
func clusterConfigs(t testing.TB, n int) []config.ClusterConfig {
	t.Helper()
	listens := make([]string, n)
	routes := make([]string, n)
	for i := range n {
		listens[i] = testport.Addr(t)
		routes[i] = "nats://" + listens[i]
	}
	out := make([]config.ClusterConfig, n)
	for i := range n {
		out[i] = config.ClusterConfig{Enabled: true, Name: "test", Node: fmt.Sprintf("n%d", i), Replicas: min(n, 3),
			OrderPartitions: 4, LeaseTTL: time.Second,
			NATS: config.NATSConfig{Listen: listens[i], Routes: routes}}
	}
	return out
}

// shared is the cluster of the tests that keep all three nodes running
// (sharedCluster): a cluster takes seconds to elect its leaders, so they
// share one, each with orders, accounts and leases of its own. TestMain
// stops it. Tests that stop or replace nodes start their own
// (startCluster).
var shared struct {
	once  sync.Once
	nodes []*testNode
	dirs  []string
	err   error
}

// sharedCluster returns the shared three-node cluster, started by the
// first test that asks.
func sharedCluster(t *testing.T) []*testNode {
	t.Helper()
	shared.once.Do(func() {
		cfgs := clusterConfigs(t, 3)
		shared.nodes = make([]*testNode, len(cfgs))
		for i, c := range cfgs {
			dir, err := os.MkdirTemp("", "natsjs-shared-")
			if err != nil {
				shared.err = err
				return
			}
			shared.dirs = append(shared.dirs, dir)
			shared.nodes[i] = &testNode{cfg: c, dir: dir}
		}
		shared.err = startAll(shared.nodes)
	})
	if shared.err != nil {
		t.Fatalf("the shared cluster: %v", shared.err)
	}
	return shared.nodes
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, tn := range shared.nodes {
		if tn != nil {
			tn.stop()
		}
	}
	for _, dir := range shared.dirs {
		_ = os.RemoveAll(dir)
	}
	os.Exit(code)
}

// startCluster starts n nodes in one process and sets them up; they stop
// at the end of the test.
func startCluster(t testing.TB, n int) []*testNode {
	t.Helper()
	cfgs := clusterConfigs(t, n)
	nodes := make([]*testNode, n)
	for i, c := range cfgs {
		nodes[i] = &testNode{cfg: c, dir: t.TempDir()}
	}
	startNodes(t, nodes...)
	return nodes
}

// startNodes starts (or restarts) nodes concurrently: each node's Setup
// needs the others' servers.
func startNodes(t testing.TB, nodes ...*testNode) {
	t.Helper()
	for _, tn := range nodes {
		t.Cleanup(tn.stop)
	}
	if err := startAll(nodes); err != nil {
		t.Fatal(err)
	}
}

// startAll starts nodes concurrently and returns the first failure.
func startAll(nodes []*testNode) error {
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, tn := range nodes {
		wg.Go(func() { errs[i] = tn.start() })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("node %d: %w", i, err)
		}
	}
	return nil
}

// start opens the node's store and server and starts its followers.
func (tn *testNode) start() error {
	n, err := Start(Options{Cluster: tn.cfg, DataDir: tn.dir, Log: testLog})
	if err != nil {
		return err
	}
	tn.node = n
	tn.shared = NewSharedLog(n)
	store, err := persistence.OpenWith(filepath.Join(tn.dir, "store"), persistence.Options{Shared: tn.shared})
	if err != nil {
		_ = n.Close()
		return err
	}
	tn.store = store
	outbox := persistence.NewOutbox(store, nil, nil)
	tn.orders = orderstore.New(store, outbox)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	t0 := time.Now()
	if err := n.Setup(ctx); err != nil {
		return err
	}
	if testLog != nil {
		testLog.Warn("setup", "node", tn.cfg.Node, "took", time.Since(t0))
	}
	tn.feed = &feedLog{}
	tn.mat = NewMaterialiser(n, tn.orders, tn.feed.add)
	if err := tn.mat.Start(ctx); err != nil {
		return err
	}
	if err := tn.shared.Start(ctx, store); err != nil {
		return err
	}
	if testLog != nil {
		testLog.Warn("followers", "node", tn.cfg.Node, "took", time.Since(t0))
	}
	tn.journal = NewJournal(n, tn.orders, tn.mat, nil)
	return nil
}

// stop closes the node's server and store (again: nothing).
func (tn *testNode) stop() {
	if tn.node != nil {
		_ = tn.node.Close()
		tn.node = nil
	}
	if tn.store != nil {
		_ = tn.store.Close()
		tn.store = nil
	}
}

// freshOrders returns the first index of a block of test orders no other
// test run in this process uses (the shared cluster outlives a test, and
// go test -count runs a test again on it).
func freshOrders() int { return int(ordersUsed.Add(100_000)) }

var ordersUsed atomic.Int64

// testOrder is the i-th test order (hash sha256(i), so the partitions
// spread), version 1, pending.
func testOrder(i int) *orderstore.Record {
	h := sha256.Sum256(binary.BigEndian.AppendUint64(nil, uint64(i)))
	return &orderstore.Record{
		Hash: h, Version: 1, Class: chain.ClassLimit, Status: orderstore.StatusPending, AccountID: "acc_test",
		Order:     chain.Order{Maker: common.HexToAddress("0x1000000000000000000000000000000000000001"), AmountIn: *uint256.NewInt(uint64(i + 1))},
		CreatedAt: time.Unix(1_800_000_000+int64(i), 0).UTC(), UpdatedAt: time.Unix(1_800_000_000, 0).UTC(),
	}
}

// create appends a new order to j.
func create(j *Journal, rec *orderstore.Record) error {
	return j.AppendOrder(context.Background(), &orderstore.Transition{Record: rec})
}

// next returns rec's next version with status st, and its transition.
func next(rec *orderstore.Record, st orderstore.Status) *orderstore.Transition {
	n := rec.Clone()
	n.Version, n.Status = rec.Version+1, st
	return &orderstore.Transition{Record: n, Expect: rec.Version, Prev: rec.Status}
}

// waitFor polls cond until it holds or 20 s pass.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
