// Package kind is the one registry of the engine's actors: it spawns the
// actor of an identity on its first message, finds it afterwards, and
// passivates it when it has been idle, for every actor kind (order by hash,
// pair by pair, webhook endpoint by id, limiter by key id, maker by
// address). Adding a kind is a Kind value and NewRegistry; nothing else
// keeps PIDs.
//
// The models are protoactor's cluster.Kind and hollywood's registry
// (GetPID by kind and id): an identity has at most one live actor in a
// registry, messages to an identity whose actor has passivated start a new
// one, which loads its state again.
//
// Memory follows the identities in use: every actor of a kind shares one
// Props; the registry's host actor learns its identity from its first
// message and only then makes the kind's actor (Kind.New), and idleness is
// found by one sweep per registry instead of a timer per actor.
//
// An actor stops only when no message is on its way to it: every message
// sent through the registry (Send, Request) and every Use is counted until
// the actor has handled it (or Use has returned), and the sweep retires an
// identity only with nothing counted, under its shard's lock, so nothing is
// ever sent to a stopped actor and no Use writes to state nobody owns.
package kind

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Kind describes one kind of actor.
type Kind[ID comparable, S any] struct {
	// Name names the kind in logs ("order", "pair", ...).
	Name string
	// State, when set, makes the state an identity's callers share with its
	// actor on their own goroutines (Registry.Use): the measured fast paths
	// (a rate-limit window) that must not pay a mailbox round trip. The
	// state guards itself (a mutex of its own). nil: no shared state.
	State func(id ID) *S
	// New makes the actor of an identity (state is nil without State).
	New func(id ID, state *S) actor.Actor
	// Idle passivates an identity after this long without a message or a
	// Use: one sweep every Idle/2 stops those idle for Idle or more, so
	// an idle actor stops between Idle and 1.5 × Idle. Zero: never.
	Idle time.Duration
	// Keep, when set, is asked by the sweep before it passivates an idle
	// identity with shared state: true keeps it (state that cannot be
	// loaded again, such as a count kept up to date by messages). It is
	// called under the registry's shard lock and must only read the state.
	Keep func(state *S) bool
	// Timeout bounds one Request when the context has no deadline.
	// Default 10 s.
	Timeout time.Duration
	// Shard spreads identities over the registry's shards (a hash of the
	// identity). Default: one shard.
	Shard func(id ID) uint32
	// Codec, when set, lets the kind be a cluster kind (Placement): it
	// carries the identities and the messages the kind accepts from other
	// members. nil: the kind is node-local.
	Codec *Codec[ID]
	// Placement, when set, makes the kind a cluster kind placed by it
	// (cluster/members); the kind must declare its Codec. nil: a single
	// node's kind, every identity on this node.
	Placement Placement
}

// Activated is the first message every actor of a registry receives, right
// after its identity is known (protoactor's Started comes before that and
// is not passed on).
type Activated struct{}

// ErrStopped answers requests to a registry whose actor system has stopped.
var ErrStopped = errors.New("kind: the actor system has stopped")

const numShards = 64

// Registry holds the live actors of one kind. It is safe for concurrent
// use.
type Registry[ID comparable, S any] struct {
	system *actor.ActorSystem
	kind   Kind[ID, S]
	log    *slog.Logger
	props  *actor.Props
	// epoch counts idle sweeps; an identity records the epoch of its last
	// use.
	epoch  atomic.Uint32
	shards [numShards]shard[ID, S]
	stop   chan struct{}
	once   sync.Once
}

type shard[ID comparable, S any] struct {
	mu   sync.RWMutex
	live map[ID]*slot[S]
	peak int // the most entries live has had since it was last rebuilt
	// claims counts the entries of live that are claims, not actors.
	claims int
}

// slot is a live identity: its actor, its shared state, and the messages
// and uses counted on their way to it.
type slot[S any] struct {
	pid      *actor.PID
	state    *S
	inflight atomic.Int32
	seen     atomic.Uint32 // the sweep epoch of the last use
	// created is non-nil for a claim (Claim): no actor yet; users wait
	// until it closes, then look again.
	created chan struct{}
}

// idleEpochs is how many sweeps (one per Idle/2) an identity must miss
// before it passivates: its last use was at least Idle ago.
const idleEpochs = 3

// NewRegistry returns the registry of kind k in system. Stop ends its
// sweep; the actor system's shutdown stops its actors.
func NewRegistry[ID comparable, S any](system *actor.ActorSystem, k Kind[ID, S], log *slog.Logger) *Registry[ID, S] {
	if k.Placement != nil && k.Codec == nil {
		panic(fmt.Sprintf("kind: %s declares no codec: it cannot be a cluster kind", k.Name))
	}
	if k.Timeout <= 0 {
		k.Timeout = 10 * time.Second
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &Registry[ID, S]{system: system, kind: k, log: log.With("component", k.Name), stop: make(chan struct{})}
	r.props = actor.PropsFromProducer(func() actor.Actor { return &host[ID, S]{reg: r} },
		actor.WithMailbox(actor.UnboundedLockfree()))
	for i := range r.shards {
		r.shards[i].live = make(map[ID]*slot[S])
	}
	if k.Idle > 0 {
		go r.sweepEvery(max(k.Idle/2, time.Millisecond))
	}
	return r
}

// Name is the kind's name.
func (r *Registry[ID, S]) Name() string { return r.kind.Name }

// Stop ends the registry's idle sweep. The actors stop with their system.
func (r *Registry[ID, S]) Stop() { r.once.Do(func() { close(r.stop) }) }

func (r *Registry[ID, S]) shardOf(id ID) *shard[ID, S] {
	if r.kind.Shard == nil {
		return &r.shards[0]
	}
	return &r.shards[r.kind.Shard(id)%numShards]
}

// acquire returns the live slot of id with one more use counted, spawning
// its actor when there is none. It waits out a claim.
func (r *Registry[ID, S]) acquire(id ID) *slot[S] {
	sh := r.shardOf(id)
	sh.mu.RLock()
	s := sh.live[id]
	if s != nil && s.created == nil {
		s.inflight.Add(1) // under the read lock: a sweep cannot retire it now
		sh.mu.RUnlock()
		return s
	}
	sh.mu.RUnlock()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s = sh.live[id]
	for s != nil && s.created != nil {
		wait := s.created
		sh.mu.Unlock()
		<-wait
		sh.mu.Lock()
		s = sh.live[id]
	}
	if s == nil {
		s = &slot[S]{}
		if r.kind.State != nil {
			s.state = r.kind.State(id)
		}
		s.seen.Store(r.epoch.Load())
		s.pid = r.system.Root.Spawn(r.props)
		// First in the mailbox, before any message of a caller.
		r.system.Root.Send(s.pid, &bind[ID, S]{id: id, slot: s})
		sh.live[id] = s
		sh.peak = max(sh.peak, len(sh.live))
	}
	s.inflight.Add(1)
	return s
}

// release ends one counted use of s.
func (r *Registry[ID, S]) release(s *slot[S]) {
	s.seen.Store(r.epoch.Load())
	s.inflight.Add(-1)
}

// Send delivers msg to id's actor without waiting, starting the actor if
// needed. For an identity another member owns (a cluster kind), msg goes
// there in the background; sends to such an identity from several
// goroutines may arrive in any order.
func (r *Registry[ID, S]) Send(id ID, msg any) {
	if pl := r.kind.Placement; pl != nil { // a single node tests one interface
		if key, remote := r.remoteKey(pl, id); remote {
			r.sendRemote(pl, id, key, msg)
			return
		}
	}
	s := r.acquire(id)
	r.system.Root.Send(s.pid, &envelope{msg: msg})
}

func (r *Registry[ID, S]) sendLocal(id ID, msg any) {
	s := r.acquire(id)
	r.system.Root.Send(s.pid, &envelope{msg: msg})
}

// Request sends msg to id's actor and waits for its answer (ctx's deadline
// or Kind.Timeout, the shorter). For an identity another member owns (a
// cluster kind), msg and the answer cross as bytes (Codec); an answer that
// does not come wraps ErrRemote.
func (r *Registry[ID, S]) Request(ctx context.Context, id ID, msg any) (any, error) {
	if pl := r.kind.Placement; pl != nil { // a single node tests one interface
		if key, remote := r.remoteKey(pl, id); remote {
			return r.requestRemote(ctx, pl, id, key, msg)
		}
	}
	return r.requestLocal(ctx, id, msg)
}

// RequestHere sends msg to id's actor on this member, whoever owns id in a
// cluster, and waits for its answer: for a kind whose writes are
// conditional (an order), a member may serve an identity whose owner it
// cannot reach.
func (r *Registry[ID, S]) RequestHere(ctx context.Context, id ID, msg any) (any, error) {
	return r.requestLocal(ctx, id, msg)
}

func (r *Registry[ID, S]) requestLocal(ctx context.Context, id ID, msg any) (any, error) {
	if r.system.IsStopped() {
		return nil, ErrStopped
	}
	timeout := r.timeoutOf(ctx)
	s := r.acquire(id)
	res, err := r.system.Root.RequestFuture(s.pid, &envelope{msg: msg}, timeout).Result()
	if err != nil {
		return nil, fmt.Errorf("%s %v: %w", r.kind.Name, id, err)
	}
	return res, nil
}

// Use runs fn with id's shared state on the caller's goroutine, starting
// the identity (and its actor) when it is not live. The use counts as
// activity: the identity does not passivate while fn runs. fn must
// synchronize on the state itself. The state is this member's, whoever
// owns id in a cluster (see Owns).
func (r *Registry[ID, S]) Use(id ID, fn func(*S)) {
	s := r.acquire(id)
	defer r.release(s)
	fn(s.state)
}

// Claim reserves id without an actor, for a caller that writes the
// identity's first state itself (the order's fast create). It returns nil
// when id is live or claimed. Until release is called, every Send, Request
// and Use of id waits; release must be called exactly once.
func (r *Registry[ID, S]) Claim(id ID) (release func()) {
	sh := r.shardOf(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.live[id] != nil {
		return nil
	}
	s := &slot[S]{created: make(chan struct{})}
	sh.live[id] = s
	sh.claims++
	sh.peak = max(sh.peak, len(sh.live))
	return func() {
		sh.mu.Lock()
		if sh.live[id] == s {
			sh.deleteLocked(id)
		}
		sh.claims--
		close(s.created)
		sh.mu.Unlock()
	}
}

// Live returns the number of live actors (claims are not actors).
func (r *Registry[ID, S]) Live() int {
	n := 0
	for i := range r.shards {
		sh := &r.shards[i]
		sh.mu.RLock()
		n += len(sh.live) - sh.claims
		sh.mu.RUnlock()
	}
	return n
}

// IsLive reports whether id has a live actor.
func (r *Registry[ID, S]) IsLive(id ID) bool {
	sh := r.shardOf(id)
	sh.mu.RLock()
	defer sh.mu.RUnlock()
	s := sh.live[id]
	return s != nil && s.created == nil
}

// Each calls fn with every live identity (a snapshot; fn may Send).
func (r *Registry[ID, S]) Each(fn func(id ID)) {
	var ids []ID
	for i := range r.shards {
		sh := &r.shards[i]
		sh.mu.RLock()
		for id, s := range sh.live {
			if s.created == nil {
				ids = append(ids, id)
			}
		}
		sh.mu.RUnlock()
	}
	for _, id := range ids {
		fn(id)
	}
}

// Passivate stops id's actor now if nothing is on its way to it; it
// reports whether an actor stopped. The next message starts a new one.
func (r *Registry[ID, S]) Passivate(id ID) bool {
	sh := r.shardOf(id)
	sh.mu.Lock()
	s := sh.live[id]
	if s == nil || s.created != nil || s.inflight.Load() > 0 {
		sh.mu.Unlock()
		return false
	}
	sh.deleteLocked(id)
	sh.mu.Unlock()
	_ = r.system.Root.StopFuture(s.pid).Wait()
	return true
}

// StopAll stops every live actor and waits for each to stop (shutdown of a
// subsystem whose actors must not outlive it).
func (r *Registry[ID, S]) StopAll() {
	var pids []*actor.PID
	for i := range r.shards {
		sh := &r.shards[i]
		sh.mu.Lock()
		for id, s := range sh.live {
			if s.created == nil {
				pids = append(pids, s.pid)
				sh.deleteLocked(id)
			}
		}
		sh.mu.Unlock()
	}
	for _, pid := range pids {
		_ = r.system.Root.StopFuture(pid).Wait()
	}
}

// sweepEvery runs Sweep every period until Stop or the system stops.
func (r *Registry[ID, S]) sweepEvery(period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
		}
		if r.system.IsStopped() {
			return
		}
		r.Sweep()
	}
}

// Sweep starts a new epoch and passivates the identities with nothing on
// its way whose last use was idleEpochs or more epochs ago. The registry
// sweeps on its own every Idle/2; tests call it directly.
func (r *Registry[ID, S]) Sweep() {
	now := r.epoch.Add(1)
	for i := range r.shards {
		sh := &r.shards[i]
		sh.mu.Lock()
		// deleteLocked may replace sh.live; the range goes on over the map
		// it started with, whose unvisited entries are all in the new one.
		for id, s := range sh.live {
			if s.created == nil && s.inflight.Load() == 0 && now-s.seen.Load() >= idleEpochs &&
				(r.kind.Keep == nil || !r.kind.Keep(s.state)) {
				sh.deleteLocked(id)
				r.system.Root.Stop(s.pid)
			}
		}
		sh.mu.Unlock()
	}
}

// deleteLocked removes id. A Go map keeps the capacity of its peak, so
// once fewer than a quarter of the peak's entries remain the map is rebuilt
// at its present size: a burst of activations does not cost memory after
// it passivates.
func (sh *shard[ID, S]) deleteLocked(id ID) {
	delete(sh.live, id)
	if sh.peak >= 1024 && len(sh.live) < sh.peak/4 {
		live := make(map[ID]*slot[S], len(sh.live)) // maps.Clone would keep the capacity
		for k, v := range sh.live {
			live[k] = v
		}
		sh.live, sh.peak = live, len(live)
	}
}

// forget removes s whatever is counted on it (its actor failed: what was
// queued to it is lost, and the next message starts a new actor).
func (r *Registry[ID, S]) forget(id ID, s *slot[S]) {
	sh := r.shardOf(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.live[id] == s {
		sh.deleteLocked(id)
	}
}
