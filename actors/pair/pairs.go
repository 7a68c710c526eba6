package pair

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"math/big"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
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

// Options configure Pairs.
type Options struct {
	System *actor.ActorSystem
	Store  *persistence.Store
	Chain  *persistence.Chain
	Orders *persistence.Orders
	// Registry receives the decided transitions (nil: decisions are only
	// published).
	Registry *order.Registry
	// Drive tells whether the decided transitions are sent now (nil:
	// always): in a cluster only the node holding the chain lifecycle's
	// lease sends them, while every node decides and publishes the
	// executable orders. A decision not sent is decided again at the next
	// block, where the order's record has not changed.
	Drive  func() bool
	Prices Prices
	Log    *slog.Logger
	// Published, when set, is told each complete evaluation once its
	// executable set is published (the keeper stream diffs consecutive
	// sets). It is called in the evaluating goroutine with the evaluation
	// lock held, so EachExecutable called from it reads exactly ref's set;
	// it must return quickly.
	Published func(ref BlockRef)
}

// Executable is an order a keeper may execute now.
type Executable struct {
	Hash  common.Hash
	Pair  string
	Class chain.Class
	// Maker and TokenIn are the order's: what the keeper interface checks
	// the maker can pay before it reads the record.
	Maker, TokenIn common.Address
	// FillIn is the amount of this execution (the remaining amount, or the
	// DCA leg). It may be shared with the pair: never modify it.
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

// Pairs runs the pair actors: it routes the order change feed and the
// indexer's blocks to them, evaluates every pair after each applied block
// and sends the decided transitions to the order actors, and publishes the
// executable orders. The composition root attaches it to the indexer
// (BlockApplied, BlockReverted).
type Pairs struct {
	opts Options
	reg  *kind.Registry[string, shared]
	log  *slog.Logger
	wake chan struct{}

	mu     sync.RWMutex
	latest BlockRef
	// exec are the orders executable at the last tick by pair, each pair's
	// sorted by hash; never modified once published.
	exec map[string][]Executable

	evalMu  sync.Mutex // serialises ticks
	metrics metrics
}

// New returns the pairs; feed them the stored open orders and then the
// change feed (both through Changed), attach BlockApplied and
// BlockReverted to the indexer and start Run.
func New(opts Options) *Pairs {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	p := &Pairs{opts: opts, log: opts.Log.With("component", "pair"), wake: make(chan struct{}, 1), metrics: newMetrics()}
	seed := maphash.MakeSeed()
	p.reg = kind.NewRegistry(opts.System, kind.Kind[string, shared]{
		Name:  "pair",
		State: func(string) *shared { return &shared{} },
		New: func(key string, sh *shared) actor.Actor {
			return newPairActor(key, sh, opts.Store, opts.Chain, p.log)
		},
		Idle:    time.Minute,
		Keep:    func(sh *shared) bool { return sh.open.Load() > 0 },
		Timeout: evalTimeout,
		Shard:   func(key string) uint32 { return uint32(maphash.String(seed, key)) },
	}, opts.Log)
	return p
}

// evalTimeout bounds one pair's answer.
const evalTimeout = 30 * time.Second

// Stop stops the pair actors and the registry's sweep.
func (p *Pairs) Stop() {
	p.reg.Stop()
	p.reg.StopAll()
}

// Live returns the number of pair actors.
func (p *Pairs) Live() int { return p.reg.Live() }

// Changed is the pairs' part of the order change feed: the order's pair
// learns it, if it is or was open. It does not wait.
func (p *Pairs) Changed(prev persistence.Status, rec *persistence.OrderRecord) {
	if !prev.Open() && !rec.Status.Open() {
		return
	}
	p.reg.Send(PairKey(rec.Order.TokenIn, rec.Order.TokenOut), &OrderChanged{Prev: prev, Record: rec})
}

// BlockApplied is told each block the indexer committed: every pair learns the chain records the
// block's order events left (orders, by order hash), and the next tick
// evaluates the block.
func (p *Pairs) BlockApplied(b BlockRef, orders map[common.Hash]persistence.ChainOrder) {
	if len(orders) > 0 {
		p.reg.Each(func(key string) { p.reg.Send(key, &ChainChanged{Orders: orders}) })
	}
	p.mu.Lock()
	p.latest = b
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// BlockReverted is told each block the indexer rewound: the orders it
// touched read their chain records again, and the next block
// re-evaluates.
func (p *Pairs) BlockReverted(touched []common.Hash) {
	if len(touched) == 0 {
		return
	}
	hashes := append([]common.Hash(nil), touched...)
	p.reg.Each(func(key string) { p.reg.Send(key, &ChainReverted{Hashes: hashes}) })
}

// Run evaluates after every applied block until ctx is done.
func (p *Pairs) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
		}
		p.mu.RLock()
		ref := p.latest
		p.mu.RUnlock()
		if err := p.Evaluate(ctx, ref); err != nil && ctx.Err() == nil {
			p.log.Warn("trigger evaluation failed", "block", ref.Number, "err", err)
		}
	}
}

// Evaluate runs one tick at block ref: every pair decides its open orders
// (concurrently), the decided transitions are sent to the order actors,
// and the executable orders are published.
func (p *Pairs) Evaluate(ctx context.Context, ref BlockRef) error {
	p.evalMu.Lock()
	defer p.evalMu.Unlock()
	start := time.Now()
	var keys []string
	p.reg.Each(func(key string) { keys = append(keys, key) })
	prices := make([]*big.Int, len(keys))
	decisions := make([]*Decision, len(keys))
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	for i, key := range keys {
		wg.Go(func() {
			prices[i] = p.price(ctx, ref, key)
			res, err := p.reg.Request(ctx, key, &EvaluateRequest{Ref: ref, Price: prices[i]})
			d, ok := res.(*Decision)
			switch {
			case err != nil:
				errs[i] = fmt.Errorf("pair %s: %w", key, err)
			case !ok:
				errs[i] = errors.New("pair: unexpected answer to an evaluation")
			case d.Err != nil:
				errs[i] = fmt.Errorf("pair %s: %w", key, d.Err)
			default:
				decisions[i] = d
			}
		})
	}
	wg.Wait()
	at := time.Unix(int64(ref.Time), 0).UTC()
	exec := make(map[string][]Executable, len(keys))
	open := 0
	for i, d := range decisions {
		if d == nil {
			continue
		}
		p.apply(ctx, d, prices[i], at)
		open += d.Open
		if len(d.Exec) > 0 {
			exec[keys[i]] = d.Exec
		}
	}
	p.metrics.evaluated(start, open)
	if err := errors.Join(errs...); err != nil {
		return err // the executable set stays the last complete one
	}
	p.mu.Lock()
	p.exec = exec
	p.mu.Unlock()
	if p.opts.Published != nil {
		p.opts.Published(ref)
	}
	return nil
}

// apply sends a pair's decided transitions to the order actors (each is
// idempotent; a failure is logged and retried at the next block).
func (p *Pairs) apply(ctx context.Context, d *Decision, price *big.Int, at time.Time) {
	reg := p.opts.Registry
	if reg == nil || (p.opts.Drive != nil && !p.opts.Drive()) {
		return
	}
	for _, t := range d.Expire {
		if _, err := reg.Expire(ctx, t.Hash, t.Chain, at); err != nil {
			p.log.Warn("expire", "order", t.Hash, "err", err)
		}
	}
	var u uint256.Int
	if price != nil && !u.SetFromBig(price) {
		for _, t := range d.Fire {
			if _, err := reg.Trigger(ctx, t.Hash, &u, t.Chain, at); err != nil {
				p.log.Warn("trigger", "order", t.Hash, "err", err)
			}
		}
	}
	for _, t := range d.Stall {
		if _, err := reg.Stall(ctx, t.Hash, t.Stalled, t.Chain, at); err != nil {
			p.log.Warn("stall", "order", t.Hash, "err", err)
		}
	}
}

// price is the pair's oracle price at the block (nil when unknown).
func (p *Pairs) price(ctx context.Context, ref BlockRef, key string) *big.Int {
	in, out, ok := pairTokens(key)
	if p.opts.Prices == nil || !ok {
		return nil
	}
	usdIn, err1 := p.opts.Prices.Answer(ctx, ref.Hash, ref.Time, in)
	usdOut, err2 := p.opts.Prices.Answer(ctx, ref.Hash, ref.Time, out)
	dec, err3 := p.opts.Prices.Decimals(ctx, ref.Hash, out)
	if err1 != nil || err2 != nil || err3 != nil {
		return nil
	}
	price, ok := OraclePrice(usdIn, usdOut, dec)
	if !ok {
		return nil
	}
	return price
}

// Page asks a pair's book for a page. A pair without an actor answers an
// empty page without starting one.
func (p *Pairs) Page(ctx context.Context, key string, limit int, after *Key) (*PageResponse, error) {
	if !p.reg.IsLive(key) {
		return &PageResponse{Entries: []api.OrderbookRow{}}, nil
	}
	res, err := p.reg.Request(ctx, key, &PageRequest{Limit: limit, After: after})
	if err != nil {
		return nil, fmt.Errorf("pair: page of %s: %w", key, err)
	}
	page, ok := res.(*PageResponse)
	if !ok {
		return nil, errors.New("pair: unexpected answer to a page request")
	}
	return page, nil
}

// Executable returns the orders executable at the last evaluation, in hash
// order, optionally of one pair ("" = all).
func (p *Pairs) Executable(pair string) []Executable {
	var out []Executable
	p.EachExecutable(pair, common.Hash{}, func(x Executable) bool {
		out = append(out, x)
		return true
	})
	return out
}

// EachExecutable calls fn, in hash order, with the orders executable at the
// last evaluation whose hash is above after, optionally of one pair ("" =
// all), until fn returns false. The pairs' lists are merged as fn is
// called, so a caller that stops early pays for what it saw.
func (p *Pairs) EachExecutable(pair string, after common.Hash, fn func(Executable) bool) {
	p.mu.RLock()
	exec := p.exec
	p.mu.RUnlock()
	var heads [][]Executable
	for k, list := range exec {
		if pair == "" || k == strings.ToLower(pair) {
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
func (p *Pairs) Record(h common.Hash) (*persistence.OrderRecord, bool, error) {
	return p.opts.Orders.Load(h)
}
