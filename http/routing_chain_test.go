package http_test

import (
	"testing"

	"github.com/orderengine/orderengine"
)

// TestRoutingWhenTheNodeIsDown stops the chain node under a running
// server. Quote, spot and the token search read only cached state and
// still answer; the route call (which verifies candidates by eth_call) and
// the preflight (which reads balances, allowances and the oracle) answer
// 503 CHAIN_UNAVAILABLE, retryable, instead of 422 NO_ROUTE or a preflight
// whose checks report the node's connection errors as the maker's state.
func TestRoutingWhenTheNodeIsDown(t *testing.T) {
	e := newRoutingEnv(t, nil)
	pair := "tokenIn=" + e.tok("WETH") + "&tokenOut=" + e.tok("USDC") + "&amountIn=1000000000000000000"
	route := "/v1/route?" + pair
	preflight := "/v1/order-preflight?" + pair + "&wallet=" + e.tok("DAI")
	e.getJSON(route, 200, nil)
	e.getJSON(preflight, 200, nil)
	if err := e.dc.Close(); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{route, route + "&orderType=limit", route + "&orderType=stop_loss&wallet=" + e.tok("DAI"), preflight, preflight + "&isStopLoss=1"} {
		e.wantError(path, 503, orderengine.CodeChainUnavailable)
	}
	for _, path := range []string{"/v1/quote?" + pair, "/api/spot?" + pair, "/v1/tokens?search=usd"} {
		e.getJSON(path, 200, nil)
	}
}
