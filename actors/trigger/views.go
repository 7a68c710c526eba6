package trigger

import (
	"bytes"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/persistence"
)

// orderView is an open order as a pair actor evaluates it: what the
// decision needs of the record, decoded once, and of the indexer's chain
// record. Views are kept in memory between blocks (openSet); a view is
// never modified once it is in the set (a change puts a new one), so a
// pair actor still reading a slow tick's views is never raced.
type orderView struct {
	hash      common.Hash
	pair      string // lower case: one pair however its records spell it
	class     chain.Class
	maker     common.Address
	tokenIn   common.Address
	tokenOut  common.Address
	traits    chain.Traits
	amountIn  *big.Int
	recFilled *big.Int // the order record's filledAmountIn
	trigger   *big.Int
	triggered bool // the record has triggeredAt
	stalled   bool
	dca       *persistence.DCAParams // immutable, shared with the record
	createdAt time.Time
	// From the chain record: filled is the larger of the record's and the
	// chain's filledAmountIn (the chain may be ahead of the projection).
	filled         *big.Int
	remaining      *big.Int // amountIn − filled (≤ 0: nothing left); shared by the ticks' Executables
	executions     uint32
	firstExecution uint64
	lastExecution  uint64
}

// newView is rec as a pair actor evaluates it.
func newView(rec *persistence.OrderRecord) *orderView {
	o := &rec.Order
	v := &orderView{hash: rec.Hash, pair: pairKey(o.TokenIn, o.TokenOut), class: rec.Class,
		maker: o.Maker, tokenIn: o.TokenIn, tokenOut: o.TokenOut, traits: rec.Traits(),
		amountIn: o.AmountIn.ToBig(), recFilled: rec.FilledIn.ToBig(), trigger: o.TriggerPrice.ToBig(),
		triggered: !rec.TriggeredAt.IsZero(), stalled: rec.Stalled, dca: rec.DCA, createdAt: rec.CreatedAt}
	v.setFilled(v.recFilled)
	return v
}

// pairKey is the lower-case "<tokenIn>-<tokenOut>" of a pair: one key
// however its records spell it.
func pairKey(in, out common.Address) string {
	return strings.ToLower(in.Hex()) + "-" + strings.ToLower(out.Hex())
}

func (v *orderView) setFilled(filled *big.Int) {
	v.filled, v.remaining = filled, new(big.Int).Sub(v.amountIn, filled)
}

// setChain adopts the indexer's record of the order (found false: none).
func (v *orderView) setChain(co persistence.ChainOrder, found bool) {
	filled := v.recFilled
	v.executions, v.firstExecution, v.lastExecution = 0, 0, 0
	if found {
		v.executions, v.firstExecution, v.lastExecution = co.Executions, co.FirstExecution, co.LastExecution
		if cf := co.FilledAmountIn.ToBig(); cf.Cmp(v.recFilled) > 0 {
			filled = cf
		}
	}
	v.setFilled(filled)
}

// pairViews are the open orders of one pair, in hash order, so a tick's
// executables come out in the order the keeper interface pages them. The
// changes since the last settle are kept aside (added, unsorted; replaced
// and removed views by identity) and merged in once per tick: a tick costs
// one pass over the pair, however many orders changed.
type pairViews struct {
	list    []*orderView // sorted by hash as of the last settle; never modified in place
	added   []*orderView
	dropped map[*orderView]bool
	// closed are the orders that left the set since the pair's last
	// evaluation (their trigger state is dropped).
	closed []common.Hash
}

// size is the number of open orders of the pair.
func (p *pairViews) size() int { return len(p.list) + len(p.added) - len(p.dropped) }

// settle merges the changes into a new sorted list.
func (p *pairViews) settle() {
	if len(p.added) == 0 && len(p.dropped) == 0 {
		return
	}
	byHash := func(a, b *orderView) int { return bytes.Compare(a.hash[:], b.hash[:]) }
	slices.SortFunc(p.added, byHash)
	out := make([]*orderView, 0, p.size())
	i, j := 0, 0
	for i < len(p.list) || j < len(p.added) {
		var v *orderView
		if j == len(p.added) || (i < len(p.list) && byHash(p.list[i], p.added[j]) < 0) {
			v, i = p.list[i], i+1
		} else {
			v, j = p.added[j], j+1
		}
		if !p.dropped[v] {
			out = append(out, v)
		}
	}
	p.list, p.added, p.dropped = out, nil, nil
}

// openSet is the engine's in-memory copy of the open orders: seeded once
// from the store, then kept in step by the order registry's changes and
// the indexer's applied blocks, so a tick reads no order from the store.
type openSet struct {
	views map[common.Hash]*orderView
	pairs map[string]*pairViews
}

func newOpenSet() *openSet {
	return &openSet{views: map[common.Hash]*orderView{}, pairs: map[string]*pairViews{}}
}

// pair returns the views of pair, made on first use.
func (s *openSet) pair(pair string) *pairViews {
	p := s.pairs[pair]
	if p == nil {
		p = &pairViews{}
		s.pairs[pair] = p
	}
	return p
}

// put adds v, or replaces the view of its order.
func (s *openSet) put(v *orderView) {
	if old, ok := s.views[v.hash]; ok {
		s.drop(old)
	}
	s.views[v.hash] = v
	p := s.pair(v.pair)
	p.added = append(p.added, v)
}

// remove takes the order out of the set and tells its pair it closed.
func (s *openSet) remove(h common.Hash) {
	v, ok := s.views[h]
	if !ok {
		return
	}
	delete(s.views, h)
	s.drop(v)
	p := s.pairs[v.pair]
	p.closed = append(p.closed, h)
}

func (s *openSet) drop(v *orderView) {
	p := s.pairs[v.pair]
	if p.dropped == nil {
		p.dropped = map[*orderView]bool{}
	}
	p.dropped[v] = true
}

// changes are what happened since the last tick, gathered by the
// registry's and the indexer's callbacks under Engine.pmu.
type changes struct {
	// records are the latest changed record of each order.
	records map[common.Hash]*persistence.OrderRecord
	// chain are the latest chain records from applied blocks; reload asks
	// for the store's chain record of these orders (rewound blocks).
	chain  map[common.Hash]*persistence.ChainOrder
	reload map[common.Hash]bool
	// overflow: more than Engine.maxPending changes came in, and were
	// dropped; the next tick reloads the open orders from the store.
	overflow bool
}

// maxPending bounds the changes held between two ticks, so that ticks
// stalled for long (no blocks, a failing evaluation) while orders keep
// changing cannot grow memory without bound: past it the changes are
// dropped and the next tick reloads the open orders from the store.
const maxPending = 1 << 16

func newChanges() *changes {
	return &changes{records: map[common.Hash]*persistence.OrderRecord{},
		chain: map[common.Hash]*persistence.ChainOrder{}, reload: map[common.Hash]bool{}}
}

// roomLocked reports whether one more change may be held; the caller holds
// pmu.
func (e *Engine) roomLocked() bool {
	c := e.pending
	if !c.overflow && len(c.records)+len(c.chain)+len(c.reload) >= e.maxPending {
		e.pending = newChanges()
		e.pending.overflow = true
	}
	return !e.pending.overflow
}

// onChange is the registry listener: it only records the change, the
// decoding happens at the next tick, off the path that committed it.
func (e *Engine) onChange(_ persistence.Status, rec *persistence.OrderRecord) {
	h := rec.Hash
	e.pmu.Lock()
	if e.roomLocked() {
		e.pending.records[h] = rec
	}
	e.pmu.Unlock()
}

// blockApplied records the chain state the block's order events left.
func (e *Engine) blockApplied(b *chainsync.Block) {
	e.pmu.Lock()
	defer e.pmu.Unlock()
	for _, ev := range b.Events {
		if ev.Order != nil && e.roomLocked() {
			co := *ev.Order
			e.pending.chain[ev.OrderHash] = &co
		}
	}
}

// blockReverted asks for the store's chain records of the orders the
// rewound block had touched.
func (e *Engine) blockReverted(blk persistence.ChainBlock) {
	e.pmu.Lock()
	defer e.pmu.Unlock()
	for _, h := range blk.Touched {
		if e.roomLocked() {
			delete(e.pending.chain, h)
			e.pending.reload[h] = true
		}
	}
}

func (e *Engine) takeChanges() *changes {
	e.pmu.Lock()
	defer e.pmu.Unlock()
	c := e.pending
	e.pending = newChanges()
	return c
}

// sync brings the open set up to date: it applies the changes since the
// last tick, or (re)loads the open set from the store on the first tick and
// after an overflow. After a failure (a store read) the changes it took are
// gone, so the next tick reloads.
func (e *Engine) sync() (err error) {
	defer func() {
		if err != nil {
			e.pmu.Lock()
			e.pending.overflow = true
			e.pmu.Unlock()
		}
	}()
	e.pmu.Lock()
	overflow := e.pending.overflow
	e.pmu.Unlock()
	if e.open == nil || overflow {
		return e.load()
	}
	c := e.takeChanges()
	for _, rec := range c.records {
		if err := e.adopt(e.open, rec); err != nil {
			return err
		}
	}
	for h, co := range c.chain {
		if v := e.open.views[h]; v != nil && c.records[h] == nil {
			nv := *v // views are never changed once a tick has seen them
			nv.setChain(*co, true)
			e.open.put(&nv)
		}
	}
	for h := range c.reload {
		if v := e.open.views[h]; v != nil {
			co, found, err := e.opts.Chain.ChainOrder(h)
			if err != nil {
				return err
			}
			nv := *v
			nv.setChain(co, found)
			e.open.put(&nv)
		}
	}
	return nil
}

// load reads every open order from the store into a new open set. The
// listener is subscribed before, so no change is missed: the orders changed
// while loading are read again from the store, which holds their latest
// version. The orders of the previous set (after an overflow) that are no
// longer open are told to their pairs as closed.
func (e *Engine) load() error {
	e.takeChanges() // the store is at least as new as any of them
	open := newOpenSet()
	err := e.opts.Orders.OpenOrders(func(rec *persistence.OrderRecord) error {
		return e.adopt(open, rec)
	})
	if err != nil {
		return err
	}
	c := e.takeChanges()
	if c.overflow { // changed too much even while loading: again next tick
		e.pmu.Lock()
		e.pending.overflow = true
		e.pmu.Unlock()
	}
	for h := range c.records {
		rec, found, err := e.opts.Orders.Load(h)
		if err != nil {
			return err
		}
		if !found {
			open.remove(h)
			continue
		}
		if err := e.adopt(open, rec); err != nil {
			return err
		}
	}
	for _, p := range open.pairs {
		p.closed = nil
	}
	if old := e.open; old != nil {
		for pair, p := range old.pairs {
			closed := p.closed
			p.settle()
			for _, v := range p.list {
				if open.views[v.hash] == nil {
					closed = append(closed, v.hash)
				}
			}
			if len(closed) > 0 {
				open.pair(pair).closed = closed
			}
		}
	}
	e.open = open
	return nil
}

// adopt puts rec's view in the set when it is open, or takes it out. The
// chain record is read from the store (the projection that changed rec
// ran after the indexer stored it).
func (e *Engine) adopt(open *openSet, rec *persistence.OrderRecord) error {
	h := rec.Hash
	if !rec.Status.Open() {
		open.remove(h)
		return nil
	}
	v := newView(rec)
	co, found, err := e.opts.Chain.ChainOrder(h)
	if err != nil {
		return err
	}
	v.setChain(co, found)
	open.put(v)
	return nil
}
