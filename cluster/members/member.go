// Package members makes an engine node a member of its cluster and
// places the cluster kinds' identities on the members: it implements
// actors/kind's Placement. Everything it decides rests on leases in the
// cluster's JetStream (cluster/natsjs), so that what one node believes
// about the others can never make two of them do one duty at once.
//
// # Membership
//
// A node is a member while it holds its member lease (member-<node> on
// the LEASES stream; cluster.membershipTTL, renewed every fifth of it:
// longer than an election of the stream's leader, so that one does not
// drop every member at once) and is
// fit for duties (its store follows the streams: Config.Fit). A member
// that stops renewing (killed, paused, cut off from a quorum) drops out
// when its term ends; it comes back by taking its lease again, as soon as
// it reaches a quorum, with no restart and nothing to unblock. Every node
// reads every term a few times a second from its own replica of the
// stream (natsjs.Node.Terms), so its view of the members converges within
// about a second of the heal that lets it read and write again.
//
// # Placement, fenced
//
// An identity of a cluster kind (an order's hash, a maker's address, an
// API key id, a webhook endpoint's id) belongs to one of Config.Shards
// shards (FNV-1a of the key), and a shard to the holder of its lease
// (shard-<i>). Only the holder serves the shard's identities, and it
// counts itself the holder only until its term's end by its own clock,
// which never outlasts the term on the server (natsjs.Lease): so at most
// one node holds a shard at any moment, whatever the members believe
// about each other. A node holds only while it holds its member lease; a
// holder that is not the shard's preferred member (rendezvous hashing over
// the live members' names) hands it over once the preferred member has
// been live for a settling time, and a shard left free is taken by its
// preferred member at once, by any fit member after a grace.
//
// # Transport
//
// Requests between members travel as NATS requests over the routes the
// JetStream servers already keep: the holder of shard i subscribes to
// oe.<cluster>.shard.<i> while it holds it, so a request reaches whoever
// holds the shard now, without an address book. The holder checks its
// lease again before it serves (a request that reached a node whose term
// just ended is refused, and the caller tries again).
package members

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/cluster/natsjs"
)

// Config configures a Member.
type Config struct {
	// Node is the node's JetStream (its leases and its NATS connection).
	Node *natsjs.Node
	// Cluster is the cluster's name (the prefix of the members'
	// subjects); Name this node's (cluster.node).
	Cluster, Name string
	// Shards is the number of shards the identities are placed by; every
	// node must use the same. Default 16.
	Shards int
	// TTL is the member and shard leases' time to live
	// (cluster.membershipTTL). Default 15 s.
	TTL time.Duration
	// Fit reports whether this node may hold duties now (nil: always): a
	// node whose store does not follow the streams is not, and one unfit
	// for a whole TTL gives up its shards and its membership.
	Fit func() bool
	// Log receives the member's logs (nil: discarded).
	Log *slog.Logger
	// Attempt bounds one attempt of a call. Default 2 s.
	Attempt time.Duration
	// Serve bounds the handling of one request from another member.
	// Default 10 s.
	Serve time.Duration
	// Tick is how often the member reads the terms and acts on them.
	// Default 250 ms.
	Tick time.Duration
	// OnChange, when set, is told on the member's goroutine when the
	// members or the shards this member holds change (nil: nobody is).
	OnChange func(Change)
	// Drain, when set, is called when this member hands shards over to
	// their preferred members (once for a tick's handovers), before it
	// stops serving them and releases their leases: the kinds start
	// nothing more for the identities that leaving reports and finish
	// what they began for them (a webhook attempt in flight and its
	// outcome's write), so that the member taking a shard finds it done.
	// It returns when ctx ends (drainTimeout at most) whatever is left.
	// The member serves the shards' requests meanwhile, and renews its
	// other shards.
	Drain func(ctx context.Context, leaving func(key string) bool)
}

// Handler serves the requests of one cluster kind that other members send
// to the identities this member owns (kind.Registry implements it).
type Handler interface {
	Serve(ctx context.Context, key string, req kind.Message, oneWay bool) (kind.Message, error)
}

// Change is a change of what this member sees: the members now, and the
// shards this member holds now.
type Change struct {
	Members []string
	Held    []int
}

// Member is this node's member of the cluster. Its methods are safe for
// concurrent use once Start has returned.
type Member struct {
	cfg Config
	log *slog.Logger
	nc  *nats.Conn
	// id is this process's name in logs and the admin API (the node's
	// name and an incarnation); the leases are held under the node's
	// name alone, so a node restarted on its data folder (which one
	// process at a time can open) takes its terms back at once.
	id    string
	kinds map[string]Handler

	member *natsjs.Lease
	shards []*shard
	view   atomic.Pointer[view]
	// serving bounds the requests served at once.
	serving chan struct{}

	mu sync.Mutex
	// terms are the last terms read; memberRenewed when the member lease
	// was last taken or renewed; memberSeqs the sequences of its last two
	// writes in this term (0: none), the older first.
	terms         map[string]natsjs.Term
	memberRenewed time.Time
	memberFailing time.Time
	memberSeqs    [2]uint64
	// readTerms reads the lease terms: the node's Terms (a test puts a
	// replica that trails in front of it).
	readTerms func(ctx context.Context, prefix string) (map[string]natsjs.Term, error)
	joined    chan struct{}
	started   bool
	stopped   atomic.Bool
	stopc     chan struct{}
	done      chan struct{}
}

// shard is one shard's lease as this member handles it.
type shard struct {
	i     int
	lease *natsjs.Lease
	// Under Member.mu: the subscription serving it while held, when the
	// last renewal started, since when the view has shown it free, and
	// since when its renewals fail (zero: they do not).
	sub       *nats.Subscription
	renewed   time.Time
	freeSince time.Time
	failing   time.Time
	// unserved is until when (unix ns) calls to the shard give up at
	// once (breakerOpen).
	unserved atomic.Int64
}

// ErrUnreachable is wrapped by a call that found no member able to answer
// before its deadline.
var ErrUnreachable = errors.New("members: no member answered in time")

// Defaults of Config.
const (
	defaultShards  = 16
	defaultTTL     = 15 * time.Second
	defaultAttempt = 2 * time.Second
	defaultServe   = 10 * time.Second
	defaultTick    = 250 * time.Millisecond
	// maxServing bounds the requests one member serves at once.
	maxServing = 1024
)

// New returns a member that has not joined yet: register its kinds with
// Host, then Start it.
func New(cfg Config) *Member {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	cfg.Shards = cmpOr(cfg.Shards, defaultShards)
	cfg.TTL = cmpOr(cfg.TTL, defaultTTL)
	cfg.Attempt = cmpOr(cfg.Attempt, defaultAttempt)
	cfg.Serve = cmpOr(cfg.Serve, defaultServe)
	cfg.Tick = cmpOr(cfg.Tick, defaultTick)
	var inc [4]byte
	_, _ = rand.Read(inc[:])
	m := &Member{cfg: cfg, log: cfg.Log.With("component", "members"), id: cfg.Name + "/" + hex.EncodeToString(inc[:]),
		kinds: map[string]Handler{}, serving: make(chan struct{}, maxServing),
		joined: make(chan struct{}), stopc: make(chan struct{}), done: make(chan struct{})}
	if cfg.Node != nil {
		m.nc = cfg.Node.Conn()
		m.member = cfg.Node.Lease(memberLease(cfg.Name), cfg.Name, cfg.TTL)
		m.readTerms = cfg.Node.Terms
		for i := range cfg.Shards {
			m.shards = append(m.shards, &shard{i: i, lease: cfg.Node.Lease(shardLease(i), cfg.Name, cfg.TTL)})
		}
	}
	return m
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// memberLease and shardLease name the leases on the LEASES stream.
func memberLease(node string) string { return "member-" + node }
func shardLease(i int) string        { return fmt.Sprintf("shard-%d", i) }

// Host makes this member serve kind name's requests for the identities it
// owns with h. Call it before Start.
func (m *Member) Host(name string, h Handler) { m.kinds[name] = h }

// Start runs the member: it takes its member lease as soon as it is fit,
// then the shards that are its own, and keeps them. It waits until the
// member lease is held, at most ctx's end.
func (m *Member) Start(ctx context.Context) error {
	if m.cfg.Node == nil {
		return errors.New("members: no JetStream node")
	}
	m.mu.Lock()
	m.started = true
	m.mu.Unlock()
	go m.run()
	select {
	case <-m.joined:
		m.log.Info("members: joined the cluster", "node", m.cfg.Name, "id", m.id)
		return nil
	case <-ctx.Done():
		m.Kill()
		return fmt.Errorf("members: %s did not take its member lease: %w", m.cfg.Name, ctx.Err())
	}
}

// ID is this process's name among the members: the node's name and an
// incarnation new at every start.
func (m *Member) ID() string { return m.id }

// Name is the node's name (cluster.node).
func (m *Member) Name() string { return m.cfg.Name }

// Members returns the names of the live members this one sees, sorted.
func (m *Member) Members() []string {
	v := m.view.Load()
	if v == nil {
		return nil
	}
	return slices.Clone(v.members)
}

// Renewed returns when this member last saw member name renew its
// membership (its term's sequence move), zero when it does not see it
// live.
func (m *Member) Renewed(name string) time.Time {
	v := m.view.Load()
	if v == nil {
		return time.Time{}
	}
	return v.renewed[name]
}

// Joined reports whether this member holds its member lease now.
func (m *Member) Joined() bool { return m.member != nil && m.member.Held() }

// Leave leaves the cluster gracefully: the member stops taking duties,
// stops serving, releases its shards (their preferred members take them
// at once) and its member lease. ctx bounds the releases. A release that
// fails (the cluster has lost its quorum, the last node stops) is logged:
// that term ends with its TTL.
func (m *Member) Leave(ctx context.Context) error {
	if !m.stopped.CompareAndSwap(false, true) {
		return nil
	}
	m.mu.Lock()
	started := m.started
	m.mu.Unlock()
	close(m.stopc)
	if !started {
		return nil
	}
	<-m.done
	var errs []error
	for _, s := range m.shards {
		m.unsubscribe(s)
		if err := s.lease.Release(ctx); err != nil {
			errs = append(errs, fmt.Errorf("shard %d: %w", s.i, err))
		}
	}
	if err := m.member.Release(ctx); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		m.log.Warn("members: some leases were not released; their terms end with their TTL", "node", m.cfg.Name, "err", err)
	}
	return nil
}

// Kill stops the member at once without releasing anything: to the others
// it looks like a crash, and its terms end with their TTL.
func (m *Member) Kill() {
	if !m.stopped.CompareAndSwap(false, true) {
		return
	}
	close(m.stopc)
	m.mu.Lock()
	started := m.started
	m.mu.Unlock()
	if started {
		<-m.done
	}
	for _, s := range m.shards {
		m.unsubscribe(s)
	}
}

// HeldShards returns how many shards this member holds now.
func (m *Member) HeldShards() int {
	n := 0
	for _, s := range m.shards {
		if s.lease.Held() {
			n++
		}
	}
	return n
}

// Held returns the shards this member holds now.
func (m *Member) Held() []int { return m.change().Held }

// Holders returns the holder of every shard as this member last read the
// terms, by shard ("" for none).
func (m *Member) Holders() []string {
	v := m.view.Load()
	if v == nil {
		return make([]string, len(m.shards))
	}
	return slices.Clone(v.holders)
}

// Place returns the shard of identity key, its holder as this member
// last read the terms, and its preferred member among the live members
// then: where it settles while the members stay as they are.
func (m *Member) Place(key string) (shard int, holder, preferred string) {
	s := m.shardOf(key)
	return s.i, m.Owner("", key), preferredOf(s.i, m.Members())
}
