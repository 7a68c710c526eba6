package devchain

import (
	"math/big"
	"math/rand/v2"
)

// ppm is the denominator of every parts-per-million value.
const ppm = 1_000_000

// walk is a bounded multiplicative random walk of a price: each step moves
// it by a uniform factor in [1 − maxStep, 1 + maxStep] (ppm), clamped to
// [base × (1 − maxDev), base × (1 + maxDev)]. Integer arithmetic only.
type walk struct {
	base, price, lo, hi *big.Int
	maxStep             int64
}

func newWalk(base *big.Int, maxStepPpm, maxDevPpm uint32) *walk {
	lo := mulDiv(base, big.NewInt(int64(ppm-maxDevPpm)), big.NewInt(ppm))
	hi := mulDiv(base, big.NewInt(int64(ppm+maxDevPpm)), big.NewInt(ppm))
	return &walk{base: new(big.Int).Set(base), price: new(big.Int).Set(base), lo: lo, hi: hi, maxStep: int64(maxStepPpm)}
}

// step moves the price one step with rng and returns the new price.
func (w *walk) step(rng *rand.Rand) *big.Int {
	move := rng.Int64N(2*w.maxStep+1) - w.maxStep
	p := mulDiv(w.price, big.NewInt(ppm+move), big.NewInt(ppm))
	if p.Cmp(w.lo) < 0 {
		p.Set(w.lo)
	}
	if p.Cmp(w.hi) > 0 {
		p.Set(w.hi)
	}
	w.price = p
	return new(big.Int).Set(p)
}

// mulDiv is a × b / c, floor.
func mulDiv(a, b, c *big.Int) *big.Int {
	r := new(big.Int).Mul(a, b)
	return r.Quo(r, c)
}

// pow10 is 10^n.
func pow10(n uint8) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// cpmmOut is the constant-product output of protocol.md:
// in × (1e6 − fee) × rOut / (rIn × 1e6 + in × (1e6 − fee)), floor.
func cpmmOut(rIn, rOut, in *big.Int, feePpm uint32) *big.Int {
	inWithFee := new(big.Int).Mul(in, big.NewInt(int64(ppm-feePpm)))
	num := new(big.Int).Mul(inWithFee, rOut)
	den := new(big.Int).Mul(rIn, big.NewInt(ppm))
	den.Add(den, inWithFee)
	return num.Quo(num, den)
}

// rebalance is the swap that moves a constant-product pool with reserves
// r0, r1 to the price r1'/r0' = num/den (raw token1 per raw token0): it
// returns whether token0 goes in and the input amount (zero when the pool
// is already there). The fee stays in the pool, as in the contract, so the
// amount solves the exact post-swap reserves (see swapInFor).
func rebalance(r0, r1, num, den *big.Int, feePpm uint32) (zeroIn bool, amountIn *big.Int) {
	now := new(big.Int).Mul(r1, den)
	target := new(big.Int).Mul(num, r0)
	switch now.Cmp(target) {
	case -1: // token0 too cheap: token1 in
		return false, swapInFor(r1, r0, num, den, feePpm)
	case 1: // token0 too dear: token0 in
		return true, swapInFor(r0, r1, den, num, feePpm)
	}
	return false, new(big.Int)
}

// swapInFor is the input x that takes a pool from (rIn, rOut) to
// rIn'/rOut' = qn/qd, with rIn' = rIn + x and rOut' = rIn·rOut/(rIn + x·f),
// f = (1e6 − fee)/1e6. Multiplying out, x is the positive root of
//
//	F·qd·x² + rIn·(1e6 + F)·qd·x + 1e6·rIn·(rIn·qd − qn·rOut) = 0,  F = 1e6 − fee
//
// taken with an integer square root (floor), so the pool lands just short of
// the target. It is zero when the pool already is at or past the target.
func swapInFor(rIn, rOut, qn, qd *big.Int, feePpm uint32) *big.Int {
	F := big.NewInt(int64(ppm - feePpm))
	a := new(big.Int).Mul(F, qd)
	b := new(big.Int).Mul(rIn, big.NewInt(int64(2*ppm-feePpm)))
	b.Mul(b, qd)
	c := new(big.Int).Sub(new(big.Int).Mul(rIn, qd), new(big.Int).Mul(qn, rOut))
	c.Mul(c, rIn)
	c.Mul(c, big.NewInt(ppm))
	if c.Sign() >= 0 {
		return new(big.Int)
	}
	disc := new(big.Int).Mul(b, b)
	disc.Sub(disc, new(big.Int).Mul(new(big.Int).Mul(big.NewInt(4), a), c))
	x := new(big.Int).Sqrt(disc)
	x.Sub(x, b)
	return x.Quo(x, new(big.Int).Mul(big.NewInt(2), a))
}

// usdPrice is the USD answer (8 decimals) of token a implied by a pool
// holding ra of a (decimals da) against rb of b (decimals db) whose USD
// answer is pb: rb × 10^da × pb / (ra × 10^db).
func usdPrice(ra *big.Int, da uint8, rb *big.Int, db uint8, pb *big.Int) *big.Int {
	num := new(big.Int).Mul(rb, pow10(da))
	num.Mul(num, pb)
	den := new(big.Int).Mul(ra, pow10(db))
	return num.Quo(num, den)
}
