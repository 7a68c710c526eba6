package routing

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// Suggestion kinds.
const (
	// SuggestVenueSplit says the best route already splits across venues
	// and by how much that beats the best single path.
	SuggestVenueSplit = "venue_split"
	// SuggestChunks proposes N sequential chunks (for example a DCA
	// order), each small enough to stay under the impact threshold.
	SuggestChunks = "chunks"
)

// Suggestion is advice for an order whose price impact exceeds the
// configured threshold.
type Suggestion struct {
	Kind string
	// Chunks, ChunkAmountIn, ChunkAmountOut and ChunkImpactPpm describe a
	// chunks suggestion: each chunk priced on today's state (it assumes
	// arbitrage restores prices between chunks).
	Chunks         int
	ChunkAmountIn  *uint256.Int
	ChunkAmountOut *uint256.Int
	ChunkImpactPpm uint32
	// Paths and GainPpm describe a venue split: how many disjoint paths,
	// and the extra output over the best single path in ppm.
	Paths   int
	GainPpm uint32
	// Message says the same for people.
	Message string
}

// maxChunks bounds the chunk counts tried (2, 4, 8, ... maxChunks).
const maxChunks = 64

// suggest builds the suggestions for a high-impact route: the venue split
// it already uses (if any), and the smallest power-of-two number of chunks
// whose per-chunk impact is within the threshold (or maxChunks).
func (c *search) suggest(best *Route) []Suggestion {
	var out []Suggestion
	if len(best.Paths) > 1 {
		single := new(uint256.Int)
		if paths := c.candidatePaths(); len(paths) > 0 {
			single = paths[0].out
		}
		gain := uint32(0)
		if best.AmountOut.Gt(single) && !single.IsZero() {
			d := new(uint256.Int).Sub(best.AmountOut, single)
			g, _ := d.MulDivOverflow(d, uint256.NewInt(1_000_000), single)
			gain = uint32(min(g.Uint64(), 1_000_000))
		}
		out = append(out, Suggestion{Kind: SuggestVenueSplit, Paths: len(best.Paths), GainPpm: gain,
			Message: fmt.Sprintf("split across %d venues: +%d ppm over the best single venue", len(best.Paths), gain)})
	}
	for n := 2; n <= maxChunks; n *= 2 {
		r := c.scaledRoute(best, n)
		if r == nil {
			break
		}
		if r.PriceImpactPpm <= c.opts.ImpactSuggestPpm || n == maxChunks {
			out = append(out, Suggestion{Kind: SuggestChunks, Chunks: n, ChunkAmountIn: r.AmountIn,
				ChunkAmountOut: r.AmountOut, ChunkImpactPpm: r.PriceImpactPpm,
				Message: fmt.Sprintf("%d sequential chunks (e.g. a DCA order) of %s: %d ppm impact each at current prices",
					n, r.AmountIn.Dec(), r.PriceImpactPpm)})
			break
		}
	}
	return out
}

// scaledRoute prices one of n equal chunks of best along best's own paths
// and shares (each path's amount divided by n). Re-searching per chunk
// could only do better, so the chunk impact it reports is an upper bound,
// at a few simulations instead of a search per chunk count.
func (c *search) scaledRoute(best *Route, n int) *Route {
	chunk := new(uint256.Int).Div(c.amountIn, uint256.NewInt(uint64(n)))
	if chunk.IsZero() {
		return nil
	}
	paths := make([]*poolPath, len(best.Paths))
	amounts := make([]*uint256.Int, len(best.Paths))
	sum := new(uint256.Int)
	for k, p := range best.Paths {
		pp := &poolPath{tokens: []common.Address{p.Hops[0].TokenIn}, gas: p.Gas}
		for _, h := range p.Hops {
			pp.pools = append(pp.pools, c.snap.index[h.Pool])
			pp.tokens = append(pp.tokens, h.TokenOut)
		}
		paths[k] = pp
		amounts[k] = new(uint256.Int).Div(p.AmountIn, uint256.NewInt(uint64(n)))
		sum.Add(sum, amounts[k])
	}
	amounts[0].Add(amounts[0], new(uint256.Int).Sub(chunk, sum))
	cc := *c
	cc.amountIn = chunk
	return cc.buildRoute(paths, amounts)
}
