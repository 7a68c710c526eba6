package http_test

import (
	"encoding/json"
	"testing"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/app/apptest"
	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/routing"
)

type staticVenues struct{ snap *routing.Snapshot }

func (s staticVenues) Snapshot() *routing.Snapshot { return s.snap }

func whole(n uint64, decimals int) *uint256.Int {
	return new(uint256.Int).Mul(uint256.NewInt(n), new(uint256.Int).Exp(uint256.NewInt(10), uint256.NewInt(uint64(decimals))))
}

// newRoutingServer serves the routing endpoints over a fixed two-pool
// snapshot (WETH/USDC cpmm, USDC/USDT stableswap), without a chain.
func newRoutingServer(t *testing.T) (*apptest.Server, common.Address, common.Address, common.Address) {
	t.Helper()
	weth := common.HexToAddress("0x00000000000000000000000000000000000000e1")
	usdc := common.HexToAddress("0x00000000000000000000000000000000000000c1")
	usdt := common.HexToAddress("0x00000000000000000000000000000000000000d1")
	snap := routing.NewSnapshot(77, []routing.Pool{
		routing.NewCPMMPool(common.HexToAddress("0xa1"), weth, usdc, whole(1000, 18), whole(3_000_000, 6), 3000),
		routing.NewStableSwapPool(common.HexToAddress("0xa2"), usdc, usdt, whole(5_000_000, 6), whole(5_000_000, 6), 200, 4_000_000, 6, 6),
	})
	cfg := config.Default().Routing
	tokens, err := routing.NewTokens([]config.TokenConfig{
		{Address: weth.Hex(), Symbol: "WETH", Name: "Wrapped Ether", Decimals: 18, Class: "major"},
		{Address: usdc.Hex(), Symbol: "USDC", Name: "USD Coin", Decimals: 6, Class: "stable"},
		{Address: usdt.Hex(), Symbol: "USDT", Name: "Tether USD", Decimals: 6, Class: "stable"},
	})
	if err != nil {
		t.Fatal(err)
	}
	tokens = tokens.WithOracle(func(a common.Address) bool { return a != usdc })
	opts, _ := routing.OptionsFromConfig(cfg, tokens)
	fees, err := routing.NewFeePolicy(cfg.FeePolicy, common.HexToAddress("0xfee"), tokens, nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := routing.NewService(routing.ServiceConfig{Venues: staticVenues{snap}, Searcher: routing.NewSearcher(opts),
		Tokens: tokens, Fees: fees, DefaultSlippagePpm: cfg.DefaultSlippagePpm})
	srv := apptest.NewTestServer(t, apptest.WithServices(apihttp.Services{Routing: apihttp.NewRoutingService(svc)}))
	return srv, weth, usdc, usdt
}

func TestRoutingEndpoints(t *testing.T) {
	srv, weth, usdc, usdt := newRoutingServer(t)
	r := srv.Get("/v1/route?tokenIn=" + weth.Hex() + "&tokenOut=" + usdt.Hex() + "&amountIn=1000000000000000000&orderType=dca&exclude=uniswap")
	if r.Status != 400 || r.Code() != "INVALID_REQUEST" {
		t.Fatalf("unknown exclude family: %d %s", r.Status, r.Body)
	}
	r = srv.Get("/v1/route?tokenIn=" + weth.Hex() + "&tokenOut=" + usdt.Hex() + "&amountIn=1000000000000000000&orderType=dca&slippagePpm=10000")
	if r.Status != 200 {
		t.Fatalf("route: %d %s", r.Status, r.Body)
	}
	var route struct {
		AmountOut, MinAmountOut, GrossAmountOut string
		Block                                   uint64
		FeeLegs                                 struct {
			Cell struct{ OrderKind, TokenClass string }
		}
		Route struct {
			Targets []string
			Paths   []struct{ Hops []struct{ Family string } }
		}
	}
	if err := json.Unmarshal(r.Body, &route); err != nil {
		t.Fatal(err)
	}
	if route.Block != 77 || route.FeeLegs.Cell.OrderKind != "dca" || route.FeeLegs.Cell.TokenClass != "major" ||
		len(route.Route.Paths) != 1 || len(route.Route.Paths[0].Hops) != 2 || len(route.Route.Targets) != 4 {
		t.Fatalf("route body: %s", r.Body)
	}
	if r = srv.Get("/v1/route?tokenIn=0xzz&tokenOut=" + usdt.Hex() + "&amountIn=1"); r.Status != 400 || r.Code() != "INVALID_REQUEST" {
		t.Fatalf("bad address: %d %s", r.Status, r.Body)
	}
	if r = srv.Get("/v1/route?tokenIn=" + weth.Hex() + "&tokenOut=0x00000000000000000000000000000000000000f9&amountIn=1"); r.Status != 422 || r.Code() != "NO_POOL" {
		t.Fatalf("unknown token: %d %s", r.Status, r.Body)
	}
	if r = srv.Get("/v1/route?tokenIn=" + weth.Hex() + "&tokenOut=" + usdc.Hex() + "&amountIn=1000&orderType=stop_loss"); r.Status != 422 || r.Code() != "NO_ORACLE" {
		t.Fatalf("stop-loss on a token without oracle: %d %s", r.Status, r.Body)
	}
	if r = srv.Get("/v1/quote?tokenIn=" + usdc.Hex() + "&tokenOut=" + weth.Hex() + "&amountIn=5000000000"); r.Status != 200 {
		t.Fatalf("quote: %d %s", r.Status, r.Body)
	}
	if r = srv.Get("/api/spot?tokenIn=" + weth.Hex() + "&tokenOut=" + usdc.Hex()); r.Status != 200 {
		t.Fatalf("spot: %d %s", r.Status, r.Body)
	}
	var spot struct{ Price, Venue string }
	_ = json.Unmarshal(r.Body, &spot)
	if spot.Price != "3000000000" || spot.Venue != "cpmm" {
		t.Fatalf("spot body %s", r.Body)
	}
	if r = srv.Get("/v1/tokens?search=tether"); r.Status != 200 {
		t.Fatalf("tokens: %d %s", r.Status, r.Body)
	}
	var toks struct{ Tokens []struct{ Symbol string } }
	_ = json.Unmarshal(r.Body, &toks)
	if len(toks.Tokens) != 1 || toks.Tokens[0].Symbol != "USDT" {
		t.Fatalf("tokens body %s", r.Body)
	}
	r = srv.Get("/v1/order-preflight?tokenIn=" + weth.Hex() + "&tokenOut=" + usdc.Hex() + "&amountIn=1000&wallet=" + weth.Hex())
	if r.Status != 200 {
		t.Fatalf("preflight: %d %s", r.Status, r.Body)
	}
	var pf struct {
		OK     bool
		Checks []struct {
			Name string
			OK   bool
		}
	}
	_ = json.Unmarshal(r.Body, &pf)
	if pf.OK || len(pf.Checks) != 5 || pf.Checks[0].OK {
		t.Fatalf("preflight without a chain must fail its balance check: %s", r.Body)
	}
}
