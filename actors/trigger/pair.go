package trigger

import (
	"fmt"
	"log/slog"
	"math/big"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
)

// EvaluatePair asks a pair actor to decide its open orders at a block.
type EvaluatePair struct {
	Ref   BlockRef
	Price *big.Int // nil: unknown
	// orders are the pair's open orders in hash order (read only); closed
	// left the pair since its last tick.
	orders []*orderView
	closed []common.Hash
}

// PairDecision answers EvaluatePair: what is executable (in hash order),
// and the transitions the engine must send to the order actors.
type PairDecision struct {
	Exec   []Executable
	Fire   []common.Hash        // stop.triggered at the block's price
	Stall  map[common.Hash]bool // new stalled flag of dca orders
	Expire []common.Hash
	Err    error
}

// pairActor owns one pair's trigger state: its latest price and the
// trailing peaks of its open orders, persisted (t/<hash>) before it
// answers, and dropped when an order is no longer open.
type pairActor struct {
	store *persistence.Store
	log   *slog.Logger
	price *big.Int
	peaks map[common.Hash]*big.Int
}

func newPairActor(store *persistence.Store, log *slog.Logger) actor.Producer {
	return func() actor.Actor { return &pairActor{store: store, log: log, peaks: map[common.Hash]*big.Int{}} }
}

// Receive handles the pair's messages.
func (a *pairActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *EvaluatePair:
		c.Respond(a.evaluate(m))
	case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
	default:
		a.log.Warn("trigger: unexpected message", "type", fmt.Sprintf("%T", m))
	}
}

// evaluate decides every order of the pair; peak changes are durable
// before the answer, and the state of the closed orders is dropped.
func (a *pairActor) evaluate(m *EvaluatePair) *PairDecision {
	a.price = m.Price
	d := &PairDecision{Stall: map[common.Hash]bool{}, Exec: make([]Executable, 0, len(m.orders))}
	changed := map[common.Hash]*big.Int{}
	for _, o := range m.orders {
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
	var closed []common.Hash
	for _, h := range m.closed {
		if _, ok := a.peaks[h]; ok {
			closed = append(closed, h)
			delete(a.peaks, h)
		}
	}
	d.Err = dropState(a.store, closed)
	return d
}

// decide returns the order when it is executable now and records the
// transitions it needs in d.
func (a *pairActor) decide(m *EvaluatePair, o *orderView, d *PairDecision, changed map[common.Hash]*big.Int) (*Executable, error) {
	ref, price := m.Ref, m.Price
	if o.traits.Deadline != 0 && ref.Time > o.traits.Deadline {
		d.Expire = append(d.Expire, o.hash)
		return nil, nil
	}
	if o.remaining.Sign() <= 0 {
		return nil, nil
	}
	x := func() *Executable {
		return &Executable{Hash: o.hash, Pair: o.pair, Class: o.class, Maker: o.maker, TokenIn: o.tokenIn,
			FillIn: o.remaining, Price: price, Block: ref.Number}
	}
	fire := func() {
		if !o.triggered {
			d.Fire = append(d.Fire, o.hash)
		}
	}
	switch o.class {
	case chain.ClassLimit:
		if price != nil && price.Cmp(o.trigger) < 0 {
			return nil, nil
		}
		return x(), nil
	case chain.ClassStopLoss, chain.ClassTakeProfit:
		if price == nil {
			return nil, nil
		}
		hit := StopLossHit(price, o.trigger)
		if o.class == chain.ClassTakeProfit {
			hit = TakeProfitHit(price, o.trigger)
		}
		if !hit {
			return nil, nil
		}
		fire()
		return x(), nil
	case chain.ClassTrailing:
		if o.triggered {
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

// trail updates the order's peak with price and reports whether the trail
// is hit.
func (a *pairActor) trail(o *orderView, price *big.Int, changed map[common.Hash]*big.Int) (bool, error) {
	peak, ok := a.peaks[o.hash]
	if !ok {
		var err error
		if peak, err = loadPeak(a.store, o.hash); err != nil {
			return false, err
		}
	}
	next := TrailingPeak(peak, price)
	if peak == nil || next.Cmp(peak) != 0 {
		changed[o.hash] = next
	}
	a.peaks[o.hash] = next
	return TrailingHit(next, price, o.traits.TrailPpm()), nil
}

func (a *pairActor) dca(m *EvaluatePair, o *orderView, d *PairDecision, x func() *Executable) *Executable {
	p := o.dca
	if p == nil {
		return nil
	}
	st := EvaluateDCA(DCA{
		AmountIn: o.amountIn, FilledIn: o.filled, TotalExecutions: p.TotalExecutions, Executions: o.executions,
		IntervalSeconds: p.IntervalSeconds, FlexibilityPpm: p.FlexibilityPpm, ShortCircuit: p.ShortCircuit,
		PriceGated: p.PriceGated, TriggerPrice: o.trigger, AcceptedAt: uint64(o.createdAt.Unix()),
		FirstExecution: o.firstExecution, LastExecution: o.lastExecution,
	}, m.Ref.Time, m.Price)
	if st.Stalled != o.stalled {
		d.Stall[o.hash] = st.Stalled
	}
	if !st.Due {
		return nil
	}
	e := x()
	e.FillIn = st.FillIn
	return e
}
