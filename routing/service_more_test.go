package routing

import (
	"context"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	oe "github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/contracts"
)

// TestServiceEndpoints exercises the order path's verification, quote,
// spot, tokens and preflight against the deployment.
func TestServiceEndpoints(t *testing.T) {
	if testing.Short() {
		t.Skip("simulated chain test skipped in -short mode")
	}
	e := newServiceEnv(t)
	t.Run("order path", func(t *testing.T) { checkOrderPath(t, e) })
	t.Run("errors", func(t *testing.T) { checkRouteErrors(t, e) })
	t.Run("market", func(t *testing.T) { checkMarket(t, e) })
	t.Run("preflight", func(t *testing.T) { checkPreflight(t, e) })
}

func checkOrderPath(t *testing.T, e *serviceEnv) {
	ctx := context.Background()
	weth, usdc := e.token("WETH"), e.token("USDC")
	policy := e.cfg.FeePolicy
	// Order path: verified through the executor, net of the limit cell.
	resp, err := e.svc.Route(ctx, RouteParams{TokenIn: weth.Hex(), TokenOut: usdc.Hex(), AmountIn: "2000000000000000000", OrderType: "limit"})
	if err != nil {
		t.Fatal(err)
	}
	if resp.DirectSwap || resp.Route.EntryPoint != "fillOrder" || resp.Route.Tx != nil {
		t.Fatalf("orderType=limit must serve the order path: %+v", resp.Route)
	}
	if resp.FeeLegs.Cell.OrderKind != "limit" || resp.FeeLegs.Fees.Triggered != policy["limit"]["major"] {
		t.Fatalf("fee legs %+v", resp.FeeLegs)
	}
	want := Amounts(uint256.MustFromDecimal(resp.GrossAmountOut), policy["limit"]["major"]).Net
	if resp.AmountOut != want.Dec() || resp.RouteSim.VerifiedOut == nil || *resp.RouteSim.VerifiedOut != resp.AmountOut || resp.RouteSim.DeliveryPpm != 1_000_000 {
		t.Fatalf("order path amounts: out %s want %s sim %+v", resp.AmountOut, want.Dec(), resp.RouteSim)
	}
	if mo := MinAmountOut(want, e.cfg.DefaultSlippagePpm).Dec(); resp.MinAmountOut != mo {
		t.Fatalf("minAmountOut %s, want %s", resp.MinAmountOut, mo)
	}
	if len(resp.Route.Targets) != len(resp.Route.Calldatas) || len(resp.Route.Targets) != 2*countHops(resp) {
		t.Fatalf("calls %d/%d for %d hops", len(resp.Route.Targets), len(resp.Route.Calldatas), countHops(resp))
	}

}

func checkRouteErrors(t *testing.T, e *serviceEnv) {
	ctx := context.Background()
	weth, usdc, usdt := e.token("WETH"), e.token("USDC"), e.token("USDT")
	// Errors name the parameter; exclude drops a family.
	for _, p := range []RouteParams{
		{TokenIn: "0x12", TokenOut: usdc.Hex(), AmountIn: "1"},
		{TokenIn: weth.Hex(), TokenOut: usdc.Hex(), AmountIn: "-5"},
		{TokenIn: weth.Hex(), TokenOut: usdc.Hex(), AmountIn: "1", Exclude: []string{"uniswap"}},
		{TokenIn: weth.Hex(), TokenOut: usdc.Hex(), AmountIn: "1", OrderType: "market"},
	} {
		if _, err := e.svc.Route(ctx, p); codeOf(err) != oe.CodeInvalidRequest {
			t.Fatalf("%+v: %v", p, err)
		}
	}
	resp, err := e.svc.Route(ctx, RouteParams{TokenIn: usdc.Hex(), TokenOut: usdt.Hex(), AmountIn: "1000000000", Exclude: []string{"stableswap"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range resp.Route.Paths {
		for _, h := range p.Hops {
			if h.Family == FamilyStableSwap {
				t.Fatal("excluded family used")
			}
		}
	}
	for _, c := range resp.Candidates {
		if c.Family == FamilyStableSwap {
			t.Fatal("excluded family among candidates")
		}
	}
	if _, err := e.svc.Route(ctx, RouteParams{TokenIn: usdc.Hex(), TokenOut: usdt.Hex(), AmountIn: "1000", Exclude: []string{"stableswap", "cpmm"}}); codeOf(err) != oe.CodeNoPool {
		t.Fatalf("every family excluded: %v", err)
	}

	// A verifier that cannot execute anything: no route is served.
	broken := *e.svc
	broken.cfg.Verifier = NewVerifier(e.svc.cfg.Verifier.caller, common.HexToAddress("0xdead"), e.d.Executor, DefaultTokenLayout())
	if _, err := broken.Route(ctx, RouteParams{TokenIn: weth.Hex(), TokenOut: usdc.Hex(), AmountIn: "1000000"}); codeOf(err) != oe.CodeNoRoute {
		t.Fatalf("unverifiable route served: %v", err)
	}
	// Triggered kinds need listed tokens with oracle prices.
	unlisted := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	if _, err := e.svc.Route(ctx, RouteParams{TokenIn: weth.Hex(), TokenOut: unlisted.Hex(), AmountIn: "1", OrderType: "trailing"}); codeOf(err) != oe.CodeUnsupportedPair {
		t.Fatalf("unlisted token for a trailing order: %v", err)
	}

}

func checkMarket(t *testing.T, e *serviceEnv) {
	ctx := context.Background()
	weth, usdc := e.token("WETH"), e.token("USDC")
	// Quote: venue by venue, best first.
	q, err := e.svc.Quote(ctx, QuoteParams{TokenIn: weth.Hex(), TokenOut: usdc.Hex(), AmountIn: "1000000000000000000"})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Quotes) < 2 || q.Quotes[0].AmountOut == "" {
		t.Fatalf("quotes %+v", q.Quotes)
	}
	for i := 1; i < len(q.Quotes); i++ {
		if uint256.MustFromDecimal(q.Quotes[i].AmountOut).Gt(uint256.MustFromDecimal(q.Quotes[i-1].AmountOut)) {
			t.Fatal("quotes not sorted best first")
		}
	}

	// Spot: 1 WETH ≈ 3000 USDC (6 decimals) in the seeded pools.
	sp, err := e.svc.Spot(ctx, SpotParams{TokenIn: weth.Hex(), TokenOut: usdc.Hex(), AmountIn: "500000000000000000"})
	if err != nil {
		t.Fatal(err)
	}
	if price := uint256.MustFromDecimal(sp.Price); price.Lt(uint256.NewInt(2_990_000_000)) || price.Gt(uint256.NewInt(3_010_000_000)) || sp.Venue != FamilyCPMM {
		t.Fatalf("spot %+v", sp)
	}

	// Tokens: search by symbol or name.
	toks, _ := e.svc.Tokens(ctx, "usd")
	if len(toks.Tokens) != 2 {
		t.Fatalf("search usd: %+v", toks.Tokens)
	}

}

func checkPreflight(t *testing.T, e *serviceEnv) {
	ctx := context.Background()
	weth, usdc := e.token("WETH"), e.token("USDC")
	// Preflight: the funded, approving deployer passes balance and
	// allowance; a fresh wallet fails both; a stop-loss needs the oracle.
	e.fundRouter()
	if err := e.cache.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	pf, err := e.svc.Preflight(ctx, PreflightParams{TokenIn: usdc.Hex(), TokenOut: weth.Hex(), AmountIn: "1000000000", Wallet: e.from.Hex(), IsStopLoss: true})
	if err != nil {
		t.Fatal(err)
	}
	if !pf.OK || pf.OrderKind != "stop_loss" || len(pf.Checks) != 5 {
		t.Fatalf("funded preflight: %+v", pf)
	}
	fresh := common.HexToAddress("0x00000000000000000000000000000000000f7e54")
	pf, _ = e.svc.Preflight(ctx, PreflightParams{TokenIn: usdc.Hex(), TokenOut: weth.Hex(), AmountIn: "1000000000", Wallet: fresh.Hex()})
	if pf.OK || pf.Checks[0].OK || pf.Checks[1].OK || !pf.Checks[2].OK {
		t.Fatalf("fresh wallet preflight: %+v", pf.Checks)
	}
	// Two hours later the oracle (maxAge 1 h) is stale: a stop-loss fails
	// its oracle check, a limit order does not need the oracle.
	if err := contracts.AdjustTime(e.sim, 2*time.Hour); err != nil {
		t.Fatal(err)
	}
	e.sim.Commit()
	if err := e.cache.Advance(ctx); err != nil {
		t.Fatal(err)
	}
	q := PreflightParams{TokenIn: usdc.Hex(), TokenOut: weth.Hex(), AmountIn: "1000000000", Wallet: e.from.Hex(), IsStopLoss: true}
	if pf, _ = e.svc.Preflight(ctx, q); pf.OK || pf.Checks[4].Name != "oracle" || pf.Checks[4].OK {
		t.Fatalf("stale oracle, stop-loss: %+v", pf.Checks)
	}
	q.IsStopLoss = false
	if pf, _ = e.svc.Preflight(ctx, q); !pf.OK || pf.OrderKind != "limit" {
		t.Fatalf("stale oracle, limit: %+v", pf.Checks)
	}
}

func countHops(r *RouteResponse) int {
	n := 0
	for _, p := range r.Route.Paths {
		n += len(p.Hops)
	}
	return n
}

func TestPickVerifiedReranks(t *testing.T) {
	a := &Route{AmountOut: uint256.NewInt(1000), Family: FamilyMixed}
	b := &Route{AmountOut: uint256.NewInt(990), Family: FamilyCPMM}
	cell := config.FeeCell{}
	i, sim := pickVerified([]*Route{a, b}, []candidateSim{{net: uint256.NewInt(900)}, {net: uint256.NewInt(990)}}, cell)
	if i != 1 || !sim.Reranked || sim.DisplacedDex == nil || *sim.DisplacedDex != FamilyMixed || *sim.VerifiedOut != "990" || sim.DeliveryPpm != 1_000_000 {
		t.Fatalf("rerank: %d %+v", i, sim)
	}
	i, sim = pickVerified([]*Route{a, b}, []candidateSim{{net: uint256.NewInt(999)}, {}}, cell)
	if i != 0 || sim.Reranked || sim.DisplacedDex != nil || sim.DeliveryPpm != 999_000 {
		t.Fatalf("no rerank: %d %+v", i, sim)
	}
	i, sim = pickVerified([]*Route{a, b}, []candidateSim{{}, {}}, cell)
	if i != 0 || sim.Verified || sim.VerifiedOut != nil {
		t.Fatalf("nothing verified: %+v", sim)
	}
}
