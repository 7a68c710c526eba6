package http_test

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"math/rand"
	nethttp "net/http"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/rpc"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain/devchain"
	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/routing"
)

// devRouting starts the embedded dev chain (manual mining, market maker
// off, JSON-RPC on a loopback port), fills cfg from its deployment and
// builds the routing stack from it, as serve does; deps gives the stack's
// chain reader and extras (raw is the JSON-RPC client of the chain).
func devRouting(t *testing.T, deps func(dc *devchain.DevChain, raw *rpc.Client) routing.SetupDeps) (*devchain.DevChain, *routing.Stack, config.Config) {
	t.Helper()
	ctx := context.Background()
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
	st, err := routing.Setup(ctx, cfg, deps(dc, raw))
	if err != nil {
		t.Fatal(err)
	}
	return dc, st, cfg
}

// percentile returns the p-th percentile of sorted durations.
func percentile(d []time.Duration, p int) time.Duration { return d[len(d)*p/100] }

// TestRoutingLoopbackBench measures, over loopback HTTP against the real
// server with the contracts on an in-process simulated chain: GET /v1/route
// with eth_call verification of the top 3 candidates (p50 target 5 ms), and
// the throughput of /api/spot against /v1/config in the same run (target:
// at least 50 %). The chain is the embedded dev chain, reached over its
// loopback JSON-RPC. It runs only with ROUTING_BENCH=1.
func TestRoutingLoopbackBench(t *testing.T) {
	if os.Getenv("ROUTING_BENCH") != "1" {
		t.Skip("set ROUTING_BENCH=1 to run the loopback routing benchmark")
	}
	dc, st, _ := devRouting(t, func(dc *devchain.DevChain, raw *rpc.Client) routing.SetupDeps {
		return routing.SetupDeps{Chain: dc.Client(), RPC: raw}
	})
	d := dc.Deployment()
	srv := apptest.NewTestServer(t,
		apptest.WithServices(apihttp.Services{Routing: apihttp.NewRoutingService(st.Service)}),
		apptest.WithConfig(func(c *config.Config) { c.Limits.Free.Read, c.Limits.Free.Quote = 1<<30, 1<<30 }),
		apptest.WithTier(config.TierEnterprise, config.BucketLimits{Quote: 1 << 30, Read: 1 << 30, Order: 1 << 30}))
	client := &nethttp.Client{Transport: &nethttp.Transport{MaxIdleConnsPerHost: 64}}
	get := func(path string) int {
		req, _ := nethttp.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("X-API-Key", srv.APIKey)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	rng := rand.New(rand.NewSource(1))
	var lat []time.Duration
	for i := 0; i < 600; i++ {
		a, b := d.Tokens[rng.Intn(len(d.Tokens))], d.Tokens[rng.Intn(len(d.Tokens))]
		if a.Address == b.Address || a.FeeOnTransfer || b.FeeOnTransfer {
			continue
		}
		amt := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(a.Decimals)+int64(rng.Intn(6))-3), nil)
		path := fmt.Sprintf("/v1/route?tokenIn=%s&tokenOut=%s&amountIn=%s", a.Address.Hex(), b.Address.Hex(), amt)
		start := time.Now()
		if code := get(path); code != 200 {
			t.Fatalf("%s: %d", path, code)
		}
		if i >= 50 {
			lat = append(lat, time.Since(start))
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("GET /v1/route (verify top 3 by eth_call), %d requests: p50 %v p90 %v p99 %v", len(lat), percentile(lat, 50), percentile(lat, 90), percentile(lat, 99))

	wethTok, _ := d.Token("WETH")
	usdcTok, _ := d.Token("USDC")
	weth, usdc := wethTok.Address.Hex(), usdcTok.Address.Hex()
	rps := func(path string) float64 {
		var n atomic.Int64
		var wg sync.WaitGroup
		stop := time.Now().Add(2 * time.Second)
		for w := 0; w < 16; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Now().Before(stop) {
					if get(path) == 200 {
						n.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		return float64(n.Load()) / 2
	}
	spot := rps("/api/spot?tokenIn=" + weth + "&tokenOut=" + usdc)
	config := rps("/v1/config")
	t.Logf("throughput, 16 keep-alive clients: /api/spot %.0f req/s, /v1/config %.0f req/s (%.0f %%)", spot, config, 100*spot/config)
	if percentile(lat, 50) >= 5*time.Millisecond || spot < config/2 {
		t.Errorf("targets missed: route p50 %v (< 5 ms), spot %.0f%% of config (≥ 50 %%)", percentile(lat, 50), 100*spot/config)
	}
}
