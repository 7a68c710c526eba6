package routing

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// FamilyCPMM is the constant-product venue family.
const FamilyCPMM = "cpmm"

// feeDenominatorPpm is the unit of the constant-product fee tier.
const feeDenominatorPpm = 1_000_000

// CPMMPool is a constant-product pool (ConstantProductPool.sol) with a fee
// tier in ppm. Its AmountOut is
//
//	out = in × (1e6 − fee) × rOut / (rIn × 1e6 + in × (1e6 − fee))   (floor)
//
// computed in the same order and with the same checked 256-bit arithmetic
// as the contract.
type CPMMPool struct {
	twoToken
	feePpm uint64
}

// NewCPMMPool returns a constant-product pool with the given reserves and
// fee tier (ppm, below 1e6).
func NewCPMMPool(addr, token0, token1 common.Address, reserve0, reserve1 *uint256.Int, feePpm uint64) *CPMMPool {
	p := &CPMMPool{twoToken: twoToken{addr: addr, token0: token0, token1: token1}, feePpm: feePpm}
	p.setReserves(reserve0, reserve1)
	return p
}

func (p *CPMMPool) setReserves(r0, r1 *uint256.Int) {
	p.r0.Set(r0)
	p.r1.Set(r1)
	p.spot01.Set(ratioX128(r1, r0))
	p.spot10.Set(ratioX128(r0, r1))
}

// Family implements Pool.
func (p *CPMMPool) Family() string { return FamilyCPMM }

// FeePpm is the pool's fee tier.
func (p *CPMMPool) FeePpm() uint64 { return p.feePpm }

// WithReserves implements Pool.
func (p *CPMMPool) WithReserves(r0, r1 *uint256.Int) Pool {
	q := *p
	q.setReserves(r0, r1)
	return &q
}

// AmountOut implements Pool: TwoTokenPool.getAmountOut with
// ConstantProductPool._amountOut, every product checked like Solidity 0.8.
func (p *CPMMPool) AmountOut(tokenIn common.Address, amountIn *uint256.Int) (*uint256.Int, error) {
	rIn, rOut, _, err := p.sides(tokenIn)
	if err != nil {
		return nil, err
	}
	if amountIn.IsZero() || rIn.IsZero() || rOut.IsZero() {
		return new(uint256.Int), nil // getAmountOut answers 0
	}
	var inWithFee, num, den uint256.Int
	if _, o := inWithFee.MulOverflow(amountIn, uint256.NewInt(feeDenominatorPpm-p.feePpm)); o {
		return nil, ErrOverflow
	}
	if _, o := num.MulOverflow(&inWithFee, rOut); o {
		return nil, ErrOverflow
	}
	if _, o := den.MulOverflow(rIn, uint256.NewInt(feeDenominatorPpm)); o {
		return nil, ErrOverflow
	}
	if _, o := den.AddOverflow(&den, &inWithFee); o {
		return nil, ErrOverflow
	}
	out := num.Div(&num, &den)
	return new(uint256.Int).Set(out), nil
}

// cpmmFamily loads ConstantProductPool state: getState() returns
// (token0, token1, reserve0, reserve1, feePpm).
type cpmmFamily struct{}

// Name implements Family.
func (cpmmFamily) Name() string { return FamilyCPMM }

// StateCall implements Family.
func (cpmmFamily) StateCall() []byte { return []byte(selectorGetState) }

// Decode implements Family.
func (cpmmFamily) Decode(addr common.Address, ret []byte) (Pool, error) {
	w, err := words(ret, 5)
	if err != nil {
		return nil, err
	}
	if !w[4].LtUint64(feeDenominatorPpm) {
		return nil, fmt.Errorf("routing: cpmm pool %s fee %s ppm out of range", addr.Hex(), w[4].Dec())
	}
	return NewCPMMPool(addr, wordAddress(&w[0]), wordAddress(&w[1]), &w[2], &w[3], w[4].Uint64()), nil
}
