package devchain

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// mineFunc waits until a sent transaction is mined (committing blocks on
// the dev chain, polling on a node that mines by itself).
type mineFunc func(ctx context.Context, h common.Hash) (*types.Receipt, error)

// checkRouterSwap swaps amountIn of tokenIn for tokenOut through the
// router's direct path, over one cpmm pool, from key's account to itself
// with referrer at referralPpm, and checks every leg to the wei: the
// receiver's net, the fee vault's protocol fee and the referrer's fee, each
// from the pool's quote and the router's fee table.
func checkRouterSwap(ctx context.Context, t *testing.T, c Client, chainID uint64, key *ecdsa.PrivateKey, mine mineFunc,
	dep *Deployment, tokenIn, tokenOut Token, referrer common.Address, referralPpm uint32, amountIn *big.Int) {
	t.Helper()
	var pool Pool
	for _, p := range dep.Pools {
		if p.Family == FamilyCPMM && ((p.Token0 == tokenIn.Address && p.Token1 == tokenOut.Address) ||
			(p.Token1 == tokenIn.Address && p.Token0 == tokenOut.Address)) {
			pool = p
			break
		}
	}
	if pool.Address == (common.Address{}) {
		t.Fatalf("no cpmm pool %s/%s", tokenIn.Symbol, tokenOut.Symbol)
	}
	s := newSender(c, key, new(big.Int).SetUint64(chainID))
	t.Cleanup(s.close)
	tt := testtoken.NewTestToken()
	cp := constantproductpool.NewConstantProductPool()
	router := servicerouter.NewServiceRouter()
	call := &bind.CallOpts{Context: ctx}

	tx, err := s.send(ctx, tokenIn.Address, tt.PackApprove(dep.Router, amountIn), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mine(ctx, tx.Hash()); err != nil {
		t.Fatalf("approve router: %v", err)
	}

	gross, err := bind.Call(cp.Instance(c, pool.Address), call, cp.PackGetAmountOut(tokenIn.Address, amountIn), cp.UnpackGetAmountOut)
	if err != nil {
		t.Fatal(err)
	}
	class, err := bind.Call(router.Instance(c, dep.Router), call, router.PackPairClass(tokenIn.Address, tokenOut.Address), router.UnpackPairClass)
	if err != nil {
		t.Fatal(err)
	}
	cell, err := bind.Call(router.Instance(c, dep.Router), call, router.PackFees(0, class), router.UnpackFees)
	if err != nil {
		t.Fatal(err)
	}
	legOf := func(ppm uint32) *big.Int { return mulDiv(gross, big.NewInt(int64(ppm)), big.NewInt(ppm1e6)) }
	wantProtocol, wantReferral, wantKeeper := legOf(cell.ProtocolPpm), legOf(referralPpm), legOf(cell.KeeperPpm)
	wantNet := new(big.Int).Sub(gross, wantProtocol)
	wantNet.Sub(wantNet, wantReferral)
	wantNet.Sub(wantNet, wantKeeper)

	me := s.from
	balance := func(who common.Address) *big.Int {
		b, err := bind.Call(tt.Instance(c, tokenOut.Address), call, tt.PackBalanceOf(who), tt.UnpackBalanceOf)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	before := map[common.Address]*big.Int{me: balance(me), dep.FeeVault: balance(dep.FeeVault), referrer: balance(referrer)}

	calls := []servicerouter.Call{
		{Target: tokenIn.Address, Data: tt.PackApprove(pool.Address, amountIn)},
		{Target: pool.Address, Data: cp.PackSwap(tokenIn.Address, amountIn, big.NewInt(0), dep.Executor)},
	}
	tx, err = s.send(ctx, dep.Router, router.PackSwap(servicerouter.SwapParams{
		TokenIn: tokenIn.Address, TokenOut: tokenOut.Address, AmountIn: amountIn, MinAmountOut: wantNet,
		Receiver: me, Referrer: referrer, ReferralFeePpm: referralPpm, Calls: calls,
	}), nil, 0)
	if err != nil {
		t.Fatalf("router swap: %v", err)
	}
	rc, err := mine(ctx, tx.Hash())
	if err != nil {
		t.Fatalf("router swap: %v", err)
	}
	var ev *servicerouter.ServiceRouterSwapped
	for _, l := range rc.Logs {
		if e, err := router.UnpackSwappedEvent(l); err == nil {
			ev = e
		}
	}
	if ev == nil {
		t.Fatal("no Swapped event")
	}
	if ev.AmountOut.Cmp(wantNet) != 0 || ev.ProtocolFee.Cmp(wantProtocol) != 0 || ev.ReferralFee.Cmp(wantReferral) != 0 {
		t.Fatalf("Swapped net %v protocol %v referral %v; want %v %v %v (gross %v, cell %+v)",
			ev.AmountOut, ev.ProtocolFee, ev.ReferralFee, wantNet, wantProtocol, wantReferral, gross, cell)
	}
	gain := func(who common.Address) *big.Int { return new(big.Int).Sub(balance(who), before[who]) }
	// The sender is both the receiver and the keeper (msg.sender).
	if g, want := gain(me), new(big.Int).Add(wantNet, wantKeeper); g.Cmp(want) != 0 {
		t.Fatalf("receiver (and keeper) got %v, want %v", g, want)
	}
	if g := gain(dep.FeeVault); g.Cmp(wantProtocol) != 0 {
		t.Fatalf("fee vault got %v, want %v", g, wantProtocol)
	}
	if g := gain(referrer); g.Cmp(wantReferral) != 0 {
		t.Fatalf("referrer got %v, want %v", g, wantReferral)
	}
	if wantProtocol.Sign() == 0 || wantReferral.Sign() == 0 {
		t.Fatalf("fee legs protocol %v referral %v: the check needs non-zero legs", wantProtocol, wantReferral)
	}
}

const ppm1e6 = 1_000_000

func TestRouterSwapOnDevChain(t *testing.T) {
	d := startTest(t, testConfig())
	ctx := testCtx(t)
	dep := d.Deployment()
	weth, _ := dep.Token("WETH")
	usdc, _ := dep.Token("USDC")
	mine := func(ctx context.Context, h common.Hash) (*types.Receipt, error) {
		rs, err := d.Mine(ctx, h)
		if err != nil {
			return nil, err
		}
		return rs[0], nil
	}
	maker := d.Accounts().Makers[0]
	checkRouterSwap(ctx, t, d.Client(), d.ChainID(), maker.Key, mine, dep, weth, usdc, d.Accounts().Makers[1].Address, 50, big.NewInt(2e18))
}
