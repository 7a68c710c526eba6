package pair

import (
	"bytes"
	"math/big"
	"slices"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
)

// triggers is a pair's trigger index: what lets an evaluation decide only
// the orders whose decision its block may change, keeping every other
// order's decision (its place in the executable set) from the evaluation
// before. An order's decision depends on its record and chain facts (a
// change makes it dirty), the block time (its deadline and its DCA
// schedule, in time heaps), and the oracle price (a price move crosses the
// trigger prices between the old price and the new one, which the book
// holds in order; a trailing order's trail is found through its peak
// group, peaks.go). Orders whose decision asks for a transition (expiry,
// stop.triggered, the stalled flag) are decided again at every block
// until the transition lands, as the order actors may refuse or not yet
// have applied it.
//
// An evaluation decides every order when the block time went back (a
// reorg to a branch with an older head), when the price appears or
// disappears (an oracle answer going stale or fresh), and the first time.
type triggers struct {
	evaluated bool
	time      uint64
	price     *big.Int
	epoch     uint32
	// dirty are the orders put since the last evaluation (each version
	// once; one no longer held is skipped).
	dirty []*openOrder
	// pending are orders whose last decision asked for a transition.
	pending   map[common.Hash]struct{}
	deadlines timeHeap // by deadline; an entry holds for its version only
	dcaDue    timeHeap // by the next change of the DCA schedule (dcaAt)
	exec      *execSet
	peaks     peaks
}

// verdict is an order's decision at a block: whether it is executable
// (with the amount of a DCA leg), and whether it must be decided again at
// the next block.
type verdict struct {
	exec    bool
	fill    *big.Int
	pending bool
}

// canTrail reports whether o's peak follows the price (its deadline
// aside): a trailing order not yet triggered with something left to fill.
func canTrail(o *openOrder) bool {
	return o.class == chain.ClassTrailing && o.left && !triggered(o)
}

// added registers o, a new version of an order or a new one. Before the
// pair's first evaluation (or after one failed) nothing is kept: the next
// evaluation decides every order.
func (a *pairActor) added(o *openOrder) {
	t := &a.trig
	if !t.evaluated {
		return
	}
	t.dirty = append(t.dirty, o)
	if o.deadline != 0 {
		t.deadlines.push(timed{at: o.deadline, o: o})
	}
	a.compactTriggers()
}

// replaced moves the trigger state of old to n, its new version.
func (a *pairActor) replaced(old, n *openOrder) {
	n.group, n.dcaAt, n.mark, n.resolved = nil, 0, 0, old.resolved
	if old.group != nil {
		if canTrail(n) {
			a.trig.peaks.swap(old, n)
		} else {
			a.trig.peaks.leave(old, !triggered(n))
		}
	}
	a.added(n)
}

// removed forgets the trigger state of o, which closed.
func (a *pairActor) removed(o *openOrder) {
	t := &a.trig
	t.exec.dropNow(o)
	delete(t.pending, o.Hash)
	if o.class == chain.ClassTrailing {
		// The order's row goes now (with its group's, if it was the last
		// member), unsynced: a restart before the next evaluation would
		// otherwise leave them behind. What else is queued is as
		// consistent now as at the evaluation.
		t.peaks.closed(o)
		t.peaks.sweep()
		if err := t.peaks.writes.commit(a.store, pebble.NoSync); err != nil {
			a.log.Error("pair: trigger state", "pair", a.key, "err", err)
		}
	}
	a.compactTriggers()
}

// compactTriggers bounds what changes leave behind between evaluations (a
// pair that does not evaluate, without a chain, keeps its changes).
func (a *pairActor) compactTriggers() {
	t := &a.trig
	if len(t.dirty) > 2*len(a.orders)+4096 {
		kept := make([]*openOrder, 0, len(a.orders))
		for _, o := range t.dirty {
			if a.orders[o.Hash] == o {
				kept = append(kept, o)
			}
		}
		t.dirty = kept
	}
	t.deadlines.compact(len(a.orders), func(e timed) bool { return a.orders[e.o.Hash] == e.o })
	t.dcaDue.compact(len(a.orders), func(e timed) bool { return a.orders[e.o.Hash] == e.o && e.o.dcaAt == e.at })
}

// evaluate decides, at the block, the orders whose decision the block may
// change; the others keep theirs. Trailing peak changes are durable before
// the answer, with the trigger state of the orders that closed dropped.
func (a *pairActor) evaluate(m *EvaluateRequest) *Decision {
	t := &a.trig
	t.epoch++
	t.peaks.block = m.Ref.Number
	d := &Decision{Open: len(a.orders)}
	now, price := m.Ref.Time, m.Price
	var cands []*openOrder
	take := func(o *openOrder) {
		if o.mark != t.epoch {
			o.mark = t.epoch
			cands = append(cands, o)
		}
	}
	if !t.evaluated || now < t.time || (price == nil) != (t.price == nil) {
		a.rescheduleAll(take)
	} else {
		a.collect(now, price, take)
	}
	for _, o := range cands {
		if err := a.prepare(o, now); err != nil {
			t.evaluated, d.Err = false, err // decide every order at the next block
			t.exec.discard()
			return d
		}
	}
	if price != nil {
		t.peaks.lift(price)
		t.peaks.hits(price, take)
	}
	for _, o := range cands {
		out := a.decide(m, o, d)
		if out.exec {
			t.exec.put(o, out.fill)
		} else {
			t.exec.drop(o)
		}
		if out.pending {
			t.pending[o.Hash] = struct{}{}
		}
	}
	for _, l := range [][]Transition{d.Fire, d.Stall, d.Expire} {
		slices.SortFunc(l, func(x, y Transition) int { return bytes.Compare(x.Hash[:], y.Hash[:]) })
	}
	t.peaks.sweep()
	if err := t.peaks.writes.commit(a.store, pebble.Sync); err != nil {
		t.evaluated, d.Err = false, err
		t.exec.discard()
		return d
	}
	d.Changes = t.exec.commit(m.Ref.Number, price, m.report)
	t.evaluated, t.time, t.price = true, now, price
	t.dirty = reuse(t.dirty)
	a.compactTriggers()
	d.Decided, d.Quiet = len(cands), len(t.pending) == 0
	if at, ok := t.deadlines.next(); ok {
		d.Next = at + 1 // an order is open at its deadline
	}
	if at, ok := t.dcaDue.next(); ok && (d.Next == 0 || at < d.Next) {
		d.Next = at
	}
	d.Exec = t.exec
	return d
}

// rescheduleAll takes every order and rebuilds the time heaps.
func (a *pairActor) rescheduleAll(take func(*openOrder)) {
	t := &a.trig
	clear(t.pending)
	clear(t.deadlines)
	clear(t.dcaDue)
	t.dirty, t.deadlines, t.dcaDue = reuse(t.dirty), t.deadlines[:0], t.dcaDue[:0]
	for _, o := range a.orders {
		o.dcaAt = 0
		if o.deadline != 0 {
			t.deadlines.push(timed{at: o.deadline, o: o})
		}
		take(o)
	}
}

// collect takes the orders whose decision may differ from the last
// evaluation's: changed, pending, past a deadline or a DCA schedule point
// since, or with a trigger price the price crossed.
func (a *pairActor) collect(now uint64, price *big.Int, take func(*openOrder)) {
	t := &a.trig
	for _, o := range t.dirty {
		if a.orders[o.Hash] == o {
			take(o)
		}
	}
	for h := range t.pending {
		if o := a.orders[h]; o != nil {
			take(o)
		}
	}
	clear(t.pending)
	t.deadlines.popWhile(func(at uint64) bool { return at < now }, func(e timed) {
		if a.orders[e.o.Hash] == e.o {
			take(e.o)
		}
	})
	t.dcaDue.popWhile(func(at uint64) bool { return at <= now }, func(e timed) {
		if a.orders[e.o.Hash] == e.o && e.o.dcaAt == e.at {
			e.o.dcaAt = 0
			take(e.o)
		}
	})
	if price != nil && price.Cmp(t.price) != 0 {
		a.crossed(t.price, price, take)
	}
}

// crossed takes every order whose trigger price lies between two prices
// (both included): the limit, stop, take-profit and price-gated DCA orders
// whose side of the price may have changed.
func (a *pairActor) crossed(from, to *big.Int, take func(*openOrder)) {
	if from.Cmp(to) > 0 {
		from, to = to, from
	}
	var lo, hi uint256.Int
	clampPrice(&lo, from)
	clampPrice(&hi, to)
	for p := a.book.find(Key{Price: lo}); ; p = a.book.next(p) {
		o := a.book.at(p)
		if o == nil || o.Price.Cmp(&hi) > 0 {
			return
		}
		take(o)
	}
}

// clampPrice sets v to price, held to the range of a trigger price.
func clampPrice(v *uint256.Int, price *big.Int) {
	switch {
	case price.Sign() < 0:
		v.Clear()
	case price.BitLen() > 256:
		v.SetAllOne()
	default:
		v.SetFromBig(price)
	}
}

// prepare reads a trailing candidate's stored peak once, and takes a
// trailing order past its deadline out of its group before the price moves
// the groups.
func (a *pairActor) prepare(o *openOrder, now uint64) error {
	if o.class != chain.ClassTrailing {
		return nil
	}
	p := &a.trig.peaks
	if !o.resolved {
		if err := p.resolve(o); err != nil {
			return err
		}
	}
	if o.group != nil && o.deadline != 0 && now > o.deadline {
		p.leave(o, true)
	}
	return nil
}

// decide is o's decision at the block, with the transitions it needs
// recorded in d.
func (a *pairActor) decide(m *EvaluateRequest, o *openOrder, d *Decision) verdict {
	now, price := m.Ref.Time, m.Price
	if o.deadline != 0 && now > o.deadline {
		if t, ok := a.transition(o); ok {
			d.Expire = append(d.Expire, t)
		}
		return verdict{pending: true}
	}
	if !o.left {
		return verdict{}
	}
	untriggered := !triggered(o)
	fire := func() verdict {
		if untriggered {
			if t, ok := a.transition(o); ok {
				d.Fire = append(d.Fire, t)
			}
		}
		return verdict{exec: true, pending: untriggered}
	}
	trigger := &o.Price
	switch o.class {
	case chain.ClassLimit:
		return verdict{exec: price == nil || cmpPrice(price, trigger) >= 0}
	case chain.ClassStopLoss:
		if price == nil || !StopLossHit(price, trigger) {
			return verdict{}
		}
		return fire()
	case chain.ClassTakeProfit:
		if price == nil || !TakeProfitHit(price, trigger) {
			return verdict{}
		}
		return fire()
	case chain.ClassTrailing:
		if !untriggered {
			return verdict{exec: true} // fired: stays executable until filled
		}
		if price == nil {
			return verdict{}
		}
		if peak := a.trig.peaks.join(o, price); !TrailingHit(peak, price, o.trailPpm) {
			return verdict{}
		}
		return fire()
	case chain.ClassDCA:
		return a.dca(m, o, d)
	}
	return verdict{}
}

// transition is a decided transition of o with the chain facts it was
// decided on: the chain record of the pair's view and the nonce's state in
// the chain read model.
func (a *pairActor) transition(o *openOrder) (Transition, bool) {
	v, err := a.chain.OrderView(o.Hash, o.maker, o.nonce)
	if err != nil {
		a.log.Warn("pair: chain facts", "order", o.Hash, "err", err)
		return Transition{}, false
	}
	return Transition{Hash: o.Hash, Chain: v}, true
}

// dca decides a dca order and queues the next point of its schedule.
func (a *pairActor) dca(m *EvaluateRequest, o *openOrder, d *Decision) verdict {
	p := o.dca
	if p == nil {
		return verdict{}
	}
	in := DCA{
		AmountIn: o.amountIn.ToBig(), FilledIn: o.filled.ToBig(), TotalExecutions: p.TotalExecutions, Executions: o.executions,
		IntervalSeconds: p.IntervalSeconds, FlexibilityPpm: p.FlexibilityPpm, ShortCircuit: p.ShortCircuit,
		PriceGated: p.PriceGated, TriggerPrice: o.Price.ToBig(), AcceptedAt: uint64(o.accepted().Unix()),
		FirstExecution: o.firstExecution, LastExecution: o.lastExecution,
	}
	st := EvaluateDCA(in, m.Ref.Time, m.Price)
	if at := NextDCAChange(in, m.Ref.Time); at != 0 && at != o.dcaAt {
		o.dcaAt = at
		a.trig.dcaDue.push(timed{at: at, o: o})
	}
	var out verdict
	if st.Stalled != o.stalled {
		if t, ok := a.transition(o); ok {
			t.Stalled = st.Stalled
			d.Stall = append(d.Stall, t)
		}
		out.pending = true
	}
	if st.Due {
		out.exec, out.fill = true, st.FillIn
	}
	return out
}
