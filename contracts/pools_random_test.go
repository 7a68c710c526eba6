package contracts

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/contracts/bindings/stableswappool"
)

// TestPoolsMatchGoReferenceOnRandomStates deploys pools with random (and
// badly imbalanced) reserves, extreme amplifications and mixed decimals,
// and requires getAmountOut to equal the Go transcriptions for random
// amounts from 1 wei to more than the whole pool.
func TestPoolsMatchGoReferenceOnRandomStates(t *testing.T) {
	e := newEnv(t)
	rng := rand.New(rand.NewPCG(4663, 71))
	ss := stableswappool.NewStableSwapPool()
	cp := constantproductpool.NewConstantProductPool()
	type cfg struct {
		a, b string
		amp  int64
		fee  int64
	}
	randAmount := func(decimals uint8) *big.Int {
		// 10^k × random mantissa, k up to decimals + 8.
		k := rng.IntN(int(decimals) + 9)
		v := new(big.Int).Mul(big.NewInt(rng.Int64N(1_000_000)+1), pow10(uint8(k)))
		return v
	}
	seed := func(t0, t1 string, r0, r1 *big.Int, addr [20]byte) {
		for i, sym := range []string{t0, t1} {
			amt := []*big.Int{r0, r1}[i]
			e.send(e.deployer, e.tok(sym), e.token.PackMint(e.deployer.addr, amt), nil)
			e.send(e.deployer, e.tok(sym), e.token.PackApprove(addr, maxUint256()), nil)
		}
		e.send(e.deployer, addr, cp.PackAddLiquidity(r0, r1), nil)
	}
	nonZero := 0
	for _, c := range []cfg{{"USDC", "DAI", 1, 0}, {"DAI", "USDC", 5000, 4_000_000}, {"USDC", "USDT", 85, 30_000_000}, {"WBTC", "DAI", 200, 1}} {
		addr := e.deployContract(&stableswappool.StableSwapPoolMetaData,
			ss.PackConstructor(e.tok(c.a), e.tok(c.b), big.NewInt(c.amp), big.NewInt(c.fee)))
		ta, _ := e.d.Token(c.a)
		tb, _ := e.d.Token(c.b)
		// Imbalanced up to 1:50.
		r0 := new(big.Int).Mul(units(int64(rng.IntN(1_000_000)+1_000), ta.Decimals), big.NewInt(int64(rng.IntN(50)+1)))
		r1 := units(int64(rng.IntN(1_000_000)+1_000), tb.Decimals)
		seed(c.a, c.b, r0, r1, addr)
		out, err := e.call(e.deployer.addr, addr, ss.PackGetState())
		if err != nil {
			t.Fatal(err)
		}
		st, err := ss.UnpackGetState(out)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 40; i++ {
			zeroForOne := rng.IntN(2) == 0
			tin := ta
			if !zeroForOne {
				tin = tb
			}
			in := randAmount(tin.Decimals)
			got := e.quote(addr, tin.Address, in)
			want := stableOut(in, st.Reserve0, st.Reserve1, st.Mult0, st.Mult1, st.A, st.Fee, zeroForOne)
			if got.Sign() > 0 {
				nonZero++
			}
			if got.Cmp(want) != 0 {
				t.Errorf("stable %s/%s A=%d: %s in of %s: contract %s, Go %s", c.a, c.b, c.amp, in, tin.Symbol, got, want)
			}
		}
	}
	if nonZero < 40 {
		t.Errorf("only %d of 160 stableswap quotes were non-zero: the comparison proves little", nonZero)
	}
	for _, fee := range []int64{0, 1, 500, 3000, 999_999} {
		addr := e.deployContract(&constantproductpool.ConstantProductPoolMetaData,
			cp.PackConstructor(e.tok("WBTC"), e.tok("DAI"), big.NewInt(fee)))
		r0 := units(int64(rng.IntN(1000)+1), 8)
		r1 := units(int64(rng.IntN(100_000_000)+1), 18)
		seed("WBTC", "DAI", r0, r1, addr)
		for i := 0; i < 20; i++ {
			zeroForOne := rng.IntN(2) == 0
			tin, rIn, rOut := e.tok("WBTC"), r0, r1
			dec := uint8(8)
			if !zeroForOne {
				tin, rIn, rOut, dec = e.tok("DAI"), r1, r0, 18
			}
			in := randAmount(dec)
			if got, want := e.quote(addr, tin, in), cpmmOut(in, rIn, rOut, uint64(fee)); got.Cmp(want) != 0 {
				t.Errorf("cpmm fee %d: %s in: contract %s, Go %s", fee, in, got, want)
			}
		}
	}
}
