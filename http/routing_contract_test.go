package http_test

import (
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/routing"
)

// TestRoutingParameterValidation sends every malformed parameter of the
// five routing endpoints: each is 400 INVALID_REQUEST with a message naming
// the parameter (docs/routing.md, Endpoints).
func TestRoutingParameterValidation(t *testing.T) {
	e := newRoutingEnv(t, nil)
	weth, usdc := e.tok("WETH"), e.tok("USDC")
	pair := "tokenIn=" + weth + "&tokenOut=" + usdc
	ok := pair + "&amountIn=1000000000000000000"
	const maxUint = "115792089237316195423570985008687907853269984665640564039457584007913129639935"
	var cases []struct{ path, param string }
	add := func(path, param string) { cases = append(cases, struct{ path, param string }{path, param}) }
	// Parameters the route, quote and preflight calls share.
	for _, ep := range []string{"/v1/route?", "/v1/quote?", "/v1/order-preflight?wallet=" + e.tok("DAI") + "&"} {
		add(ep+"tokenOut="+usdc+"&amountIn=1", "tokenIn")
		add(ep+"tokenIn="+weth+"&amountIn=1", "tokenOut")
		add(ep+pair, "amountIn")
		add(ep+pair+"&amountIn=", "amountIn")
		add(ep+"tokenIn=0x12&tokenOut="+usdc+"&amountIn=1", "tokenIn")
		add(ep+"tokenIn="+weth+"&tokenOut="+usdc[2:]+"&amountIn=1", "tokenOut")
		add(ep+"tokenIn="+weth+"&tokenOut=0x"+strings.Repeat("g", 40)+"&amountIn=1", "tokenOut")
		add(ep+"tokenIn="+weth+"&tokenOut="+strings.ToLower(weth)+"&amountIn=1", "tokenOut")
		for _, amt := range []string{"0", "-1", "1.5", "1e18", "0x10", "%2B5", "%205", "5%20", "abc", maxUint + "0", "115792089237316195423570985008687907853269984665640564039457584007913129639936"} {
			add(ep+pair+"&amountIn="+amt, "amountIn")
		}
	}
	for _, ep := range []string{"/v1/route?" + ok, "/v1/order-preflight?wallet=" + e.tok("DAI") + "&" + ok} {
		for _, v := range []string{"1000001", "-1", "1.5", "1e3", "abc", "99999999999999999999"} {
			add(ep+"&slippagePpm="+v, "slippagePpm")
		}
	}
	for _, v := range []string{"2", "true", "yes", "-1"} {
		add("/v1/route?"+ok+"&directSwap="+v, "directSwap")
		add("/v1/route?"+ok+"&triggered="+v, "triggered")
	}
	for _, v := range []string{"market", "direct", "LIMIT", "stop-loss", "dca%20"} {
		add("/v1/route?"+ok+"&orderType="+v, "orderType")
	}
	for _, name := range []string{"wallet", "referrer"} {
		for _, v := range []string{"0x12", "abc", strings.Repeat("1", 40), "0x" + strings.Repeat("z", 40)} {
			add("/v1/route?"+ok+"&"+name+"="+v, name)
		}
	}
	for _, v := range []string{"uniswap", "CPMM", "mixed", "cpmm;stableswap"} {
		add("/v1/route?"+ok+"&exclude="+v, "exclude")
		add("/v1/route?"+ok+"&exclude=cpmm&exclude="+v, "exclude")
		add("/v1/route?"+ok+"&exclude=stableswap,"+v, "exclude")
	}
	add("/v1/order-preflight?"+ok, "wallet")
	add("/v1/order-preflight?"+ok+"&wallet=0x12", "wallet")
	add("/api/spot?tokenIn="+weth, "tokenOut")
	add("/api/spot?tokenOut="+usdc, "tokenIn")
	add("/api/spot?tokenIn="+weth+"&tokenOut="+weth, "tokenOut")
	add("/api/spot?tokenIn=0x12&tokenOut="+usdc, "tokenIn")
	for _, amt := range []string{"0", "-1", "1.5", maxUint + "0"} {
		add("/api/spot?"+pair+"&amountIn="+amt, "amountIn")
	}
	add("/v1/tokens?search="+strings.Repeat("a", 65), "search")
	for _, c := range cases {
		r := e.wantError(c.path, 400, orderengine.CodeInvalidRequest)
		if !strings.Contains(string(r.Body), c.param) {
			t.Errorf("GET %s: %s does not name %s", c.path, r.Body, c.param)
		}
	}
	// The largest uint256 and the edges of the ppm range are valid input.
	for _, path := range []string{
		"/v1/route?" + ok + "&slippagePpm=0", "/v1/route?" + ok + "&slippagePpm=1000000",
		"/v1/route?" + ok + "&directSwap=0&triggered=0", "/v1/route?" + ok + "&orderType=dca&triggered=1",
		"/api/spot?" + pair + "&amountIn=" + maxUint,
	} {
		e.getJSON(path, 200, nil)
	}
	// An amount no pool can carry is no route, not a malformed request.
	e.wantError("/v1/route?"+pair+"&amountIn="+maxUint, 422, orderengine.CodeNoRoute)
}

// TestRouteLiquidityErrors: the statuses contract.md section 4 gives the
// route call's liquidity errors, all 422: NO_POOL for a token without a pool
// of an allowed family (also when exclude drops the only family), NO_ROUTE
// when no path carries the amount, UNSUPPORTED_PAIR for an order kind that
// reads the oracle on a token the registry does not list (a limit order
// does not need it, and gets NO_POOL).
func TestRouteLiquidityErrors(t *testing.T) {
	e := newRoutingEnv(t, nil)
	weth, usdc := e.tok("WETH"), e.tok("USDC")
	unlisted := "0x00000000000000000000000000000000000000aa"
	route := func(in, out, amt, extra string) string {
		return "/v1/route?tokenIn=" + in + "&tokenOut=" + out + "&amountIn=" + amt + extra
	}
	e.wantError(route(weth, unlisted, "1000", ""), 422, orderengine.CodeNoPool)
	e.wantError(route(weth, unlisted, "1000", "&orderType=limit"), 422, orderengine.CodeNoPool)
	e.wantError(route(weth, usdc, "1000000000000000000", "&exclude=cpmm"), 422, orderengine.CodeNoPool)
	e.wantError(route(weth, usdc, "1", ""), 422, orderengine.CodeNoRoute)
	for _, kind := range []string{"stop_loss", "take_profit", "dca", "trailing"} {
		e.wantError(route(weth, unlisted, "1000", "&orderType="+kind), 422, orderengine.CodeUnsupportedPair)
		e.wantError(route(unlisted, weth, "1000", "&orderType="+kind), 422, orderengine.CodeUnsupportedPair)
	}
	e.wantError("/v1/quote?tokenIn="+weth+"&tokenOut="+unlisted+"&amountIn=1000", 422, orderengine.CodeNoPool)
	e.wantError("/v1/quote?tokenIn="+weth+"&tokenOut="+usdc+"&amountIn=1", 422, orderengine.CodeNoRoute)
	e.wantError("/api/spot?tokenIn="+unlisted+"&tokenOut="+usdc, 422, orderengine.CodeNoPool)
}

// classPairs are token pairs of each fee class on the dev chain, with an
// amount of tokenIn.
var classPairs = []struct{ class, in, out, amount string }{
	{"stable", "USDC", "USDT", "1000000000"},
	{"major", "WETH", "USDC", "1000000000000000000"},
	{"other", "DEMO", "USDC", "1000000000000000000000"},
}

// TestRouteFeeCells: the route's fee legs are the policy's cell of the
// orderType × the pair's token class (the direct cell when orderType is
// omitted), the path served follows directSwap (default: direct when
// orderType is omitted, the order path when it is given), and the amounts
// are net of the served path's cell: fees = gross × ppm / 1e6 (floor),
// amountOut = gross − fees, minAmountOut = amountOut × (1e6 − slippage) /
// 1e6 (floor), verifiedOut = amountOut at the quoted block.
func TestRouteFeeCells(t *testing.T) {
	e := newRoutingEnv(t, nil)
	policy := e.cfg.Routing.FeePolicy
	for _, p := range classPairs {
		for _, kind := range []string{"", "limit", "stop_loss", "take_profit", "dca", "trailing"} {
			for _, direct := range []string{"", "0", "1"} {
				path := "/v1/route?tokenIn=" + e.tok(p.in) + "&tokenOut=" + e.tok(p.out) + "&amountIn=" + p.amount + "&slippagePpm=12345"
				if kind != "" {
					path += "&orderType=" + kind
				}
				if direct != "" {
					path += "&directSwap=" + direct
				}
				var r routing.RouteResponse
				e.getJSON(path, 200, &r)
				label := p.class + " " + kind + " directSwap=" + direct
				cellKind := kind
				if cellKind == "" {
					cellKind = config.KindDirect
				}
				legs := r.FeeLegs
				if legs.Cell.OrderKind != cellKind || legs.Cell.TokenClass != p.class ||
					legs.Fees.Triggered != policy[cellKind][p.class] || legs.Fees.Direct != policy[config.KindDirect][p.class] {
					t.Errorf("%s: feeLegs %+v", label, legs)
				}
				if legs.Vault != e.dc.Deployment().FeeVault.Hex() || legs.Referrer != legs.Vault {
					t.Errorf("%s: referrer %s vault %s, want the fee vault for an unbound request", label, legs.Referrer, legs.Vault)
				}
				wantDirect := direct == "1" || (direct == "" && kind == "")
				if r.DirectSwap != wantDirect || (r.Route.Tx != nil) != wantDirect || (r.Route.EntryPoint == "swap") != wantDirect {
					t.Errorf("%s: directSwap %v entryPoint %s tx %v", label, r.DirectSwap, r.Route.EntryPoint, r.Route.Tx != nil)
				}
				cell := legs.Fees.Triggered
				if wantDirect {
					cell = legs.Fees.Direct
				}
				checkAmounts(t, label, r, cell, 12345)
			}
		}
	}
}

// checkAmounts checks a route's amounts against its gross output and the
// served fee cell.
func checkAmounts(t *testing.T, label string, r routing.RouteResponse, cell config.FeeCell, slippage uint64) {
	t.Helper()
	gross := uint256.MustFromDecimal(r.GrossAmountOut)
	leg := func(ppm uint32) *uint256.Int {
		return new(uint256.Int).Div(new(uint256.Int).Mul(gross, uint256.NewInt(uint64(ppm))), uint256.NewInt(1_000_000))
	}
	p, ref, k := leg(cell.ProtocolPpm), leg(cell.ReferralPpm), leg(cell.KeeperPpm)
	net := new(uint256.Int).Sub(gross, new(uint256.Int).Add(p, new(uint256.Int).Add(ref, k)))
	minOut := new(uint256.Int).Div(new(uint256.Int).Mul(net, uint256.NewInt(1_000_000-slippage)), uint256.NewInt(1_000_000))
	if r.Fees.Protocol != p.Dec() || r.Fees.Referral != ref.Dec() || r.Fees.Keeper != k.Dec() || r.AmountOut != net.Dec() {
		t.Errorf("%s: gross %s fees %+v amountOut %s, want %s/%s/%s and %s", label, gross.Dec(), r.Fees, r.AmountOut, p.Dec(), ref.Dec(), k.Dec(), net.Dec())
	}
	if r.MinAmountOut != minOut.Dec() || r.Route.MinAmountOut != r.MinAmountOut || uint64(r.SlippagePpm) != slippage {
		t.Errorf("%s: minAmountOut %s (route %s, slippage %d), want %s", label, r.MinAmountOut, r.Route.MinAmountOut, r.SlippagePpm, minOut.Dec())
	}
	if !r.RouteSim.Verified || r.RouteSim.VerifiedOut == nil || *r.RouteSim.VerifiedOut != r.AmountOut || r.RouteSim.DeliveryPpm != 1_000_000 {
		t.Errorf("%s: amountOut %s, routeSim %+v", label, r.AmountOut, r.RouteSim)
	}
}

// TestRouteResponseShape checks the named contents of specification section
// 2.2 in real answers: the executable route (targets, calldatas, amounts,
// minAmountOut) consistent with its paths, expected and minimum output,
// price impact, split suggestions for a large order, feeLegs, candidates
// (one per venue family, the served one first, each simulated), routeSim;
// and that exclude, comma-separated or repeated, drops a family from the
// race.
func TestRouteResponseShape(t *testing.T) {
	e := newRoutingEnv(t, nil)
	weth, usdc, usdt := e.tok("WETH"), e.tok("USDC"), e.tok("USDT")
	var r routing.RouteResponse
	e.getJSON("/v1/route?tokenIn="+weth+"&tokenOut="+usdc+"&amountIn=1000000000000000000", 200, &r)
	if r.TokenIn != weth || r.TokenOut != usdc || r.AmountIn != "1000000000000000000" || r.Block == 0 {
		t.Fatalf("echo: %+v", r)
	}
	hops, legs := 0, 0
	for _, p := range r.Route.Paths {
		hops += len(p.Hops)
		legs += int(p.SharePpm)
	}
	if len(r.Route.Targets) != 2*hops || len(r.Route.Calldatas) != len(r.Route.Targets) || len(r.Route.Amounts) != len(r.Route.Targets) || legs != 1_000_000 {
		t.Fatalf("calls: %d targets, %d calldatas, %d amounts for %d hops (shares %d ppm)", len(r.Route.Targets), len(r.Route.Calldatas), len(r.Route.Amounts), hops, legs)
	}
	if r.Route.Router != e.dc.Deployment().Router.Hex() || r.Route.Executor != e.dc.Deployment().Executor.Hex() {
		t.Errorf("router %s executor %s", r.Route.Router, r.Route.Executor)
	}
	if r.PriceImpactPpm == 0 || r.PriceImpactPpm >= 1_000_000 || len(r.Splits) != 0 {
		t.Errorf("1 WETH: impact %d ppm, splits %+v", r.PriceImpactPpm, r.Splits)
	}
	checkCandidates(t, r)

	// A large order carries split suggestions (impact above 1 %).
	var big routing.RouteResponse
	e.getJSON("/v1/route?tokenIn="+weth+"&tokenOut="+usdc+"&amountIn=300000000000000000000", 200, &big)
	kinds := map[string]bool{}
	for _, s := range big.Splits {
		kinds[s.Kind] = s.Message != ""
	}
	if big.PriceImpactPpm <= e.cfg.Routing.ImpactSuggestPpm || !kinds["chunks"] {
		t.Errorf("300 WETH: impact %d ppm, splits %+v", big.PriceImpactPpm, big.Splits)
	}
	checkCandidates(t, big)

	// exclude: both forms drop the family from the route and the race.
	base := "/v1/route?tokenIn=" + usdc + "&tokenOut=" + usdt + "&amountIn=1000000000"
	var all routing.RouteResponse
	e.getJSON(base, 200, &all)
	families := map[string]bool{}
	for _, c := range all.Candidates {
		families[c.Family] = true
	}
	if !families["stableswap"] {
		t.Fatalf("USDC→USDT candidates %+v", all.Candidates)
	}
	var comma, repeated routing.RouteResponse
	e.getJSON(base+"&exclude=stableswap,%20", 200, &comma)
	e.getJSON(base+"&exclude=stableswap&exclude=", 200, &repeated)
	for _, x := range []routing.RouteResponse{comma, repeated} {
		for _, c := range x.Candidates {
			if c.Family != routing.FamilyCPMM {
				t.Errorf("exclude=stableswap: candidate %s", c.Family)
			}
		}
		for _, p := range x.Route.Paths {
			for _, h := range p.Hops {
				if h.Family != routing.FamilyCPMM {
					t.Errorf("exclude=stableswap: hop through %s", h.Family)
				}
			}
		}
	}
	if comma.AmountOut != repeated.AmountOut || comma.AmountOut == all.AmountOut {
		t.Errorf("exclude forms: %s %s (all families %s)", comma.AmountOut, repeated.AmountOut, all.AmountOut)
	}
}

// checkCandidates: the served route is the first candidate, candidates are
// distinct families, and routeSim reports the verification.
func checkCandidates(t *testing.T, r routing.RouteResponse) {
	t.Helper()
	if len(r.Candidates) == 0 {
		t.Fatal("no candidates")
	}
	first := r.Candidates[0]
	if first.Family != r.Route.Family || first.AmountOut != r.AmountOut || first.GrossAmountOut != r.GrossAmountOut || !first.Verified {
		t.Errorf("first candidate %+v, served %s %s", first, r.Route.Family, r.AmountOut)
	}
	seen := map[string]bool{}
	for _, c := range r.Candidates {
		if seen[c.Family] {
			t.Errorf("family %s twice among candidates", c.Family)
		}
		seen[c.Family] = true
		if c.Verified && (c.VerifiedOut == nil || uint256.MustFromDecimal(*c.VerifiedOut).Gt(uint256.MustFromDecimal(r.AmountOut))) {
			t.Errorf("candidate %+v verified above the served %s", c, r.AmountOut)
		}
	}
	if r.RouteSim.Reranked || r.RouteSim.DisplacedDex != nil || r.RouteSim.Simulated != min(len(r.Candidates), 3) {
		t.Errorf("routeSim %+v for %d candidates", r.RouteSim, len(r.Candidates))
	}
}

// TestQuoteAndSpot: the quote lists venues best output first with gross
// outputs and impacts at the venue cache's block, and its mid price
// agrees with the spot price; spot answers the price per whole tokenIn,
// with amountOut for amountIn at that price.
func TestQuoteAndSpot(t *testing.T) {
	e := newRoutingEnv(t, nil)
	weth, usdc := e.tok("WETH"), e.tok("USDC")
	var q routing.QuoteResponse
	e.getJSON("/v1/quote?tokenIn="+weth+"&tokenOut="+usdc+"&amountIn=1000000000000000000", 200, &q)
	block := e.st.Venues.Snapshot().Block()
	if q.Block != block || q.TokenIn != weth || q.TokenOut != usdc || len(q.Quotes) < 2 || q.MidPrice != "3000000000" {
		t.Fatalf("quote %+v at block %d", q, block)
	}
	for i, v := range q.Quotes {
		if len(v.Path) != len(v.Pools)+1 || v.Path[0] != weth || v.Path[len(v.Path)-1] != usdc || !strings.HasPrefix(v.Venue, v.Family+":") {
			t.Errorf("quote %d: %+v", i, v)
		}
		if i > 0 && uint256.MustFromDecimal(v.AmountOut).Gt(uint256.MustFromDecimal(q.Quotes[i-1].AmountOut)) {
			t.Errorf("quote %d above quote %d", i, i-1)
		}
	}
	var s routing.SpotResponse
	e.getJSON("/api/spot?tokenIn="+weth+"&tokenOut="+usdc+"&amountIn=500000000000000000", 200, &s)
	if s.Price != q.MidPrice || s.Venue != routing.FamilyCPMM || s.Block != block || s.AmountIn != "500000000000000000" || s.AmountOut != "1500000000" {
		t.Errorf("spot %+v", s)
	}
	var back routing.SpotResponse
	e.getJSON("/api/spot?tokenIn="+usdc+"&tokenOut="+weth, 200, &back)
	if back.Price != "333333333333333" || back.AmountIn != "" || back.AmountOut != "" {
		t.Errorf("spot USDC→WETH %+v", back)
	}
}

// TestPreflightChecks: a maker who holds and approved amountIn passes every
// check; the preflight's fee legs are the route's for the same wallet and
// order kind (limit, stop_loss), and its amounts are the order path's; a
// fresh wallet fails balance and allowance but not the route.
func TestPreflightChecks(t *testing.T) {
	e := newRoutingEnv(t, nil)
	weth, usdc := e.tok("WETH"), e.tok("USDC")
	maker := e.fundedMaker("WETH", big1e18(3))
	pair := "tokenIn=" + weth + "&tokenOut=" + usdc + "&amountIn=2000000000000000000&slippagePpm=7000"
	for kind, flag := range map[string]string{"limit": "0", "stop_loss": "1"} {
		var pf routing.PreflightResponse
		e.getJSON("/v1/order-preflight?"+pair+"&wallet="+maker.Address.Hex()+"&isStopLoss="+flag, 200, &pf)
		names := []string{}
		for _, c := range pf.Checks {
			names = append(names, c.Name)
			if !c.OK {
				t.Errorf("%s: check %+v failed", kind, c)
			}
		}
		if !pf.OK || pf.OrderKind != kind || strings.Join(names, ",") != "balance,allowance,route,feeLegs,oracle" || pf.Block != e.st.Venues.Snapshot().Block() {
			t.Errorf("%s: %+v", kind, pf)
		}
		var r routing.RouteResponse
		e.getJSON("/v1/route?"+pair+"&wallet="+maker.Address.Hex()+"&orderType="+kind, 200, &r)
		if pf.FeeLegs == nil || *pf.FeeLegs != r.FeeLegs {
			t.Errorf("%s: preflight fee legs %+v, route %+v", kind, pf.FeeLegs, r.FeeLegs)
		}
		if pf.AmountOut != r.AmountOut || pf.MinAmountOut != r.MinAmountOut {
			t.Errorf("%s: preflight amounts %s/%s, route %s/%s", kind, pf.AmountOut, pf.MinAmountOut, r.AmountOut, r.MinAmountOut)
		}
	}
	// More than the maker holds and approved: balance and allowance fail.
	var pf routing.PreflightResponse
	e.getJSON("/v1/order-preflight?tokenIn="+weth+"&tokenOut="+usdc+"&amountIn=500000000000000000000&wallet="+maker.Address.Hex(), 200, &pf)
	if pf.OK || pf.Checks[0].OK || pf.Checks[1].OK || !pf.Checks[2].OK || !strings.Contains(pf.Checks[1].Message, "approve the router") {
		t.Errorf("over the balance: %+v", pf.Checks)
	}
}

// fixedVolumes is a volume source with set 30-day USD volumes (the market
// data's interface, routing.VolumeSource).
type fixedVolumes map[common.Address]int64

func (f fixedVolumes) Volume30dUSD(token common.Address) *big.Int { return big.NewInt(f[token]) }

// TestTokenSearch: GET /v1/tokens matches symbol or name, case-insensitive
// (empty lists every token), ranks by 30-day USD volume, then symbol, and
// answers each token's address, decimals,
// class, oracle coverage and volume.
func TestTokenSearch(t *testing.T) {
	vols := fixedVolumes{}
	e := newRoutingEnv(t, vols)
	vols[e.tokens["USDT"]] = 9_000
	vols[e.tokens["DAI"]] = 5_000
	vols[e.tokens["USDC"]] = 9_000
	search := func(q string) []routing.TokenJSON {
		var out routing.TokensResponse
		e.getJSON("/v1/tokens?search="+q, 200, &out)
		return out.Tokens
	}
	symbols := func(ts []routing.TokenJSON) string {
		var s []string
		for _, tk := range ts {
			s = append(s, tk.Symbol+":"+tk.Volume30dUSD)
		}
		return strings.Join(s, ",")
	}
	for q, want := range map[string]string{
		"":           "USDC:9000,USDT:9000,DAI:5000,DEMO:0,WBTC:0,WETH:0",
		"us":         "USDC:9000,USDT:9000",
		"USDT":       "USDT:9000",
		"wrapped":    "WBTC:0,WETH:0",
		"stablecoin": "DAI:5000",
		"nothing":    "",
	} {
		if got := symbols(search(q)); got != want {
			t.Errorf("search %q: %s, want %s", q, got, want)
		}
	}
	for _, tk := range search("") {
		dep, _ := e.dc.Deployment().Token(tk.Symbol)
		if tk.Address != dep.Address.Hex() || tk.Decimals != dep.Decimals || tk.Class != dep.Class || !tk.Oracle {
			t.Errorf("token %+v, deployed %s %d %s", tk, dep.Address.Hex(), dep.Decimals, dep.Class)
		}
	}
}

// TestRoutingAuthentication: the five routing endpoints need a key (401
// UNAUTHORIZED without one or with an unknown one, the error object and
// rate-limit headers), and take it as X-API-Key or Authorization: Bearer.
func TestRoutingAuthentication(t *testing.T) {
	e := newRoutingEnv(t, nil)
	pair := "tokenIn=" + e.tok("WETH") + "&tokenOut=" + e.tok("USDC") + "&amountIn=1000000000000000000"
	other := apptest.NewTestServer(t)
	for _, path := range []string{"/v1/route?" + pair, "/v1/quote?" + pair, "/v1/order-preflight?" + pair + "&wallet=" + e.tok("DAI"),
		"/api/spot?" + pair, "/v1/tokens?search=usd"} {
		for name, h := range map[string]map[string]string{
			"no key": nil, "unknown key": keyHeader("svc_wrong"), "another server's key": keyHeader(other.APIKey),
			"unknown bearer": {"Authorization": "Bearer svc_wrong"}, "basic scheme": {"Authorization": "Basic " + e.srv.APIKey},
		} {
			r := e.srv.Do("GET", path, nil, h)
			checkCode(t, r, 401, orderengine.CodeUnauthorized)
			if r.Header.Get("X-RateLimit-Limit") == "" || r.Header.Get("X-RateLimit-Remaining") == "" {
				t.Errorf("%s %s: 401 without rate-limit headers", path, name)
			}
		}
		for _, h := range []map[string]string{keyHeader(e.srv.APIKey), {"Authorization": "Bearer " + e.srv.APIKey}} {
			if r := e.srv.Do("GET", path, nil, h); r.Status != 200 {
				t.Errorf("GET %s with %v: %d %s", path, h, r.Status, r.Body)
			}
		}
	}
}

// TestRoutingRateLimits: route, quote and preflight share the key's quote
// bucket; spot and the token search count in the read bucket (specification
// section 8, contract.md section 9). Every answer, errors included, carries
// X-RateLimit-Limit, -Remaining and -Reset; the answer past the limit is
// 429 RATE_LIMITED with Retry-After, and the other bucket still serves.
func TestRoutingRateLimits(t *testing.T) {
	e := newRoutingEnv(t, nil, apptest.WithConfig(smallLimits))
	pair := "tokenIn=" + e.tok("WETH") + "&tokenOut=" + e.tok("USDC")
	quote := []string{
		"/v1/route?" + pair + "&amountIn=1000000000000000000",
		"/v1/quote?" + pair + "&amountIn=1",                                         // 422
		"/v1/order-preflight?" + pair + "&amountIn=1000000000000000000&wallet=0x12", // 400
		"/v1/quote?" + pair + "&amountIn=1000000000000000000",
	}
	read := []string{"/api/spot?" + pair, "/v1/tokens", "/v1/tokens?search=" + strings.Repeat("x", 65), "/api/spot?" + pair, "/v1/tokens", "/v1/tokens"}
	spend := func(paths []string, limit int) {
		t.Helper()
		for i, path := range paths {
			r := e.srv.GetStrict(path)
			if r.Status == 429 {
				t.Fatalf("%s refused after %d requests of %d", path, i, limit)
			}
			if header(t, r, "X-RateLimit-Limit") != limit || header(t, r, "X-RateLimit-Remaining") != limit-i-1 || header(t, r, "X-RateLimit-Reset") < 1 {
				t.Fatalf("%s (%d): headers %v", path, r.Status, r.Header)
			}
		}
	}
	spend(quote, 4)
	for _, path := range []string{"/v1/route?" + pair + "&amountIn=1", "/v1/quote?" + pair + "&amountIn=1", "/v1/order-preflight?" + pair + "&amountIn=1&wallet=0x12"} {
		r := e.srv.GetStrict(path)
		checkCode(t, r, 429, orderengine.CodeRateLimited)
		if header(t, r, "Retry-After") < 1 || header(t, r, "X-RateLimit-Remaining") != 0 || r.Header.Get("X-RateLimit-Limit") != "4" {
			t.Fatalf("%s: 429 headers %v", path, r.Header)
		}
	}
	spend(read, 6)
	r := e.srv.GetStrict("/v1/tokens")
	checkCode(t, r, 429, orderengine.CodeRateLimited)
	if n, _ := strconv.Atoi(r.Header.Get("Retry-After")); n < 1 {
		t.Fatalf("read bucket 429: Retry-After %q", r.Header.Get("Retry-After"))
	}
}
