package main

import (
	"context"
	"encoding/binary"
	"math/big"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// market is the triggers mode's synthetic oracle: two tokens per pair, each
// with a USD answer (8 decimals) that step moves, and 6 decimals, so a
// pair's price (raw tokenOut per whole tokenIn) starts between 0.5e6 and
// 2e6. It implements pair.Prices.
type market struct {
	mu     sync.RWMutex
	usd    map[common.Address]*big.Int
	tokens []common.Address
	pairs  int
	rng    *rand.Rand
}

func newMarket(pairs int, seed uint64) *market {
	m := &market{usd: map[common.Address]*big.Int{}, pairs: pairs, rng: rand.New(rand.NewPCG(seed, 1))}
	for i := range pairs {
		in, out := m.pair(i)
		m.usd[in] = big.NewInt(50_000_000 + m.rng.Int64N(150_000_000))
		m.usd[out] = big.NewInt(100_000_000)
		m.tokens = append(m.tokens, in, out)
	}
	return m
}

// pair returns pair i's tokens.
func (m *market) pair(i int) (in, out common.Address) {
	return common.BigToAddress(big.NewInt(int64(0x10000 + 2*i))), common.BigToAddress(big.NewInt(int64(0x10000 + 2*i + 1)))
}

// price is pair i's oracle price now.
func (m *market) price(i int) *big.Int {
	in, out := m.pair(i)
	m.mu.RLock()
	defer m.mu.RUnlock()
	p, _ := pair.OraclePrice(m.usd[in], m.usd[out], 6)
	return p
}

// step moves the answers of n tokens drawn at random by a random step of
// at most ppm parts per million, up or down.
func (m *market) step(n int, ppm int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, i := range m.rng.Perm(len(m.tokens))[:min(n, len(m.tokens))] {
		v := m.usd[m.tokens[i]]
		d := new(big.Int).Mul(v, big.NewInt(m.rng.Int64N(2*ppm+1)-ppm))
		v.Add(v, d.Quo(d, big.NewInt(1_000_000)))
	}
}

// Answer is the token's USD answer.
func (m *market) Answer(_ context.Context, _ common.Hash, _ uint64, token common.Address) (*big.Int, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if v := m.usd[token]; v != nil {
		return new(big.Int).Set(v), nil
	}
	return nil, nil
}

// Decimals is 6 for every token.
func (m *market) Decimals(context.Context, common.Hash, common.Address) (uint8, error) { return 6, nil }

// orderMix is the share of each class among the loaded orders, in
// chain.Class order (limit, stop_loss, take_profit, dca, trailing).
var orderMix = [...]float64{0.30, 0.20, 0.20, 0.15, 0.15}

// synthOrder is the triggers mode's order i (of maker i % makers) on pair
// i % pairs, in the state a live engine would hold it in at time now: its
// trigger price within 10 % of the pair's price, a stop or take-profit
// already past its trigger marked triggered, a DCA order accepted up to
// half an interval ago with its stalled flag as the schedule has it; half
// of the orders have a deadline 1 to 30 days away. Signatures are not
// checked by the pairs.
func synthOrder(m *market, i, makers int, now time.Time, rng *rand.Rand) *orderstore.Record {
	p := i % m.pairs
	in, out := m.pair(p)
	price := m.price(p)
	class := chain.ClassTrailing
	for c, x := 0, rng.Float64(); c < len(orderMix); c++ {
		if x -= orderMix[c]; x < 0 {
			class = chain.Class(c + 1)
			break
		}
	}
	var h common.Hash
	for j := 0; j < len(h); j += 8 {
		binary.BigEndian.PutUint64(h[j:], rng.Uint64())
	}
	maker := common.BigToAddress(big.NewInt(int64(1<<32 + i%makers)))
	rec := &orderstore.Record{Hash: h, Version: 1, Class: class, Status: orderstore.StatusPending,
		Signature: make([]byte, 65), AccountID: "bench", CreatedAt: now, UpdatedAt: now}
	rec.Order = chain.Order{Maker: maker, Receiver: maker, TokenIn: in, TokenOut: out, Referrer: maker}
	rec.Order.Salt.SetUint64(uint64(i))
	rec.Order.AmountIn.SetUint64(1_000_000_000_000_000_000)
	trigger := new(big.Int).Mul(price, big.NewInt(900_000+rng.Int64N(200_001)))
	trigger.Quo(trigger, big.NewInt(1_000_000))
	t := chain.Traits{Nonce: uint64(i), SlippagePpm: 5000}
	if rng.IntN(2) == 0 {
		t.Deadline = uint64(now.Unix()) + 86400 + rng.Uint64N(29*86400)
	}
	switch class {
	case chain.ClassStopLoss, chain.ClassTakeProfit:
		t.Flags = chain.FlagStopLoss
		hit := pair.StopLossHit(price, uint256.MustFromBig(trigger))
		if class == chain.ClassTakeProfit {
			t.Flags, hit = chain.FlagTakeProfit, pair.TakeProfitHit(price, uint256.MustFromBig(trigger))
		}
		if hit {
			rec.TriggeredAt = now
		}
	case chain.ClassTrailing:
		t.Flags, t.KindParamPpm = chain.FlagTrailing, []uint32{10_000, 20_000, 50_000, 100_000}[rng.IntN(4)]
		rec.Trailing = &orderstore.TrailingParams{TrailPpm: t.KindParamPpm}
		trigger.SetInt64(0)
	case chain.ClassDCA:
		t.Flags, t.KindParamPpm = chain.FlagDCA, 100_000
		t.IntervalSeconds, t.TotalExecutions = uint32(3600+rng.IntN(82800)), uint16(2+rng.IntN(9))
		d := &orderstore.DCAParams{IntervalSeconds: t.IntervalSeconds, TotalExecutions: t.TotalExecutions,
			FlexibilityPpm: t.KindParamPpm, ShortCircuit: rng.IntN(10) < 3, PriceGated: rng.IntN(10) < 3}
		if d.ShortCircuit {
			t.Flags |= chain.FlagShortCircuit
		}
		if d.PriceGated {
			t.Flags |= chain.FlagPriceGated
		} else {
			trigger.SetInt64(0)
		}
		rec.DCA = d
		rec.CreatedAt = now.Add(-time.Duration(rng.Int64N(int64(t.IntervalSeconds)/2)) * time.Second)
		st := pair.EvaluateDCA(pair.DCA{AmountIn: rec.Order.AmountIn.ToBig(), FilledIn: new(big.Int), TotalExecutions: d.TotalExecutions,
			IntervalSeconds: d.IntervalSeconds, FlexibilityPpm: d.FlexibilityPpm, ShortCircuit: d.ShortCircuit, PriceGated: d.PriceGated,
			TriggerPrice: trigger, AcceptedAt: uint64(rec.CreatedAt.Unix())}, uint64(now.Unix()), price)
		rec.Stalled = st.Stalled
	}
	rec.Order.TriggerPrice.SetFromBig(trigger)
	rec.Order.MakerTraits, _ = chain.EncodeTraits(t)
	return rec
}

// loadOrders appends n orders to a new store in dir through the order
// journal (group commits of many appends from conns goroutines), as
// accepted submits write them, and closes the store.
func loadOrders(ctx context.Context, dir string, m *market, n, makers, conns int, now time.Time) (time.Duration, error) {
	store, err := persistence.Open(dir, nil)
	if err != nil {
		return 0, err
	}
	orders := orderstore.New(store, nil)
	start := time.Now()
	var next atomic.Int64
	var first atomic.Value
	var wg sync.WaitGroup
	for w := range conns {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 2))
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				rec := synthOrder(m, i, makers, now, rng)
				if err := orders.AppendOrder(ctx, &orderstore.Transition{Record: rec}); err != nil {
					first.CompareAndSwap(nil, err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := store.Close(); err != nil {
		return 0, err
	}
	if err, ok := first.Load().(error); ok {
		return 0, err
	}
	return elapsed, ctx.Err()
}
