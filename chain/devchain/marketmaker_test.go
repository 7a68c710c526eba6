package devchain

import (
	"math/big"
	"testing"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/contracts/bindings/oracle"
)

// MoveTo lands every WETH pool on the requested price (within 0.1 %, the
// fee rounding of landing), writes the oracle from the pools as a step does
// (stables at $1), clamps a target outside the walk's bounds, and leaves
// the walk at the target for the next step.
func TestMarketMakerMoveTo(t *testing.T) {
	cfg := testConfig()
	cfg.DevRPCListen = ""
	cfg.MarketMaker = config.MarketMakerConfig{Enabled: true, MaxStepPpm: 5000, MaxDeviationPpm: 100_000, Seed: 7}
	d := startTest(t, cfg)
	ctx := testCtx(t)
	mm := d.MarketMaker()
	dep := d.Deployment()
	weth, _ := dep.Token("WETH")
	wbtc, _ := dep.Token("WBTC")
	o := oracle.NewOracle()
	readOracle := func(token common.Address) *big.Int {
		t.Helper()
		r, err := bind.Call(o.Instance(d.Client(), dep.Oracle), &bind.CallOpts{Context: ctx}, o.PackLatestRoundData(token), o.UnpackLatestRoundData)
		if err != nil {
			t.Fatal(err)
		}
		return r.Answer
	}
	within := func(got, want *big.Int) bool { // |got − want| ≤ want / 1000
		diff := new(big.Int).Sub(got, want)
		return diff.Abs(diff).Cmp(new(big.Int).Quo(want, big.NewInt(1000))) <= 0
	}
	lo, hi, _ := mm.Bounds(weth.Address)

	for _, c := range []struct {
		name    string
		request *big.Int
		want    *big.Int
		clamped bool
	}{
		{"down 8 %", big.NewInt(2760_00000000), big.NewInt(2760_00000000), false},
		{"up 7 %", big.NewInt(3210_00000000), big.NewInt(3210_00000000), false},
		{"above the bounds", big.NewInt(4000_00000000), hi, true},
		{"below the bounds", big.NewInt(2000_00000000), lo, true},
	} {
		res, err := mm.MoveTo(ctx, "WETH", c.request)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Token != weth.Address || res.Target.Cmp(c.want) != 0 || res.Clamped != c.clamped {
			t.Fatalf("%s: moved %s to %v (clamped %v), want %v (clamped %v)", c.name, res.Token, res.Target, res.Clamped, c.want, c.clamped)
		}
		if n := len(res.Txs); n < 2 {
			t.Fatalf("%s: %d transactions, want swaps and the oracle write", c.name, n)
		}
		if _, err := d.Mine(ctx, res.Txs...); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		after := map[common.Address][2]*big.Int{}
		for _, p := range mm.walkedPools() {
			r, err := mm.reserves(ctx, p.Address)
			if err != nil {
				t.Fatal(err)
			}
			after[p.Address] = [2]*big.Int{r.Arg0, r.Arg1}
		}
		// Every WETH pool against a stable lands on the target; the
		// WETH/WBTC pool on the ratio to WBTC's (unmoved) price.
		for _, p := range mm.walkedPools() {
			if p.Token0 != weth.Address && p.Token1 != weth.Address {
				continue
			}
			other := p.Token1
			rw, ro := after[p.Address][0], after[p.Address][1]
			if p.Token1 == weth.Address {
				other, rw, ro = p.Token0, ro, rw
			}
			ot, _ := dep.TokenAt(other)
			otherUSD := ot.PriceUSD
			if other == wbtc.Address {
				otherUSD = readOracle(wbtc.Address)
			}
			if got := usdPrice(rw, weth.Decimals, ro, ot.Decimals, otherUSD); !within(got, res.Target) {
				t.Fatalf("%s: pool %s (WETH/%s) at %v, target %v", c.name, p.Address, ot.Symbol, got, res.Target)
			}
		}
		// The oracle is what the move wrote: WETH at its deepest stable
		// pool's price, the stables at $1.
		for token, want := range res.Oracle {
			if got := readOracle(token); got.Cmp(want) != 0 {
				t.Fatalf("%s: oracle of %s is %v, the move wrote %v", c.name, token, got, want)
			}
		}
		got := readOracle(weth.Address)
		if pp := mm.poolPrice(weth, after); got.Cmp(pp) != 0 || !within(got, res.Target) {
			t.Fatalf("%s: oracle WETH %v, pool price %v, target %v", c.name, got, pp, res.Target)
		}
		for _, s := range []string{"USDC", "USDT", "DAI"} {
			st, _ := dep.Token(s)
			if got := readOracle(st.Address); got.Cmp(big.NewInt(1_00000000)) != 0 || res.Oracle[st.Address] == nil {
				t.Fatalf("%s: oracle %s %v (written %v), want $1 rewritten", c.name, s, got, res.Oracle[st.Address])
			}
		}
	}

	// The walk goes on from the last target (the lower bound): one step of
	// at most 0.5 % stays near it.
	res, err := mm.Step(ctx)
	if err != nil {
		t.Fatal(err)
	}
	step := res.Targets[weth.Address]
	if step.Cmp(lo) < 0 || step.Cmp(mulDiv(lo, big.NewInt(1_005_000), big.NewInt(ppm))) > 0 {
		t.Fatalf("step after MoveTo to %v went to %v", lo, step)
	}
	if _, err := d.Mine(ctx, res.Txs...); err != nil {
		t.Fatal(err)
	}

	for _, bad := range []string{"USDC", "NOPE"} {
		if _, err := mm.MoveTo(ctx, bad, big.NewInt(1_00000000)); err == nil {
			t.Fatalf("MoveTo %s: no error", bad)
		}
	}
	if _, err := mm.MoveTo(ctx, "WETH", big.NewInt(0)); err == nil {
		t.Fatal("MoveTo a zero price: no error")
	}
}
