package routing

import (
	"sort"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// poolPath is a candidate path: its tokens, the pool chosen for each hop,
// its gas, and its output for the whole amount.
type poolPath struct {
	tokens []common.Address
	pools  []int
	gas    uint64
	out    *uint256.Int
	net    *uint256.Int
}

// simulate runs amount through the path's pools.
func (c *search) simulate(pp *poolPath, amount *uint256.Int) (*uint256.Int, error) {
	amt := amount
	for h, pi := range pp.pools {
		out, err := c.swap(pi, pp.tokens[h], amt)
		if err != nil {
			return nil, err
		}
		amt = out
	}
	return amt, nil
}

// candidatePaths lists every allowed direct pool as its own path and, per
// multi-hop token sequence, the path that takes the best pool at each hop
// for the whole amount (the rest of a path is increasing in its input, so
// per-hop best is the best single path of the sequence up to gas). Paths
// are ordered by output net of gas, best first.
func (c *search) candidatePaths() []*poolPath {
	var paths []*poolPath
	direct := []common.Address{c.tokenIn, c.tokenOut}
	for _, i := range c.snap.pairPools(c.tokenIn, c.tokenOut) {
		if !c.allowed(c.snap.pools[i].Family()) {
			continue
		}
		pp := &poolPath{tokens: direct, pools: []int{i}}
		if out, err := c.simulate(pp, c.amountIn); err == nil {
			pp.out = out
			paths = append(paths, pp)
		}
	}
	for _, seq := range c.seqs {
		if len(seq) > 2 {
			if pp := c.greedyPath(seq); pp != nil {
				paths = append(paths, pp)
			}
		}
	}
	for _, pp := range paths {
		for _, pi := range pp.pools {
			pp.gas += c.opts.hopGas(c.snap.pools[pi].Family())
		}
		pp.net = saturatingSub(pp.out, c.gasCost(pp.gas))
	}
	sort.SliceStable(paths, func(i, j int) bool {
		if c := paths[i].net.Cmp(paths[j].net); c != 0 {
			return c > 0
		}
		return paths[i].out.Gt(paths[j].out)
	})
	return paths
}

// greedyPath picks, hop by hop, the allowed pool with the highest output
// for the amount arriving at that hop.
func (c *search) greedyPath(seq []common.Address) *poolPath {
	pp := &poolPath{tokens: seq, pools: make([]int, len(seq)-1)}
	amt := c.amountIn
	for h := 0; h+1 < len(seq); h++ {
		var best *uint256.Int
		for _, i := range c.snap.pairPools(seq[h], seq[h+1]) {
			p := c.snap.pools[i]
			if !c.allowed(p.Family()) {
				continue
			}
			out, err := c.swap(i, seq[h], amt)
			if err == nil && (best == nil || out.Gt(best)) {
				best, pp.pools[h] = out, i
			}
		}
		if best == nil {
			return nil
		}
		amt = best
	}
	pp.out = amt
	return pp
}

// disjoint keeps the best paths that share no pool with a better one, up to
// MaxSplitPaths. Disjoint paths do not move each other's prices, so their
// simulated outputs add up exactly.
func (c *search) disjoint(paths []*poolPath) []*poolPath {
	used := map[int]bool{}
	var out []*poolPath
	for _, pp := range paths {
		if len(out) == c.opts.MaxSplitPaths {
			break
		}
		clash := false
		for _, pi := range pp.pools {
			clash = clash || used[pi]
		}
		if clash {
			continue
		}
		for _, pi := range pp.pools {
			used[pi] = true
		}
		out = append(out, pp)
	}
	return out
}

// bestRoute is the best route over the allowed families: the best single
// path, or a split over the top 2..MaxSplitPaths disjoint paths, whichever
// has the highest output net of gas.
func (c *search) bestRoute() *Route {
	picked := c.disjoint(c.candidatePaths())
	if len(picked) == 0 {
		return nil
	}
	best := c.buildRoute(picked[:1], []*uint256.Int{c.amountIn})
	if len(picked) == 1 {
		return best
	}
	steps := int(1_000_000 / c.opts.SplitStepPpm)
	memo := newStepMemo(c, picked, steps)
	for m := 2; m <= len(picked); m++ {
		alloc := waterfill(memo, m, steps)
		if alloc == nil {
			continue
		}
		amounts := c.allocAmounts(alloc, steps)
		if r := c.buildRoute(picked[:m], amounts); r != nil && r.Better(best) {
			best = r
		}
	}
	return best
}

// stepMemo caches path outputs at whole splitter steps, shared by the
// water-filling runs over growing path sets.
type stepMemo struct {
	c     *search
	paths []*poolPath
	steps int
	out   [][]*uint256.Int
	done  [][]bool
}

func newStepMemo(c *search, paths []*poolPath, steps int) *stepMemo {
	m := &stepMemo{c: c, paths: paths, steps: steps}
	m.out = make([][]*uint256.Int, len(paths))
	m.done = make([][]bool, len(paths))
	for k := range paths {
		m.out[k] = make([]*uint256.Int, steps+1)
		m.done[k] = make([]bool, steps+1)
	}
	return m
}

// at is path k's output for a steps of the amount (nil when it fails).
func (m *stepMemo) at(k, a int) *uint256.Int {
	if a == 0 {
		return new(uint256.Int)
	}
	if !m.done[k][a] {
		m.done[k][a] = true
		amt := m.c.stepAmount(a, m.steps)
		if !amt.IsZero() {
			m.out[k][a], _ = m.c.simulate(m.paths[k], amt)
		}
	}
	return m.out[k][a]
}

// waterfill hands out the amount one step at a time, each step to the path
// whose output grows most from it. Output is concave in input for every
// family, so this greedy allocation is optimal for the step size. It
// returns the steps per path, or nil when no step can be placed.
func waterfill(memo *stepMemo, m, steps int) []int {
	alloc := make([]int, m)
	var gain uint256.Int
	for s := 0; s < steps; s++ {
		bestK := -1
		var bestGain uint256.Int
		for k := 0; k < m; k++ {
			if alloc[k] == steps {
				continue
			}
			next := memo.at(k, alloc[k]+1)
			if next == nil {
				continue
			}
			gain.Set(saturatingSub(next, memo.at(k, alloc[k])))
			if bestK < 0 || gain.Gt(&bestGain) {
				bestK = k
				bestGain.Set(&gain)
			}
		}
		if bestK < 0 {
			return nil
		}
		alloc[bestK]++
	}
	return alloc
}

// stepAmount is amountIn × a / steps (floor).
func (c *search) stepAmount(a, steps int) *uint256.Int {
	if a == steps {
		return c.amountIn
	}
	z, _ := new(uint256.Int).MulDivOverflow(c.amountIn, uint256.NewInt(uint64(a)), uint256.NewInt(uint64(steps)))
	return z
}

// allocAmounts turns step counts into amounts that sum to amountIn exactly;
// the rounding remainder goes to the path with the most steps.
func (c *search) allocAmounts(alloc []int, steps int) []*uint256.Int {
	amounts := make([]*uint256.Int, len(alloc))
	sum := new(uint256.Int)
	top := 0
	for k, a := range alloc {
		amounts[k] = c.stepAmount(a, steps)
		if a == 0 {
			amounts[k] = new(uint256.Int)
		}
		sum.Add(sum, amounts[k])
		if a > alloc[top] {
			top = k
		}
	}
	amounts[top] = new(uint256.Int).Add(amounts[top], new(uint256.Int).Sub(c.amountIn, sum))
	return amounts
}

func saturatingSub(a, b *uint256.Int) *uint256.Int {
	z := new(uint256.Int)
	if a.Gt(b) {
		z.Sub(a, b)
	}
	return z
}
