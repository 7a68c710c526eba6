// Package order holds the order actors: one per order hash, the only
// writer of the order's record (contract.md section 3). An actor loads its
// record and ledger from the journal (persistence.OrderJournal) on its
// first message, decides each transition from the facts in the message
// and its own state, appends it conditional on the version it loaded
// before it replies, and stops after Options.Idle without messages, so
// memory follows the orders in use, not every order ever seen.
//
// Memory per live actor is kept small (docs/performance.md): every actor
// shares the registry's one Props and learns which order it owns from its
// first message (bind), its mailbox is the lock-free linked queue (no
// preallocated ring), and idleness is found by one registry-wide sweep
// instead of a receive-timeout timer per actor.
//
// A new order is stored by the submitting goroutine under a claim on its
// hash, without an actor (create.go), through the same commit as the
// actor's: it starts passivated, and its actor starts on its first
// request. Every later change goes through the actor.
//
// Durability at speed: actors and creates append concurrently, and the
// store's group committer (persistence/group_commit.go) makes the writes
// of a round durable with one sorted batch and one shared WAL fsync,
// instead of queueing behind one writer.
//
// The Registry is the way in: the submit service calls Create and Cancel,
// the chain lifecycle calls Observe, InvalidateNonce, Resync, Expire,
// Fail, Trigger and Stall (lifecycle.go).
package order

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence"
)

// Options configure a Registry.
type Options struct {
	// Journal loads and appends order transitions (persistence.Orders on
	// one node).
	Journal persistence.OrderJournal
	Clock   clock.Clock
	Log     *slog.Logger
	// Idle stops an actor after this long without a request. One sweep
	// every Idle/2 stops the actors idle for Idle or more, so an idle actor
	// stops between Idle and 1.5 × Idle. Default 1 min.
	Idle time.Duration
	// Timeout bounds one request to an actor. Default 10 s.
	Timeout time.Duration
	// OnChange is called by the actor, after a change is durable, with the
	// previous status ("" for a new order) and the new record. It must not
	// block (orderbook events, counters).
	OnChange ChangeFunc
}

// ChangeFunc is told of every durable change of an order: its previous
// status (0 for a new order) and the new record. The changes of one order
// arrive one at a time, in the order they were committed. rec is never
// modified after the call (the next change is a copy), so a listener may
// keep it; it must not modify it, and must not block.
type ChangeFunc func(prev persistence.Status, rec *persistence.OrderRecord)

const numShards = 64

// Registry finds or starts the actor of an order hash. It is safe for
// concurrent use.
type Registry struct {
	system *actor.ActorSystem
	opts   Options
	log    *slog.Logger
	// props is shared by every order actor (bind tells each its order).
	props *actor.Props
	// epoch counts idle sweeps; a slot records the epoch of its last
	// request.
	epoch  atomic.Uint32
	shards [numShards]shard
	// subs are the listeners added by Subscribe (copy on write).
	subsMu sync.Mutex
	subs   atomic.Pointer[[]*subscriber]
}

type subscriber struct{ fn ChangeFunc }

type shard struct {
	mu   sync.Mutex
	live map[common.Hash]*slot
	peak int // the most entries live has had since it was last rebuilt
	// claims counts the entries of live that are Create claims
	// (create.go), not actors.
	claims int
}

// deleteLocked removes h from the shard. A Go map keeps the capacity of
// its peak, so once fewer than a quarter of the peak's entries remain the
// map is rebuilt at its present size: a burst of activations does not cost
// memory after it passivates.
func (sh *shard) deleteLocked(h common.Hash) {
	delete(sh.live, h)
	if sh.peak >= 1024 && len(sh.live) < sh.peak/4 {
		live := make(map[common.Hash]*slot, len(sh.live)) // maps.Clone would keep the capacity
		for k, v := range sh.live {
			live[k] = v
		}
		sh.live, sh.peak = live, len(live)
	}
}

// slot is a live actor and the number of requests sent to it and not yet
// answered. The actor retires only when none is in flight, under the
// shard's lock, so no request is ever sent to a stopped actor.
//
// A slot with a non-nil created is a claim, not an actor: Create is storing
// a new order under that hash without an actor (create.go). Requests for
// the hash wait until created closes, then find the order stored.
type slot struct {
	pid      *actor.PID
	inflight int32
	seen     uint32 // the sweep epoch of the last request
	created  chan struct{}
}

// idleEpochs is how many sweeps (one per Idle/2) a slot must miss before
// its actor stops: its last request was at least Idle ago.
const idleEpochs = 3

// NewRegistry returns a registry whose actors live in system.
func NewRegistry(system *actor.ActorSystem, opts Options) *Registry {
	if opts.Idle <= 0 {
		opts.Idle = time.Minute
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	r := &Registry{system: system, opts: opts, log: opts.Log.With("component", "order")}
	r.props = actor.PropsFromProducer(func() actor.Actor { return &orderActor{reg: r} },
		actor.WithMailbox(actor.UnboundedLockfree()))
	for i := range r.shards {
		r.shards[i].live = make(map[common.Hash]*slot)
	}
	go r.sweepEvery(max(opts.Idle/2, time.Millisecond))
	return r
}

// sweepEvery runs sweep every period until the actor system stops.
func (r *Registry) sweepEvery(period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	for range t.C {
		if r.system.IsStopped() {
			return
		}
		r.sweep()
	}
}

// sweep starts a new epoch and stops the actors with no request in flight
// whose last request was idleEpochs or more epochs ago. A slot leaves the
// registry under its shard's lock, so no request is sent to it after.
func (r *Registry) sweep() {
	now := r.epoch.Add(1)
	for i := range r.shards {
		sh := &r.shards[i]
		sh.mu.Lock()
		// deleteLocked may replace sh.live; the range goes on over the map
		// it started with, whose unvisited entries are all in the new one.
		for h, s := range sh.live {
			if s.inflight == 0 && now-s.seen >= idleEpochs {
				sh.deleteLocked(h)
				r.system.Root.Stop(s.pid)
			}
		}
		sh.mu.Unlock()
	}
}

func (r *Registry) shard(h common.Hash) *shard { return &r.shards[h[31]%numShards] }

func (r *Registry) now() time.Time { return r.opts.Clock.Now().UTC() }

// acquire returns the live slot of h, starting an actor when there is none,
// with one more request in flight.
func (r *Registry) acquire(h common.Hash) *slot {
	sh := r.shard(h)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s := sh.live[h]
	for s != nil && s.created != nil {
		// A Create is storing this hash: wait for it, then look again.
		wait := s.created
		sh.mu.Unlock()
		<-wait
		sh.mu.Lock()
		s = sh.live[h]
	}
	if s == nil {
		s = &slot{pid: r.system.Root.Spawn(r.props)}
		// First in the mailbox, before any request.
		r.system.Root.Send(s.pid, &bind{hash: h, slot: s})
		sh.live[h] = s
		sh.peak = max(sh.peak, len(sh.live))
	}
	s.inflight++
	return s
}

func (r *Registry) release(h common.Hash, s *slot) {
	sh := r.shard(h)
	sh.mu.Lock()
	s.inflight--
	s.seen = r.epoch.Load()
	sh.mu.Unlock()
}

// forget removes s from the registry whatever is in flight (its actor is
// restarting after a panic: the requests queued to it are lost).
func (r *Registry) forget(h common.Hash, s *slot) {
	sh := r.shard(h)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.live[h] == s {
		sh.deleteLocked(h)
	}
}

// retire removes s from the registry when no request is in flight to it.
func (r *Registry) retire(h common.Hash, s *slot) bool {
	sh := r.shard(h)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if s.inflight > 0 || sh.live[h] != s {
		return false
	}
	sh.deleteLocked(h)
	return true
}

// Live returns the number of running order actors (claims of orders being
// created are not actors).
func (r *Registry) Live() int {
	n := 0
	for i := range r.shards {
		sh := &r.shards[i]
		sh.mu.Lock()
		n += len(sh.live) - sh.claims
		sh.mu.Unlock()
	}
	return n
}

// request sends msg to the actor of h and waits for its *Response.
func (r *Registry) request(ctx context.Context, h common.Hash, msg any) (*Response, error) {
	s := r.acquire(h)
	defer r.release(h, s)
	timeout := r.opts.Timeout
	if d, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(d))
	}
	res, err := r.system.Root.RequestFuture(s.pid, msg, timeout).Result()
	if err != nil {
		return nil, fmt.Errorf("order: request to %s: %w", h.Hex(), err)
	}
	out, ok := res.(*Response)
	if !ok {
		return nil, errors.New("order: unexpected answer from an order actor")
	}
	return out, nil
}

// Passivate asks the actor of h, if running, to stop now. It reports
// whether an actor stopped.
func (r *Registry) Passivate(ctx context.Context, h common.Hash) (bool, error) {
	sh := r.shard(h)
	sh.mu.Lock()
	s := sh.live[h]
	sh.mu.Unlock()
	if s == nil || s.created != nil {
		return false, nil
	}
	res, err := r.system.Root.RequestFuture(s.pid, &PassivateRequest{}, r.opts.Timeout).Result()
	if errors.Is(err, actor.ErrDeadLetter) {
		return false, nil // it retired on its own in the meantime
	}
	if err != nil {
		return false, err
	}
	p, _ := res.(*PassivateResponse)
	return p != nil && p.Stopped, nil
}

func (r *Registry) changed(prev persistence.Status, rec *persistence.OrderRecord) {
	if r.opts.OnChange != nil {
		r.opts.OnChange(prev, rec)
	}
	if subs := r.subs.Load(); subs != nil {
		for _, s := range *subs {
			s.fn(prev, rec)
		}
	}
}

// Subscribe adds fn to the listeners of durable changes, after
// Options.OnChange; cancel removes it. A change committed before Subscribe
// returns may or may not reach fn, so a listener that also reads the store
// must subscribe first.
func (r *Registry) Subscribe(fn ChangeFunc) (cancel func()) {
	s := &subscriber{fn: fn}
	r.subsMu.Lock()
	defer r.subsMu.Unlock()
	r.subs.Store(r.withSubs(func(old []*subscriber) []*subscriber { return append(old, s) }))
	return func() {
		r.subsMu.Lock()
		defer r.subsMu.Unlock()
		r.subs.Store(r.withSubs(func(old []*subscriber) []*subscriber {
			out := make([]*subscriber, 0, len(old))
			for _, o := range old {
				if o != s {
					out = append(out, o)
				}
			}
			return out
		}))
	}
}

// withSubs returns a new listener list made by edit from a copy of the
// current one; the caller holds subsMu.
func (r *Registry) withSubs(edit func([]*subscriber) []*subscriber) *[]*subscriber {
	var cur []*subscriber
	if p := r.subs.Load(); p != nil {
		cur = append(cur, (*p)...)
	}
	next := edit(cur)
	return &next
}
