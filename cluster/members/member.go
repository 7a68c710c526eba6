// Package members makes an engine node a member of a protoactor-go cluster
// and places the cluster kinds' identities on the members: it implements
// actors/kind's Placement.
//
// # What it uses of protoactor-go, and what it does itself
//
// A Member runs its own actor system with remoting (cluster.actors.listen,
// advertised as cluster.actors.advertise), the cluster's gossip and
// membership, a provider (automanaged over a static peer list, or the
// in-memory agent for several members in one process) and the disthash
// identity lookup, whose placement actor on the owning member activates
// one grain per identity of a kind. A grain is a thin door: it hands the
// request to the kind's Handler (the kind's registry, actors/kind), which
// runs the identity's actor and keeps its state on that member.
//
// The pinned protoactor-go (an alpha without releases since 2024) has
// defects this package steps around rather than inherits:
//
//   - Remote messages must be protobuf messages (anything else is logged
//     and dropped, and the caller only times out): requests travel as
//     *cluster.GrainRequest with the kind codec's bytes and type name, and
//     answers as *cluster.GrainResponse or *cluster.GrainErrorResponse.
//     No protoc step.
//   - Its call path retries three times with a sleep of i*i*50
//     nanoseconds, so callers fail during the seconds a member takes to
//     leave, and its timeouts live in a shared, mutated global
//     (DefaultGrainCallConfig). Call has its own loop: owner by rendezvous
//     hashing, activation on the owner, request, and on a timeout, a dead
//     letter or an unavailable member a backoff from 5 ms doubling to
//     500 ms, until the context's deadline.
//   - disthash swaps its hash ring without a lock, and its Get asks the
//     owner with a fixed 5 s timeout: the owner is computed here under this
//     package's own lock (the same rendezvous hash, so both agree), and
//     the activation request is bounded by the caller's deadline.
//   - StartMember panics on provider and listener errors: Start recovers
//     them into errors.
//
// Membership changes are published to OnChange listeners (in order, on a
// goroutine of their own), after the member's own view has moved.
package members

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"

	"github.com/orderengine/orderengine/actors/kind"
)

// Config configures a Member.
type Config struct {
	// Name is the cluster's name; members of other clusters are ignored.
	Name string
	// Listen is the address of the member's remote listener (host:port;
	// port 0 picks one, for tests).
	Listen string
	// Advertise is the address the other members reach this one at.
	// Default: the listener's address.
	Advertise string
	// Provider finds the other members (Automanaged or InMemory).
	Provider Provider
	// Log receives the member's logs and protoactor's (nil: discarded).
	Log *slog.Logger
	// Attempt bounds one attempt of a call (the activation and the
	// request). Default 2 s.
	Attempt time.Duration
	// Serve bounds the handling of one request from another member.
	// Default 10 s.
	Serve time.Duration
	// Join bounds how long Start waits to see this member in the
	// topology. Default 15 s.
	Join time.Duration
	// Gossip is protoactor's gossip interval (heartbeats, which block a
	// member silent for 20 s, and the graceful-leave notice). Zero: the
	// provider's default, protoactor's 300 ms for Automanaged; off for
	// InMemory, whose members share one process and so gossip's random
	// source, which is not safe for concurrent use (the provider alone
	// then decides the membership).
	Gossip time.Duration
}

// Handler serves the requests of one cluster kind that other members send
// to the identities this member owns (kind.Registry implements it).
type Handler interface {
	Serve(ctx context.Context, key string, req kind.Message, oneWay bool) (kind.Message, error)
}

// Member is this node's member of the cluster. Its methods are safe for
// concurrent use once Start has returned.
type Member struct {
	cfg     Config
	log     *slog.Logger
	kinds   map[string]*hostedKind
	system  *actor.ActorSystem
	cluster *cluster.Cluster
	self    atomic.Pointer[string] // the advertised address, once started

	view    atomic.Pointer[view]
	pids    pidCache
	changes chan Change
	mu      sync.Mutex
	watch   []func(Change)
	joined  chan struct{}
	started bool // StartMember returned: the cluster must be shut down
	stopped atomic.Bool
	done    chan struct{}
}

// hostedKind is a kind this member hosts: its handler and its grains' idle
// time.
type hostedKind struct {
	name    string
	handler Handler
	idle    time.Duration
}

// ErrUnreachable is wrapped by a call that found no member able to answer
// before its deadline.
var ErrUnreachable = errors.New("members: no member answered in time")

// New returns a member that has not joined yet: register its kinds with
// Host, then Start it.
func New(cfg Config) *Member {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Attempt <= 0 {
		cfg.Attempt = 2 * time.Second
	}
	if cfg.Serve <= 0 {
		cfg.Serve = 10 * time.Second
	}
	if cfg.Join <= 0 {
		cfg.Join = 15 * time.Second
	}
	return &Member{
		cfg: cfg, log: cfg.Log.With("component", "members"), kinds: map[string]*hostedKind{},
		changes: make(chan Change, 64), joined: make(chan struct{}), done: make(chan struct{}),
	}
}

// Host makes this member host kind name: requests for the identities it
// owns go to h. A grain idle for idle stops (zero: 2 min). Call it before
// Start.
func (m *Member) Host(name string, h Handler, idle time.Duration) {
	if idle <= 0 {
		idle = 2 * time.Minute
	}
	m.kinds[name] = &hostedKind{name: name, handler: h, idle: idle}
}

// OnChange registers f to be told of every change of the cluster's
// members, in order, on the member's notification goroutine. Call it
// before Start.
func (m *Member) OnChange(f func(Change)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.watch = append(m.watch, f)
}

// Start starts the member's actor system, remoting and provider, and
// waits (at most Config.Join, or ctx's end) until this member sees itself
// in the cluster's topology. On an error the member is stopped.
func (m *Member) Start(ctx context.Context) (err error) {
	if m.cfg.Provider == nil {
		return errors.New("members: no provider")
	}
	host, portStr, err := net.SplitHostPort(m.cfg.Listen)
	if err != nil {
		return fmt.Errorf("members: listen address %q: %w", m.cfg.Listen, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return fmt.Errorf("members: listen port %q: %w", portStr, err)
	}
	actorLog := m.cfg.Log.With("component", "protoactor-cluster")
	m.system = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return actorLog }))
	var ropts []remote.ConfigOption
	if m.cfg.Advertise != "" {
		ropts = append(ropts, remote.WithAdvertisedHost(m.cfg.Advertise))
	}
	provider, err := m.cfg.Provider.provider(m)
	if err != nil {
		return err
	}
	kinds := make([]*cluster.Kind, 0, len(m.kinds))
	for _, k := range m.kinds {
		kinds = append(kinds, cluster.NewKind(k.name, actor.PropsFromProducer(func() actor.Actor { return &grain{m: m, kind: k} })))
	}
	cfg := cluster.Configure(m.cfg.Name, provider, disthash.New(), remote.Configure(host, port, ropts...),
		cluster.WithKinds(kinds...))
	if gossip := cmp.Or(m.cfg.Gossip, m.cfg.Provider.gossip()); gossip > 0 {
		cfg.GossipInterval = gossip
	}
	m.cluster = cluster.New(m.system, cfg)
	m.system.EventStream.Subscribe(func(ev any) {
		if t, ok := ev.(*cluster.ClusterTopology); ok {
			m.topology(t)
		}
	})
	go m.notify()
	defer func() {
		if err != nil {
			m.abort()
		}
	}()
	if err := m.startMember(); err != nil {
		return err
	}
	m.started = true
	self := m.system.Address()
	m.self.Store(&self)
	if v := m.view.Load(); v != nil && v.has(self) {
		m.markJoined()
	}
	wait, cancel := context.WithTimeout(ctx, m.cfg.Join)
	defer cancel()
	select {
	case <-m.joined:
		m.log.Info("members: joined the cluster", "address", self, "members", len(m.view.Load().members))
		return nil
	case <-wait.Done():
		return fmt.Errorf("members: %s did not see itself among the cluster's members within %s", self, m.cfg.Join)
	}
}

// startMember runs protoactor's StartMember, which panics on a listener or
// provider error.
func (m *Member) startMember() (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("members: start the cluster member on %s: %v", m.cfg.Listen, p)
		}
	}()
	m.cluster.StartMember()
	return nil
}

func (m *Member) markJoined() {
	select {
	case <-m.joined:
	default:
		close(m.joined)
	}
}

// ID is the member's id in the cluster (its actor system's id, new at
// every start).
func (m *Member) ID() string { return m.system.ID }

// Address is the address the other members reach this one at ("" before
// Start).
func (m *Member) Address() string {
	if p := m.self.Load(); p != nil {
		return *p
	}
	return ""
}

// Members returns the addresses of the members this one sees now.
func (m *Member) Members() []string {
	v := m.view.Load()
	if v == nil {
		return nil
	}
	out := make([]string, len(v.members))
	for i, mb := range v.members {
		out[i] = mb.addr
	}
	return out
}

// Leave leaves the cluster gracefully: the member tells the others it
// left, its provider deregisters it, its grains stop, and its listener
// closes. It takes protoactor's fixed two seconds and more; ctx only
// bounds the wait (the leave goes on in the background).
func (m *Member) Leave(ctx context.Context) error {
	if !m.stopped.CompareAndSwap(false, true) {
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.cluster.Shutdown(true)
	}()
	defer close(m.done)
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("members: leave: %w", ctx.Err())
	}
}

// Kill stops the member at once without telling anyone: to the others it
// looks like a crash, and they drop it once their provider finds it gone
// (tests with the in-memory agent deregister it; see Agent.Deregister).
func (m *Member) Kill() {
	if !m.stopped.CompareAndSwap(false, true) {
		return
	}
	defer close(m.done)
	if !m.started {
		m.system.Shutdown()
		return
	}
	m.cluster.Shutdown(false)
}

// abort undoes a Start that failed: a member that got as far as its
// provider leaves, so that the others do not wait for it.
func (m *Member) abort() {
	if !m.started {
		m.Kill()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_ = m.Leave(ctx)
}
