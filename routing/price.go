package routing

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// midPrice is the market mid price along seqs: for each token sequence the
// product of the best fee-free spot price per hop, and the best sequence.
// Every route's output is at most amountIn times this price, so price
// impact is never negative (up to rounding, which is clamped).
func (c *search) midPrice(seqs [][]common.Address) *uint256.Int {
	best := new(uint256.Int)
	for _, seq := range seqs {
		p := x128()
		for h := 0; h+1 < len(seq) && !p.IsZero(); h++ {
			p = mulX128(p, c.bestSpot(seq[h], seq[h+1]))
		}
		if p.Gt(best) {
			best = p
		}
	}
	return best
}

// bestSpot is the highest spot price of in in out among allowed pools.
func (c *search) bestSpot(in, out common.Address) *uint256.Int {
	best := new(uint256.Int)
	for _, i := range c.snap.pairPools(in, out) {
		p := c.snap.pools[i]
		if !c.allowed(p.Family()) {
			continue
		}
		if s := p.SpotX128(in); s.Gt(best) {
			best = s
		}
	}
	return best
}

// gasPriceInOut is the price of one gas unit in tokenOut (128.128): the
// configured gas price times the mid price of the native token in tokenOut.
// It is zero when the native token is unset or has no path to tokenOut, so
// gas then plays no part in the choice.
func (c *search) gasPriceInOut() *uint256.Int {
	wei := uint256.NewInt(c.opts.GasPriceWei)
	if c.tokenOut == c.opts.Native {
		return new(uint256.Int).Lsh(wei, 128)
	}
	if c.opts.Native == (common.Address{}) || !c.snap.HasToken(c.opts.Native) {
		return new(uint256.Int)
	}
	nativeMid := c.midPrice(tokenSequences(c.snap, c.opts, c.opts.Native, c.tokenOut))
	z, overflow := new(uint256.Int).MulOverflow(nativeMid, wei)
	if overflow {
		return new(uint256.Int).SetAllOne()
	}
	return z
}

// hopGas is the configured gas of one leg of family.
func (o *Options) hopGas(family string) uint64 {
	if g, ok := o.GasPerHop[family]; ok {
		return g
	}
	return o.GasPerHopDefault
}

// gasCost converts gas to tokenOut units.
func (c *search) gasCost(gas uint64) *uint256.Int {
	return applyX128(uint256.NewInt(gas), c.gasPrice)
}

// impactPpm is 1 − out / (amountIn × mid) in ppm, clamped to [0, 1e6].
func impactPpm(amountIn, out, midX128 *uint256.Int) uint32 {
	ideal := applyX128(amountIn, midX128)
	if ideal.IsZero() || !ideal.Gt(out) {
		return 0
	}
	var diff uint256.Int
	diff.Sub(ideal, out)
	z, overflow := new(uint256.Int).MulDivOverflow(&diff, uint256.NewInt(1_000_000), ideal)
	if overflow || z.GtUint64(1_000_000) {
		return 1_000_000
	}
	return uint32(z.Uint64())
}

// QuoteAmount converts amount of a token at a 128.128 price (floor).
func QuoteAmount(amount, priceX128 *uint256.Int) *uint256.Int { return applyX128(amount, priceX128) }
