package routing

import (
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

// StableSwapPool is a 2-coin StableSwap pool (StableSwapPool.sol):
// balances are normalised to 18 decimals by each token's rate multiplier,
// D and y are found with the Newton iterations of the Solidity source, and
// the fee (1e10 units) is taken from the output.
type StableSwapPool struct {
	addr           common.Address
	token0, token1 common.Address
	r0, r1         uint256.Int
	amp            uint256.Int // A as stored by the pool
	feeE10         uint256.Int
	mul0, mul1     uint256.Int // 10^(18 − decimals)
	d              uint256.Int // invariant at (r0, r1); zero when empty
	dErr           error
	spot01, spot10 uint256.Int
}

// NewStableSwapPool returns a StableSwap pool with the given balances,
// amplification A, fee (1e10 units) and token decimals (at most 18).
func NewStableSwapPool(addr, token0, token1 common.Address, reserve0, reserve1 *uint256.Int,
	amp, feeE10 uint64, decimals0, decimals1 uint8) *StableSwapPool {
	p := &StableSwapPool{addr: addr, token0: token0, token1: token1}
	p.amp.SetUint64(amp)
	p.feeE10.SetUint64(feeE10)
	p.mul0.Exp(uint256.NewInt(10), uint256.NewInt(uint64(18-decimals0)))
	p.mul1.Exp(uint256.NewInt(10), uint256.NewInt(uint64(18-decimals1)))
	p.setReserves(reserve0, reserve1)
	return p
}

func (p *StableSwapPool) setReserves(r0, r1 *uint256.Int) {
	p.r0.Set(r0)
	p.r1.Set(r1)
	var x0, x1 uint256.Int
	_, o0 := x0.MulOverflow(r0, &p.mul0)
	_, o1 := x1.MulOverflow(r1, &p.mul1)
	p.d.Clear()
	p.dErr = nil
	if o0 || o1 {
		p.dErr = ErrOverflow
	} else if d, err := stableD(&x0, &x1, &p.amp); err != nil {
		p.dErr = err
	} else {
		p.d.Set(d)
	}
	p.spot01.Clear()
	p.spot10.Clear()
	if p.dErr == nil && !x0.IsZero() && !x1.IsZero() {
		p.spot01.Set(stableSpotX128(&x0, &x1, &p.d, &p.amp, &p.mul0, &p.mul1))
		p.spot10.Set(stableSpotX128(&x1, &x0, &p.d, &p.amp, &p.mul1, &p.mul0))
	}
}

// Address implements Pool.
func (p *StableSwapPool) Address() common.Address { return p.addr }

// Family implements Pool.
func (p *StableSwapPool) Family() string { return FamilyStableSwap }

// Tokens implements Pool.
func (p *StableSwapPool) Tokens() (common.Address, common.Address) { return p.token0, p.token1 }

// Reserves implements Pool.
func (p *StableSwapPool) Reserves() (*uint256.Int, *uint256.Int) {
	return new(uint256.Int).Set(&p.r0), new(uint256.Int).Set(&p.r1)
}

// WithReserves implements Pool.
func (p *StableSwapPool) WithReserves(r0, r1 *uint256.Int) Pool {
	q := *p
	q.setReserves(r0, r1)
	return &q
}

// SpotX128 implements Pool.
func (p *StableSwapPool) SpotX128(tokenIn common.Address) *uint256.Int {
	switch tokenIn {
	case p.token0:
		return new(uint256.Int).Set(&p.spot01)
	case p.token1:
		return new(uint256.Int).Set(&p.spot10)
	}
	return new(uint256.Int)
}

// AmountOut implements Pool.
func (p *StableSwapPool) AmountOut(tokenIn common.Address, amountIn *uint256.Int) (*uint256.Int, error) {
	var bIn, bOut, mulIn, mulOut *uint256.Int
	switch tokenIn {
	case p.token0:
		bIn, bOut, mulIn, mulOut = &p.r0, &p.r1, &p.mul0, &p.mul1
	case p.token1:
		bIn, bOut, mulIn, mulOut = &p.r1, &p.r0, &p.mul1, &p.mul0
	default:
		return nil, ErrWrongToken
	}
	if amountIn.IsZero() {
		return nil, ErrZeroAmount
	}
	if p.dErr != nil {
		return nil, p.dErr
	}
	if bIn.IsZero() || bOut.IsZero() {
		return nil, ErrNoLiquidity
	}
	var xIn, xOut, dx, x uint256.Int
	xIn.Mul(bIn, mulIn) // cannot overflow: checked when D was computed
	xOut.Mul(bOut, mulOut)
	if _, o := dx.MulOverflow(amountIn, mulIn); o {
		return nil, ErrOverflow
	}
	if _, o := x.AddOverflow(&xIn, &dx); o {
		return nil, ErrOverflow
	}
	y, err := stableY(&x, &p.d, &p.amp)
	if err != nil {
		return nil, err
	}
	var dy, fee uint256.Int
	if _, u := dy.SubOverflow(&xOut, y); u {
		return nil, ErrNoLiquidity
	}
	if _, u := dy.SubOverflow(&dy, uint256.NewInt(1)); u {
		return nil, ErrNoLiquidity
	}
	fee.Mul(&dy, &p.feeE10)
	fee.Div(&fee, uint256.NewInt(stableFeeDenom))
	dy.Sub(&dy, &fee)
	return new(uint256.Int).Div(&dy, mulOut), nil
}

// stableD solves the invariant for D by Newton's method, starting at
// S = x0 + x1, with Ann = A × n:
//
//	D_P = D³ / (n² x0 x1);  D = (Ann S + n D_P) D / ((Ann − 1) D + (n + 1) D_P)
//
// until two iterates differ by at most one.
func stableD(x0, x1, amp *uint256.Int) (*uint256.Int, error) {
	var s uint256.Int
	if _, o := s.AddOverflow(x0, x1); o {
		return nil, ErrOverflow
	}
	if s.IsZero() {
		return new(uint256.Int), nil
	}
	n := uint256.NewInt(stableCoins)
	var ann, annS, annM1 uint256.Int
	ann.Mul(amp, n)
	if _, o := annS.MulOverflow(&ann, &s); o {
		return nil, ErrOverflow
	}
	annM1.Sub(&ann, uint256.NewInt(1))
	d := new(uint256.Int).Set(&s)
	var dp, prev, t, num, den uint256.Int
	for i := 0; i < stableMaxIteration; i++ {
		dp.Set(d)
		for _, x := range [2]*uint256.Int{x0, x1} {
			if _, o := t.MulOverflow(&dp, d); o {
				return nil, ErrOverflow
			}
			var xn uint256.Int
			xn.Mul(x, n)
			dp.Div(&t, &xn)
		}
		prev.Set(d)
		t.Mul(&dp, n)
		if _, o := num.AddOverflow(&annS, &t); o {
			return nil, ErrOverflow
		}
		if _, o := num.MulOverflow(&num, d); o {
			return nil, ErrOverflow
		}
		if _, o := den.MulOverflow(&annM1, d); o {
			return nil, ErrOverflow
		}
		t.Mul(&dp, uint256.NewInt(stableCoins+1))
		den.Add(&den, &t)
		d.Div(&num, &den)
		if withinOne(d, &prev) {
			return d, nil
		}
	}
	return nil, ErrNoConvergence
}

// stableY solves the invariant for the other balance y given the new
// balance x and D:
//
//	c = D³ / (n² x Ann);  b = x + D / Ann;  y = (y² + c) / (2y + b − D)
//
// starting at y = D, until two iterates differ by at most one.
func stableY(x, d, amp *uint256.Int) (*uint256.Int, error) {
	n := uint256.NewInt(stableCoins)
	var ann, c, t, b uint256.Int
	ann.Mul(amp, n)
	c.Set(d)
	t.Mul(x, n)
	if _, o := c.MulOverflow(&c, d); o {
		return nil, ErrOverflow
	}
	c.Div(&c, &t)
	if _, o := c.MulOverflow(&c, d); o {
		return nil, ErrOverflow
	}
	t.Mul(&ann, n)
	c.Div(&c, &t)
	b.Div(d, &ann)
	b.Add(&b, x)
	y := new(uint256.Int).Set(d)
	var prev, num, den uint256.Int
	for i := 0; i < stableMaxIteration; i++ {
		prev.Set(y)
		if _, o := num.MulOverflow(y, y); o {
			return nil, ErrOverflow
		}
		num.Add(&num, &c)
		den.Lsh(y, 1)
		den.Add(&den, &b)
		if _, u := den.SubOverflow(&den, d); u || den.IsZero() {
			return nil, ErrNoLiquidity
		}
		y.Div(&num, &den)
		if withinOne(y, &prev) {
			return y, nil
		}
	}
	return nil, ErrNoConvergence
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
