package http_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/internal/clock"
)

func smallLimits(c *config.Config) {
	c.Limits.Free = config.BucketLimits{Quote: 4, Read: 6, Order: 3}
	c.Limits.Builder = config.BucketLimits{Quote: 20, Read: 30, Order: 15}
}

var bucketPaths = map[string]struct {
	method, path string
	body         []byte
}{
	"quote": {"GET", "/v1/quote?tokenIn=0x1111111111111111111111111111111111111111&tokenOut=0x2222222222222222222222222222222222222222&amountIn=1", nil},
	"read":  {"GET", "/v1/stats", nil},
	"order": {"POST", "/v1/orders", []byte(`{}`)},
}

func header(t *testing.T, r *apptest.Response, name string) int {
	t.Helper()
	n, err := strconv.Atoi(r.Header.Get(name))
	if err != nil {
		t.Fatalf("header %s = %q", name, r.Header.Get(name))
	}
	return n
}

// burst sends limit requests (all admitted, remaining decreasing) and one
// more (429 with Retry-After).
func burst(t *testing.T, ts *apptest.Server, bucket string, limit int) {
	t.Helper()
	bp := bucketPaths[bucket]
	h := keyHeader(ts.APIKey)
	prev := limit
	for i := range limit {
		r := ts.Do(bp.method, bp.path, bp.body, h)
		if r.Status == 429 {
			t.Fatalf("%s: request %d of %d refused", bucket, i+1, limit)
		}
		if got := header(t, r, "X-RateLimit-Limit"); got != limit {
			t.Fatalf("%s: limit header %d, want %d", bucket, got, limit)
		}
		rem := header(t, r, "X-RateLimit-Remaining")
		if rem != prev-1 {
			t.Fatalf("%s: remaining %d after %d, want %d", bucket, rem, prev, prev-1)
		}
		prev = rem
		if header(t, r, "X-RateLimit-Reset") < 1 {
			t.Fatalf("%s: reset header %q", bucket, r.Header.Get("X-RateLimit-Reset"))
		}
	}
	r := ts.Do(bp.method, bp.path, bp.body, h)
	checkCode(t, r, 429, orderengine.CodeRateLimited)
	if header(t, r, "Retry-After") < 1 || header(t, r, "X-RateLimit-Remaining") != 0 {
		t.Fatalf("%s: 429 headers %v", bucket, r.Header)
	}
}

func TestBucketsAreIndependentAndSlide(t *testing.T) {
	limits := map[string]int{"quote": 4, "read": 6, "order": 3}
	for bucket, limit := range limits {
		t.Run(bucket, func(t *testing.T) {
			clk := clock.NewManual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			ts := apptest.NewTestServer(t, apptest.WithConfig(smallLimits), apptest.WithClock(clk))
			burst(t, ts, bucket, limit)
			for other, bp := range bucketPaths {
				if other == bucket {
					continue
				}
				if r := ts.Do(bp.method, bp.path, bp.body, keyHeader(ts.APIKey)); r.Status == 429 {
					t.Fatalf("%s refused while only %s is full", other, bucket)
				}
			}
			// Part of the window later: still refused, Retry-After shrinks.
			bp := bucketPaths[bucket]
			clk.Advance(30 * time.Second)
			r := ts.Do(bp.method, bp.path, bp.body, keyHeader(ts.APIKey))
			checkCode(t, r, 429, orderengine.CodeRateLimited)
			if ra := header(t, r, "Retry-After"); ra < 1 || ra > 31 {
				t.Fatalf("Retry-After %d after 30 s", ra)
			}
			// Past the window: admitted again, with the full budget.
			clk.Advance(31 * time.Second)
			r = ts.Do(bp.method, bp.path, bp.body, keyHeader(ts.APIKey))
			if r.Status == 429 || header(t, r, "X-RateLimit-Remaining") != limit-1 {
				t.Fatalf("after the window slid: %d remaining %s", r.Status, r.Header.Get("X-RateLimit-Remaining"))
			}
		})
	}
}

func TestOtherBucketsPassWhileOneIsFull(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithConfig(smallLimits))
	burst(t, ts, "order", 3)
	for _, bucket := range []string{"quote", "read"} {
		bp := bucketPaths[bucket]
		if r := ts.Do(bp.method, bp.path, bp.body, keyHeader(ts.APIKey)); r.Status == 429 || r.Header.Get("X-RateLimit-Limit") == "" {
			t.Fatalf("%s answered %d while order is full: %s", bucket, r.Status, r.Body)
		}
	}
}

func TestBuilderTierIsFiveTimesFree(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithConfig(smallLimits), apptest.WithTier(config.TierBuilder, config.BucketLimits{}))
	burst(t, ts, "quote", 20)
	burst(t, ts, "order", 15)
}

func TestSetTierTakesEffect(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithConfig(smallLimits))
	if r := ts.Get("/v1/stats"); header(t, r, "X-RateLimit-Limit") != 6 {
		t.Fatalf("free limit %s", r.Header.Get("X-RateLimit-Limit"))
	}
	r := ts.Admin("PUT", "/admin/v1/accounts/"+ts.AccountID+"/tier", map[string]any{"tier": "enterprise", "limits": map[string]int{"quote": 1000, "read": 9000, "order": 500}})
	if r.Status != 200 {
		t.Fatalf("set tier: %d %s", r.Status, r.Body)
	}
	if r := ts.Get("/v1/stats"); header(t, r, "X-RateLimit-Limit") != 9000 {
		t.Fatalf("enterprise limit %s", r.Header.Get("X-RateLimit-Limit"))
	}
}

func TestKeylessLimitedPerAddress(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithConfig(smallLimits))
	// The harness's readiness probe already counted; spend the rest.
	for i := 0; ; i++ {
		r := ts.Do("GET", "/v1/config", nil, nil)
		if r.Status != 200 || i > 6 {
			t.Fatalf("request %d: %d", i, r.Status)
		}
		if header(t, r, "X-RateLimit-Remaining") == 0 {
			break
		}
	}
	r := ts.Do("GET", "/v1/errors", nil, nil)
	checkCode(t, r, 429, orderengine.CodeRateLimited)
	// A keyed request from the same address is limited by its key instead.
	if r := ts.Get("/v1/stats"); r.Status != 200 {
		t.Fatalf("keyed request: %d", r.Status)
	}
}

func TestIdleLimiterActorsStop(t *testing.T) {
	clk := clock.NewManual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	ts := apptest.NewTestServer(t, apptest.WithClock(clk))
	ts.Get("/v1/stats")
	if n := ts.System.Limiter.Active(); n < 1 {
		t.Fatalf("active limiters %d", n)
	}
	clk.Advance(ts.Config.Limits.LimiterIdle)
	for range 3 { // the registry's sweeps (actors/kind): idle for the window by the clock, and three sweeps
		ts.System.Limiter.Sweep()
	}
	if n := ts.System.Limiter.Active(); n != 0 {
		t.Fatalf("active limiters after idle: %d", n)
	}
	if r := ts.Get("/v1/stats"); header(t, r, "X-RateLimit-Remaining") != 599 {
		t.Fatalf("fresh limiter remaining %s", r.Header.Get("X-RateLimit-Remaining"))
	}
}
