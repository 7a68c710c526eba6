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
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// OrderChanged is the change feed's message to a pair: order Record
// changed from status Prev (0: new). An open record is put in the pair, a
// closed one taken out.
type OrderChanged struct {
	Prev   orderstore.Status
	Record *orderstore.Record
}

// ChainChanged carries the chain records an applied block left for some
// orders (the pair keeps those of its own).
type ChainChanged struct {
	Orders map[common.Hash]chainstore.Order
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
// pair's oracle Price there (nil: unknown). The Decision is the answer, or
// goes to reply when set.
type EvaluateRequest struct {
	Ref   BlockRef
	Price *big.Int
	reply chan<- evalAnswer
	index int
	// report asks for the changes of the executable set.
	report bool
}

// Decision answers EvaluateRequest: the pair's executable set (as the
// evaluation left it), and the transitions the order actors must be asked
// for (each in hash order), each with the chain facts it was decided on.
type Decision struct {
	Exec   *execSet
	Fire   []Transition // stop.triggered at the block's price
	Stall  []Transition // new stalled flag of dca orders (Stalled)
	Expire []Transition
	// Open is the pair's number of open orders, Decided how many of them
	// the evaluation decided (the others kept their decision).
	Open, Decided int
	// Next is the earliest block time at which a deadline or a DCA schedule
	// point may change a decision (0: none), and Quiet tells that no
	// decision waits for a transition: until Next, a block at the same
	// price changes nothing unless an order or its chain facts change.
	Next  uint64
	Quiet bool
	// Changes are the changes of the executable set since the pair's last
	// evaluation, when asked for.
	Changes []ExecutableChange
	Err     error
}

// Transition is a decided transition of one order.
type Transition struct {
	Hash    common.Hash
	Chain   chainstore.View
	Stalled bool
}

// shared is what a pair shares with the registry: its size, so the
// registry keeps a pair with open orders (kind.Kind.Keep).
type shared struct{ open atomic.Int64 }

// pairActor owns one pair's open orders: the book (by trigger price), the
// trigger index and the executable set (triggers.go), and the trailing
// peaks (peaks.go), persisted (t/) before it answers and dropped when an
// order closes.
type pairActor struct {
	key    string
	shared *shared
	store  *persistence.Store
	chain  *chainstore.Chain
	log    *slog.Logger

	orders map[common.Hash]*openOrder
	book   index
	peak   int // the most orders since the map was last rebuilt
	trig   triggers
}

func newPairActor(key string, sh *shared, store *persistence.Store, ch *chainstore.Chain, log *slog.Logger) *pairActor {
	return &pairActor{key: key, shared: sh, store: store, chain: ch, log: log, orders: map[common.Hash]*openOrder{},
		trig: triggers{pending: map[common.Hash]struct{}{}, exec: newExecSet(key), peaks: newPeaks(store)}}
}

// Receive handles the pair's messages.
func (a *pairActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *OrderChanged:
		a.orderChanged(m)
	case *ChainChanged:
		a.chainChanged(m)
	case *ChainReverted:
		a.chainReverted(m)
	case *PageRequest:
		ctx.Respond(a.page(m))
	case *EvaluateRequest:
		d := a.evaluate(m)
		if m.reply != nil {
			m.reply <- evalAnswer{m.index, d}
		} else {
			ctx.Respond(d)
		}
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
		}
		return
	}
	if old != nil && old.version > rec.Version {
		return // a late message about an older version
	}
	co, found, err := a.chain.Order(rec.Hash)
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
	a.added(n)
	a.peak = max(a.peak, len(a.orders))
	a.shared.open.Store(int64(len(a.orders)))
}

// replace puts n in old's place (same order).
func (a *pairActor) replace(old, n *openOrder) {
	a.orders[n.Hash] = n
	a.book.remove(old)
	a.book.insert(n)
	a.replaced(old, n)
}

func (a *pairActor) remove(o *openOrder) {
	delete(a.orders, o.Hash)
	a.book.remove(o)
	a.removed(o)
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

// chainChanged takes the chain records an applied block left for the
// pair's orders.
func (a *pairActor) chainChanged(m *ChainChanged) {
	for h, co := range m.Orders {
		if o := a.orders[h]; o != nil {
			a.replace(o, o.withChain(co, true))
		}
	}
}

// chainReverted reads the chain records of the rewound orders again.
func (a *pairActor) chainReverted(m *ChainReverted) {
	for _, h := range m.Hashes {
		o := a.orders[h]
		if o == nil {
			continue
		}
		co, found, err := a.chain.Order(h)
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
