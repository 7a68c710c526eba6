package trigger

import (
	"context"
	"log/slog"
	"math/big"
	"sort"
	"strings"
	"sync"
	"time"

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

// Engine evaluates every open order of every pair at each applied block.
// Per pair it keeps the latest price and its orders' trailing peaks
// (pairState); the decisions go through the order actors (Trigger, Stall,
// Expire), and the executable set is published for the keeper interface.
type Engine struct {
	opts Options
	log  *slog.Logger
	wake chan struct{}

	mu     sync.RWMutex
	latest BlockRef
	exec   []Executable // sorted by hash
	pairs  map[string]*pairState
}

// pairState is the per-pair state: latest price and trailing peaks.
type pairState struct {
	price *big.Int
	peaks map[common.Hash]*big.Int
}

// New returns a trigger engine; add it to the indexer's Observers and start
// Run.
func New(opts Options) *Engine {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &Engine{opts: opts, log: opts.Log.With("component", "trigger"), wake: make(chan struct{}, 1), pairs: map[string]*pairState{}}
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
		if pair == "" || equalPair(x.Record.Pair, pair) {
			out = append(out, x)
		}
	}
	return out
}

// Evaluate runs one tick at block ref.
func (e *Engine) Evaluate(ctx context.Context, ref BlockRef) error {
	byPair := map[string][]*persistence.OrderRecord{}
	if err := e.opts.Orders.OpenOrders(func(r *persistence.OrderRecord) error {
		byPair[r.Pair] = append(byPair[r.Pair], r)
		return nil
	}); err != nil {
		return err
	}
	var exec []Executable
	changed := map[common.Hash]*big.Int{}
	var finished []common.Hash
	for pair, recs := range byPair {
		ps := e.pair(pair)
		price := e.price(ctx, ref, recs[0])
		ps.price = price
		for _, rec := range recs {
			x, fin, err := e.evaluate(ctx, ref, ps, rec, price, changed)
			if err != nil {
				e.log.Warn("evaluate order", "order", rec.OrderHash, "err", err)
				continue
			}
			if fin {
				finished = append(finished, common.HexToHash(rec.OrderHash))
			}
			if x != nil {
				exec = append(exec, *x)
			}
		}
	}
	if err := savePeaks(e.opts.Store, changed, ref.Number); err != nil {
		return err
	}
	finished = append(finished, e.forgetClosed(byPair)...)
	if err := dropState(e.opts.Store, finished); err != nil {
		return err
	}
	sort.Slice(exec, func(i, j int) bool { return exec[i].Record.OrderHash < exec[j].Record.OrderHash })
	e.mu.Lock()
	e.exec = exec
	e.mu.Unlock()
	return nil
}

// forgetClosed drops the trailing peaks of orders that are no longer open
// (filled, cancelled, failed) and returns them, so their rows are deleted.
func (e *Engine) forgetClosed(open map[string][]*persistence.OrderRecord) []common.Hash {
	e.mu.Lock()
	defer e.mu.Unlock()
	var gone []common.Hash
	for pair, ps := range e.pairs {
		still := map[common.Hash]bool{}
		for _, r := range open[pair] {
			still[common.HexToHash(r.OrderHash)] = true
		}
		for h := range ps.peaks {
			if !still[h] {
				delete(ps.peaks, h)
				gone = append(gone, h)
			}
		}
	}
	return gone
}

func (e *Engine) pair(p string) *pairState {
	e.mu.Lock()
	defer e.mu.Unlock()
	ps := e.pairs[p]
	if ps == nil {
		ps = &pairState{peaks: map[common.Hash]*big.Int{}}
		e.pairs[p] = ps
	}
	return ps
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

func equalPair(a, b string) bool { return strings.EqualFold(a, b) }

// evaluate decides one order at the block. It returns the order when it is
// executable now, and whether its trigger state may be dropped.
func (e *Engine) evaluate(ctx context.Context, ref BlockRef, ps *pairState, rec *persistence.OrderRecord,
	price *big.Int, changed map[common.Hash]*big.Int) (*Executable, bool, error) {
	h := common.HexToHash(rec.OrderHash)
	_, tr, err := chain.ParseTraits(rec.Order.MakerTraits)
	if err != nil {
		return nil, false, err
	}
	at := time.Unix(int64(ref.Time), 0).UTC()
	if tr.Deadline != 0 && ref.Time > tr.Deadline {
		_, err := e.opts.Registry.Expire(ctx, h, at)
		return nil, true, err
	}
	amountIn, _ := new(big.Int).SetString(rec.Order.AmountIn, 10)
	filled, _ := new(big.Int).SetString(rec.FilledAmountIn, 10)
	trigger, _ := new(big.Int).SetString(rec.Order.TriggerPrice, 10)
	if amountIn == nil || filled == nil || trigger == nil {
		return nil, false, nil
	}
	if co, ok, err := e.opts.Chain.ChainOrder(h); err != nil {
		return nil, false, err
	} else if cf, _ := new(big.Int).SetString(co.FilledAmountIn, 10); ok && cf != nil && cf.Cmp(filled) > 0 {
		filled = cf // the chain is ahead of the order record's projection
	}
	if filled.Cmp(amountIn) >= 0 {
		return nil, false, nil
	}
	remaining := new(big.Int).Sub(amountIn, filled)
	x := &Executable{Record: rec, Hash: h, FillIn: remaining, Price: price, Block: ref.Number}
	switch rec.OrderType {
	case "limit":
		if price != nil && price.Cmp(trigger) < 0 {
			return nil, false, nil
		}
		return x, false, nil
	case "stop_loss", "take_profit":
		if price == nil {
			return nil, false, nil
		}
		hit := StopLossHit(price, trigger)
		if rec.OrderType == "take_profit" {
			hit = TakeProfitHit(price, trigger)
		}
		if !hit {
			return nil, false, nil
		}
		return x, false, e.fire(ctx, rec, h, price, at)
	case "trailing":
		return e.trailing(ctx, ps, rec, h, tr, price, at, x, changed)
	case "dca":
		return e.dca(ctx, ref, rec, h, price, amountIn, filled, trigger, at, x)
	}
	return nil, false, nil
}

func (e *Engine) fire(ctx context.Context, rec *persistence.OrderRecord, h common.Hash, price *big.Int, at time.Time) error {
	if rec.TriggeredAt != nil {
		return nil
	}
	_, err := e.opts.Registry.Trigger(ctx, h, price.String(), at)
	return err
}

func (e *Engine) trailing(ctx context.Context, ps *pairState, rec *persistence.OrderRecord, h common.Hash, tr chain.Traits,
	price *big.Int, at time.Time, x *Executable, changed map[common.Hash]*big.Int) (*Executable, bool, error) {
	if rec.TriggeredAt != nil {
		return x, false, nil // fired: stays executable until filled
	}
	if price == nil {
		return nil, false, nil
	}
	peak, ok := ps.peaks[h]
	if !ok {
		var err error
		if peak, err = loadPeak(e.opts.Store, h); err != nil {
			return nil, false, err
		}
	}
	next := TrailingPeak(peak, price)
	if peak == nil || next.Cmp(peak) != 0 {
		changed[h] = next
	}
	ps.peaks[h] = next
	if !TrailingHit(next, price, tr.TrailPpm()) {
		return nil, false, nil
	}
	return x, false, e.fire(ctx, rec, h, price, at)
}

func (e *Engine) dca(ctx context.Context, ref BlockRef, rec *persistence.OrderRecord, h common.Hash, price, amountIn, filled, trigger *big.Int,
	at time.Time, x *Executable) (*Executable, bool, error) {
	if rec.DCA == nil {
		return nil, false, nil
	}
	co, _, err := e.opts.Chain.ChainOrder(h)
	if err != nil {
		return nil, false, err
	}
	st := EvaluateDCA(DCA{
		AmountIn: amountIn, FilledIn: filled, TotalExecutions: rec.DCA.TotalExecutions, Executions: co.Executions,
		IntervalSeconds: rec.DCA.IntervalSeconds, FlexibilityPpm: rec.DCA.FlexibilityPpm, ShortCircuit: rec.DCA.ShortCircuit,
		PriceGated: rec.DCA.PriceGated, TriggerPrice: trigger, AcceptedAt: uint64(rec.CreatedAt.Unix()),
		FirstExecution: co.FirstExecution, LastExecution: co.LastExecution,
	}, ref.Time, price)
	if st.Stalled != rec.Stalled {
		if _, err := e.opts.Registry.Stall(ctx, h, st.Stalled, at); err != nil {
			return nil, false, err
		}
	}
	if !st.Due {
		return nil, st.Done, nil
	}
	x.FillIn = st.FillIn
	return x, false, nil
}
