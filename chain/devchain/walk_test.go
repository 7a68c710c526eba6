package devchain

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestWalkStaysWithinBounds(t *testing.T) {
	base := big.NewInt(3000_00000000) // $3000, 8 decimals
	w := newWalk(base, 20_000, 50_000)
	rng := rand.New(rand.NewPCG(7, 7))
	lo, hi := big.NewInt(2850_00000000), big.NewInt(3150_00000000)
	moved, hitHi, hitLo := false, false, false
	for i := 0; i < 2000; i++ {
		p := w.step(rng)
		if p.Cmp(lo) < 0 || p.Cmp(hi) > 0 {
			t.Fatalf("step %d: price %s outside [%s, %s]", i, p, lo, hi)
		}
		moved = moved || p.Cmp(base) != 0
		hitHi = hitHi || p.Cmp(hi) == 0
		hitLo = hitLo || p.Cmp(lo) == 0
	}
	if !moved || !hitHi || !hitLo {
		t.Fatalf("walk moved=%v reached hi=%v lo=%v; 2000 steps of 2%% should reach both bounds of 5%%", moved, hitHi, hitLo)
	}
}

func TestWalkIsReproducible(t *testing.T) {
	run := func() []string {
		w := newWalk(big.NewInt(1e8), 5000, 100_000)
		rng := rand.New(rand.NewPCG(1, 1))
		var out []string
		for i := 0; i < 20; i++ {
			out = append(out, w.step(rng).String())
		}
		return out
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("step %d differs: %s vs %s", i, a[i], b[i])
		}
	}
}

func TestRebalanceLandsOnTarget(t *testing.T) {
	e18, e6 := pow10(18), pow10(6)
	cases := []struct {
		name       string
		r0, r1     *big.Int
		num, den   *big.Int // target raw token1 per raw token0
		fee        uint32
		wantZeroIn bool
	}{
		// 1000 WETH / 3,000,000 USDC at $3000; target $3100: buy WETH (USDC in).
		{"up", new(big.Int).Mul(big.NewInt(1000), e18), new(big.Int).Mul(big.NewInt(3_000_000), e6),
			new(big.Int).Mul(big.NewInt(3100), e6), e18, 3000, false},
		// target $2900: sell WETH.
		{"down", new(big.Int).Mul(big.NewInt(1000), e18), new(big.Int).Mul(big.NewInt(3_000_000), e6),
			new(big.Int).Mul(big.NewInt(2900), e6), e18, 500, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			zeroIn, in := rebalance(c.r0, c.r1, c.num, c.den, c.fee)
			if zeroIn != c.wantZeroIn || in.Sign() <= 0 {
				t.Fatalf("zeroIn=%v in=%s", zeroIn, in)
			}
			r0, r1 := new(big.Int).Set(c.r0), new(big.Int).Set(c.r1)
			if zeroIn {
				out := cpmmOut(r0, r1, in, c.fee)
				r0.Add(r0, in)
				r1.Sub(r1, out)
			} else {
				out := cpmmOut(r1, r0, in, c.fee)
				r1.Add(r1, in)
				r0.Sub(r0, out)
			}
			// Landed price r1/r0 vs target num/den within 1 ppm:
			// |r1·den − num·r0| ≤ num·r0 / 1e6.
			got := new(big.Int).Mul(r1, c.den)
			want := new(big.Int).Mul(c.num, r0)
			diff := new(big.Int).Sub(got, want)
			diff.Abs(diff)
			if diff.Cmp(new(big.Int).Quo(want, big.NewInt(ppm))) > 0 {
				t.Fatalf("landed %s/%s, target %s/%s", r1, r0, c.num, c.den)
			}
		})
	}
	// Already on target: no swap.
	_, in := rebalance(big.NewInt(1e6), big.NewInt(2e6), big.NewInt(2), big.NewInt(1), 3000)
	if in.Sign() != 0 {
		t.Fatalf("pool on target swapped %s", in)
	}
}

func TestUSDPrice(t *testing.T) {
	// 1000 WETH (18) against 3,000,000 USDC (6) at $1.00000000 → $3000.
	p := usdPrice(new(big.Int).Mul(big.NewInt(1000), pow10(18)), 18,
		new(big.Int).Mul(big.NewInt(3_000_000), pow10(6)), 6, big.NewInt(1e8))
	if p.Cmp(big.NewInt(3000_00000000)) != 0 {
		t.Fatalf("price %s", p)
	}
}
