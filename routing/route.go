package routing

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// FamilyMixed labels a route whose paths use more than one venue family.
const FamilyMixed = "mixed"

// Hop is one pool swap on a path, with the amounts the simulators predict.
type Hop struct {
	Pool      common.Address
	Family    string
	TokenIn   common.Address
	TokenOut  common.Address
	AmountIn  *uint256.Int
	AmountOut *uint256.Int
}

// Path is one leg of a route: a chain of hops from tokenIn to tokenOut
// that receives SharePpm of the route's amountIn.
type Path struct {
	Hops      []Hop
	AmountIn  *uint256.Int
	AmountOut *uint256.Int
	SharePpm  uint32
	Gas       uint64
}

// Route is an executable way to swap AmountIn of TokenIn: one or more
// pool-disjoint paths, priced at Block. AmountOut is the gross output the
// executor receives, before the router's fee legs.
type Route struct {
	Block    uint64
	TokenIn  common.Address
	TokenOut common.Address
	AmountIn *uint256.Int
	Paths    []Path
	// AmountOut is the simulated gross output (sum of the paths).
	AmountOut *uint256.Int
	// Gas is the route's estimated gas; GasCostOut is that gas at the
	// configured gas price, converted to tokenOut through mid prices.
	Gas        uint64
	GasCostOut *uint256.Int
	// PriceImpactPpm is 1 − AmountOut / (AmountIn × market mid price), in
	// ppm; it includes pool fees (the mid price is fee-free).
	PriceImpactPpm uint32
	// Family is the venue family of every hop, or FamilyMixed.
	Family string
}

// NetOfGas is the route's output minus its gas cost in tokenOut (zero when
// gas costs more than the output): the value route search maximises.
func (r *Route) NetOfGas() *uint256.Int {
	z := new(uint256.Int)
	if r.AmountOut.Gt(r.GasCostOut) {
		z.Sub(r.AmountOut, r.GasCostOut)
	}
	return z
}

// Better reports whether r beats o: a higher output net of gas, then (when
// gas swallows both, as for dust amounts) a higher gross output, then fewer
// paths.
func (r *Route) Better(o *Route) bool {
	if c := r.NetOfGas().Cmp(o.NetOfGas()); c != 0 {
		return c > 0
	}
	if c := r.AmountOut.Cmp(o.AmountOut); c != 0 {
		return c > 0
	}
	return len(r.Paths) < len(o.Paths)
}

// Families returns the venue families the route uses, in path order.
func (r *Route) Families() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range r.Paths {
		for _, h := range p.Hops {
			if !seen[h.Family] {
				seen[h.Family] = true
				out = append(out, h.Family)
			}
		}
	}
	return out
}

// buildRoute simulates each path at its amount, recording every hop, and
// prices the whole: gross output, gas, gas cost in tokenOut, impact and
// family. Paths with a zero amount are left out. It returns nil when a
// path fails at its amount.
func (c *search) buildRoute(paths []*poolPath, amounts []*uint256.Int) *Route {
	r := &Route{
		Block: c.snap.Block(), TokenIn: c.tokenIn, TokenOut: c.tokenOut,
		AmountIn: new(uint256.Int).Set(c.amountIn), AmountOut: new(uint256.Int),
		Gas: c.opts.GasBase,
	}
	for k, pp := range paths {
		if amounts[k].IsZero() {
			continue
		}
		path := Path{AmountIn: new(uint256.Int).Set(amounts[k]), Gas: pp.gas}
		amt := amounts[k]
		for h, pi := range pp.pools {
			pool := c.snap.pools[pi]
			out, err := c.swap(pi, pp.tokens[h], amt)
			if err != nil {
				return nil
			}
			path.Hops = append(path.Hops, Hop{
				Pool: pool.Address(), Family: pool.Family(),
				TokenIn: pp.tokens[h], TokenOut: pp.tokens[h+1],
				AmountIn: amt, AmountOut: out,
			})
			amt = out
		}
		path.AmountOut = amt
		share, _ := new(uint256.Int).MulDivOverflow(amounts[k], uint256.NewInt(1_000_000), c.amountIn)
		path.SharePpm = uint32(share.Uint64())
		r.Paths = append(r.Paths, path)
		r.AmountOut.Add(r.AmountOut, amt)
		r.Gas += pp.gas
	}
	r.GasCostOut = c.gasCost(r.Gas)
	r.PriceImpactPpm = impactPpm(r.AmountIn, r.AmountOut, c.mid)
	fams := r.Families()
	r.Family = FamilyMixed
	if len(fams) == 1 {
		r.Family = fams[0]
	}
	return r
}
