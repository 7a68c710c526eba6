package routing

import (
	"testing"

	"github.com/holiman/uint256"
)

func e(n uint64, dec int) *uint256.Int {
	return new(uint256.Int).Mul(uint256.NewInt(n), new(uint256.Int).Exp(uint256.NewInt(10), uint256.NewInt(uint64(dec))))
}

func TestStableSwapBalancedPoolIsNearParity(t *testing.T) {
	// 1M USDC (6 decimals) against 1M DAI (18 decimals), A = 100, fee 4 bps.
	p := NewStableSwapPool(poolAddr(0), tokenAddr(1), tokenAddr(3), e(1_000_000, 6), e(1_000_000, 18), 100, 4_000_000, 6, 18)
	out, err := p.AmountOut(tokenAddr(1), e(1000, 6))
	if err != nil {
		t.Fatal(err)
	}
	// 1000 USDC must give a little under 1000 DAI: fee 0.04 % plus tiny impact.
	lo, hi := e(999_500, 15), e(1000, 18)
	if out.Lt(lo) || !out.Lt(hi) {
		t.Fatalf("1000 USDC → %s DAI wei, want in [%s, %s)", out.Dec(), lo.Dec(), hi.Dec())
	}
	back, err := p.AmountOut(tokenAddr(3), e(1000, 18))
	if err != nil {
		t.Fatal(err)
	}
	if back.Lt(e(999_500, 3)) || !back.Lt(e(1000, 6)) {
		t.Fatalf("1000 DAI → %s USDC units", back.Dec())
	}
	// Spot of a balanced pool is parity in raw units: 1 USDC unit = 1e12 DAI wei.
	spot := QuoteAmount(e(1, 6), p.SpotX128(tokenAddr(1)))
	if d := new(uint256.Int).Sub(e(1, 18), spot); spot.Gt(e(1, 18)) || d.GtUint64(1_000_000) {
		t.Fatalf("balanced spot: 1 USDC = %s DAI wei", spot.Dec())
	}
}

func TestStableSwapFlatterThanConstantProduct(t *testing.T) {
	s := NewStableSwapPool(poolAddr(0), tokenAddr(1), tokenAddr(2), e(1_000_000, 6), e(1_000_000, 6), 200, 0, 6, 6)
	c := NewCPMMPool(poolAddr(1), tokenAddr(1), tokenAddr(2), e(1_000_000, 6), e(1_000_000, 6), 0)
	in := e(200_000, 6)
	so, err := s.AmountOut(tokenAddr(1), in)
	if err != nil {
		t.Fatal(err)
	}
	co, _ := c.AmountOut(tokenAddr(1), in)
	if !so.Gt(co) {
		t.Fatalf("stableswap %s not above constant product %s for a 20 %% trade", so.Dec(), co.Dec())
	}
	if !so.Lt(in) {
		t.Fatalf("stableswap gave %s for %s: more than it took", so.Dec(), in.Dec())
	}
}

func TestStableSwapMonotoneAndConcave(t *testing.T) {
	p := NewStableSwapPool(poolAddr(0), tokenAddr(1), tokenAddr(2), e(3_000_000, 6), e(1_000_000, 6), 85, 3_000_000, 6, 6)
	prev, prevGain := new(uint256.Int), new(uint256.Int)
	step := e(50_000, 6)
	for k := uint64(1); k <= 40; k++ {
		out, err := p.AmountOut(tokenAddr(1), new(uint256.Int).Mul(step, uint256.NewInt(k)))
		if err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
		gain := new(uint256.Int).Sub(out, prev)
		if out.Lt(prev) || (k > 1 && gain.Gt(new(uint256.Int).AddUint64(prevGain, 2))) {
			t.Fatalf("step %d: out %s after %s (gain %s after %s)", k, out.Dec(), prev.Dec(), gain.Dec(), prevGain.Dec())
		}
		prev, prevGain = out, gain
	}
}
