package http_test

import (
	"context"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/routing"
)

// TestRoutingAnswersDeclareEveryField sends real requests to the five
// routing endpoints (success on every path of each, and their error
// answers) and checks that each answer validates against the served
// OpenAPI document, uses a status the operation documents, and carries no
// field the document does not declare.
func TestRoutingAnswersDeclareEveryField(t *testing.T) {
	e := newRoutingEnv(t, nil)
	weth, usdc, usdt, demo := e.tok("WETH"), e.tok("USDC"), e.tok("USDT"), e.tok("DEMO")
	maker := e.fundedMaker("WETH", big1e18(2))
	pair := "tokenIn=" + weth + "&tokenOut=" + usdc
	unlisted := "0x00000000000000000000000000000000000000aa"
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/v1/route?" + pair + "&amountIn=1000000000000000000", 200},
		{"/v1/route?" + pair + "&amountIn=1000000000000000000&orderType=dca&triggered=1&wallet=" + maker.Address.Hex() + "&referrer=" + demo, 200},
		{"/v1/route?" + pair + "&amountIn=200000000000000000000&slippagePpm=10000", 200}, // split suggestions
		{"/v1/route?tokenIn=" + usdc + "&tokenOut=" + usdt + "&amountIn=1000000000&orderType=limit&directSwap=1&exclude=cpmm", 200},
		{"/v1/route?" + pair + "&amountIn=0", 400},
		{"/v1/route?tokenIn=" + weth + "&tokenOut=" + unlisted + "&amountIn=5", 422},
		{"/v1/quote?" + pair + "&amountIn=1000000000000000000", 200},
		{"/v1/quote?" + pair + "&amountIn=1", 422},
		{"/v1/order-preflight?" + pair + "&amountIn=1000000000000000000&wallet=" + maker.Address.Hex(), 200},
		{"/v1/order-preflight?" + pair + "&amountIn=1000000000000000000&wallet=" + maker.Address.Hex() + "&isStopLoss=1&slippagePpm=100", 200},
		{"/v1/order-preflight?tokenIn=" + weth + "&tokenOut=" + unlisted + "&amountIn=5&wallet=" + usdt, 200},
		{"/v1/order-preflight?" + pair + "&amountIn=5", 400},
		{"/api/spot?" + pair, 200},
		{"/api/spot?tokenIn=" + demo + "&tokenOut=" + weth + "&amountIn=1000000000000000000", 200},
		{"/api/spot?tokenIn=" + weth + "&tokenOut=" + unlisted, 422},
		{"/v1/tokens?search=usd", 200},
		{"/v1/tokens", 200},
		{"/v1/tokens?search=" + strings.Repeat("x", 65), 400},
	} {
		if r := e.srv.GetStrict(c.path); r.Status != c.status {
			t.Errorf("GET %s: %d %s, want %d", c.path, r.Status, r.Body, c.status)
		}
	}
	// The search length the document allows is the one the server takes.
	doc, err := apptest.LoadDocument(context.Background(), e.srv.Do("GET", "/v1/openapi.json", nil, nil).Body)
	if err != nil {
		t.Fatal(err)
	}
	maxLen := int(*doc.Components.Schemas["SearchText"].Value.MaxLength)
	if r := e.srv.GetStrict("/v1/tokens?search=" + strings.Repeat("é", maxLen)); r.Status != 200 {
		t.Errorf("search of %d characters (the documented maximum): %d %s", maxLen, r.Status, r.Body)
	}
	if r := e.srv.GetStrict("/v1/tokens?search=" + strings.Repeat("e", maxLen+1)); r.Status != 400 {
		t.Errorf("search of %d characters: %d %s", maxLen+1, r.Status, r.Body)
	}
}

// TestSpotWithoutAPricedPath is GET /api/spot for two tokens that each have
// a pool but no path between them: 422 NO_ROUTE, which the operation
// documents.
func TestSpotWithoutAPricedPath(t *testing.T) {
	a, b := common.HexToAddress("0x00000000000000000000000000000000000000a1"), common.HexToAddress("0x00000000000000000000000000000000000000b1")
	c, d := common.HexToAddress("0x00000000000000000000000000000000000000c1"), common.HexToAddress("0x00000000000000000000000000000000000000d1")
	snap := routing.NewSnapshot(9, []routing.Pool{
		routing.NewCPMMPool(common.HexToAddress("0xa1"), a, b, whole(1000, 18), whole(1000, 18), 3000),
		routing.NewCPMMPool(common.HexToAddress("0xa2"), c, d, whole(1000, 18), whole(1000, 18), 3000),
	})
	cfg := config.Default().Routing
	tokens, err := routing.NewTokens(nil)
	if err != nil {
		t.Fatal(err)
	}
	opts, _ := routing.OptionsFromConfig(cfg, tokens)
	fees, err := routing.NewFeePolicy(cfg.FeePolicy, common.HexToAddress("0xfee"), tokens, nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := routing.NewService(routing.ServiceConfig{Venues: staticVenues{snap}, Searcher: routing.NewSearcher(opts), Tokens: tokens, Fees: fees})
	srv := apptest.NewTestServer(t, apptest.WithServices(apihttp.Services{Routing: apihttp.NewRoutingService(svc)}))
	r := srv.GetStrict("/api/spot?tokenIn=" + a.Hex() + "&tokenOut=" + c.Hex())
	checkCode(t, r, 422, orderengine.CodeNoRoute)
}
