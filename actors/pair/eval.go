// The trigger decisions: pure functions of an order, the oracle price at a
// block and the block's time. The pair actor (actor.go) applies them to its
// open orders at each block.

package pair

import (
	"math"
	"math/big"

	"github.com/holiman/uint256"
)

// ppm is 1e6, the denominator of every ppm value.
const ppm = 1_000_000

// OraclePrice is the price of one whole tokenIn in raw tokenOut units
// (docs/protocol.md "Oracle price"): usdIn × 10^decimalsOut / usdOut, floor.
// ok is false when either answer is missing or non-positive.
func OraclePrice(usdIn, usdOut *big.Int, decimalsOut uint8) (*big.Int, bool) {
	if usdIn == nil || usdOut == nil || usdIn.Sign() <= 0 || usdOut.Sign() <= 0 {
		return nil, false
	}
	v := new(big.Int).Mul(usdIn, pow10(decimalsOut))
	return v.Quo(v, usdOut), true
}

// pow10s are 10^0 to 10^36, the decimals of the tokens there are; never
// modified.
var pow10s = func() []*big.Int {
	out := make([]*big.Int, 37)
	for i := range out {
		out[i] = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(i)), nil)
	}
	return out
}()

// pow10 returns 10^d (shared for small d: never modify it).
func pow10(d uint8) *big.Int {
	if int(d) < len(pow10s) {
		return pow10s[d]
	}
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d)), nil)
}

// StopLossHit reports price ≤ trigger.
func StopLossHit(price *big.Int, trigger *uint256.Int) bool { return cmpPrice(price, trigger) <= 0 }

// TakeProfitHit reports price ≥ trigger.
func TakeProfitHit(price *big.Int, trigger *uint256.Int) bool { return cmpPrice(price, trigger) >= 0 }

// cmpPrice compares an oracle price with an order's trigger price without
// allocating: -1, 0 or +1 as price is below, at or above it.
func cmpPrice(price *big.Int, trigger *uint256.Int) int {
	switch {
	case price.Sign() < 0:
		return -1
	case price.BitLen() > 256:
		return 1
	}
	var p uint256.Int
	p.SetFromBig(price)
	return p.Cmp(trigger)
}

// TrailingPeak returns the new peak after price (the larger of the two; a
// nil peak starts at price).
func TrailingPeak(peak, price *big.Int) *big.Int {
	if peak == nil || price.Cmp(peak) > 0 {
		return new(big.Int).Set(price)
	}
	return peak
}

// TrailingHit reports price ≤ peak × (1 − trailPpm/1e6), compared exactly
// (price × 1e6 ≤ peak × (1e6 − trailPpm)).
func TrailingHit(peak, price *big.Int, trailPpm uint32) bool {
	if peak == nil || trailPpm >= ppm {
		return false
	}
	l := new(big.Int).Mul(price, big.NewInt(ppm))
	r := new(big.Int).Mul(peak, big.NewInt(int64(ppm-trailPpm)))
	return l.Cmp(r) <= 0
}

// DCA is what the schedule of a dca order depends on. Times are unix
// seconds.
type DCA struct {
	AmountIn        *big.Int // total over all legs
	FilledIn        *big.Int // router's cumulative filledIn
	TotalExecutions uint16
	Executions      uint32 // legs done (router's counter)
	IntervalSeconds uint32
	FlexibilityPpm  uint32
	ShortCircuit    bool
	PriceGated      bool
	TriggerPrice    *big.Int
	AcceptedAt      uint64 // the first leg is due at acceptance
	FirstExecution  uint64
	LastExecution   uint64
}

// DCAState is the schedule's answer at a time.
type DCAState struct {
	// Done: every leg executed (or amountIn spent).
	Done bool
	// DueAt is when the next leg is due.
	DueAt uint64
	// Due: the next leg is due now (and, price-gated, the price allows it).
	Due bool
	// Stalled: the next leg is later than DueAt + interval × flexibility.
	Stalled bool
	// FillIn is the amount to execute now (one leg; with SHORT_CIRCUIT the
	// legs due, capped at what remains). Zero when not Due.
	FillIn *big.Int
}

// EvaluateDCA applies docs/protocol.md "DCA legs" at time now with the
// oracle price (nil: unknown, which blocks price-gated legs). Legs done are
// filledIn / leg (a short-circuit catch-up execution carries several).
func EvaluateDCA(d DCA, now uint64, price *big.Int) DCAState {
	st := DCAState{FillIn: new(big.Int)}
	remaining := new(big.Int).Sub(d.AmountIn, d.FilledIn)
	if d.TotalExecutions == 0 || remaining.Sign() <= 0 {
		st.Done = true
		return st
	}
	leg := new(big.Int).Quo(d.AmountIn, big.NewInt(int64(d.TotalExecutions)))
	if leg.Sign() == 0 {
		leg.Set(d.AmountIn)
	}
	legsDone := new(big.Int).Quo(d.FilledIn, leg).Uint64()
	st.DueAt = d.AcceptedAt
	if d.Executions > 0 {
		st.DueAt = d.LastExecution + uint64(d.IntervalSeconds)
	}
	grace := uint64(d.IntervalSeconds) * uint64(d.FlexibilityPpm) / ppm
	st.Stalled = now > st.DueAt+grace
	if now < st.DueAt {
		return st
	}
	if d.PriceGated && (price == nil || price.Cmp(d.TriggerPrice) < 0) {
		return st
	}
	st.Due = true
	k := uint64(1)
	if d.ShortCircuit && d.Executions > 0 && d.IntervalSeconds > 0 && now >= d.FirstExecution {
		if byTime := 1 + (now-d.FirstExecution)/uint64(d.IntervalSeconds); byTime > legsDone+1 {
			k = byTime - legsDone
		}
	}
	st.FillIn.Mul(leg, new(big.Int).SetUint64(k))
	if legsDone+k >= uint64(d.TotalExecutions) || st.FillIn.Cmp(remaining) > 0 {
		st.FillIn.Set(remaining) // the execution that ends the order takes the remainder
	}
	return st
}

// NextDCAChange returns the first time after now at which EvaluateDCA may
// answer differently than at now, whatever the price (0: never): when the
// next leg falls due, when it stalls, and, for a SHORT_CIRCUIT order that
// has executed, each interval after its first execution (the legs a
// catch-up execution carries). An earlier answer would only cost an
// evaluation; a later one would miss a change.
func NextDCAChange(d DCA, now uint64) uint64 {
	if d.TotalExecutions == 0 || d.FilledIn.Cmp(d.AmountIn) >= 0 {
		return 0
	}
	dueAt := d.AcceptedAt
	if d.Executions > 0 {
		dueAt = d.LastExecution + uint64(d.IntervalSeconds)
	}
	grace := uint64(d.IntervalSeconds) * uint64(d.FlexibilityPpm) / ppm
	next := uint64(0)
	consider := func(t uint64) {
		if t > now && (next == 0 || t < next) {
			next = t
		}
	}
	consider(dueAt)
	consider(dueAt + grace + 1) // EvaluateDCA's Stalled: now > dueAt + grace
	if d.ShortCircuit && d.Executions > 0 && d.IntervalSeconds > 0 {
		if now < d.FirstExecution {
			consider(d.FirstExecution)
		} else if k := (now-d.FirstExecution)/uint64(d.IntervalSeconds) + 1; k <= (math.MaxUint64-d.FirstExecution)/uint64(d.IntervalSeconds) {
			consider(d.FirstExecution + k*uint64(d.IntervalSeconds))
		}
	}
	return next
}
