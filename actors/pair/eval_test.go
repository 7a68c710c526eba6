package pair

import (
	"math/big"
	"testing"

	"github.com/holiman/uint256"
)

func b(v int64) *big.Int { return big.NewInt(v) }

func TestOraclePrice(t *testing.T) {
	// WETH $3000 (8 decimals), USDC $1, USDC has 6 decimals: 1 WETH = 3000e6.
	p, ok := OraclePrice(b(3000_00000000), b(1_00000000), 6)
	if !ok || p.Cmp(b(3000_000000)) != 0 {
		t.Fatalf("price %v %v", p, ok)
	}
	if _, ok := OraclePrice(b(0), b(1), 6); ok {
		t.Fatal("zero answer priced")
	}
}

func TestStopTakeProfitBoundaries(t *testing.T) {
	cases := []struct {
		price, trigger int64
		stop, take     bool
	}{
		{99, 100, true, false}, {100, 100, true, true}, {101, 100, false, true},
		{-1, 0, true, false}, {0, 0, true, true},
	}
	for _, c := range cases {
		trigger := uint256.NewInt(uint64(c.trigger))
		if StopLossHit(b(c.price), trigger) != c.stop || TakeProfitHit(b(c.price), trigger) != c.take {
			t.Fatalf("price %d trigger %d", c.price, c.trigger)
		}
	}
}

func TestTrailing(t *testing.T) {
	var peak *big.Int
	for _, p := range []int64{1000, 1200, 1100, 1500, 1400} {
		peak = TrailingPeak(peak, b(p))
	}
	if peak.Int64() != 1500 {
		t.Fatalf("peak %s", peak)
	}
	// 5% trail: fires at ≤ 1425 exactly.
	if TrailingHit(peak, b(1426), 50_000) {
		t.Fatal("fired above the trail")
	}
	if !TrailingHit(peak, b(1425), 50_000) || !TrailingHit(peak, b(1000), 50_000) {
		t.Fatal("did not fire at or below the trail")
	}
	if TrailingHit(nil, b(1), 50_000) {
		t.Fatal("fired without a peak")
	}
}

func dca() DCA {
	return DCA{AmountIn: b(1000), FilledIn: b(0), TotalExecutions: 3, IntervalSeconds: 100,
		FlexibilityPpm: 100_000, TriggerPrice: b(0), AcceptedAt: 1000}
}

func TestDCASchedule(t *testing.T) {
	d := dca()
	st := EvaluateDCA(d, 1000, nil)
	if !st.Due || st.FillIn.Int64() != 333 || st.Stalled {
		t.Fatalf("first leg %+v", st)
	}
	if st := EvaluateDCA(d, 1011, nil); !st.Stalled {
		t.Fatal("first leg 11 s late with 10 s grace is not stalled")
	}
	d.FilledIn, d.Executions, d.FirstExecution, d.LastExecution = b(333), 1, 1005, 1005
	if st := EvaluateDCA(d, 1104, nil); st.Due || st.DueAt != 1105 {
		t.Fatalf("second leg early: %+v", st)
	}
	if st := EvaluateDCA(d, 1105, nil); !st.Due || st.FillIn.Int64() != 333 || st.Stalled {
		t.Fatalf("second leg due: %+v", st)
	}
	if st := EvaluateDCA(d, 1116, nil); !st.Stalled {
		t.Fatalf("second leg 11 s late: %+v", st)
	}
	d.FilledIn, d.Executions, d.LastExecution = b(666), 2, 1105
	if st := EvaluateDCA(d, 1205, nil); st.FillIn.Int64() != 334 {
		t.Fatalf("last leg takes the remainder: %+v", st)
	}
	d.FilledIn, d.Executions = b(1000), 3
	if st := EvaluateDCA(d, 5000, nil); !st.Done || st.Due {
		t.Fatalf("done: %+v", st)
	}
}

func TestDCAPriceGatedAndShortCircuit(t *testing.T) {
	d := dca()
	d.PriceGated, d.TriggerPrice = true, b(500)
	if st := EvaluateDCA(d, 1000, b(499)); st.Due {
		t.Fatal("gated leg due below the trigger")
	}
	if st := EvaluateDCA(d, 1000, nil); st.Due {
		t.Fatal("gated leg due without a price")
	}
	if st := EvaluateDCA(d, 1000, b(500)); !st.Due {
		t.Fatal("gated leg not due at the trigger")
	}
	d = dca()
	d.ShortCircuit = true
	d.FilledIn, d.Executions, d.FirstExecution, d.LastExecution = b(333), 1, 1000, 1000
	// 250 s after the first: 1 + 2 legs by time, 1 done → 2 legs, which end the order.
	if st := EvaluateDCA(d, 1250, nil); !st.Due || st.FillIn.Int64() != 667 {
		t.Fatalf("catch-up %+v", st)
	}
	d.ShortCircuit = false
	if st := EvaluateDCA(d, 1250, nil); st.FillIn.Int64() != 333 {
		t.Fatalf("no catch-up without SHORT_CIRCUIT: %+v", st)
	}
}
