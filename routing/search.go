package routing

import (
	"sort"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	oe "github.com/orderengine/orderengine"
)

// Options are the route-search parameters, resolved from
// config.RoutingConfig (token symbols already turned into addresses).
type Options struct {
	// Connectors are the tokens multi-hop paths may pass through.
	Connectors []common.Address
	// MaxHops bounds the pools on a path (1..3).
	MaxHops int
	// SplitStepPpm is the share of amountIn moved per splitter step.
	SplitStepPpm uint32
	// MaxSplitPaths bounds the pool-disjoint paths of one route.
	MaxSplitPaths int
	// Native is the wrapped native token gas is priced in.
	Native common.Address
	// GasPriceWei, GasBase, GasPerHop and GasPerHopDefault are the gas
	// model: GasBase + Σ GasPerHop[family] per route, at GasPriceWei.
	GasPriceWei      uint64
	GasBase          uint64
	GasPerHop        map[string]uint64
	GasPerHopDefault uint64
	// ImpactSuggestPpm is the impact above which split suggestions are
	// attached to a result.
	ImpactSuggestPpm uint32
}

// Request is one route search.
type Request struct {
	TokenIn  common.Address
	TokenOut common.Address
	AmountIn *uint256.Int
	// Exclude names venue families that may not be used.
	Exclude []string
}

// Result is the outcome of a search at one block.
type Result struct {
	Block uint64
	// Best is the route with the highest output net of gas.
	Best *Route
	// Candidates are Best followed by the best route of each other venue
	// family (single-family routes), ordered by output net of gas.
	Candidates []*Route
	// MidPriceX128 is the market mid price of tokenIn in tokenOut (raw
	// units, 128.128 fixed point) that price impact is measured against.
	MidPriceX128 *uint256.Int
	// Suggestions are attached when Best's impact exceeds the threshold.
	Suggestions []Suggestion
}

// Searcher finds routes on snapshots. It holds only its options and is
// safe for concurrent use.
type Searcher struct {
	opts Options
}

// NewSearcher returns a Searcher. Zero options take the configuration
// defaults (3 hops, 5 % steps, 4 split paths).
func NewSearcher(opts Options) *Searcher {
	if opts.MaxHops <= 0 || opts.MaxHops > 3 {
		opts.MaxHops = 3
	}
	if opts.SplitStepPpm == 0 || opts.SplitStepPpm > 1_000_000 {
		opts.SplitStepPpm = 50_000
	}
	if opts.MaxSplitPaths <= 0 {
		opts.MaxSplitPaths = 4
	}
	return &Searcher{opts: opts}
}

// Options returns the searcher's options.
func (s *Searcher) Options() Options { return s.opts }

// Search finds the best route for req on snap, the best route of every
// other venue family, and split suggestions for high-impact amounts.
// Errors are *orderengine.Error: INVALID_REQUEST, NO_POOL (a token has no
// pool of an allowed family) or NO_ROUTE (no path carries the amount).
func (s *Searcher) Search(snap *Snapshot, req Request) (*Result, error) {
	c, err := s.newSearch(snap, req, nil)
	if err != nil {
		return nil, err
	}
	best := c.bestRoute()
	if best == nil {
		return nil, oe.Errorf(oe.CodeNoRoute, "no route carries %s of %s to %s", req.AmountIn.Dec(), req.TokenIn.Hex(), req.TokenOut.Hex())
	}
	routes := []*Route{best}
	for _, fam := range c.families {
		if best.Family == fam {
			continue
		}
		fc := *c
		fc.families = []string{fam}
		if r := fc.bestRoute(); r != nil {
			routes = append(routes, r)
		}
	}
	// The search per family is a different heuristic run: when one of them
	// finds a better route than the all-family run, it is the winner.
	sort.SliceStable(routes, func(i, j int) bool { return routes[i].Better(routes[j]) })
	best = routes[0]
	res := &Result{Block: snap.Block(), Best: best, MidPriceX128: c.mid, Candidates: routes}
	if best.PriceImpactPpm > s.opts.ImpactSuggestPpm {
		res.Suggestions = c.suggest(best)
	}
	return res, nil
}

// BestRoute is Search without candidates and suggestions: the single best
// route, for callers that need only the winner (chunk suggestions, quotes).
func (s *Searcher) BestRoute(snap *Snapshot, req Request) (*Route, error) {
	c, err := s.newSearch(snap, req, nil)
	if err != nil {
		return nil, err
	}
	if r := c.bestRoute(); r != nil {
		return r, nil
	}
	return nil, oe.Errorf(oe.CodeNoRoute, "no route carries %s of %s to %s", req.AmountIn.Dec(), req.TokenIn.Hex(), req.TokenOut.Hex())
}

// search is the state of one search: the request, the allowed families,
// the token sequences to try, the mid price and gas price in tokenOut.
type search struct {
	opts     *Options
	snap     *Snapshot
	tokenIn  common.Address
	tokenOut common.Address
	amountIn *uint256.Int
	families []string
	seqs     [][]common.Address
	mid      *uint256.Int // tokenIn → tokenOut, X128
	gasPrice *uint256.Int // tokenOut per gas unit, X128
	memo     map[swapKey]swapResult
}

// swapKey and swapResult memoise swap simulations within one search: the
// per-family runs, the splitter and the suggestions ask for the same pool
// and amount many times, and a StableSwap simulation costs microseconds.
type swapKey struct {
	pool    int
	tokenIn common.Address
	amount  uint256.Int
}

type swapResult struct {
	out *uint256.Int
	err error
}

// iterative is implemented by pools whose simulation iterates (StableSwap's
// Newton loops); only their results are worth memoising, a
// constant-product quote is cheaper than the map lookup.
type iterative interface{ Iterative() bool }

// swap is swapOut through pool index pi, memoised for iterative pools. A
// search runs on one goroutine, so the map needs no lock.
func (c *search) swap(pi int, tokenIn common.Address, amount *uint256.Int) (*uint256.Int, error) {
	pool := c.snap.pools[pi]
	if it, ok := pool.(iterative); !ok || !it.Iterative() {
		return swapOut(pool, tokenIn, amount)
	}
	k := swapKey{pool: pi, tokenIn: tokenIn, amount: *amount}
	if r, ok := c.memo[k]; ok {
		return r.out, r.err
	}
	out, err := swapOut(pool, tokenIn, amount)
	c.memo[k] = swapResult{out, err}
	return out, err
}

func (s *Searcher) newSearch(snap *Snapshot, req Request, families []string) (*search, error) {
	if req.AmountIn == nil || req.AmountIn.IsZero() {
		return nil, oe.Errorf(oe.CodeInvalidRequest, "amountIn must be a positive integer")
	}
	if req.TokenIn == req.TokenOut {
		return nil, oe.Errorf(oe.CodeInvalidRequest, "tokenIn and tokenOut must differ")
	}
	c := &search{opts: &s.opts, snap: snap, tokenIn: req.TokenIn, tokenOut: req.TokenOut, amountIn: req.AmountIn,
		memo: make(map[swapKey]swapResult)}
	c.families = families
	if c.families == nil {
		c.families = allowedFamilies(snap, req.Exclude)
	}
	for _, t := range []common.Address{req.TokenIn, req.TokenOut} {
		if !c.tokenHasPool(t) {
			return nil, oe.Errorf(oe.CodeNoPool, "no pool of an allowed venue family holds %s", t.Hex())
		}
	}
	c.seqs = tokenSequences(snap, &s.opts, req.TokenIn, req.TokenOut)
	c.mid = c.midPrice(c.seqs)
	c.gasPrice = c.gasPriceInOut()
	return c, nil
}

// allowedFamilies lists the snapshot's families minus exclude, sorted.
func allowedFamilies(snap *Snapshot, exclude []string) []string {
	var out []string
	for fam := range snap.fams {
		drop := false
		for _, e := range exclude {
			if e == fam {
				drop = true
			}
		}
		if !drop {
			out = append(out, fam)
		}
	}
	sort.Strings(out)
	return out
}

func (c *search) allowed(family string) bool {
	for _, f := range c.families {
		if f == family {
			return true
		}
	}
	return false
}

func (c *search) tokenHasPool(t common.Address) bool {
	for _, i := range c.snap.adj[t] {
		if c.allowed(c.snap.pools[i].Family()) {
			return true
		}
	}
	return false
}

// tokenSequences lists the token paths from in to out: direct, through one
// connector, and through two distinct connectors, bounded by MaxHops.
func tokenSequences(snap *Snapshot, opts *Options, in, out common.Address) [][]common.Address {
	var conns []common.Address
	for _, c := range opts.Connectors {
		if c != in && c != out && snap.HasToken(c) {
			conns = append(conns, c)
		}
	}
	seqs := [][]common.Address{{in, out}}
	if opts.MaxHops >= 2 {
		for _, c := range conns {
			seqs = append(seqs, []common.Address{in, c, out})
		}
	}
	if opts.MaxHops >= 3 {
		for _, c1 := range conns {
			for _, c2 := range conns {
				if c1 != c2 {
					seqs = append(seqs, []common.Address{in, c1, c2, out})
				}
			}
		}
	}
	return seqs
}
