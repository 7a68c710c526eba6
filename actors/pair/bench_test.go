package pair

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// walkPrices answers each token at a USD price that step moves (6
// decimals, so a pair's price starts at 10^6 raw out per whole in, where
// the synthetic orders' triggers are).
type walkPrices struct {
	mu  sync.Mutex
	usd map[common.Address]*big.Int
	rng *rand.Rand
}

func newWalkPrices() *walkPrices {
	return &walkPrices{usd: map[common.Address]*big.Int{}, rng: rand.New(rand.NewPCG(1, 2))}
}

func (w *walkPrices) Answer(_ context.Context, _ common.Hash, _ uint64, token common.Address) (*big.Int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	v := w.usd[token]
	if v == nil {
		v = big.NewInt(1_00000000)
		w.usd[token] = v
	}
	return new(big.Int).Set(v), nil
}

func (w *walkPrices) Decimals(context.Context, common.Hash, common.Address) (uint8, error) {
	return 6, nil
}

// step moves every token's price by up to ppm parts per million.
func (w *walkPrices) step(ppm int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, v := range w.usd {
		d := new(big.Int).Mul(v, big.NewInt(w.rng.Int64N(2*ppm+1)-ppm))
		v.Add(v, d.Quo(d, big.NewInt(1_000_000)))
	}
}

// spreadRecord is synthRecord with the trigger prices of the limit and
// stop orders spread over 10 % on either side of the pairs' first price
// (10^6), so that a price move crosses some.
func spreadRecord(i int) (*orderstore.Record, common.Hash) {
	rec, h := synthRecord(i)
	if rec.Class != chain.ClassTrailing {
		rec.Order.TriggerPrice.SetUint64(900_000 + uint64(i*7919%200_001))
	}
	return rec, h
}

// BenchmarkEvaluate is one trigger tick over n open orders in two pairs (a
// quarter stop-losses, a quarter trailing, half limit orders, their trigger
// prices spread over ±10 %), after the first tick, which decides every
// order: "idle" at unchanged prices, as most blocks are; "move" after
// every token's price moved by up to 0.2 %. The decided transitions are
// sent to the order actors, whose appends wait for fsyncs: eval-ns/op is
// the evaluation alone (deciding and publishing), ns/op includes sending
// them.
func BenchmarkEvaluate(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		for _, move := range []bool{false, true} {
			name := fmt.Sprintf("idle/open=%d", n)
			if move {
				name = fmt.Sprintf("move/open=%d", n)
			}
			b.Run(name, func(b *testing.B) {
				prices := newWalkPrices()
				e := newSynthEnvAt(b, n, prices, spreadRecord)
				ctx := context.Background()
				block := uint64(0)
				if err := e.engine.Evaluate(ctx, BlockRef{Number: block, Time: 1_700_000_000}); err != nil {
					b.Fatal(err)
				}
				decided, evaluation := 0, time.Duration(0)
				for b.Loop() {
					block++
					if move {
						prices.step(2000)
					}
					if err := e.engine.Evaluate(ctx, BlockRef{Number: block, Time: 1_700_000_000 + block}); err != nil {
						b.Fatal(err)
					}
					decided += e.engine.LastTick().Decided
					evaluation += e.engine.LastTick().Evaluation
				}
				if got := len(e.engine.Executable("")); got == 0 {
					b.Fatalf("nothing executable of %d open", n)
				}
				b.ReportMetric(float64(decided)/float64(b.N), "decided/op")
				b.ReportMetric(float64(evaluation.Nanoseconds())/float64(b.N), "eval-ns/op")
			})
		}
	}
}
