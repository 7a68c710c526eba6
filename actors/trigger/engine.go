package trigger

import (
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

	"github.com/orderengine/orderengine/actors/indexer"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
)

// Prices reads the oracle at a block hash.
type Prices interface {
	// Answer is the token's USD answer (8 decimals), nil when missing.
	Answer(ctx context.Context, block common.Hash, token common.Address) (*big.Int, error)
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

// Executable is an order a keeper may execute now.
type Executable struct {
	Record *persistence.OrderRecord
	Hash   common.Hash
	// FillIn is the amount of this execution (the remaining amount, or the
	// DCA leg).
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
// it reads the open orders and the oracle at the block hash, and asks one
// pair actor per pair (pair.go) to decide them; it then sends the
// transitions the actors decided (Trigger, Stall, Expire) to the order
// actors and publishes the executable set for the keeper interface.
type Engine struct {
	opts   Options
	log    *slog.Logger
	wake   chan struct{}
	system *actor.ActorSystem
	own    bool // the engine created system

	mu     sync.RWMutex
	latest BlockRef
	exec   []Executable // sorted by hash
	pids   map[string]*actor.PID
}

// New returns a trigger engine; add it to the indexer's Observers and start
// Run. With a nil Options.System it runs its pair actors in a system of its
// own, stopped by Stop.
func New(opts Options) *Engine {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	e := &Engine{opts: opts, log: opts.Log.With("component", "trigger"), wake: make(chan struct{}, 1),
		system: opts.System, pids: map[string]*actor.PID{}}
	if e.system == nil {
		e.system, e.own = actor.NewActorSystem(), true
	}
	return e
}

// Stop stops the pair actors (and the engine's own actor system).
func (e *Engine) Stop() {
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

// Applied implements indexer.Observer.
func (e *Engine) Applied(b *indexer.Block) {
	e.mu.Lock()
	e.latest = BlockRef{Number: b.Number, Hash: b.Hash, Time: b.Time}
	e.mu.Unlock()
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Reverted implements indexer.Observer (the next block re-evaluates).
func (e *Engine) Reverted(persistence.ChainBlock) {}

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
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make([]Executable, 0, len(e.exec))
	for _, x := range e.exec {
		if pair == "" || strings.EqualFold(x.Record.Pair, pair) {
			out = append(out, x)
		}
	}
	return out
}

// evalTimeout bounds one pair actor's answer.
const evalTimeout = 30 * time.Second

// Evaluate runs one tick at block ref: every pair actor decides its open
// orders (pairs without open orders drop their state), then the decided
// transitions are sent to the order actors.
func (e *Engine) Evaluate(ctx context.Context, ref BlockRef) error {
	byPair := map[string][]orderView{}
	prices := map[string]*big.Int{}
	err := e.opts.Orders.OpenOrders(func(r *persistence.OrderRecord) error {
		v, ok, err := e.view(r)
		if err != nil || !ok {
			return err
		}
		if _, seen := prices[r.Pair]; !seen {
			prices[r.Pair] = e.price(ctx, ref, r)
		}
		byPair[r.Pair] = append(byPair[r.Pair], v)
		return nil
	})
	if err != nil {
		return err
	}
	e.mu.Lock()
	for pair := range byPair {
		if e.pids[pair] == nil {
			e.pids[pair] = e.system.Root.Spawn(actor.PropsFromProducer(newPairActor(e.opts.Store, e.log)))
		}
	}
	futures := make(map[string]*actor.Future, len(e.pids))
	for pair, pid := range e.pids {
		futures[pair] = e.system.Root.RequestFuture(pid, &EvaluatePair{Ref: ref, Price: prices[pair], orders: byPair[pair]}, evalTimeout)
	}
	e.mu.Unlock()
	var exec []Executable
	at := time.Unix(int64(ref.Time), 0).UTC()
	for pair, f := range futures {
		res, err := f.Result()
		if err != nil {
			return fmt.Errorf("trigger: pair %s: %w", pair, err)
		}
		d := res.(*PairDecision)
		if d.Err != nil {
			return fmt.Errorf("trigger: pair %s: %w", pair, d.Err)
		}
		e.apply(ctx, d, prices[pair], at)
		exec = append(exec, d.Exec...)
	}
	sort.Slice(exec, func(i, j int) bool { return exec[i].Record.OrderHash < exec[j].Record.OrderHash })
	e.mu.Lock()
	e.exec = exec
	e.mu.Unlock()
	return nil
}

// apply sends a pair's decided transitions to the order actors (each is
// idempotent; a failure is logged and retried at the next block).
func (e *Engine) apply(ctx context.Context, d *PairDecision, price *big.Int, at time.Time) {
	for _, h := range d.Expire {
		if _, err := e.opts.Registry.Expire(ctx, h, at); err != nil {
			e.log.Warn("expire", "order", h, "err", err)
		}
	}
	for _, h := range d.Fire {
		if _, err := e.opts.Registry.Trigger(ctx, h, price.String(), at); err != nil {
			e.log.Warn("trigger", "order", h, "err", err)
		}
	}
	for h, stalled := range d.Stall {
		if _, err := e.opts.Registry.Stall(ctx, h, stalled, at); err != nil {
			e.log.Warn("stall", "order", h, "err", err)
		}
	}
}

// view decodes an open order for its pair actor; ok is false for a record
// that cannot be evaluated (logged).
func (e *Engine) view(r *persistence.OrderRecord) (orderView, bool, error) {
	v := orderView{rec: r, hash: common.HexToHash(r.OrderHash)}
	var err error
	if _, v.traits, err = chain.ParseTraits(r.Order.MakerTraits); err != nil {
		e.log.Warn("order with unreadable traits", "order", r.OrderHash, "err", err)
		return v, false, nil
	}
	var ok1, ok2, ok3 bool
	v.amountIn, ok1 = new(big.Int).SetString(r.Order.AmountIn, 10)
	v.filled, ok2 = new(big.Int).SetString(r.FilledAmountIn, 10)
	v.trigger, ok3 = new(big.Int).SetString(r.Order.TriggerPrice, 10)
	if !ok1 || !ok2 || !ok3 {
		e.log.Warn("order with unreadable amounts", "order", r.OrderHash)
		return v, false, nil
	}
	co, found, err := e.opts.Chain.ChainOrder(v.hash)
	if err != nil {
		return v, false, err
	}
	v.chain = co
	if cf, ok := new(big.Int).SetString(co.FilledAmountIn, 10); found && ok && cf.Cmp(v.filled) > 0 {
		v.filled = cf // the chain is ahead of the order record's projection
	}
	return v, true, nil
}

// price is the pair's oracle price at the block (nil when unknown).
func (e *Engine) price(ctx context.Context, ref BlockRef, rec *persistence.OrderRecord) *big.Int {
	if e.opts.Prices == nil {
		return nil
	}
	in, out := common.HexToAddress(rec.Order.TokenIn), common.HexToAddress(rec.Order.TokenOut)
	usdIn, err1 := e.opts.Prices.Answer(ctx, ref.Hash, in)
	usdOut, err2 := e.opts.Prices.Answer(ctx, ref.Hash, out)
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
