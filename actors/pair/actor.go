package pair

import (
	"fmt"
	"log/slog"
	"math/big"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
)

// OrderChanged is the change feed's message to a pair: order Record
// changed from status Prev (0: new). An open record is put in the pair, a
// closed one taken out.
type OrderChanged struct {
	Prev   persistence.Status
	Record *persistence.OrderRecord
}

// ChainChanged carries the chain records an applied block left for some
// orders (the pair keeps those of its own).
type ChainChanged struct {
	Orders map[common.Hash]persistence.ChainOrder
}

// ChainReverted names the orders a rewound block had touched: the pair
// reads their chain records again.
type ChainReverted struct {
	Hashes []common.Hash
}

// PageRequest asks a pair for up to Limit book entries after After (nil =
// from the lowest trigger price).
type PageRequest struct {
	Limit int
	After *Key
}

// PageResponse is a page of a book; Next is nil at the end.
type PageResponse struct {
	Entries []api.OrderbookRow
	Next    *Key
	Total   int
}

// EvaluateRequest asks a pair to decide its open orders at a block, at the
// pair's oracle Price there (nil: unknown).
type EvaluateRequest struct {
	Ref   BlockRef
	Price *big.Int
}

// Decision answers EvaluateRequest: what is executable (in hash order), and
// the transitions the order actors must be asked for, each with the chain
// facts it was decided on.
type Decision struct {
	Exec   []Executable
	Fire   []Transition // stop.triggered at the block's price
	Stall  []Transition // new stalled flag of dca orders (Stalled)
	Expire []Transition
	// Open is the pair's number of open orders.
	Open int
	Err  error
}

// Transition is a decided transition of one order.
type Transition struct {
	Hash    common.Hash
	Chain   persistence.ChainView
	Stalled bool
}

// shared is what a pair shares with the registry: its size, so the
// registry keeps a pair with open orders (kind.Kind.Keep).
type shared struct{ open atomic.Int64 }

// pairActor owns one pair's open orders: the book (by trigger price), the
// hash order of the decisions, and the trailing peaks, persisted
// (t/<hash>) before it answers and dropped when an order closes.
type pairActor struct {
	key    string
	shared *shared
	store  *persistence.Store
	chain  *persistence.Chain
	log    *slog.Logger

	orders map[common.Hash]*openOrder
	book   index
	byHash hashOrder
	peak   int // the most orders since the map was last rebuilt
	peaks  map[common.Hash]*big.Int
	// closed are orders with a trailing peak that left since the last
	// evaluation: their stored peak is dropped then.
	closed []common.Hash
}

func newPairActor(key string, sh *shared, store *persistence.Store, ch *persistence.Chain, log *slog.Logger) *pairActor {
	return &pairActor{key: key, shared: sh, store: store, chain: ch, log: log,
		orders: map[common.Hash]*openOrder{}, peaks: map[common.Hash]*big.Int{}}
}

// Receive handles the pair's messages.
func (a *pairActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *OrderChanged:
		a.orderChanged(m)
	case *ChainChanged:
		for h, co := range m.Orders {
			if o := a.orders[h]; o != nil {
				a.replace(o, o.withChain(co, true))
			}
		}
	case *ChainReverted:
		a.chainReverted(m)
	case *PageRequest:
		ctx.Respond(a.page(m))
	case *EvaluateRequest:
		ctx.Respond(a.evaluate(m))
	case *kind.Activated, *actor.Stopping, *actor.Stopped:
	default:
		a.log.Warn("pair: unexpected message", "type", fmt.Sprintf("%T", m), "pair", a.key)
	}
}

// orderChanged puts an open record in the pair (with the chain's record of
// it) or takes a closed one out.
func (a *pairActor) orderChanged(m *OrderChanged) {
	rec := m.Record
	old := a.orders[rec.Hash]
	if !rec.Status.Open() {
		if old != nil {
			a.remove(old)
			if _, ok := a.peaks[rec.Hash]; ok {
				a.closed = append(a.closed, rec.Hash)
			}
		}
		return
	}
	if old != nil && old.rec.Version > rec.Version {
		return // a late message about an older version
	}
	co, found, err := a.chain.ChainOrder(rec.Hash)
	if err != nil {
		a.log.Error("pair: chain record", "order", rec.Hash, "err", err)
	}
	n := newOpenOrder(rec, co, found)
	if old != nil {
		a.replace(old, n)
		return
	}
	a.orders[rec.Hash] = n
	a.book.insert(n)
	a.byHash.add(n)
	a.peak = max(a.peak, len(a.orders))
	a.shared.open.Store(int64(len(a.orders)))
}

// replace puts n in old's place (same order).
func (a *pairActor) replace(old, n *openOrder) {
	a.orders[n.Hash] = n
	a.book.remove(old)
	a.book.insert(n)
	a.byHash.drop(old)
	a.byHash.add(n)
}

func (a *pairActor) remove(o *openOrder) {
	delete(a.orders, o.Hash)
	a.book.remove(o)
	a.byHash.drop(o)
	a.shared.open.Store(int64(len(a.orders)))
	a.shrink()
}

// shrink rebuilds the map and the book's runs at their present size once
// fewer than a quarter of the peak's orders remain (a Go map never gives
// back the capacity of its peak; runs thinned by removals merge).
func (a *pairActor) shrink() {
	if a.peak < 1024 || len(a.orders) >= a.peak/4 {
		return
	}
	orders := make(map[common.Hash]*openOrder, len(a.orders))
	for k, v := range a.orders {
		orders[k] = v
	}
	a.orders, a.book, a.peak = orders, a.book.compacted(), len(orders)
}

// chainReverted reads the chain records of the rewound orders again.
func (a *pairActor) chainReverted(m *ChainReverted) {
	for _, h := range m.Hashes {
		o := a.orders[h]
		if o == nil {
			continue
		}
		co, found, err := a.chain.ChainOrder(h)
		if err != nil {
			a.log.Error("pair: chain record after a rewind", "order", h, "err", err)
			continue
		}
		a.replace(o, o.withChain(co, found))
	}
}

func (a *pairActor) page(req *PageRequest) *PageResponse {
	var p pos
	if req.After != nil {
		p = a.book.find(*req.After)
		if e := a.book.at(p); e != nil && e.Key == *req.After {
			p = a.book.next(p)
		}
	}
	out := &PageResponse{Entries: make([]api.OrderbookRow, 0, max(0, min(req.Limit, a.book.n))), Total: a.book.n}
	var last *openOrder
	for e := a.book.at(p); e != nil && len(out.Entries) < req.Limit; e = a.book.at(p) {
		out.Entries = append(out.Entries, e.row())
		last, p = e, a.book.next(p)
	}
	if last != nil && a.book.at(p) != nil {
		k := last.Key
		out.Next = &k
	}
	return out
}

// evaluate decides every open order of the pair at the block; peak changes
// are durable before the answer, and the trigger state of the orders that
// closed is dropped.
func (a *pairActor) evaluate(m *EvaluateRequest) *Decision {
	a.byHash.settle()
	d := &Decision{Exec: make([]Executable, 0, len(a.byHash.list)), Open: len(a.orders)}
	changed := map[common.Hash]*big.Int{}
	for _, o := range a.byHash.list {
		x, err := a.decide(m, o, d, changed)
		if err != nil {
			d.Err = err
			return d
		}
		if x != nil {
			d.Exec = append(d.Exec, *x)
		}
	}
	if err := savePeaks(a.store, changed, m.Ref.Number); err != nil {
		d.Err = err
		return d
	}
	var drop []common.Hash
	for _, h := range a.closed {
		if _, ok := a.peaks[h]; ok {
			drop = append(drop, h)
			delete(a.peaks, h)
		}
	}
	if d.Err = dropState(a.store, drop); d.Err == nil {
		a.closed = a.closed[:0]
	}
	return d
}

// decide returns the order when it is executable now and records the
// transitions it needs in d.
func (a *pairActor) decide(m *EvaluateRequest, o *openOrder, d *Decision, changed map[common.Hash]*big.Int) (*Executable, error) {
	ref, price := m.Ref, m.Price
	if o.traits.Deadline != 0 && ref.Time > o.traits.Deadline {
		if t, ok := a.transition(o); ok {
			d.Expire = append(d.Expire, t)
		}
		return nil, nil
	}
	if !o.left {
		return nil, nil
	}
	x := func() *Executable {
		return &Executable{Hash: o.Hash, Pair: a.key, Class: o.rec.Class, Maker: o.rec.Order.Maker, TokenIn: o.rec.Order.TokenIn,
			FillIn: o.remaining.ToBig(), Price: price, Block: ref.Number}
	}
	triggered := !o.rec.TriggeredAt.IsZero()
	fire := func() {
		if !triggered {
			if t, ok := a.transition(o); ok {
				d.Fire = append(d.Fire, t)
			}
		}
	}
	switch o.rec.Class {
	case chain.ClassLimit:
		if price != nil && cmpPrice(price, &o.rec.Order.TriggerPrice) < 0 {
			return nil, nil
		}
		return x(), nil
	case chain.ClassStopLoss, chain.ClassTakeProfit:
		if price == nil {
			return nil, nil
		}
		hit := StopLossHit(price, &o.rec.Order.TriggerPrice)
		if o.rec.Class == chain.ClassTakeProfit {
			hit = TakeProfitHit(price, &o.rec.Order.TriggerPrice)
		}
		if !hit {
			return nil, nil
		}
		fire()
		return x(), nil
	case chain.ClassTrailing:
		if triggered {
			return x(), nil // fired: stays executable until filled
		}
		if price == nil {
			return nil, nil
		}
		hit, err := a.trail(o, price, changed)
		if err != nil || !hit {
			return nil, err
		}
		fire()
		return x(), nil
	case chain.ClassDCA:
		return a.dca(m, o, d, x), nil
	}
	return nil, nil
}

// transition is a decided transition of o with the chain facts it was
// decided on: the chain record of the pair's view and the nonce's state in
// the chain read model.
func (a *pairActor) transition(o *openOrder) (Transition, bool) {
	v, err := a.chain.OrderView(o.Hash, o.rec.Order.Maker, o.traits.Nonce)
	if err != nil {
		a.log.Warn("pair: chain facts", "order", o.Hash, "err", err)
		return Transition{}, false
	}
	return Transition{Hash: o.Hash, Chain: v}, true
}

// trail updates the order's peak with price and reports whether the trail
// is hit.
func (a *pairActor) trail(o *openOrder, price *big.Int, changed map[common.Hash]*big.Int) (bool, error) {
	peak, ok := a.peaks[o.Hash]
	if !ok {
		var err error
		if peak, err = loadPeak(a.store, o.Hash); err != nil {
			return false, err
		}
	}
	next := TrailingPeak(peak, price)
	if peak == nil || next.Cmp(peak) != 0 {
		changed[o.Hash] = next
	}
	a.peaks[o.Hash] = next
	return TrailingHit(next, price, o.traits.TrailPpm()), nil
}

func (a *pairActor) dca(m *EvaluateRequest, o *openOrder, d *Decision, x func() *Executable) *Executable {
	p := o.rec.DCA
	if p == nil {
		return nil
	}
	st := EvaluateDCA(DCA{
		AmountIn: o.rec.Order.AmountIn.ToBig(), FilledIn: o.filled.ToBig(), TotalExecutions: p.TotalExecutions, Executions: o.executions,
		IntervalSeconds: p.IntervalSeconds, FlexibilityPpm: p.FlexibilityPpm, ShortCircuit: p.ShortCircuit,
		PriceGated: p.PriceGated, TriggerPrice: o.rec.Order.TriggerPrice.ToBig(), AcceptedAt: uint64(o.rec.CreatedAt.Unix()),
		FirstExecution: o.firstExecution, LastExecution: o.lastExecution,
	}, m.Ref.Time, m.Price)
	if st.Stalled != o.rec.Stalled {
		if t, ok := a.transition(o); ok {
			t.Stalled = st.Stalled
			d.Stall = append(d.Stall, t)
		}
	}
	if !st.Due {
		return nil
	}
	e := x()
	e.FillIn = st.FillIn
	return e
}
