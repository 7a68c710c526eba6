package routing

import (
	"errors"
	"math/rand"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	oe "github.com/orderengine/orderengine"
)

func testOptions(connectors ...common.Address) Options {
	return Options{Connectors: connectors, MaxHops: 3, SplitStepPpm: 50_000, MaxSplitPaths: 4,
		GasPerHop: map[string]uint64{}, ImpactSuggestPpm: 10_000}
}

func codeOf(err error) oe.Code {
	var e *oe.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestSearchDirectSinglePool(t *testing.T) {
	p := NewCPMMPool(poolAddr(0), tokenAddr(0), tokenAddr(1), e(100, 18), e(300_000, 6), 3000)
	snap := NewSnapshot(42, []Pool{p})
	res, err := NewSearcher(testOptions()).Search(snap, Request{TokenIn: tokenAddr(0), TokenOut: tokenAddr(1), AmountIn: e(1, 18)})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := p.AmountOut(tokenAddr(0), e(1, 18))
	if res.Best.AmountOut.Cmp(want) != 0 || res.Block != 42 || res.Best.Block != 42 {
		t.Fatalf("route out %s at %d, want %s at 42", res.Best.AmountOut.Dec(), res.Best.Block, want.Dec())
	}
	// 1 % of the reserve through a 0.3 % pool: impact ≈ 0.3 % + 1 %.
	if imp := res.Best.PriceImpactPpm; imp < 12_000 || imp > 13_500 {
		t.Fatalf("impact %d ppm", imp)
	}
	if len(res.Best.Paths) != 1 || res.Best.Paths[0].SharePpm != 1_000_000 {
		t.Fatalf("paths %+v", res.Best.Paths)
	}
}

func TestSearchSplitsAcrossEqualPools(t *testing.T) {
	a := NewCPMMPool(poolAddr(0), tokenAddr(0), tokenAddr(1), e(1000, 18), e(1000, 18), 3000)
	b := NewCPMMPool(poolAddr(1), tokenAddr(0), tokenAddr(1), e(1000, 18), e(1000, 18), 3000)
	snap := NewSnapshot(1, []Pool{a, b})
	in := e(100, 18)
	res, err := NewSearcher(testOptions()).Search(snap, Request{TokenIn: tokenAddr(0), TokenOut: tokenAddr(1), AmountIn: in})
	if err != nil {
		t.Fatal(err)
	}
	single, _ := a.AmountOut(tokenAddr(0), in)
	half, _ := a.AmountOut(tokenAddr(0), e(50, 18))
	if len(res.Best.Paths) != 2 || res.Best.AmountOut.Cmp(new(uint256.Int).Add(half, half)) != 0 {
		t.Fatalf("want a 50/50 split giving %s, got %d paths giving %s", new(uint256.Int).Add(half, half).Dec(), len(res.Best.Paths), res.Best.AmountOut.Dec())
	}
	if !res.Best.AmountOut.Gt(single) {
		t.Fatal("split not better than one pool")
	}
	if len(res.Suggestions) == 0 || res.Suggestions[0].Kind != SuggestVenueSplit {
		t.Fatalf("impact %d ppm but suggestions %+v", res.Best.PriceImpactPpm, res.Suggestions)
	}
	var chunks *Suggestion
	for i := range res.Suggestions {
		if res.Suggestions[i].Kind == SuggestChunks {
			chunks = &res.Suggestions[i]
		}
	}
	if chunks == nil || chunks.ChunkImpactPpm > 10_000 || chunks.Chunks < 2 {
		t.Fatalf("chunk suggestion %+v", chunks)
	}
}

func TestSearchGasStopsUselessSplit(t *testing.T) {
	// Tokens 0 (native) and 1; two equal pools; tiny amount: the second path's
	// gas costs more than the split gains.
	a := NewCPMMPool(poolAddr(0), tokenAddr(0), tokenAddr(1), e(1000, 18), e(1000, 18), 3000)
	b := NewCPMMPool(poolAddr(1), tokenAddr(0), tokenAddr(1), e(1000, 18), e(1000, 18), 3000)
	opts := testOptions()
	opts.Native, opts.GasPriceWei, opts.GasPerHopDefault = tokenAddr(0), 1_000_000_000, 100_000
	res, err := NewSearcher(opts).Search(NewSnapshot(1, []Pool{a, b}), Request{TokenIn: tokenAddr(0), TokenOut: tokenAddr(1), AmountIn: e(1, 17)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Best.Paths) != 1 {
		t.Fatalf("split a 1-token trade over %d paths despite gas", len(res.Best.Paths))
	}
	// Gas: 100k × 1 gwei = 1e14 wei of native, priced at ~1:1.
	if c := res.Best.GasCostOut; c.Lt(e(99, 12)) || c.Gt(e(101, 12)) {
		t.Fatalf("gas cost %s", c.Dec())
	}
}

func TestSearchMultiHopAndExclude(t *testing.T) {
	// 0 → 2 only through connector 1; a stableswap pool 1-2 and a cpmm 1-2.
	p01 := NewCPMMPool(poolAddr(0), tokenAddr(0), tokenAddr(1), e(1000, 18), e(2_000_000, 6), 500)
	s12 := NewStableSwapPool(poolAddr(1), tokenAddr(1), tokenAddr(2), e(5_000_000, 6), e(5_000_000, 18), 100, 4_000_000, 6, 18)
	c12 := NewCPMMPool(poolAddr(2), tokenAddr(1), tokenAddr(2), e(100_000, 6), e(100_000, 18), 3000)
	snap := NewSnapshot(7, []Pool{p01, s12, c12})
	s := NewSearcher(testOptions(tokenAddr(1)))
	req := Request{TokenIn: tokenAddr(0), TokenOut: tokenAddr(2), AmountIn: e(1, 18)}
	res, err := s.Search(snap, req)
	if err != nil {
		t.Fatal(err)
	}
	mid, _ := p01.AmountOut(tokenAddr(0), e(1, 18))
	want, _ := s12.AmountOut(tokenAddr(1), mid)
	if len(res.Best.Paths) != 1 || len(res.Best.Paths[0].Hops) != 2 || res.Best.AmountOut.Cmp(want) != 0 {
		t.Fatalf("want 2 hops via the stable pool giving %s, got %+v", want.Dec(), res.Best)
	}
	if res.Best.Family != FamilyMixed || len(res.Candidates) != 2 || res.Candidates[1].Family != FamilyCPMM {
		t.Fatalf("candidates: %d, best family %s", len(res.Candidates), res.Best.Family)
	}
	req.Exclude = []string{FamilyStableSwap}
	res, err = s.Search(snap, req)
	if err != nil || res.Best.Paths[0].Hops[1].Pool != poolAddr(2) {
		t.Fatalf("exclude stableswap: %v %+v", err, res)
	}
	req.Exclude = []string{FamilyCPMM}
	if _, err := s.Search(snap, req); codeOf(err) != oe.CodeNoPool {
		t.Fatalf("excluding cpmm leaves token 0 without a pool: got %v", err)
	}
}

func TestSearchErrors(t *testing.T) {
	p := NewCPMMPool(poolAddr(0), tokenAddr(0), tokenAddr(1), e(1, 18), e(1, 18), 3000)
	q := NewCPMMPool(poolAddr(1), tokenAddr(2), tokenAddr(3), e(1, 18), e(1, 18), 3000)
	s := NewSearcher(testOptions())
	snap := NewSnapshot(1, []Pool{p, q})
	cases := []struct {
		req  Request
		code oe.Code
	}{
		{Request{TokenIn: tokenAddr(0), TokenOut: tokenAddr(1), AmountIn: new(uint256.Int)}, oe.CodeInvalidRequest},
		{Request{TokenIn: tokenAddr(0), TokenOut: tokenAddr(0), AmountIn: uint256.NewInt(1)}, oe.CodeInvalidRequest},
		{Request{TokenIn: tokenAddr(0), TokenOut: tokenAddr(9), AmountIn: uint256.NewInt(1)}, oe.CodeNoPool},
		{Request{TokenIn: tokenAddr(0), TokenOut: tokenAddr(2), AmountIn: uint256.NewInt(1)}, oe.CodeNoRoute},
	}
	for i, c := range cases {
		if _, err := s.Search(snap, c.req); codeOf(err) != c.code {
			t.Errorf("case %d: got %v, want %s", i, err, c.code)
		}
	}
}

// TestSearchBeatsEverySingleVenue checks on a synthetic graph that the
// chosen route's output net of gas is at least that of every single pool
// and every greedy path, that its paths are pool-disjoint and sum to
// amountIn, and that re-simulating its hops gives its amounts.
func TestSearchBeatsEverySingleVenue(t *testing.T) {
	g := newSynthGraph(3, 50, 300)
	snap := NewSnapshot(1, g.pools)
	s := NewSearcher(g.opts)
	rng := rand.New(rand.NewSource(11))
	for i := 0; i < 300; i++ {
		a, b := rng.Intn(len(g.tokens)), rng.Intn(len(g.tokens))
		if a == b {
			continue
		}
		usd := []float64{10, 1e3, 1e5, 1e6, 1e7}[rng.Intn(5)]
		req := Request{TokenIn: g.tokens[a], TokenOut: g.tokens[b], AmountIn: g.amountUSD(a, usd)}
		res, err := s.Search(snap, req)
		if err != nil {
			t.Fatalf("%d→%d $%v: %v", a, b, usd, err)
		}
		checkRoute(t, snap, req, res.Best)
		c, _ := s.newSearch(snap, req, nil)
		for _, pp := range c.candidatePaths() {
			net := saturatingSub(pp.out, c.gasCost(g.opts.GasBase+pp.gas))
			if net.Gt(res.Best.NetOfGas()) {
				t.Fatalf("%d→%d: single path nets %s, route %s", a, b, net.Dec(), res.Best.NetOfGas().Dec())
			}
		}
		for _, cand := range res.Candidates[1:] {
			if cand.NetOfGas().Gt(res.Best.NetOfGas()) {
				t.Fatalf("candidate %s beats the winner", cand.Family)
			}
		}
	}
}

func checkRoute(t *testing.T, snap *Snapshot, req Request, r *Route) {
	t.Helper()
	sumIn, sumOut := new(uint256.Int), new(uint256.Int)
	used := map[common.Address]bool{}
	for _, p := range r.Paths {
		sumIn.Add(sumIn, p.AmountIn)
		sumOut.Add(sumOut, p.AmountOut)
		amt := p.AmountIn
		for _, h := range p.Hops {
			if used[h.Pool] {
				t.Fatalf("pool %s used twice", h.Pool.Hex())
			}
			used[h.Pool] = true
			pool, _ := snap.Pool(h.Pool)
			out, err := pool.AmountOut(h.TokenIn, amt)
			if err != nil || out.Cmp(h.AmountOut) != 0 {
				t.Fatalf("hop re-simulation: %v %s vs %s", err, out, h.AmountOut)
			}
			amt = out
		}
		if p.Hops[0].TokenIn != req.TokenIn || p.Hops[len(p.Hops)-1].TokenOut != req.TokenOut {
			t.Fatal("path does not join tokenIn to tokenOut")
		}
	}
	if sumIn.Cmp(req.AmountIn) != 0 || sumOut.Cmp(r.AmountOut) != 0 {
		t.Fatalf("paths sum to %s in / %s out, route says %s / %s", sumIn.Dec(), sumOut.Dec(), req.AmountIn.Dec(), r.AmountOut.Dec())
	}
}
