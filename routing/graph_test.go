package routing

import (
	"math/big"
	"math/rand"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// synthGraph is a synthetic venue graph for tests and benchmarks: tokens
// with USD prices and decimals, pools of both families whose reserves
// follow those prices (with a little noise), and connectors 0..3
// (WETH-like, then three stables).
type synthGraph struct {
	tokens   []common.Address
	decimals []uint8
	priceUSD []float64 // reporting only: seeds reserves, never used as an amount
	pools    []Pool
	opts     Options
}

func tokenAddr(i int) common.Address {
	return common.BigToAddress(big.NewInt(int64(0x1000 + i)))
}

func poolAddr(i int) common.Address {
	return common.BigToAddress(big.NewInt(int64(0x900000 + i)))
}

// reserveFor returns the raw reserve worth usd of token i.
func (g *synthGraph) reserveFor(i int, usd float64) *uint256.Int {
	units := new(big.Float).SetFloat64(usd / g.priceUSD[i])
	units.Mul(units, new(big.Float).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(g.decimals[i])), nil)))
	z, _ := units.Int(nil)
	r, _ := uint256.FromBig(z)
	return r
}

func newSynthGraph(seed int64, nTokens, nPools int) *synthGraph {
	rng := rand.New(rand.NewSource(seed))
	g := &synthGraph{}
	for i := 0; i < nTokens; i++ {
		g.tokens = append(g.tokens, tokenAddr(i))
		switch {
		case i == 0:
			g.decimals, g.priceUSD = append(g.decimals, 18), append(g.priceUSD, 3000)
		case i <= 3:
			g.decimals, g.priceUSD = append(g.decimals, []uint8{6, 6, 18}[i-1]), append(g.priceUSD, 1)
		default:
			g.decimals = append(g.decimals, []uint8{18, 8, 6, 12}[rng.Intn(4)])
			g.priceUSD = append(g.priceUSD, 0.01*float64(int(1)<<rng.Intn(20)))
		}
	}
	type pair struct{ a, b int }
	addPool := func(a, b int, stable bool) {
		depth := 1e5 * float64(int(1)<<rng.Intn(8))
		noise := 1 + (rng.Float64()-0.5)*0.01
		r0, r1 := g.reserveFor(a, depth), g.reserveFor(b, depth*noise)
		addr := poolAddr(len(g.pools))
		if stable {
			g.pools = append(g.pools, NewStableSwapPool(addr, g.tokens[a], g.tokens[b], r0, r1,
				uint64(50+rng.Intn(200)), uint64(1_000_000+rng.Intn(3_000_000)), g.decimals[a], g.decimals[b]))
			return
		}
		fee := []uint64{3000, 500}[rng.Intn(2)]
		g.pools = append(g.pools, NewCPMMPool(addr, g.tokens[a], g.tokens[b], r0, r1, fee))
	}
	// Connectors among themselves; stables also get StableSwap pools.
	for a := 0; a < 4; a++ {
		for b := a + 1; b < 4; b++ {
			addPool(a, b, false)
			if a > 0 {
				addPool(a, b, true)
			}
		}
	}
	// Every other token trades against WETH and one stable.
	for t := 4; t < nTokens; t++ {
		addPool(t, 0, false)
		addPool(t, 1+rng.Intn(3), false)
	}
	for len(g.pools) < nPools {
		a, b := rng.Intn(nTokens), rng.Intn(nTokens)
		if a == b {
			continue
		}
		addPool(a, b, a > 0 && a < 4 && b > 0 && b < 4)
	}
	g.opts = Options{
		Connectors: g.tokens[:4], MaxHops: 3, SplitStepPpm: 50_000, MaxSplitPaths: 4,
		Native: g.tokens[0], GasPriceWei: 1_000_000_000, GasBase: 120_000,
		GasPerHop:        map[string]uint64{FamilyCPMM: 90_000, FamilyStableSwap: 140_000},
		GasPerHopDefault: 120_000, ImpactSuggestPpm: 10_000,
	}
	return g
}

// amountUSD is the raw amount of token i worth usd.
func (g *synthGraph) amountUSD(i int, usd float64) *uint256.Int { return g.reserveFor(i, usd) }
