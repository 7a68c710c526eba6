package pair

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/actors/kind"
)

// Tick describes an evaluation: the block, what the pairs held and
// decided, and how long its two parts took.
type Tick struct {
	Block BlockRef
	// Open is the open orders the pairs held, Asked how many pairs were
	// asked to decide (the others could not change any decision), Decided
	// how many orders they decided (the others kept their decision), and
	// Transitions how many transitions they decided.
	Open, Asked, Decided, Transitions int
	// Evaluation is the time to decide and publish the executable orders,
	// Apply the time to send the transitions to the order actors (zero
	// when none were sent).
	Evaluation, Apply time.Duration
}

// LastTick returns the last evaluation's Tick (the zero Tick before the
// first).
func (p *Pairs) LastTick() Tick {
	if t := p.last.Load(); t != nil {
		return *t
	}
	return Tick{}
}

// pairTick is what Pairs keeps of a pair's last evaluation, so that a
// block that cannot change any of the pair's decisions does not ask it:
// the price is the same, the block time neither went back nor reached the
// earliest time in the pair's heaps, no decision waits for a transition,
// and no order or chain change was sent to it since (the pair is not in
// Pairs.dirty). It is Evaluate's own (evalMu).
type pairTick struct {
	in, out common.Address // the pair's tokens
	tokens  bool           // the key names two tokens

	ok    bool // the last evaluation answered
	price *big.Int
	time  uint64
	next  uint64 // Decision.Next
	quiet bool   // Decision.Quiet
	open  int
	exec  *execSet
}

// tickOf returns the pair's tick, made on first use.
func (p *Pairs) tickOf(key string) *pairTick {
	t := p.ticks[key]
	if t == nil {
		t = &pairTick{}
		t.in, t.out, t.tokens = pairTokens(key)
		p.ticks[key] = t
	}
	return t
}

// markDirty notes that a change was sent to the pair of key ("": to every
// pair). It is called after the send: a change sent before an evaluation
// takes the dirty set is in the pair's mailbox ahead of that evaluation's
// request, and one noted after it is evaluated at the next block.
func (p *Pairs) markDirty(key string) {
	p.dirtyMu.Lock()
	defer p.dirtyMu.Unlock()
	if key == "" {
		p.allDirty = true
		return
	}
	if p.dirty == nil {
		p.dirty = map[string]struct{}{}
	}
	p.dirty[key] = struct{}{}
}

// takeDirty returns the pairs changes were sent to since the last call
// (all: every pair).
func (p *Pairs) takeDirty() (dirty map[string]struct{}, all bool) {
	p.dirtyMu.Lock()
	defer p.dirtyMu.Unlock()
	dirty, all = p.dirty, p.allDirty
	p.dirty, p.allDirty = nil, false
	return dirty, all
}

// unchanged reports whether the block at ref with the pair's price cannot
// change the pair's decisions.
func (t *pairTick) unchanged(ref BlockRef, price *big.Int) bool {
	return t.ok && t.quiet && ref.Time >= t.time && (t.next == 0 || ref.Time < t.next) && sameAmount(price, t.price)
}

// evalAnswer is a pair's answer to an EvaluateRequest sent by Evaluate.
type evalAnswer struct {
	index int
	d     *Decision
}

// Evaluate runs one tick at block ref: every pair whose decisions the
// block may change decides the orders it may change (concurrently) and
// updates its executable set, and the decided transitions are sent to the
// order actors. A pair that fails keeps the executable set of its last
// evaluation, and is asked again at the next block.
func (p *Pairs) Evaluate(ctx context.Context, ref BlockRef) error {
	p.evalMu.Lock()
	defer p.evalMu.Unlock()
	if p.opts.System.IsStopped() {
		return kind.ErrStopped
	}
	start := time.Now()
	var keys []string
	p.reg.Each(func(key string) { keys = append(keys, key) })
	ticks := make([]*pairTick, len(keys))
	for i, key := range keys {
		ticks[i] = p.tickOf(key)
	}
	prices := p.prices(ctx, ref, ticks)
	dirty, allDirty := p.takeDirty()
	report := p.watching.Load() > 0
	asked := make([]bool, len(keys))
	answers := make(chan evalAnswer, len(keys)) // an answer after the timeout never blocks its pair
	tick := &Tick{Block: ref}
	for i, key := range keys {
		if _, changed := dirty[key]; !changed && !allDirty && ticks[i].unchanged(ref, prices[i]) {
			continue
		}
		p.reg.Send(key, &EvaluateRequest{Ref: ref, Price: prices[i], reply: answers, index: i, report: report})
		asked[i] = true
		tick.Asked++
	}
	decisions, err := p.collect(ctx, answers, tick.Asked, keys)
	sets := make(map[string]*execSet, len(keys))
	for i, t := range ticks {
		switch d := decisions[i]; {
		case d != nil:
			t.ok, t.price, t.time, t.next, t.quiet, t.open, t.exec = true, prices[i], ref.Time, d.Next, d.Quiet, d.Open, d.Exec
			tick.Decided += d.Decided
			tick.Transitions += len(d.Fire) + len(d.Stall) + len(d.Expire)
		case asked[i]:
			t.ok = false // it failed or did not answer: asked again at the next block
		default: // not asked: its set holds at this block
			t.exec.restamp(ref.Number, prices[i])
		}
		if t.exec != nil {
			tick.Open += t.open
			sets[keys[i]] = t.exec
		}
	}
	p.mu.Lock()
	p.exec = sets
	p.mu.Unlock()
	if len(p.ticks) > len(keys) { // forget the pairs that passivated
		live := make(map[string]bool, len(keys))
		for _, key := range keys {
			live[key] = true
		}
		for key := range p.ticks {
			if !live[key] {
				delete(p.ticks, key)
			}
		}
	}
	if report {
		p.report(ref, decisions)
	}
	tick.Evaluation = time.Since(start)
	p.metrics.evaluated(tick.Evaluation, tick.Open, tick.Decided)
	applying := time.Now()
	if p.apply(ctx, decisions, prices, time.Unix(int64(ref.Time), 0).UTC()) {
		tick.Apply = time.Since(applying)
		p.metrics.applied(tick.Apply)
	}
	p.last.Store(tick)
	return err
}

// collect waits for n answers (at most evalTimeout, or until ctx is done)
// and returns the decisions by pair index, with the pairs that failed or
// did not answer as the error.
func (p *Pairs) collect(ctx context.Context, answers <-chan evalAnswer, n int, keys []string) ([]*Decision, error) {
	decisions := make([]*Decision, len(keys))
	timer := time.NewTimer(evalTimeout)
	defer timer.Stop()
	var errs []error
	for got := 0; got < n; got++ {
		select {
		case a := <-answers:
			if a.d.Err != nil {
				errs = append(errs, fmt.Errorf("pair %s: %w", keys[a.index], a.d.Err))
				continue
			}
			decisions[a.index] = a.d
		case <-ctx.Done():
			return decisions, errors.Join(append(errs, ctx.Err())...)
		case <-timer.C:
			return decisions, errors.Join(append(errs, fmt.Errorf("pair: %d of %d pairs did not answer within %s", n-got, n, evalTimeout))...)
		}
	}
	return decisions, errors.Join(errs...)
}

// priceConcurrency is how many pairs' prices are read at once (the first
// read of a token at a block is a call to the node).
const priceConcurrency = 16

// prices reads every pair's oracle price at the block.
func (p *Pairs) prices(ctx context.Context, ref BlockRef, ticks []*pairTick) []*big.Int {
	out := make([]*big.Int, len(ticks))
	if p.opts.Prices == nil {
		return out
	}
	parallel(len(ticks), priceConcurrency, func(i int) { out[i] = p.price(ctx, ref, ticks[i]) })
	return out
}

// price is the pair's oracle price at the block (nil when unknown).
func (p *Pairs) price(ctx context.Context, ref BlockRef, t *pairTick) *big.Int {
	if p.opts.Prices == nil || !t.tokens {
		return nil
	}
	usdIn, err1 := p.opts.Prices.Answer(ctx, ref.Hash, ref.Time, t.in)
	usdOut, err2 := p.opts.Prices.Answer(ctx, ref.Hash, ref.Time, t.out)
	dec, err3 := p.opts.Prices.Decimals(ctx, ref.Hash, t.out)
	if err1 != nil || err2 != nil || err3 != nil {
		return nil
	}
	price, ok := OraclePrice(usdIn, usdOut, dec)
	if !ok {
		return nil
	}
	return price
}

// applyConcurrency is how many decided transitions are sent at once: each
// waits for its order actor's durable append, and concurrent appends share
// an fsync (persistence group commit).
const applyConcurrency = 32

// apply sends the decided transitions to the order actors (each is
// idempotent; a failure is logged and the transition is decided again at
// the next block), and reports whether there were any to send.
func (p *Pairs) apply(ctx context.Context, decisions []*Decision, prices []*big.Int, at time.Time) bool {
	reg := p.opts.Registry
	if reg == nil || (p.opts.Drive != nil && !p.opts.Drive()) {
		return false
	}
	var jobs []func()
	for i, d := range decisions {
		if d == nil {
			continue
		}
		for _, t := range d.Expire {
			jobs = append(jobs, func() {
				if _, err := reg.Expire(ctx, t.Hash, t.Chain, at); err != nil {
					p.log.Warn("expire", "order", t.Hash, "err", err)
				}
			})
		}
		var u uint256.Int
		if prices[i] != nil && !u.SetFromBig(prices[i]) {
			for _, t := range d.Fire {
				jobs = append(jobs, func() {
					if _, err := reg.Trigger(ctx, t.Hash, &u, t.Chain, at); err != nil {
						p.log.Warn("trigger", "order", t.Hash, "err", err)
					}
				})
			}
		}
		for _, t := range d.Stall {
			jobs = append(jobs, func() {
				if _, err := reg.Stall(ctx, t.Hash, t.Stalled, t.Chain, at); err != nil {
					p.log.Warn("stall", "order", t.Hash, "err", err)
				}
			})
		}
	}
	if len(jobs) == 0 {
		return false
	}
	parallel(len(jobs), applyConcurrency, func(i int) { jobs[i]() })
	return true
}

// parallel calls fn(0) to fn(n-1) from at most workers goroutines and
// returns when all have returned.
func parallel(n, workers int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				fn(int(i))
			}
		})
	}
	wg.Wait()
}
