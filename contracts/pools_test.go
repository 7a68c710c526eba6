package contracts

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/contracts/bindings/multicall"
	"github.com/orderengine/orderengine/contracts/bindings/stableswappool"
)

// cpmmOut is docs/protocol.md's constant-product formula.
func cpmmOut(in, rIn, rOut *big.Int, feePpm uint64) *big.Int {
	inWithFee := new(big.Int).Mul(in, big.NewInt(int64(1_000_000-feePpm)))
	num := new(big.Int).Mul(inWithFee, rOut)
	den := new(big.Int).Mul(rIn, big.NewInt(1_000_000))
	den.Add(den, inWithFee)
	return num.Quo(num, den)
}

// stableOut is an independent Go transcription of the StableSwapPool
// reference comment (the routing simulator must agree with it to the wei).
func stableOut(dx, r0, r1, mult0, mult1, amp, fee *big.Int, zeroForOne bool) *big.Int {
	n := big.NewInt(2)
	xp0 := new(big.Int).Mul(r0, mult0)
	xp1 := new(big.Int).Mul(r1, mult1)
	ann := new(big.Int).Mul(amp, n)
	// D
	s := new(big.Int).Add(xp0, xp1)
	d := new(big.Int).Set(s)
	for i := 0; i < 255; i++ {
		dp := new(big.Int).Set(d)
		dp.Mul(dp, d).Quo(dp, new(big.Int).Mul(xp0, n))
		dp.Mul(dp, d).Quo(dp, new(big.Int).Mul(xp1, n))
		prev := new(big.Int).Set(d)
		num := new(big.Int).Mul(ann, s)
		num.Add(num, new(big.Int).Mul(dp, n)).Mul(num, d)
		den := new(big.Int).Mul(new(big.Int).Sub(ann, big.NewInt(1)), d)
		den.Add(den, new(big.Int).Mul(big.NewInt(3), dp))
		d = num.Quo(num, den)
		if new(big.Int).Abs(new(big.Int).Sub(d, prev)).Cmp(big.NewInt(1)) <= 0 {
			break
		}
	}
	xpIn, xpOut, mIn, mOut := xp0, xp1, mult0, mult1
	if !zeroForOne {
		xpIn, xpOut, mIn, mOut = xp1, xp0, mult1, mult0
	}
	x := new(big.Int).Add(xpIn, new(big.Int).Mul(dx, mIn))
	c := new(big.Int).Set(d)
	c.Mul(c, d).Quo(c, new(big.Int).Mul(x, n))
	c.Mul(c, d).Quo(c, new(big.Int).Mul(ann, n))
	b := new(big.Int).Add(x, new(big.Int).Quo(d, ann))
	y := new(big.Int).Set(d)
	for i := 0; i < 255; i++ {
		prev := new(big.Int).Set(y)
		num := new(big.Int).Mul(y, y)
		num.Add(num, c)
		den := new(big.Int).Mul(big.NewInt(2), y)
		den.Add(den, b).Sub(den, d)
		y = num.Quo(num, den)
		if new(big.Int).Abs(new(big.Int).Sub(y, prev)).Cmp(big.NewInt(1)) <= 0 {
			break
		}
	}
	lim := new(big.Int).Add(y, big.NewInt(1))
	if xpOut.Cmp(lim) <= 0 {
		return new(big.Int)
	}
	dy := new(big.Int).Sub(xpOut, lim)
	dy.Quo(dy, mOut)
	f := new(big.Int).Mul(dy, fee)
	f.Quo(f, big.NewInt(10_000_000_000))
	return dy.Sub(dy, f)
}

func (e *env) poolFor(family, a, b string, feePpm uint64) Pool {
	e.t.Helper()
	ta, tb := e.tok(a), e.tok(b)
	for _, p := range e.d.Pools {
		if p.Family == family && ((p.Token0 == ta && p.Token1 == tb) || (p.Token0 == tb && p.Token1 == ta)) &&
			(family != FamilyCPMM || p.FeePpm == feePpm) {
			return p
		}
	}
	e.t.Fatalf("no %s pool %s/%s fee %d", family, a, b, feePpm)
	return Pool{}
}

// quote is the pool's getAmountOut at the latest block.
func (e *env) quote(pool common.Address, tokenIn common.Address, amountIn *big.Int) *big.Int {
	e.t.Helper()
	cp := constantproductpool.NewConstantProductPool()
	out, err := e.call(e.deployer.addr, pool, cp.PackGetAmountOut(tokenIn, amountIn))
	if err != nil {
		e.t.Fatalf("getAmountOut: %v", err)
	}
	v, err := cp.UnpackGetAmountOut(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

func (e *env) reserves(pool common.Address) (*big.Int, *big.Int) {
	e.t.Helper()
	cp := constantproductpool.NewConstantProductPool()
	out, err := e.call(e.deployer.addr, pool, cp.PackGetReserves())
	if err != nil {
		e.t.Fatal(err)
	}
	r, err := cp.UnpackGetReserves(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return r.Arg0, r.Arg1
}

// lastSync returns the reserves of the last Sync event of pool in a receipt.
func lastSync(t *testing.T, r *types.Receipt, pool common.Address) (*big.Int, *big.Int) {
	t.Helper()
	cp := constantproductpool.NewConstantProductPool()
	var r0, r1 *big.Int
	for _, l := range r.Logs {
		if l.Address != pool {
			continue
		}
		if ev, err := cp.UnpackSyncEvent(l); err == nil {
			r0, r1 = ev.Reserve0, ev.Reserve1
		}
	}
	if r0 == nil {
		t.Fatalf("no Sync event of %s", pool)
	}
	return r0, r1
}

func TestConstantProductPool(t *testing.T) {
	e := newEnv(t)
	cp := constantproductpool.NewConstantProductPool()
	for _, fee := range []uint64{3000, 500} {
		p := e.poolFor(FamilyCPMM, "WETH", "USDC", fee)
		weth, usdc := e.tok("WETH"), e.tok("USDC")
		r0, r1 := e.reserves(p.Address)
		for _, in := range []*big.Int{big.NewInt(1), units(1, 18), units(250, 18)} {
			if got, want := e.quote(p.Address, weth, in), cpmmOut(in, r0, r1, fee); got.Cmp(want) != 0 {
				t.Errorf("fee %d: getAmountOut(WETH %s) = %s, formula %s", fee, in, got, want)
			}
		}
		usdcIn := units(10_000, 6)
		if got, want := e.quote(p.Address, usdc, usdcIn), cpmmOut(usdcIn, r1, r0, fee); got.Cmp(want) != 0 {
			t.Errorf("fee %d: getAmountOut(USDC) = %s, formula %s", fee, got, want)
		}

		// swap with type(uint256).max swaps the caller's whole balance and
		// pays exactly getAmountOut; Sync carries the new reserves.
		e.send(e.other, usdc, e.token.PackMint(e.other.addr, usdcIn), nil)
		e.send(e.other, usdc, e.token.PackApprove(p.Address, maxUint256()), nil)
		usdcIn = e.balance(usdc, e.other.addr) // whole balance (a leftover of the previous round included)
		want := e.quote(p.Address, usdc, usdcIn)
		before := e.balance(weth, e.receiver.addr)
		rc := e.send(e.other, p.Address, cp.PackSwap(usdc, maxUint256(), want, e.receiver.addr), nil)
		if got := new(big.Int).Sub(e.balance(weth, e.receiver.addr), before); got.Cmp(want) != 0 {
			t.Errorf("swap paid %s, quoted %s", got, want)
		}
		if e.balance(usdc, e.other.addr).Sign() != 0 {
			t.Errorf("whole-balance swap left USDC behind")
		}
		s0, s1 := lastSync(t, rc, p.Address)
		n0, n1 := e.reserves(p.Address)
		if s0.Cmp(n0) != 0 || s1.Cmp(n1) != 0 || n0.Cmp(new(big.Int).Sub(r0, want)) != 0 || n1.Cmp(new(big.Int).Add(r1, usdcIn)) != 0 {
			t.Errorf("reserves after swap %s/%s, Sync %s/%s", n0, n1, s0, s1)
		}
		// minAmountOut above the output reverts.
		e.send(e.other, usdc, e.token.PackMint(e.other.addr, usdcIn), nil)
		if _, err := e.trySend(e.other, p.Address, cp.PackSwap(usdc, usdcIn, maxUint256(), e.other.addr), nil); err == nil {
			t.Errorf("swap below minAmountOut succeeded")
		}
	}
}

func TestStableSwapPool(t *testing.T) {
	e := newEnv(t)
	ss := stableswappool.NewStableSwapPool()
	for _, pair := range [][2]string{{"USDC", "USDT"}, {"USDC", "DAI"}, {"USDT", "DAI"}} {
		p := e.poolFor(FamilyStableSwap, pair[0], pair[1], 0)
		out, err := e.call(e.deployer.addr, p.Address, ss.PackGetState())
		if err != nil {
			t.Fatal(err)
		}
		st, err := ss.UnpackGetState(out)
		if err != nil {
			t.Fatal(err)
		}
		if st.A.Uint64() != p.A || st.Fee.Uint64() != p.Fee || st.Token0 != p.Token0 {
			t.Fatalf("state %+v", st)
		}
		t0 := tokenByAddr(t, e.d, p.Token0)
		t1 := tokenByAddr(t, e.d, p.Token1)
		for _, whole := range []int64{1, 1_000, 100_000, 2_000_000, 20_000_000} {
			for _, zeroForOne := range []bool{true, false} {
				tin, tout := t0, t1
				if !zeroForOne {
					tin, tout = t1, t0
				}
				in := units(whole, tin.Decimals)
				got := e.quote(p.Address, tin.Address, in)
				want := stableOut(in, st.Reserve0, st.Reserve1, st.Mult0, st.Mult1, st.A, st.Fee, zeroForOne)
				if got.Cmp(want) != 0 {
					t.Errorf("%s→%s %d: getAmountOut %s, Go reference %s", tin.Symbol, tout.Symbol, whole, got, want)
				}
				// Near the peg a small trade gets close to 1:1 minus the 4 bp fee.
				if whole == 1_000 {
					norm := new(big.Int).Mul(got, pow10(18-tout.Decimals))
					lo := new(big.Int).Mul(units(1_000, 18), big.NewInt(9990))
					lo.Quo(lo, big.NewInt(10_000))
					if norm.Cmp(lo) < 0 || norm.Cmp(units(1_000, 18)) >= 0 {
						t.Errorf("%s→%s 1000: out %s is not near the peg", tin.Symbol, tout.Symbol, got)
					}
				}
			}
		}
		// A real swap pays exactly getAmountOut.
		in := units(250_000, t0.Decimals)
		e.send(e.other, t0.Address, e.token.PackMint(e.other.addr, in), nil)
		e.send(e.other, t0.Address, e.token.PackApprove(p.Address, maxUint256()), nil)
		want := e.quote(p.Address, t0.Address, in)
		before := e.balance(t1.Address, e.other.addr)
		rc := e.send(e.other, p.Address, ss.PackSwap(t0.Address, in, big.NewInt(0), e.other.addr), nil)
		if got := new(big.Int).Sub(e.balance(t1.Address, e.other.addr), before); got.Cmp(want) != 0 {
			t.Errorf("stable swap paid %s, quoted %s", got, want)
		}
		s0, s1 := lastSync(t, rc, p.Address)
		if s0.Cmp(new(big.Int).Add(st.Reserve0, in)) != 0 || s1.Cmp(new(big.Int).Sub(st.Reserve1, want)) != 0 {
			t.Errorf("Sync %s/%s after swap", s0, s1)
		}
	}
}

func TestMulticallLoadsPoolStates(t *testing.T) {
	e := newEnv(t)
	mc := multicall.NewMulticall()
	cp := constantproductpool.NewConstantProductPool()
	var calls []multicall.MulticallStaticCall
	for _, p := range e.d.Pools {
		calls = append(calls, multicall.MulticallStaticCall{Target: p.Address, CallData: cp.PackGetReserves()})
	}
	calls = append(calls, multicall.MulticallStaticCall{Target: e.d.Router, CallData: cp.PackGetReserves()}) // fails
	out, err := e.call(e.deployer.addr, e.d.Multicall, mc.PackAggregate(calls))
	if err != nil {
		t.Fatal(err)
	}
	res, err := mc.UnpackAggregate(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.BlockNumber.Sign() == 0 || len(res.Results) != len(calls) {
		t.Fatalf("aggregate: block %s, %d results", res.BlockNumber, len(res.Results))
	}
	for i, p := range e.d.Pools {
		r, err := cp.UnpackGetReserves(res.Results[i].ReturnData)
		if !res.Results[i].Success || err != nil || r.Arg0.Cmp(p.Reserve0) != 0 || r.Arg1.Cmp(p.Reserve1) != 0 {
			t.Errorf("pool %d via multicall: %+v %v", i, r, err)
		}
	}
	if res.Results[len(calls)-1].Success {
		t.Errorf("a failing read reported success")
	}
}
