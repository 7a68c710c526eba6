package http_test

import (
	"strings"
	"testing"

	"github.com/orderengine/orderengine"
)

// badChecksum flips the case of the first letter of an EIP-55 address: the
// same address, with a checksum that no longer matches.
func badChecksum(a string) string {
	b := []byte(a)
	for i := 2; i < len(b); i++ {
		switch {
		case b[i] >= 'a' && b[i] <= 'f':
			b[i] -= 'a' - 'A'
			return string(b)
		case b[i] >= 'A' && b[i] <= 'F':
			b[i] += 'a' - 'A'
			return string(b)
		}
	}
	panic("address without letters: " + a)
}

// TestRoutingAddressChecksum: every address parameter of the routing
// endpoints takes lowercase, all-uppercase and EIP-55 hex and refuses a
// mixed-case address whose EIP-55 checksum is wrong (400 INVALID_REQUEST
// naming the parameter), as every other endpoint of the API does
// (chain.ParseAddress).
func TestRoutingAddressChecksum(t *testing.T) {
	e := newRoutingEnv(t, nil)
	weth, usdc, dai := e.tok("WETH"), e.tok("USDC"), e.tok("DAI")
	route := func(in, out, extra string) string {
		return "/v1/route?tokenIn=" + in + "&tokenOut=" + out + "&amountIn=1000000000000000000" + extra
	}
	for _, path := range []string{
		route(strings.ToLower(weth), usdc, ""),
		route("0x"+strings.ToUpper(weth[2:]), usdc, ""),
		route(weth, usdc, "&wallet="+strings.ToLower(dai)+"&referrer="+dai),
	} {
		e.getJSON(path, 200, nil)
	}
	for _, c := range []struct{ path, param string }{
		{route(badChecksum(weth), usdc, ""), "tokenIn"},
		{route(weth, badChecksum(usdc), ""), "tokenOut"},
		{route(weth, usdc, "&wallet="+badChecksum(dai)), "wallet"},
		{route(weth, usdc, "&referrer="+badChecksum(dai)), "referrer"},
		{"/v1/quote?tokenIn=" + badChecksum(weth) + "&tokenOut=" + usdc + "&amountIn=1000000000000000000", "tokenIn"},
		{"/api/spot?tokenIn=" + weth + "&tokenOut=" + badChecksum(usdc), "tokenOut"},
		{"/v1/order-preflight?tokenIn=" + weth + "&tokenOut=" + usdc + "&amountIn=1000000000000000000&wallet=" + badChecksum(dai), "wallet"},
	} {
		r := e.wantError(c.path, 400, orderengine.CodeInvalidRequest)
		if !strings.Contains(string(r.Body), c.param) || !strings.Contains(string(r.Body), "checksum") {
			t.Errorf("GET %s: %s, want a message naming %s and its checksum", c.path, r.Body, c.param)
		}
	}
}

// TestPreflightIsStopLoss: isStopLoss is `0` or `1` (specification section
// 4, OpenAPI ZeroOne); absent and 0 check a limit order, 1 a stop-loss, any
// other value is 400 INVALID_REQUEST naming it rather than a limit order.
func TestPreflightIsStopLoss(t *testing.T) {
	e := newRoutingEnv(t, nil)
	base := "/v1/order-preflight?tokenIn=" + e.tok("WETH") + "&tokenOut=" + e.tok("USDC") + "&amountIn=1000000000000000000&wallet=" + e.tok("DAI")
	for query, kind := range map[string]string{"": "limit", "&isStopLoss=0": "limit", "&isStopLoss=1": "stop_loss"} {
		var pf struct {
			OrderKind string `json:"orderKind"`
			FeeLegs   struct {
				Cell struct {
					OrderKind string `json:"orderKind"`
				} `json:"cell"`
			} `json:"feeLegs"`
		}
		e.getJSON(base+query, 200, &pf)
		if pf.OrderKind != kind || pf.FeeLegs.Cell.OrderKind != kind {
			t.Errorf("%q: orderKind %s, fee cell %s, want %s", query, pf.OrderKind, pf.FeeLegs.Cell.OrderKind, kind)
		}
	}
	for _, v := range []string{"true", "2", "yes", "01", "%20"} {
		r := e.wantError(base+"&isStopLoss="+v, 400, orderengine.CodeInvalidRequest)
		if !strings.Contains(string(r.Body), "isStopLoss") {
			t.Errorf("isStopLoss=%s: %s does not name the parameter", v, r.Body)
		}
	}
}

// TestRouteReferrerParameter: the referrer parameter sets feeLegs.referrer
// (specification section 2.2 and the route query table), for every
// orderType and with or without a wallet; the zero address cannot be a
// payout address (submission refuses a zero referrer), so it is 400
// INVALID_REQUEST naming the parameter instead of silently serving the
// fee vault.
func TestRouteReferrerParameter(t *testing.T) {
	e := newRoutingEnv(t, nil)
	base := "/v1/route?tokenIn=" + e.tok("WETH") + "&tokenOut=" + e.tok("USDC") + "&amountIn=1000000000000000000"
	third := "0x00000000000000000000000000000000000bEeF3"
	for _, extra := range []string{"", "&orderType=limit", "&orderType=trailing&wallet=" + e.tok("DAI")} {
		var route struct {
			FeeLegs struct{ Referrer, Vault string }    `json:"feeLegs"`
			Route   struct{ Tx *struct{ Data string } } `json:"route"`
		}
		e.getJSON(base+extra+"&referrer="+strings.ToLower(third), 200, &route)
		if route.FeeLegs.Referrer != third || route.FeeLegs.Vault == third {
			t.Errorf("%s: feeLegs %+v, want referrer %s", extra, route.FeeLegs, third)
		}
		if route.Route.Tx != nil && !strings.Contains(route.Route.Tx.Data, strings.ToLower(third[2:])) {
			t.Errorf("%s: the direct swap transaction does not pay the referrer", extra)
		}
	}
	r := e.wantError(base+"&orderType=limit&referrer=0x0000000000000000000000000000000000000000", 400, orderengine.CodeInvalidRequest)
	if !strings.Contains(string(r.Body), "referrer") {
		t.Errorf("zero referrer: %s does not name the parameter", r.Body)
	}
}
