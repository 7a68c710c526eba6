package http_test

import (
	"testing"

	"github.com/orderengine/orderengine/app/apptest"
	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/http/contracttest"
)

// TestHTTPContract runs the HTTP contract of every described operation
// (package contracttest) against one engine; cluster/clustertest runs the
// same tests against a node of a three-member cluster.
func TestHTTPContract(t *testing.T) {
	contracttest.Run(t, contracttest.Single(t))
}

// TestPanicAnswerCarriesLimitHeaders: a handler that panics is answered
// 500 INTERNAL with the rate-limit headers, like every answer of the
// public API (the rest of contracttest's everyResponseCarriesLimitHeaders).
func TestPanicAnswerCarriesLimitHeaders(t *testing.T) {
	panicRoute := apihttp.Route{Method: "GET", Path: "/v1/test-panic", Access: apihttp.Keyless, Status: 200,
		Doc: apihttp.OpDoc{ID: "testPanic", Tag: "meta", Summary: "panics", Response: "Health"}}
	ts := apptest.NewTestServer(t, apptest.WithRoutes(apihttp.PanicRouteForTest(panicRoute)))
	r := ts.Do("GET", "/v1/test-panic", nil, nil)
	if r.Status != 500 {
		t.Fatalf("panic: %d %s, want 500", r.Status, r.Body)
	}
	limitHeaders(t, "panic", r, 0)
}

// The helpers of the contract, for the other tests of this package.
var (
	limitHeaders    = contracttest.LimitHeaders
	noLimitHeaders  = contracttest.NoLimitHeaders
	rateLimitBucket = contracttest.RateLimitBucket
)
