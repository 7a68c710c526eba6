package routing

import (
	"context"
	"math/big"
	"testing"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient/gethclient"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/contracts"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// routerFees turns the engine's fee policy into the router's fee table.
func routerFees(policy map[string]map[string]config.FeeCell) []contracts.FeeCell {
	var cells []contracts.FeeCell
	for k, kind := range config.OrderKinds() {
		for c, class := range config.TokenClasses() {
			cell := policy[kind][class]
			cells = append(cells, contracts.FeeCell{Kind: uint8(k), Class: uint8(c), ProtocolPpm: cell.ProtocolPpm, KeeperPpm: cell.KeeperPpm})
		}
	}
	return cells
}

// serviceEnv is a deployment with the default fee policy on the router, a
// loaded venue cache and a Service over them.
type serviceEnv struct {
	*deployed
	cache *VenueCache
	svc   *Service
	cfg   config.RoutingConfig
}

func newServiceEnv(t *testing.T) *serviceEnv {
	t.Helper()
	c := newSimChain(t)
	cfg := config.Default().Routing
	d, err := contracts.Deploy(c.ctx, c.client, c.auth, contracts.Params{Fees: routerFees(cfg.FeePolicy),
		FeeVault: common.HexToAddress("0xfee0000000000000000000000000000000000001"), Mine: func() { c.sim.Commit() }})
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	e := &serviceEnv{deployed: &deployed{simChain: c, d: d}, cfg: cfg}
	var regs []config.TokenConfig
	for _, tk := range d.Tokens {
		regs = append(regs, config.TokenConfig{Address: tk.Address.Hex(), Symbol: tk.Symbol, Name: tk.Name, Decimals: tk.Decimals, Class: config.TokenClasses()[tk.Class]})
	}
	tokens, err := NewTokens(regs)
	if err != nil {
		t.Fatal(err)
	}
	tokens = tokens.WithOracle(OracleCoverage(c.ctx, c.client, d.Oracle))
	opts, missing := OptionsFromConfig(cfg, tokens)
	if len(missing) > 0 {
		t.Fatalf("unresolved tokens %v", missing)
	}
	fees, err := NewFeePolicy(cfg.FeePolicy, d.FeeVault, tokens, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.cache, err = NewVenueCache(c.client, d.Multicall, e.poolRefs(), DefaultFamilies()); err != nil {
		t.Fatal(err)
	}
	if err := e.cache.Load(c.ctx, nil); err != nil {
		t.Fatal(err)
	}
	e.svc = NewService(ServiceConfig{
		Venues: e.cache, Searcher: NewSearcher(opts), Tokens: tokens, Fees: fees,
		Verifier: NewVerifier(gethclient.New(c.rpc), d.Router, d.Executor, DefaultTokenLayout()),
		Chain:    c.client, Router: d.Router, Executor: d.Executor, Oracle: d.Oracle,
		DefaultSlippagePpm: cfg.DefaultSlippagePpm, VerifyTop: cfg.VerifyTop,
	})
	return e
}

// fundRouter gives the account plenty of every token and approves the router.
func (e *serviceEnv) fundRouter() {
	tt := testtoken.NewTestToken()
	maxUint := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for _, tk := range e.d.Tokens {
		if tk.Address == e.d.WrappedNative {
			opts := *e.auth
			opts.Value = new(big.Int).Mul(big.NewInt(100_000), big.NewInt(1e18))
			tx, err := bindRawValue(e.simChain, tk.Address, common.FromHex("0xd0e30db0"), opts.Value)
			if err != nil {
				e.t.Fatal(err)
			}
			e.receipt(tx)
		} else {
			e.send(tk.Address, tt.PackMint(e.from, new(big.Int).Lsh(big.NewInt(1), 200)))
		}
		e.send(tk.Address, tt.PackApprove(e.d.Router, maxUint))
	}
}

func (e *serviceEnv) balance(token, who common.Address) *big.Int {
	tt := testtoken.NewTestToken()
	out, err := e.call(token, tt.PackBalanceOf(who))
	if err != nil {
		e.t.Fatal(err)
	}
	v, _ := tt.UnpackBalanceOf(out)
	return v
}

// TestRouteDeliversToTheWei is the acceptance check on a simulated
// chain with the real contracts: for every ordered pair of deployed tokens
// and amounts over six orders of magnitude, GET /v1/route's direct-swap
// transaction, sent as served, delivers exactly the route's amountOut (=
// its verifiedOut) at the quoted block, and the route's gross output is at
// least every single pool's.
func TestRouteDeliversToTheWei(t *testing.T) {
	if testing.Short() {
		t.Skip("simulated chain test skipped in -short mode")
	}
	e := newServiceEnv(t)
	e.fundRouter()
	ctx := context.Background()
	routes := 0
	for _, in := range e.d.Tokens {
		for _, out := range e.d.Tokens {
			if in.Address == out.Address {
				continue
			}
			for k := 0; k < 6; k++ {
				// 0.001 … 100 whole tokens.
				amt := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(in.Decimals)+int64(k)-3), nil)
				if err := e.cache.Advance(ctx); err != nil {
					t.Fatal(err)
				}
				resp, err := e.svc.Route(ctx, RouteParams{TokenIn: in.Address.Hex(), TokenOut: out.Address.Hex(),
					AmountIn: amt.String(), Wallet: e.from.Hex()})
				if err != nil {
					t.Fatalf("%s→%s %s: %v", in.Symbol, out.Symbol, amt, err)
				}
				checkRouteResponse(t, e, resp, in.Symbol+"→"+out.Symbol)
				routes++
			}
		}
	}
	t.Logf("%d routes executed through the router, each delivering its amountOut to the wei", routes)
}

func checkRouteResponse(t *testing.T, e *serviceEnv, resp *RouteResponse, label string) {
	t.Helper()
	if !resp.RouteSim.Verified || resp.RouteSim.VerifiedOut == nil || *resp.RouteSim.VerifiedOut != resp.AmountOut {
		t.Fatalf("%s: amountOut %s, routeSim %+v", label, resp.AmountOut, resp.RouteSim)
	}
	head, _ := e.client.HeaderByNumber(e.ctx, nil)
	if resp.Block != head.Number.Uint64() {
		t.Fatalf("%s: quoted at %d, head %d", label, resp.Block, head.Number.Uint64())
	}
	gross := uint256.MustFromDecimal(resp.GrossAmountOut)
	snap := e.cache.Snapshot()
	for _, p := range snap.Pools() {
		t0, t1 := p.Tokens()
		tin, tout := common.HexToAddress(resp.TokenIn), common.HexToAddress(resp.TokenOut)
		if (t0 == tin && t1 == tout) || (t0 == tout && t1 == tin) {
			single, err := p.AmountOut(tin, uint256.MustFromDecimal(resp.AmountIn))
			if err == nil && single.Gt(gross) {
				t.Fatalf("%s: pool %s alone gives %s, route %s", label, p.Address().Hex(), single.Dec(), gross.Dec())
			}
		}
	}
	tokenOut := common.HexToAddress(resp.TokenOut)
	before := e.balance(tokenOut, e.from)
	rec := e.send(common.HexToAddress(resp.Route.Tx.To), hexutil.MustDecode(resp.Route.Tx.Data))
	if rec.BlockNumber.Uint64() != resp.Block+1 {
		t.Fatalf("%s: executed in block %d, quoted at %d", label, rec.BlockNumber.Uint64(), resp.Block)
	}
	got := new(big.Int).Sub(e.balance(tokenOut, e.from), before)
	if got.String() != resp.AmountOut {
		t.Fatalf("%s: receiver got %s, route promised %s (gross %s)", label, got, resp.AmountOut, resp.GrossAmountOut)
	}
}
