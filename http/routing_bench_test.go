package http_test

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"math/rand"
	nethttp "net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/contracts"
	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/http/testserver"
	"github.com/orderengine/orderengine/routing"
)

// chainRoutingStack deploys the contracts on an in-process simulated chain
// and builds the routing stack from a configuration filled with them.
func chainRoutingStack(t *testing.T) (*routing.Stack, *contracts.Deployment) {
	t.Helper()
	key, _ := crypto.ToECDSA(crypto.Keccak256([]byte("routing bench")))
	from := crypto.PubkeyToAddress(key.PublicKey)
	ipc := filepath.Join(t.TempDir(), "sim.ipc")
	rich := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(params.Ether))
	sim := simulated.NewBackend(types.GenesisAlloc{from: {Balance: rich}}, simulated.WithBlockGasLimit(100_000_000),
		func(nc *node.Config, _ *ethconfig.Config) { nc.IPCPath = ipc })
	t.Cleanup(func() { _ = sim.Close() })
	raw, err := rpc.Dial(ipc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(raw.Close)
	ctx := context.Background()
	chainID, _ := sim.Client().ChainID(ctx)
	cfg := orderengine.Default()
	var fees []contracts.FeeCell
	for k, kind := range orderengine.OrderKinds() {
		for c, class := range orderengine.TokenClasses() {
			cell := cfg.Routing.FeePolicy[kind][class]
			fees = append(fees, contracts.FeeCell{Kind: uint8(k), Class: uint8(c), ProtocolPpm: cell.ProtocolPpm, KeeperPpm: cell.KeeperPpm})
		}
	}
	d, err := contracts.Deploy(ctx, sim.Client(), bind.NewKeyedTransactor(key, chainID), contracts.Params{Fees: fees, Mine: func() { sim.Commit() }})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Chain.Router, cfg.Chain.Oracle, cfg.Chain.FeeVault, cfg.Chain.Multicall = d.Router.Hex(), d.Oracle.Hex(), d.FeeVault.Hex(), d.Multicall.Hex()
	for _, p := range d.Pools {
		cfg.Chain.Pools = append(cfg.Chain.Pools, orderengine.PoolConfig{Address: p.Address.Hex(), Family: p.Family, Token0: p.Token0.Hex(), Token1: p.Token1.Hex()})
	}
	for i, tk := range cfg.Routing.Tokens {
		if dt, ok := d.Token(tk.Symbol); ok {
			cfg.Routing.Tokens[i].Address = dt.Address.Hex()
		}
	}
	st, err := routing.Setup(ctx, cfg, routing.SetupDeps{Chain: sim.Client(), RPC: raw})
	if err != nil {
		t.Fatal(err)
	}
	return st, d
}

// percentile returns the p-th percentile of sorted durations.
func percentile(d []time.Duration, p int) time.Duration { return d[len(d)*p/100] }

// TestRoutingLoopbackBench measures, over loopback HTTP against the real
// server with the contracts on an in-process simulated chain: GET /v1/route
// with eth_call verification of the top 3 candidates (p50 target 5 ms), and
// the throughput of /api/spot against /v1/config in the same run (target:
// at least 50 %). It runs only with ROUTING_BENCH=1.
func TestRoutingLoopbackBench(t *testing.T) {
	if os.Getenv("ROUTING_BENCH") != "1" {
		t.Skip("set ROUTING_BENCH=1 to run the loopback routing benchmark")
	}
	st, d := chainRoutingStack(t)
	srv := testserver.NewTestServer(t,
		testserver.WithServices(apihttp.Services{Routing: apihttp.NewRoutingService(st.Service)}),
		testserver.WithConfig(func(c *orderengine.Config) { c.Limits.Free.Read, c.Limits.Free.Quote = 1<<30, 1<<30 }),
		testserver.WithTier(orderengine.TierEnterprise, orderengine.BucketLimits{Quote: 1 << 30, Read: 1 << 30, Order: 1 << 30}))
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
		if a.Address == b.Address {
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

	weth, usdc := d.Tokens[3].Address.Hex(), d.Tokens[0].Address.Hex()
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
