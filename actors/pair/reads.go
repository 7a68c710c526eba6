package pair

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// Reads for the order diagnostics (GET /v1/orders/{hash}): what a pair
// decides an order on, read outside the actors.

// Peak returns an order's trailing peak as last made durable (nil: none
// yet, the order has not been evaluated since its acceptance).
func (p *Pairs) Peak(h common.Hash) (*big.Int, error) { return loadPeak(p.opts.Store, h) }

// PriceAt returns the oracle price of a pair ("<tokenIn>-<tokenOut>", the
// PairKey) at block ref, as an evaluation at ref reads it: nil when an
// answer is missing or stale.
func (p *Pairs) PriceAt(ctx context.Context, ref BlockRef, pairKey string) *big.Int {
	t := &pairTick{}
	t.in, t.out, t.tokens = pairTokens(pairKey)
	return p.price(ctx, ref, t)
}
