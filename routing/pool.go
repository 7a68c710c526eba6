package routing

import (
	"errors"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// Errors a simulator returns where the on-chain pool would revert. Search
// treats them as "this path cannot carry the amount".
var (
	// ErrZeroAmount mirrors a pool's revert on a zero input.
	ErrZeroAmount = errors.New("routing: zero amount")
	// ErrNoLiquidity means a reserve is empty or the output would be zero.
	ErrNoLiquidity = errors.New("routing: no liquidity")
	// ErrOverflow mirrors Solidity's checked-arithmetic revert.
	ErrOverflow = errors.New("routing: arithmetic overflow")
	// ErrWrongToken means tokenIn is not one of the pool's tokens.
	ErrWrongToken = errors.New("routing: token not in pool")
	// ErrNoConvergence mirrors a StableSwap Newton loop that does not
	// converge within its iteration bound.
	ErrNoConvergence = errors.New("routing: invariant did not converge")
)

// Pool is the state of one two-token venue at one block together with its
// family's simulator. Implementations are immutable: a state change makes a
// new value (WithReserves), so a snapshot can be read by many goroutines
// without locks.
type Pool interface {
	// Address is the pool contract.
	Address() common.Address
	// Family is the venue family name ("cpmm", "stableswap"), the value of
	// the route call's exclude parameter.
	Family() string
	// Tokens are the pool's token0 and token1.
	Tokens() (token0, token1 common.Address)
	// Reserves are the balances the pool's last Sync event reported.
	Reserves() (reserve0, reserve1 *uint256.Int)
	// AmountOut is the pool's getAmountOut(tokenIn, amountIn) to the wei,
	// or the error matching the on-chain revert.
	AmountOut(tokenIn common.Address, amountIn *uint256.Int) (*uint256.Int, error)
	// SpotX128 is the fee-free marginal price of tokenIn in tokenOut (raw
	// units per raw unit) as a 128.128 fixed-point number; zero when the
	// pool is empty or tokenIn is not in the pool.
	SpotX128(tokenIn common.Address) *uint256.Int
	// WithReserves returns the pool with new reserves, as after a Sync.
	WithReserves(reserve0, reserve1 *uint256.Int) Pool
}

// x128 returns 2^128, the unit of the fixed-point prices.
func x128() *uint256.Int {
	one := uint256.Int{0, 0, 1, 0}
	return &one
}

// ratioX128 returns num/den as 128.128 fixed point, saturating at the
// largest value on overflow and zero when den is zero.
func ratioX128(num, den *uint256.Int) *uint256.Int {
	if den.IsZero() {
		return new(uint256.Int)
	}
	z, overflow := new(uint256.Int).MulDivOverflow(num, x128(), den)
	if overflow {
		return new(uint256.Int).SetAllOne()
	}
	return z
}

// mulX128 returns a × b / 2^128 (floor), saturating at the largest value on
// overflow. It splits both factors into 128-bit halves so that every
// partial product fits 256 bits and no division is needed:
//
//	a × b / 2^128 = aH bH 2^128 + aH bL + aL bH + aL bL / 2^128
func mulX128(a, b *uint256.Int) *uint256.Int {
	aH, aL := uint256.Int{a[2], a[3], 0, 0}, uint256.Int{a[0], a[1], 0, 0}
	bH, bL := uint256.Int{b[2], b[3], 0, 0}, uint256.Int{b[0], b[1], 0, 0}
	var z, t uint256.Int
	z.Mul(&aL, &bL)
	z.Rsh(&z, 128)
	t.Mul(&aH, &bL)
	if _, o := z.AddOverflow(&z, &t); o {
		return new(uint256.Int).SetAllOne()
	}
	t.Mul(&aL, &bH)
	if _, o := z.AddOverflow(&z, &t); o {
		return new(uint256.Int).SetAllOne()
	}
	t.Mul(&aH, &bH)
	if t[2] != 0 || t[3] != 0 {
		return new(uint256.Int).SetAllOne()
	}
	t.Lsh(&t, 128)
	if _, o := z.AddOverflow(&z, &t); o {
		return new(uint256.Int).SetAllOne()
	}
	return &z
}

// applyX128 converts amount by a 128.128 price (floor), saturating on
// overflow.
func applyX128(amount, priceX128 *uint256.Int) *uint256.Int {
	return mulX128(amount, priceX128)
}
