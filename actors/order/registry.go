// Package order holds the order actors: one per order hash, the only
// writer of the order's record (contract.md section 3). An actor loads its
// record and ledger from the journal (orderstore.Journal) on its
// first message, decides each transition from the facts in the message
// and its own state, appends it conditional on the version it loaded
// before it replies, and is passivated after Options.Idle without
// messages, so memory follows the orders in use, not every order ever
// seen. The actors live in the engine's actor registry (actors/kind).
//
// A new order is stored by the submitting goroutine under a claim on its
// hash, without an actor (create.go), through the same commit as the
// actor's: it starts passivated, and its actor starts on its first
// request. Every later change goes through the actor.
//
// Every durable change is told to the change feed (Options.Feed) on the
// goroutine that committed it, in commit order per order: the pair actors
// (book and triggers) and the maker actors (open counts, bindings) follow
// the orders through it.
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
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Options configure a Registry.
type Options struct {
	// Journal loads and appends order transitions (orderstore.Store on
	// one node).
	Journal orderstore.Journal
	Clock   clock.Clock
	Log     *slog.Logger
	// Idle passivates an order's actor after this long without a request.
	// Default 1 min.
	Idle time.Duration
	// Timeout bounds one request to an actor. Default 10 s.
	Timeout time.Duration
	// Feed is told of every durable change (nil: nobody listens).
	Feed Feed
	// Applied, in a cluster, waits until this node's own store holds a
	// record changed by a request this node made (its actor may run on
	// another node), so that this node reads its own writes; nil on one
	// node, where the append itself is the store's write.
	Applied func(ctx context.Context, rec *orderstore.Record)
	// Placement makes the orders a cluster kind placed by it
	// (cluster/members, cluster.go); nil: a single node's orders.
	Placement kind.Placement
}

// Feed is told of every durable change of an order, on the goroutine that
// committed it, after it is durable: its previous status (0 for a new
// order), the new record and the referral binding written with it (nil
// when none). The changes of one order arrive one at a time, in commit
// order. rec is never modified after the call (the next change is a new
// record), so a listener may keep it; it must not modify it, and must not
// block.
type Feed func(prev orderstore.Status, rec *orderstore.Record, bind *common.Address)

// Registry finds or starts the actor of an order hash. It is safe for
// concurrent use.
type Registry struct {
	reg  *kind.Registry[common.Hash, struct{}]
	opts Options
	log  *slog.Logger
	// warned is the unix time (seconds) of the last warning about an
	// owner that did not answer: one a second at most.
	warned atomic.Int64
}

// NewRegistry returns a registry whose actors live in system.
func NewRegistry(system *actor.ActorSystem, opts Options) *Registry {
	if opts.Idle <= 0 {
		opts.Idle = time.Minute
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	r := &Registry{opts: opts, log: opts.Log.With("component", "order")}
	r.reg = kind.NewRegistry(system, kind.Kind[common.Hash, struct{}]{
		Name:      KindName,
		Codec:     codec,
		New:       func(h common.Hash, _ *struct{}) actor.Actor { return &orderActor{reg: r, hash: h} },
		Idle:      opts.Idle,
		Timeout:   opts.Timeout,
		Shard:     func(h common.Hash) uint32 { return uint32(h[31]) },
		Placement: opts.Placement,
	}, opts.Log)
	return r
}

// Stop ends the registry's idle sweep (the actors stop with their system).
func (r *Registry) Stop() { r.reg.Stop() }

func (r *Registry) now() time.Time { return r.opts.Clock.Now().UTC() }

// Live returns the number of running order actors (claims of orders being
// created are not actors).
func (r *Registry) Live() int { return r.reg.Live() }

// Sweep passivates the actors idle for Options.Idle at the next sweeps
// (the registry sweeps on its own; tests call it).
func (r *Registry) Sweep() { r.reg.Sweep() }

// request sends msg to the actor of h and waits for its *Response.
func (r *Registry) request(ctx context.Context, h common.Hash, msg any) (*Response, error) {
	res, err := r.placed(ctx, h, msg)
	if err != nil {
		return nil, remoteFailure(h, err)
	}
	out, ok := res.(*Response)
	if !ok {
		return nil, errors.New("order: unexpected answer from an order actor")
	}
	if out.Changed && out.Record != nil && r.opts.Applied != nil {
		r.opts.Applied(ctx, out.Record)
	}
	return out, nil
}

// ownerWait bounds how long a request waits for the member that owns its
// order before this member serves it itself.
const ownerWait = 2 * time.Second

// placed sends msg to the actor of h on the member that owns h, or, when
// that member cannot be reached within ownerWait (it died, or is cut off,
// and its shard has not been taken over yet), to an actor of h on this
// member: an order's every write is conditional on the version its actor
// loaded, so two actors of one order are safe (the journal takes one
// write, the other actor reloads), and a request need not wait for the
// owner's shard to move.
func (r *Registry) placed(ctx context.Context, h common.Hash, msg any) (any, error) {
	if r.reg.Owns(h) { // always on a single node (no placement)
		return r.reg.Request(ctx, h, msg)
	}
	octx, cancel := context.WithTimeout(ctx, ownerWait)
	res, err := r.reg.Request(octx, h, msg)
	cancel()
	if err == nil || !errors.Is(err, kind.ErrRemote) || ctx.Err() != nil {
		return res, err
	}
	if now := time.Now().Unix(); now > r.warned.Load() && r.warned.Swap(now) != now {
		r.log.Warn("order: the order's owner did not answer; serving it on this member", "order", h.Hex(), "err", err)
	}
	return r.reg.RequestHere(ctx, h, msg)
}

// Passivate stops the actor of h now, if it runs and nothing is on its
// way to it. It reports whether an actor stopped.
func (r *Registry) Passivate(_ context.Context, h common.Hash) (bool, error) {
	return r.reg.Passivate(h), nil
}

func (r *Registry) changed(prev orderstore.Status, rec *orderstore.Record, bind *common.Address) {
	if r.opts.Feed != nil {
		r.opts.Feed(prev, rec, bind)
	}
}
