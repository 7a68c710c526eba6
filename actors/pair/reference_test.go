package pair

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"slices"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
)

// refPair is the reference evaluation: every open order of the pair is
// decided at every block, in hash order, each trailing order keeping its
// own peak (in memory and in its own t/ row, written when it changes). The
// differential test (differential_test.go) checks the pair actor's indexed
// evaluation against it. It keeps the pair's open orders as the actor does
// (the change feed's records with the chain's progress), without a book.
type refPair struct {
	key   string
	store *persistence.Store
	chain *chainstore.Chain
	log   *slog.Logger

	orders map[common.Hash]*openOrder
	byHash hashOrder
	peaks  map[common.Hash]*big.Int
	// closed are orders with a trailing peak that left since the last
	// evaluation: their stored peak is dropped then.
	closed []common.Hash
}

// refDecision is the reference's answer to an evaluation: the executable
// orders in hash order and the transitions, also in hash order.
type refDecision struct {
	Exec   []Executable
	Fire   []Transition
	Stall  []Transition
	Expire []Transition
	Open   int
	Err    error
}

func newRefPair(key string, store *persistence.Store, ch *chainstore.Chain) *refPair {
	return &refPair{key: key, store: store, chain: ch, log: slog.New(slog.DiscardHandler),
		orders: map[common.Hash]*openOrder{}, peaks: map[common.Hash]*big.Int{}}
}

// orderChanged puts an open record in the pair (with the chain's record of
// it) or takes a closed one out.
func (a *refPair) orderChanged(m *OrderChanged) {
	rec := m.Record
	old := a.orders[rec.Hash]
	if !rec.Status.Open() {
		if old != nil {
			delete(a.orders, old.Hash)
			a.byHash.drop(old)
			if _, ok := a.peaks[rec.Hash]; ok {
				a.closed = append(a.closed, rec.Hash)
			}
		}
		return
	}
	if old != nil && old.version > rec.Version {
		return
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
	a.byHash.add(n)
}

func (a *refPair) replace(old, n *openOrder) {
	a.orders[n.Hash] = n
	a.byHash.drop(old)
	a.byHash.add(n)
}

func (a *refPair) chainChanged(m *ChainChanged) {
	for h, co := range m.Orders {
		if o := a.orders[h]; o != nil {
			a.replace(o, o.withChain(co, true))
		}
	}
}

func (a *refPair) chainReverted(m *ChainReverted) {
	for _, h := range m.Hashes {
		o := a.orders[h]
		if o == nil {
			continue
		}
		co, found, err := a.chain.Order(h)
		if err != nil {
			continue
		}
		a.replace(o, o.withChain(co, found))
	}
}

// evaluate decides every open order of the pair at the block; peak changes
// are durable before the answer, and the trigger state of the orders that
// closed is dropped.
func (a *refPair) evaluate(m *EvaluateRequest) *refDecision {
	a.byHash.settle()
	d := &refDecision{Exec: make([]Executable, 0, len(a.byHash.list)), Open: len(a.orders)}
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
	if err := refSavePeaks(a.store, changed, m.Ref.Number); err != nil {
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
	if d.Err = refDropState(a.store, drop); d.Err == nil {
		a.closed = a.closed[:0]
	}
	return d
}

// decide returns the order when it is executable now and records the
// transitions it needs in d.
func (a *refPair) decide(m *EvaluateRequest, o *openOrder, d *refDecision, changed map[common.Hash]*big.Int) (*Executable, error) {
	ref, price := m.Ref, m.Price
	if o.deadline != 0 && ref.Time > o.deadline {
		if t, ok := a.transition(o); ok {
			d.Expire = append(d.Expire, t)
		}
		return nil, nil
	}
	if !o.left {
		return nil, nil
	}
	x := func() *Executable {
		remaining := o.remainingIn()
		return &Executable{Hash: o.Hash, Pair: a.key, Class: o.class, Maker: o.maker, TokenIn: o.tokenIn,
			FillIn: remaining.ToBig(), Price: price, Block: ref.Number}
	}
	triggered := o.fired
	fire := func() {
		if !triggered {
			if t, ok := a.transition(o); ok {
				d.Fire = append(d.Fire, t)
			}
		}
	}
	switch o.class {
	case chain.ClassLimit:
		if price != nil && cmpPrice(price, &o.Price) < 0 {
			return nil, nil
		}
		return x(), nil
	case chain.ClassStopLoss, chain.ClassTakeProfit:
		if price == nil {
			return nil, nil
		}
		hit := StopLossHit(price, &o.Price)
		if o.class == chain.ClassTakeProfit {
			hit = TakeProfitHit(price, &o.Price)
		}
		if !hit {
			return nil, nil
		}
		fire()
		return x(), nil
	case chain.ClassTrailing:
		if triggered {
			return x(), nil
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

func (a *refPair) transition(o *openOrder) (Transition, bool) {
	v, err := a.chain.OrderView(o.Hash, o.maker, o.nonce)
	if err != nil {
		return Transition{}, false
	}
	return Transition{Hash: o.Hash, Chain: v}, true
}

func (a *refPair) trail(o *openOrder, price *big.Int, changed map[common.Hash]*big.Int) (bool, error) {
	peak, ok := a.peaks[o.Hash]
	if !ok {
		var err error
		if peak, err = refLoadPeak(a.store, o.Hash); err != nil {
			return false, err
		}
	}
	next := TrailingPeak(peak, price)
	if peak == nil || next.Cmp(peak) != 0 {
		changed[o.Hash] = next
	}
	a.peaks[o.Hash] = next
	return TrailingHit(next, price, o.trailPpm), nil
}

func (a *refPair) dca(m *EvaluateRequest, o *openOrder, d *refDecision, x func() *Executable) *Executable {
	p := o.dca
	if p == nil {
		return nil
	}
	st := EvaluateDCA(DCA{
		AmountIn: o.amountIn.ToBig(), FilledIn: o.filled.ToBig(), TotalExecutions: p.TotalExecutions, Executions: o.executions,
		IntervalSeconds: p.IntervalSeconds, FlexibilityPpm: p.FlexibilityPpm, ShortCircuit: p.ShortCircuit,
		PriceGated: p.PriceGated, TriggerPrice: o.Price.ToBig(), AcceptedAt: uint64(o.accepted().Unix()),
		FirstExecution: o.firstExecution, LastExecution: o.lastExecution,
	}, m.Ref.Time, m.Price)
	if st.Stalled != o.stalled {
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

// refState is the reference's t/<hash> row: the order's own peak.
type refState struct {
	Peak      string `json:"peak,omitempty"`
	PeakBlock uint64 `json:"peakBlock,omitempty"`
}

func refLoadPeak(s *persistence.Store, h common.Hash) (*big.Int, error) {
	v, closer, err := s.DB().Get(stateKey(h))
	if err == pebble.ErrNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trigger: load state: %w", err)
	}
	defer closer.Close()
	var st refState
	if err := json.Unmarshal(v, &st); err != nil {
		return nil, fmt.Errorf("trigger: decode state: %w", err)
	}
	p, ok := new(big.Int).SetString(st.Peak, 10)
	if !ok {
		return nil, nil
	}
	return p, nil
}

func refSavePeaks(s *persistence.Store, peaks map[common.Hash]*big.Int, block uint64) error {
	if len(peaks) == 0 {
		return nil
	}
	b := s.DB().NewBatch()
	defer b.Close()
	for h, p := range peaks {
		v, err := json.Marshal(refState{Peak: p.String(), PeakBlock: block})
		if err != nil {
			return err
		}
		if err := b.Set(stateKey(h), v, nil); err != nil {
			return err
		}
	}
	return s.Commit(b, pebble.Sync)
}

func refDropState(s *persistence.Store, hashes []common.Hash) error {
	if len(hashes) == 0 {
		return nil
	}
	b := s.DB().NewBatch()
	defer b.Close()
	for _, h := range hashes {
		if err := b.Delete(stateKey(h), nil); err != nil {
			return err
		}
	}
	return s.Commit(b, pebble.Sync)
}

// hashOrder lists a pair's open orders in hash order. The changes since
// the last settle are kept aside and merged in once per evaluation.
type hashOrder struct {
	list    []*openOrder
	added   []*openOrder
	dropped map[*openOrder]bool
}

func (p *hashOrder) add(o *openOrder) { p.added = append(p.added, o) }

func (p *hashOrder) drop(o *openOrder) {
	if p.dropped == nil {
		p.dropped = map[*openOrder]bool{}
	}
	p.dropped[o] = true
}

// settle merges the changes into a new sorted list.
func (p *hashOrder) settle() {
	if len(p.added) == 0 && len(p.dropped) == 0 {
		return
	}
	byHash := func(a, b *openOrder) int { return bytes.Compare(a.Hash[:], b.Hash[:]) }
	slices.SortFunc(p.added, byHash)
	out := make([]*openOrder, 0, len(p.list)+len(p.added))
	i, j := 0, 0
	for i < len(p.list) || j < len(p.added) {
		var v *openOrder
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
