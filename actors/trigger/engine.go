package trigger

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math/big"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/persistence"
)

// Prices reads the oracle at a block hash.
type Prices interface {
	// Answer is the token's USD answer (8 decimals) at the block whose
	// time is blockTime; nil when missing or stale at blockTime (older than
	// the oracle's maxAge: the router would revert with OracleStale, so no
	// decision is made on it).
	Answer(ctx context.Context, block common.Hash, blockTime uint64, token common.Address) (*big.Int, error)
	Decimals(ctx context.Context, block common.Hash, token common.Address) (uint8, error)
}

// Options configure an Engine.
type Options struct {
	Store    *persistence.Store
	Chain    *persistence.Chain
	Orders   *persistence.Orders
	Registry *order.Registry
	Prices   Prices
	Log      *slog.Logger
	// System runs the pair actors; nil: the engine's own.
	System *actor.ActorSystem
}

// Executable is an order a keeper may execute now. The engine keeps no
// order record: Record reads it from the store when a keeper asks.
type Executable struct {
	Hash  common.Hash
	Pair  string
	Class chain.Class
	// Maker and TokenIn are the order's: what the keeper interface checks
	// the maker can pay before it reads the record.
	Maker, TokenIn common.Address
	// FillIn is the amount of this execution (the remaining amount, or the
	// DCA leg). It may be shared with the engine: never modify it.
	FillIn *big.Int
	// Price is the oracle price the decision used (nil: unknown).
	Price *big.Int
	Block uint64
}

// BlockRef is the block a tick evaluates at.
type BlockRef struct {
	Number uint64
	Hash   common.Hash
	Time   uint64
}

// Engine runs the trigger side of the lifecycle: after each applied block
// it asks one pair actor per pair (pair.go) to decide the pair's open
// orders at the oracle price of the block hash; it then sends the
// transitions the actors decided (Trigger, Stall, Expire) to the order
// actors and publishes the executable set for the keeper interface.
//
// The open orders are held in memory as decoded views (views.go): loaded
// from the store at the first tick, then kept in step by the order
// registry's changes and the indexer's blocks, so a tick costs a pass over
// the views and reads nothing from the store but the trailing peaks it has
// not seen yet.
type Engine struct {
	opts        Options
	log         *slog.Logger
	wake        chan struct{}
	system      *actor.ActorSystem
	own         bool // the engine created system
	unsubscribe func()

	mu     sync.RWMutex
	latest BlockRef
	// exec are the orders executable at the last tick by (lower-case)
	// pair, each pair's sorted by hash; never modified once published.
	exec map[string][]Executable
	pids map[string]*actor.PID

	// pending gathers the changes since the last tick (views.go).
	pmu        sync.Mutex
	pending    *changes
	maxPending int

	// evalMu serialises ticks; open is the tick's open set (nil until the
	// first tick loads it).
	evalMu sync.Mutex
	open   *openSet

	metrics metrics // metrics.go
}

// New returns a trigger engine; add it to the indexer's Observers and start
// Run. With a nil Options.System it runs its pair actors in a system of its
// own, stopped by Stop.
func New(opts Options) *Engine {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	e := &Engine{opts: opts, log: opts.Log.With("component", "trigger"), wake: make(chan struct{}, 1),
		system: opts.System, pids: map[string]*actor.PID{}, pending: newChanges(), maxPending: maxPending,
		metrics: newMetrics()}
	if e.system == nil {
		// Its own system logs through opts.Log: Proto.Actor's default
		// logger writes coloured text to the process's stderr, which broke
		// log.format=json (and ignored log.level).
		actorLog := opts.Log.With("component", "protoactor")
		e.system, e.own = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return actorLog })), true
	}
	e.unsubscribe = opts.Registry.Subscribe(e.onChange)
	return e
}

// Stop stops the pair actors (and the engine's own actor system) and leaves
// the registry's listeners.
func (e *Engine) Stop() {
	e.unsubscribe()
	e.mu.Lock()
	pids := e.pids
	e.pids = map[string]*actor.PID{}
	e.mu.Unlock()
	for _, pid := range pids {
		_ = e.system.Root.StopFuture(pid).Wait()
	}
	if e.own {
		e.system.Shutdown()
	}
}

// Applied implements chainsync.Observer.
func (e *Engine) Applied(b *chainsync.Block) {
	e.blockApplied(b)
	e.mu.Lock()
	e.latest = BlockRef{Number: b.Number, Hash: b.Hash, Time: b.Time}
	e.mu.Unlock()
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Reverted implements chainsync.Observer: the rewound block's orders read
// their chain records again, and the next block re-evaluates.
func (e *Engine) Reverted(blk persistence.ChainBlock) { e.blockReverted(blk) }

// Run evaluates after every applied block until ctx is done.
func (e *Engine) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-e.wake:
		}
		e.mu.RLock()
		ref := e.latest
		e.mu.RUnlock()
		if err := e.Evaluate(ctx, ref); err != nil && ctx.Err() == nil {
			e.log.Warn("trigger evaluation failed", "block", ref.Number, "err", err)
		}
	}
}

// Executable returns the orders executable at the last evaluation, in hash
// order, optionally of one pair ("" = all).
func (e *Engine) Executable(pair string) []Executable {
	var out []Executable
	e.EachExecutable(pair, common.Hash{}, func(x Executable) bool {
		out = append(out, x)
		return true
	})
	return out
}

// EachExecutable calls fn, in hash order, with the orders executable at the
// last evaluation whose hash is above after, optionally of one pair ("" =
// all), until fn returns false. The pairs' lists are merged as fn is
// called, so a caller that stops early pays for what it saw.
func (e *Engine) EachExecutable(pair string, after common.Hash, fn func(Executable) bool) {
	e.mu.RLock()
	exec := e.exec
	e.mu.RUnlock()
	var heads [][]Executable
	for p, list := range exec {
		if pair == "" || p == strings.ToLower(pair) {
			i := sort.Search(len(list), func(i int) bool { return bytes.Compare(list[i].Hash[:], after[:]) > 0 })
			heads = append(heads, list[i:])
		}
	}
	for {
		best := -1
		for i, h := range heads {
			if len(h) > 0 && (best < 0 || bytes.Compare(h[0].Hash[:], heads[best][0].Hash[:]) < 0) {
				best = i
			}
		}
		if best < 0 {
			return
		}
		x := heads[best][0]
		heads[best] = heads[best][1:]
		if !fn(x) {
			return
		}
	}
}

// Record reads an order's record from the store (found false: unknown),
// for the keeper interface to build its transaction.
func (e *Engine) Record(h common.Hash) (*persistence.OrderRecord, bool, error) {
	return e.opts.Orders.Load(h)
}

// evalTimeout bounds one pair actor's answer.
const evalTimeout = 30 * time.Second

// Evaluate runs one tick at block ref: every pair actor decides its open
// orders (and drops the state of those that closed), then the decided
// transitions are sent to the order actors.
func (e *Engine) Evaluate(ctx context.Context, ref BlockRef) error {
	e.evalMu.Lock()
	defer e.evalMu.Unlock()
	defer e.metrics.evaluated(time.Now(), e.open)
	if err := e.sync(); err != nil {
		return err
	}
	prices := map[string]*big.Int{}
	for pair, p := range e.open.pairs {
		p.settle()
		if len(p.list) > 0 {
			prices[pair] = e.price(ctx, ref, p.list[0])
		}
	}
	e.mu.Lock()
	for pair := range e.open.pairs {
		if e.pids[pair] == nil {
			e.pids[pair] = e.system.Root.Spawn(actor.PropsFromProducer(newPairActor(e.opts.Store, e.log)))
		}
	}
	futures := make(map[string]*actor.Future, len(e.pids))
	sent := make(map[string]*EvaluatePair, len(e.pids))
	for pair, pid := range e.pids {
		m := &EvaluatePair{Ref: ref, Price: prices[pair]}
		if p := e.open.pairs[pair]; p != nil {
			m.orders, m.closed = p.list, p.closed // a settle makes a new list
			p.closed = nil
		}
		sent[pair] = m
		futures[pair] = e.system.Root.RequestFuture(pid, m, evalTimeout)
	}
	e.mu.Unlock()
	exec := make(map[string][]Executable, len(futures))
	at := time.Unix(int64(ref.Time), 0).UTC()
	var failed error
	for pair, f := range futures {
		res, err := f.Result()
		if err == nil && res.(*PairDecision).Err != nil {
			err = res.(*PairDecision).Err
		}
		if err != nil {
			if p := e.open.pairs[pair]; p != nil { // told again at the next tick
				p.closed = append(p.closed, sent[pair].closed...)
			}
			if failed == nil {
				failed = fmt.Errorf("trigger: pair %s: %w", pair, err)
			}
			continue
		}
		d := res.(*PairDecision)
		e.apply(ctx, d, prices[pair], at)
		if len(d.Exec) > 0 {
			exec[pair] = d.Exec
		}
	}
	if failed != nil {
		return failed
	}
	e.mu.Lock()
	e.exec = exec
	e.mu.Unlock()
	return nil
}

// apply sends a pair's decided transitions to the order actors, each with
// the chain facts it was decided on (each is idempotent; a failure is
// logged and retried at the next block).
func (e *Engine) apply(ctx context.Context, d *PairDecision, price *big.Int, at time.Time) {
	facts := func(h common.Hash) (persistence.ChainView, bool) {
		v := e.open.views[h]
		if v == nil {
			return persistence.ChainView{}, false
		}
		cv, err := e.opts.Chain.OrderView(h, v.maker, v.traits.Nonce)
		if err != nil {
			e.log.Warn("chain facts", "order", h, "err", err)
			return cv, false
		}
		return cv, true
	}
	for _, h := range d.Expire {
		if cv, ok := facts(h); ok {
			if _, err := e.opts.Registry.Expire(ctx, h, cv, at); err != nil {
				e.log.Warn("expire", "order", h, "err", err)
			}
		}
	}
	var p uint256.Int
	if price != nil && !p.SetFromBig(price) {
		for _, h := range d.Fire {
			if cv, ok := facts(h); ok {
				if _, err := e.opts.Registry.Trigger(ctx, h, &p, cv, at); err != nil {
					e.log.Warn("trigger", "order", h, "err", err)
				}
			}
		}
	}
	for h, stalled := range d.Stall {
		if cv, ok := facts(h); ok {
			if _, err := e.opts.Registry.Stall(ctx, h, stalled, cv, at); err != nil {
				e.log.Warn("stall", "order", h, "err", err)
			}
		}
	}
}

// price is the pair's oracle price at the block (nil when unknown).
func (e *Engine) price(ctx context.Context, ref BlockRef, v *orderView) *big.Int {
	if e.opts.Prices == nil {
		return nil
	}
	in, out := v.tokenIn, v.tokenOut
	usdIn, err1 := e.opts.Prices.Answer(ctx, ref.Hash, ref.Time, in)
	usdOut, err2 := e.opts.Prices.Answer(ctx, ref.Hash, ref.Time, out)
	dec, err3 := e.opts.Prices.Decimals(ctx, ref.Hash, out)
	if err1 != nil || err2 != nil || err3 != nil {
		return nil
	}
	p, ok := OraclePrice(usdIn, usdOut, dec)
	if !ok {
		return nil
	}
	return p
}
