package routing_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/routing"
)

// devEnv is the embedded dev chain (manual mining, market maker off) with
// the routing stack built from the configuration it fills, as serve does.
type devEnv struct {
	t     *testing.T
	ctx   context.Context
	dc    *devchain.DevChain
	st    *routing.Stack
	maker devchain.Account
}

func newDevEnv(t *testing.T) *devEnv {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cfg := config.Default()
	cfg.Chain.ManualMining, cfg.Chain.DevRPCListen, cfg.Chain.MarketMaker.Enabled = true, "127.0.0.1:0", false
	dc, err := devchain.Start(ctx, cfg.Chain, nil, devchain.WithFeePolicy(cfg.Routing.FeePolicy))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dc.Close() })
	dc.Deployment().ApplyTo(&cfg)
	raw, err := rpc.Dial(dc.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(raw.Close)
	st, err := routing.Setup(ctx, cfg, routing.SetupDeps{Chain: dc.Client(), RPC: raw})
	if err != nil {
		t.Fatal(err)
	}
	return &devEnv{t: t, ctx: ctx, dc: dc, st: st, maker: dc.Accounts().Makers[0]}
}

// send signs data to `to` (with value wei) as the maker, mines a block and
// returns the receipt, failing on a revert.
func (e *devEnv) send(to common.Address, data []byte, value *big.Int) *types.Receipt {
	e.t.Helper()
	opts := bind.NewKeyedTransactor(e.maker.Key, new(big.Int).SetUint64(e.dc.ChainID()))
	opts.Context, opts.Value = e.ctx, value
	c := e.dc.Client()
	tx, err := bind.NewBoundContract(to, abi.ABI{}, c, c, c).RawTransact(opts, data)
	if err != nil {
		e.t.Fatalf("send to %s: %v", to.Hex(), err)
	}
	e.dc.Commit()
	r, err := c.TransactionReceipt(e.ctx, tx.Hash())
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("tx to %s failed: %v", to.Hex(), err)
	}
	return r
}

func (e *devEnv) balance(token, who common.Address) *big.Int {
	tt := testtoken.NewTestToken()
	ret, err := e.dc.Client().CallContract(e.ctx, ethereum.CallMsg{To: &token, Data: tt.PackBalanceOf(who)}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	v, _ := tt.UnpackBalanceOf(ret)
	return v
}

// TestRouteOnDevChain is the "done" check on the embedded dev
// chain: for every ordered pair of seeded tokens and amounts over six
// orders of magnitude, the route's direct-swap transaction, sent as served
// by the maker, delivers exactly amountOut (= verifiedOut) in the next
// block, and the gross output is at least every single pool's.
func TestRouteOnDevChain(t *testing.T) {
	if testing.Short() {
		t.Skip("dev chain test skipped in -short mode")
	}
	e := newDevEnv(t)
	d := e.dc.Deployment()
	tt := testtoken.NewTestToken()
	maxUint := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	var tokens []devchain.Token
	for _, tk := range d.Tokens {
		if tk.FeeOnTransfer {
			continue
		}
		tokens = append(tokens, tk)
		if tk.WrappedNative {
			e.send(tk.Address, hexutil.MustDecode("0xd0e30db0"), new(big.Int).Mul(big.NewInt(10_000), big.NewInt(1e18)))
		} else {
			e.send(tk.Address, tt.PackMint(e.maker.Address, new(big.Int).Lsh(big.NewInt(1), 200)), nil)
		}
		e.send(tk.Address, tt.PackApprove(d.Router, maxUint), nil)
	}
	n := 0
	for _, in := range tokens {
		for _, out := range tokens {
			if in.Address == out.Address {
				continue
			}
			for k := int64(-3); k <= 2; k++ {
				amt := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(in.Decimals)+k), nil)
				e.routeAndExecute(in, out, amt)
				n++
			}
		}
	}
	t.Logf("%d routes on the dev chain delivered their amountOut to the wei", n)
}

func (e *devEnv) routeAndExecute(in, out devchain.Token, amt *big.Int) {
	e.t.Helper()
	if err := e.st.Venues.Advance(e.ctx); err != nil {
		e.t.Fatal(err)
	}
	label := in.Symbol + "→" + out.Symbol + " " + amt.String()
	resp, err := e.st.Service.Route(e.ctx, routing.RouteParams{TokenIn: in.Address.Hex(), TokenOut: out.Address.Hex(),
		AmountIn: amt.String(), Wallet: e.maker.Address.Hex()})
	if err != nil {
		e.t.Fatalf("%s: %v", label, err)
	}
	if !resp.RouteSim.Verified || *resp.RouteSim.VerifiedOut != resp.AmountOut {
		e.t.Fatalf("%s: amountOut %s, routeSim %+v", label, resp.AmountOut, resp.RouteSim)
	}
	gross, _ := new(big.Int).SetString(resp.GrossAmountOut, 10)
	for _, p := range e.st.Venues.Snapshot().Pools() {
		t0, t1 := p.Tokens()
		if (t0 == in.Address && t1 == out.Address) || (t0 == out.Address && t1 == in.Address) {
			if single, err := p.AmountOut(in.Address, mustU256(amt)); err == nil && single.ToBig().Cmp(gross) > 0 {
				e.t.Fatalf("%s: pool %s alone gives %s, route %s", label, p.Address().Hex(), single.Dec(), gross)
			}
		}
	}
	before := e.balance(out.Address, e.maker.Address)
	rec := e.send(common.HexToAddress(resp.Route.Tx.To), hexutil.MustDecode(resp.Route.Tx.Data), nil)
	got := new(big.Int).Sub(e.balance(out.Address, e.maker.Address), before)
	if rec.BlockNumber.Uint64() != resp.Block+1 || got.String() != resp.AmountOut {
		e.t.Fatalf("%s: got %s in block %d, route promised %s at block %d", label, got, rec.BlockNumber, resp.AmountOut, resp.Block)
	}
}

func mustU256(b *big.Int) *uint256.Int { return uint256.MustFromBig(b) }
