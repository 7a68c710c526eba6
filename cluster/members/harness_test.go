package members_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/cluster/members"
	"github.com/orderengine/orderengine/cluster/natsjs"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/testport"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// The members of these tests run with a short TTL and tick, so that a
// takeover is seen within seconds.
const (
	testTTL    = 2 * time.Second
	testTick   = 50 * time.Millisecond
	testShards = 8
)

// node is one node of a test cluster: its embedded JetStream (with the
// streams set up and followed) and its member, which hosts the counter
// kind.
type node struct {
	name   string
	dir    string
	cfg    config.ClusterConfig
	store  *persistence.Store
	js     *natsjs.Node
	member *members.Member
	// served counts, by key, the requests this node's counter handler
	// served.
	served sync.Map
	fit    atomic.Bool
	// down is set once the node crashed.
	down atomic.Bool
}

// testCluster is n nodes in this process.
type testCluster struct {
	t     testing.TB
	nodes []*node
}

func testLog() *slog.Logger {
	if os.Getenv("MEMBERS_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// newCluster starts n nodes (their JetStream servers routed to each
// other) and waits until each holds its member lease.
func newCluster(t testing.TB, n int) *testCluster {
	t.Helper()
	c := &testCluster{t: t}
	listens := make([]string, n)
	routes := make([]string, n)
	for i := range n {
		listens[i] = testport.Addr(t)
		routes[i] = "nats://" + listens[i]
	}
	for i := range n {
		nd := &node{name: fmt.Sprintf("n%d", i), dir: t.TempDir()}
		nd.cfg = config.ClusterConfig{Enabled: true, Name: "members", Node: nd.name, Replicas: min(n, 3), OrderPartitions: 1,
			LeaseTTL: time.Second, NATS: config.NATSConfig{Listen: listens[i], Routes: routes}}
		nd.fit.Store(true)
		c.nodes = append(c.nodes, nd)
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, nd := range c.nodes {
		wg.Go(func() { errs[i] = c.start(nd) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(c.stop)
	return c
}

// start starts node nd's JetStream and member.
func (c *testCluster) start(nd *node) error {
	store, err := persistence.Open(filepath.Join(nd.dir, "store"), nil)
	if err != nil {
		return err
	}
	nd.store = store
	js, err := natsjs.Start(natsjs.Options{Cluster: nd.cfg, DataDir: nd.dir, Log: testLog()})
	if err != nil {
		return err
	}
	nd.js = js
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := js.Setup(ctx); err != nil {
		return err
	}
	orders := orderstore.New(store, persistence.NewOutbox(store, nil, nil))
	if err := natsjs.NewMaterialiser(js, orders, nil).Start(ctx); err != nil {
		return err
	}
	if err := natsjs.NewSharedLog(js).Start(ctx, store); err != nil {
		return err
	}
	nd.member = members.New(members.Config{Node: js, Cluster: "members", Name: nd.name, Shards: testShards, TTL: testTTL,
		Tick: testTick, Attempt: 300 * time.Millisecond, Fit: func() bool { return nd.fit.Load() && js.Fit() == nil },
		Log: testLog().With("node", nd.name)})
	nd.member.Host("counter", counterHandler{nd})
	if err := nd.member.Start(ctx); err != nil {
		return err
	}
	// A member that says it joined sees itself among the members (what
	// GET /readyz requires of a cluster node).
	if got := nd.member.Members(); !slices.Contains(got, nd.name) {
		return fmt.Errorf("%s joined but sees the members %v", nd.name, got)
	}
	return nil
}

// stop stops every node still running.
func (c *testCluster) stop() {
	for _, nd := range c.nodes {
		c.crash(nd)
	}
}

// crash stops node nd at once: its member without releasing anything,
// then its JetStream server (as a process killed with SIGKILL: the others
// see it go, and its terms end with their TTL).
func (c *testCluster) crash(nd *node) {
	nd.down.Store(true)
	if nd.member != nil {
		nd.member.Kill()
	}
	if nd.js != nil {
		_ = nd.js.Close()
		nd.js = nil
	}
	if nd.store != nil {
		_ = nd.store.Close()
		nd.store = nil
	}
}

// waitFor polls cond until it holds, failing the test after timeout.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > timeout {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return time.Since(start)
}

// counterHandler serves the counter kind: it counts the requests this
// node served, by key, and answers with the node's name.
type counterHandler struct{ nd *node }

func (h counterHandler) Serve(_ context.Context, key string, req kind.Message, _ bool) (kind.Message, error) {
	v, _ := h.nd.served.LoadOrStore(key, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
	return kind.Message{Type: "served-by", Data: []byte(h.nd.name)}, nil
}

// owners returns, for each shard key of keys, the nodes that own it now
// (each node asked at once).
func (c *testCluster) owners(keys []string) map[string][]string {
	out := map[string][]string{}
	for _, nd := range c.nodes {
		if nd.down.Load() {
			continue
		}
		for _, k := range keys {
			if nd.member.Owns("counter", k) {
				out[k] = append(out[k], nd.name)
			}
		}
	}
	return out
}

// shardKeys returns one key for each shard, as the members place them.
func shardKeys(m *members.Member) []string {
	keys := make([]string, testShards)
	found := 0
	for i := 0; found < testShards; i++ {
		k := fmt.Sprintf("key-%d", i)
		if s, _, _ := m.Place(k); keys[s] == "" {
			keys[s] = k
			found++
		}
	}
	return keys
}
