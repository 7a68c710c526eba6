package routing

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// FamilyStableSwap is Curve's 2-coin StableSwap venue family.
const FamilyStableSwap = "stableswap"

const (
	stableCoins        = 2
	stableFeeDenom     = 10_000_000_000 // fee unit: 1e10 = 100 %
	stableMaxIteration = 255
)

// StableSwapPool is a 2-coin StableSwap pool (contracts/src/StableSwapPool.sol,
// Curve's 3pool-generation invariant with plain A): balances are
// normalised to 18 decimals by each token's multiplier, D and y are found
// with the Newton iterations of the Solidity source, and the fee (1e10
// units) is taken from the de-normalised output.
type StableSwapPool struct {
	twoToken
	amp        uint256.Int // A as stored by the pool
	feeE10     uint256.Int
	mul0, mul1 uint256.Int // 10^(18 − decimals)
	d          uint256.Int // invariant at (r0, r1); zero when empty
	dErr       error
}

// NewStableSwapPool returns a StableSwap pool with the given balances,
// amplification A, fee (1e10 units) and token decimals (at most 18).
func NewStableSwapPool(addr, token0, token1 common.Address, reserve0, reserve1 *uint256.Int,
	amp, feeE10 uint64, decimals0, decimals1 uint8) *StableSwapPool {
	mul := func(dec uint8) *uint256.Int {
		return new(uint256.Int).Exp(uint256.NewInt(10), uint256.NewInt(uint64(18-dec)))
	}
	return NewStableSwapPoolState(addr, token0, token1, reserve0, reserve1,
		uint256.NewInt(amp), uint256.NewInt(feeE10), mul(decimals0), mul(decimals1))
}

// NewStableSwapPoolState returns a StableSwap pool from the values of the
// contract's getState(): reserves, A, fee and the rate multipliers
// mult0/mult1 (10^(18 − decimals)).
func NewStableSwapPoolState(addr, token0, token1 common.Address, reserve0, reserve1,
	amp, feeE10, mult0, mult1 *uint256.Int) *StableSwapPool {
	p := &StableSwapPool{twoToken: twoToken{addr: addr, token0: token0, token1: token1}}
	p.amp.Set(amp)
	p.feeE10.Set(feeE10)
	p.mul0.Set(mult0)
	p.mul1.Set(mult1)
	p.setReserves(reserve0, reserve1)
	return p
}

func (p *StableSwapPool) setReserves(r0, r1 *uint256.Int) {
	p.r0.Set(r0)
	p.r1.Set(r1)
	var c checked
	x0, x1 := c.mul(*r0, p.mul0), c.mul(*r1, p.mul1)
	p.d.Clear()
	p.dErr = c.err
	p.spot01.Clear()
	p.spot10.Clear()
	if p.dErr != nil || x0.IsZero() || x1.IsZero() {
		return // getAmountOut answers 0 before computing D on an empty side
	}
	p.d, p.dErr = stableD(x0, x1, p.amp)
	if p.dErr == nil {
		p.spot01.Set(stableSpotX128(&x0, &x1, &p.d, &p.amp, &p.mul0, &p.mul1))
		p.spot10.Set(stableSpotX128(&x1, &x0, &p.d, &p.amp, &p.mul1, &p.mul0))
	}
}

// Family implements Pool.
func (p *StableSwapPool) Family() string { return FamilyStableSwap }

// Iterative reports that a quote runs Newton iterations, so route search
// memoises its results.
func (p *StableSwapPool) Iterative() bool { return true }

// WithReserves implements Pool.
func (p *StableSwapPool) WithReserves(r0, r1 *uint256.Int) Pool {
	q := *p
	q.setReserves(r0, r1)
	return &q
}

// AmountOut implements Pool: TwoTokenPool.getAmountOut with
// StableSwapPool._amountOut, step by step with the same rounding and the
// same checked arithmetic. D depends only on the reserves, so it is
// computed once per state (token0's balance first, as the contract does).
func (p *StableSwapPool) AmountOut(tokenIn common.Address, amountIn *uint256.Int) (*uint256.Int, error) {
	rIn, rOut, zeroForOne, err := p.sides(tokenIn)
	if err != nil {
		return nil, err
	}
	mIn, mOut := &p.mul0, &p.mul1
	if !zeroForOne {
		mIn, mOut = mOut, mIn
	}
	if amountIn.IsZero() || rIn.IsZero() || rOut.IsZero() {
		return new(uint256.Int), nil
	}
	if p.dErr != nil {
		return nil, p.dErr
	}
	var c checked
	xpIn := c.mul(*rIn, *mIn)
	xpOut := c.mul(*rOut, *mOut)
	x := c.add(xpIn, c.mul(*amountIn, *mIn))
	if c.err != nil {
		return nil, c.err
	}
	y, err := stableY(x, p.d, p.amp)
	if err != nil {
		return nil, err
	}
	y1 := c.add(y, u(1))
	if c.err != nil {
		return nil, c.err
	}
	if !xpOut.Gt(&y1) {
		return new(uint256.Int), nil
	}
	dy := c.div(c.sub(xpOut, y1), *mOut)
	out := c.sub(dy, c.div(c.mul(dy, p.feeE10), u(stableFeeDenom)))
	if c.err != nil {
		return nil, c.err
	}
	return &out, nil
}

// stableD is StableSwapPool._getD: Newton's method for D from S = xp0 +
// xp1 with Ann = A × N, at most 255 rounds, stopping when two iterates
// differ by at most one (the last iterate is used without convergence).
func stableD(xp0, xp1, amp uint256.Int) (uint256.Int, error) {
	var c checked
	n := u(stableCoins)
	s := c.add(xp0, xp1)
	if c.err != nil || s.IsZero() {
		return uint256.Int{}, c.err
	}
	d := s
	ann := c.mul(amp, n)
	for i := 0; i < stableMaxIteration; i++ {
		dp := d
		dp = c.div(c.mul(dp, d), c.mul(xp0, n))
		dp = c.div(c.mul(dp, d), c.mul(xp1, n))
		prev := d
		num := c.mul(c.add(c.mul(ann, s), c.mul(dp, n)), d)
		den := c.add(c.mul(c.sub(ann, u(1)), d), c.mul(u(stableCoins+1), dp))
		d = c.div(num, den)
		if c.err != nil {
			return uint256.Int{}, c.err
		}
		if withinOne(&d, &prev) {
			break
		}
	}
	return d, nil
}

// stableY is StableSwapPool._getY: the output coin's balance y that keeps
// D when the input coin's balance is x.
func stableY(x, d, amp uint256.Int) (uint256.Int, error) {
	var c checked
	n := u(stableCoins)
	ann := c.mul(amp, n)
	cc := d
	cc = c.div(c.mul(cc, d), c.mul(x, n))
	cc = c.div(c.mul(cc, d), c.mul(ann, n))
	b := c.add(x, c.div(d, ann))
	y := d
	for i := 0; i < stableMaxIteration; i++ {
		prev := y
		y = c.div(c.add(c.mul(y, y), cc), c.sub(c.add(c.mul(u(2), y), b), d))
		if c.err != nil {
			return uint256.Int{}, c.err
		}
		if withinOne(&y, &prev) {
			break
		}
	}
	return y, nil
}

func withinOne(a, b *uint256.Int) bool {
	var diff uint256.Int
	if a.Gt(b) {
		diff.Sub(a, b)
	} else {
		diff.Sub(b, a)
	}
	return diff.LtUint64(2)
}

// stableSpotX128 is the fee-free marginal price of the x token in the y
// token, in raw units, from the implicit derivative of the invariant
// (Ann S + D = Ann D + D³/(4xy)):
//
//	dy/dx = (4 Ann x²y² + D³ y) / (4 Ann x²y² + D³ x)
//
// scaled by mulX/mulY to raw units. It is computed once per state change
// with big integers, since x²y² exceeds 256 bits.
func stableSpotX128(x, y, d, amp, mulX, mulY *uint256.Int) *uint256.Int {
	bx, by, bd := x.ToBig(), y.ToBig(), d.ToBig()
	ann := new(big.Int).Mul(amp.ToBig(), big.NewInt(stableCoins))
	xy2 := new(big.Int).Mul(bx, by)
	xy2.Mul(xy2, xy2)
	base := new(big.Int).Mul(xy2, ann)
	base.Lsh(base, 2)
	d3 := new(big.Int).Exp(bd, big.NewInt(3), nil)
	num := new(big.Int).Add(base, new(big.Int).Mul(d3, by))
	den := new(big.Int).Add(base, new(big.Int).Mul(d3, bx))
	num.Mul(num, mulX.ToBig())
	num.Lsh(num, 128)
	den.Mul(den, mulY.ToBig())
	q := num.Quo(num, den)
	z, overflow := uint256.FromBig(q)
	if overflow {
		return new(uint256.Int).SetAllOne()
	}
	return z
}

// stableFamily loads StableSwapPool state: getState() returns (token0,
// token1, reserve0, reserve1, A, fee, mult0, mult1).
type stableFamily struct{}

// Name implements Family.
func (stableFamily) Name() string { return FamilyStableSwap }

// StateCall implements Family.
func (stableFamily) StateCall() []byte { return []byte(selectorGetState) }

// Decode implements Family.
func (stableFamily) Decode(addr common.Address, ret []byte) (Pool, error) {
	w, err := words(ret, 8)
	if err != nil {
		return nil, err
	}
	if w[4].IsZero() || w[6].IsZero() || w[7].IsZero() {
		return nil, fmt.Errorf("routing: stableswap pool %s has a zero parameter", addr.Hex())
	}
	return NewStableSwapPoolState(addr, wordAddress(&w[0]), wordAddress(&w[1]), &w[2], &w[3], &w[4], &w[5], &w[6], &w[7]), nil
}
