//go:build !race

// The tests of several members in one process build without the race
// detector: protoactor-go's remote sets grpc's global logger on every
// member's start without synchronization, so several members in one
// process are never race-clean (one member per process, as in production,
// does not meet that race). The concurrent paths of the cluster kinds run
// under the race detector in their own packages over kindtest.Network, and
// the member's call path in single_test.go.

package members_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/actors/limiter"
	"github.com/orderengine/orderengine/actors/maker"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/cluster/members"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence"
)

// node is one member of a test cluster with its own actor system (the
// engine's, where the kinds' actors live) and the kinds it hosts: the
// counter (a test kind), the limiter, the makers, and the orders when the
// cluster has a journal.
type node struct {
	member  *members.Member
	system  *actor.ActorSystem
	counter *kind.Registry[string, struct{}]
	// activations counts the counter actors started on this node, by
	// identity.
	activations *sync.Map
	limiter     *limiter.Limiter
	makers      *maker.Makers
	orders      *order.Registry
}

// testCluster is n members in one process over one in-memory agent.
type testCluster struct {
	t     testing.TB
	agent *members.Agent
	opts  clusterOpts
	mu    sync.Mutex
	nodes []*node
}

// clusterOpts configure the kinds of a test cluster.
type clusterOpts struct {
	clock clock.Clock
	// window is the limiter's window (default 1 min).
	window time.Duration
	makers maker.Options
	// journal, when set, is the order journal every member shares: the
	// replicated journal of a real cluster, here one store.
	journal persistence.OrderJournal
}

func quietLog() *slog.Logger { return slog.New(slog.DiscardHandler) }

// newCluster starts n members hosting the test kinds, and whatever extra
// adds to each node before it starts.
func newCluster(t testing.TB, n int, extra func(i int, nd *node, m *members.Member)) *testCluster {
	return newClusterWith(t, n, clusterOpts{}, extra)
}

func newClusterWith(t testing.TB, n int, opts clusterOpts, extra func(i int, nd *node, m *members.Member)) *testCluster {
	t.Helper()
	if opts.clock == nil {
		opts.clock = clock.Real{}
	}
	if opts.window == 0 {
		opts.window = time.Minute
	}
	if opts.makers.Submits == 0 {
		opts.makers = maker.Options{Submits: 10, Window: 10 * time.Second, OpenOrders: 1000}
	}
	c := &testCluster{t: t, agent: members.NewAgent(), opts: opts}
	var wg sync.WaitGroup
	c.nodes = make([]*node, n)
	errs := make([]error, n)
	for i := range n {
		nd := c.build(i, extra)
		c.nodes[i] = nd
		wg.Go(func() { errs[i] = nd.member.Start(context.Background()) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	c.waitMembers(n)
	t.Cleanup(c.stop)
	return c
}

func (c *testCluster) build(i int, extra func(int, *node, *members.Member)) *node {
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quietLog() }))
	nd := &node{system: system, activations: &sync.Map{}}
	nd.counter = kind.NewRegistry(system, counterKind(nd.activations), nil)
	m := members.New(members.Config{Name: "test", Listen: "127.0.0.1:0", Provider: members.InMemory(c.agent),
		Log: quietLog(), Attempt: 500 * time.Millisecond})
	nd.member = m
	m.Host("counter", nd.counter, time.Minute)
	must(c.t, nd.counter.Place(m))
	clk := c.opts.clock
	nd.limiter = limiter.New(system, clk, nil, limiter.Options{Window: c.opts.window, Idle: 10 * time.Minute})
	must(c.t, nd.limiter.Place(m, limiter.ClusterOptions{Members: func() int { return len(m.Members()) }}))
	m.Host(limiter.KindName, nd.limiter, time.Minute)
	nd.makers = maker.New(system, clk, nil, c.opts.makers)
	must(c.t, nd.makers.Place(m))
	m.Host(maker.KindName, nd.makers, time.Minute)
	if c.opts.journal != nil {
		nd.orders = order.NewRegistry(system, order.Options{Journal: c.opts.journal, Clock: clk, Idle: time.Hour, Feed: c.feed})
		must(c.t, nd.orders.Place(m))
		m.Host(order.KindName, nd.orders, time.Minute)
		m.OnChange(func(members.Change) { nd.orders.PassivateMoved() })
	}
	if extra != nil {
		extra(i, nd, m)
	}
	return nd
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// feed is the orders' change feed: like the materialiser of a real
// cluster, it tells every member's makers of every durable change,
// whichever member committed it.
func (c *testCluster) feed(prev persistence.Status, rec *persistence.OrderRecord, bind *common.Address) {
	for _, nd := range c.live() {
		nd.makers.Changed(prev, rec, bind)
	}
}

// waitMembers waits until every running member sees n members.
func (c *testCluster) waitMembers(n int) {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok := true
		for _, nd := range c.live() {
			if len(nd.member.Members()) != n {
				ok = false
			}
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("the members do not all see %d members", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// killAfter stops node i at once, as a crash, and deregisters it from the
// agent after detect, as a provider's health check would find it gone.
func (c *testCluster) killAfter(i int, detect time.Duration) {
	c.mu.Lock()
	nd := c.nodes[i]
	c.nodes[i] = nil
	c.mu.Unlock()
	id := nd.member.ID()
	nd.member.Kill()
	nd.system.Shutdown()
	time.Sleep(detect)
	c.agent.Deregister(id)
}

func (c *testCluster) stop() {
	var wg sync.WaitGroup
	for _, nd := range c.live() {
		wg.Go(func() {
			nd.member.Kill()
			nd.system.Shutdown()
		})
	}
	wg.Wait()
}

// live returns the nodes still running.
func (c *testCluster) live() []*node {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*node
	for _, nd := range c.nodes {
		if nd != nil {
			out = append(out, nd)
		}
	}
	return out
}

// The counter kind: an actor per identity that adds what it is told and
// answers its total; its messages cross members as text.
type (
	addMsg   struct{ n int }
	totalMsg struct{}
	totalAns struct{ n int }
)

type counterActor struct {
	id          string
	n           int
	activations *sync.Map
}

func (a *counterActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *kind.Activated:
		v, _ := a.activations.LoadOrStore(a.id, new(atomic.Int32))
		v.(*atomic.Int32).Add(1)
	case *addMsg:
		a.n += m.n
		ctx.Respond(&totalAns{n: a.n})
	case *totalMsg:
		ctx.Respond(&totalAns{n: a.n})
	}
}

func counterKind(activations *sync.Map) kind.Kind[string, struct{}] {
	return kind.Kind[string, struct{}]{
		Name: "counter",
		New: func(id string, _ *struct{}) actor.Actor {
			return &counterActor{id: id, activations: activations}
		},
		Codec: &kind.Codec[string]{
			Key:   func(id string) string { return id },
			Parse: func(key string) (string, error) { return key, nil },
			Encode: func(msg any) (kind.Message, error) {
				switch m := msg.(type) {
				case *addMsg:
					return kind.Message{Type: "add", Data: []byte(strconv.Itoa(m.n))}, nil
				case *totalMsg:
					return kind.Message{Type: "total"}, nil
				case *totalAns:
					return kind.Message{Type: "ans", Data: []byte(strconv.Itoa(m.n))}, nil
				}
				return kind.Message{}, fmt.Errorf("counter: cannot encode %T", msg)
			},
			Decode: func(m kind.Message) (any, error) {
				switch m.Type {
				case "add", "ans":
					n, err := strconv.Atoi(strings.TrimSpace(string(m.Data)))
					if err != nil {
						return nil, err
					}
					if m.Type == "add" {
						return &addMsg{n: n}, nil
					}
					return &totalAns{n: n}, nil
				case "total":
					return &totalMsg{}, nil
				}
				return nil, fmt.Errorf("counter: unknown message %q", m.Type)
			},
		},
	}
}

// add adds n to id's counter through node nd and returns the new total.
func add(ctx context.Context, nd *node, id string, n int) (int, error) {
	res, err := nd.counter.Request(ctx, id, &addMsg{n: n})
	if err != nil {
		return 0, err
	}
	return res.(*totalAns).n, nil
}

func activationsOf(nd *node, id string) int32 {
	v, ok := nd.activations.Load(id)
	if !ok {
		return 0
	}
	return v.(*atomic.Int32).Load()
}
