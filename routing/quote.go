package routing

import (
	"sort"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	oe "github.com/orderengine/orderengine"
)

// VenueQuote is one venue's indicative output for the whole amount: a
// single pool, or the best pool per hop through connector tokens.
type VenueQuote struct {
	Family         string
	Pools          []common.Address
	Tokens         []common.Address
	AmountOut      *uint256.Int
	PriceImpactPpm uint32
	Gas            uint64
}

// Quote lists every allowed direct pool and the best path of every
// multi-hop token sequence for req, each with its gross output and price
// impact against the market mid price, best output first. It simulates in
// Go only (no splits, no eth_call).
func (s *Searcher) Quote(snap *Snapshot, req Request) ([]VenueQuote, *uint256.Int, error) {
	c, err := s.newSearch(snap, req, nil)
	if err != nil {
		return nil, nil, err
	}
	var out []VenueQuote
	for _, pp := range c.candidatePaths() {
		q := VenueQuote{AmountOut: pp.out, Tokens: pp.tokens, Gas: pp.gas, PriceImpactPpm: impactPpm(c.amountIn, pp.out, c.mid)}
		fams := map[string]bool{}
		for _, pi := range pp.pools {
			p := c.snap.pools[pi]
			q.Pools = append(q.Pools, p.Address())
			fams[p.Family()] = true
			q.Family = p.Family()
		}
		if len(fams) > 1 {
			q.Family = FamilyMixed
		}
		out = append(out, q)
	}
	if len(out) == 0 {
		return nil, nil, oe.Errorf(oe.CodeNoRoute, "no venue carries %s of %s to %s", req.AmountIn.Dec(), req.TokenIn.Hex(), req.TokenOut.Hex())
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].AmountOut.Gt(out[j].AmountOut) })
	return out, c.mid, nil
}

// Spot is the fee-free price of tokenIn in tokenOut from cached state only:
// the best direct pool's marginal price, or the market mid price through
// connectors when no pool holds the pair. venue names the direct pool's
// family, or "multi-hop".
func (s *Searcher) Spot(snap *Snapshot, tokenIn, tokenOut common.Address) (priceX128 *uint256.Int, venue string, err error) {
	if tokenIn == tokenOut {
		return nil, "", oe.Errorf(oe.CodeInvalidRequest, "tokenOut must differ from tokenIn")
	}
	if !snap.HasToken(tokenIn) || !snap.HasToken(tokenOut) {
		return nil, "", oe.Errorf(oe.CodeNoPool, "no pool holds %s or %s", tokenIn.Hex(), tokenOut.Hex())
	}
	best := new(uint256.Int)
	for _, i := range snap.pairPools(tokenIn, tokenOut) {
		p := snap.pools[i]
		if sp := p.SpotX128(tokenIn); sp.Gt(best) {
			best, venue = sp, p.Family()
		}
	}
	if !best.IsZero() {
		return best, venue, nil
	}
	c := &search{opts: &s.opts, snap: snap, tokenIn: tokenIn, tokenOut: tokenOut, families: allowedFamilies(snap, nil)}
	best = c.midPrice(tokenSequences(snap, &s.opts, tokenIn, tokenOut))
	if best.IsZero() {
		return nil, "", oe.Errorf(oe.CodeNoRoute, "no path prices %s in %s", tokenIn.Hex(), tokenOut.Hex())
	}
	return best, "multi-hop", nil
}
