package routing

import (
	"errors"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// Errors a simulator returns where the on-chain getAmountOut reverts.
// Where it answers 0 (zero input, empty reserve, no output) the simulator
// answers 0 too; search treats a zero output as ErrNoLiquidity, since the
// pool's swap reverts on it.
var (
	// ErrNoLiquidity means the pool would give nothing for the amount
	// (its swap reverts with OutputTooLow).
	ErrNoLiquidity = errors.New("routing: no liquidity")
	// ErrOverflow mirrors Solidity's checked-arithmetic and division-by-zero
	// panics.
	ErrOverflow = errors.New("routing: arithmetic overflow")
	// ErrWrongToken means tokenIn is not one of the pool's tokens
	// (UnknownToken).
	ErrWrongToken = errors.New("routing: token not in pool")
)

// swapOut is what a swap of amountIn through p gives: AmountOut, with a zero
// output turned into ErrNoLiquidity.
func swapOut(p Pool, tokenIn common.Address, amountIn *uint256.Int) (*uint256.Int, error) {
	out, err := p.AmountOut(tokenIn, amountIn)
	if err != nil {
		return nil, err
	}
	if out.IsZero() {
		return nil, ErrNoLiquidity
	}
	return out, nil
}

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
	// AmountOut is the pool's getAmountOut(tokenIn, amountIn) to the wei
	// (including its zero answers), or the error matching the on-chain
	// revert.
	AmountOut(tokenIn common.Address, amountIn *uint256.Int) (*uint256.Int, error)
	// SpotX128 is the fee-free marginal price of tokenIn in tokenOut (raw
	// units per raw unit) as a 128.128 fixed-point number; zero when the
	// pool is empty or tokenIn is not in the pool.
	SpotX128(tokenIn common.Address) *uint256.Int
	// WithReserves returns the pool with new reserves, as after a Sync.
	WithReserves(reserve0, reserve1 *uint256.Int) Pool
}

// twoToken is the state every two-token pool shares (TwoTokenPool.sol):
// address, tokens, tracked reserves and the fee-free spot prices the
// family computed for them, with the Pool methods that only read it. A
// family embeds it and adds Family, AmountOut and WithReserves.
type twoToken struct {
	addr           common.Address
	token0, token1 common.Address
	r0, r1         uint256.Int
	spot01, spot10 uint256.Int // 128.128, token0 in token1 and back
}

// Address implements Pool.
func (p *twoToken) Address() common.Address { return p.addr }

// Tokens implements Pool.
func (p *twoToken) Tokens() (common.Address, common.Address) { return p.token0, p.token1 }

// Reserves implements Pool.
func (p *twoToken) Reserves() (*uint256.Int, *uint256.Int) {
	return new(uint256.Int).Set(&p.r0), new(uint256.Int).Set(&p.r1)
}

// SpotX128 implements Pool.
func (p *twoToken) SpotX128(tokenIn common.Address) *uint256.Int {
	switch tokenIn {
	case p.token0:
		return new(uint256.Int).Set(&p.spot01)
	case p.token1:
		return new(uint256.Int).Set(&p.spot10)
	}
	return new(uint256.Int)
}

// sides returns the input and output reserves for tokenIn and whether
// tokenIn is token0; ErrWrongToken (the contract's UnknownToken) when it is
// neither token.
func (p *twoToken) sides(tokenIn common.Address) (rIn, rOut *uint256.Int, zeroForOne bool, err error) {
	switch tokenIn {
	case p.token0:
		return &p.r0, &p.r1, true, nil
	case p.token1:
		return &p.r1, &p.r0, false, nil
	}
	return nil, nil, false, ErrWrongToken
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
