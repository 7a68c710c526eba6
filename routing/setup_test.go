package routing

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"
)

// TestSetupFromConfigAndFollow builds the stack from a configuration
// filled with a deployment, as the server does, and checks that Follow
// picks up a swap mined later.
func TestSetupFromConfigAndFollow(t *testing.T) {
	if testing.Short() {
		t.Skip("simulated chain test skipped in -short mode")
	}
	e := newDeployed(t)
	cfg := config.Default()
	cfg.Chain.Router, cfg.Chain.Oracle, cfg.Chain.FeeVault = e.d.Router.Hex(), e.d.Oracle.Hex(), e.d.FeeVault.Hex()
	cfg.Chain.Multicall = e.d.Multicall.Hex()
	for _, p := range e.d.Pools {
		cfg.Chain.Pools = append(cfg.Chain.Pools, config.PoolConfig{Address: p.Address.Hex(), Family: p.Family, Token0: p.Token0.Hex(), Token1: p.Token1.Hex()})
	}
	for i, tk := range cfg.Routing.Tokens {
		if d, ok := e.d.Token(tk.Symbol); ok {
			cfg.Routing.Tokens[i].Address = d.Address.Hex()
		}
	}
	st, err := Setup(e.ctx, cfg, SetupDeps{Chain: e.client, RPC: e.rpc})
	if err != nil {
		t.Fatal(err)
	}
	if st.Service.cfg.Executor != e.d.Executor {
		t.Fatalf("executor read from the router: %s, want %s", st.Service.cfg.Executor.Hex(), e.d.Executor.Hex())
	}
	weth, _ := st.Tokens.Lookup(e.token("WETH"))
	if !weth.Oracle || weth.Class != config.ClassMajor {
		t.Fatalf("WETH registry entry %+v", weth)
	}
	resp, err := st.Service.Route(e.ctx, RouteParams{TokenIn: e.token("WETH").Hex(), TokenOut: e.token("DAI").Hex(), AmountIn: "1000000000000000000"})
	if err != nil || !resp.RouteSim.Verified {
		t.Fatalf("route through the set-up stack: %v %+v", err, resp)
	}

	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	go st.Venues.Follow(ctx, 5*time.Millisecond, func(err error) { t.Errorf("follow: %v", err) })
	pool := e.d.Pools[0] // cpmm WETH/USDC
	before, _ := st.Venues.Snapshot().Pool(pool.Address)
	b0, _ := before.Reserves()
	rec := e.swapOnChain(pool.Address, pool.Token1, big.NewInt(1_000_000_000))
	deadline := time.Now().Add(10 * time.Second)
	for st.Venues.Snapshot().Block() < rec.BlockNumber.Uint64() {
		if time.Now().After(deadline) {
			t.Fatalf("cache stuck at block %d, swap mined in %d", st.Venues.Snapshot().Block(), rec.BlockNumber.Uint64())
		}
		time.Sleep(2 * time.Millisecond)
	}
	after, _ := st.Venues.Snapshot().Pool(pool.Address)
	if a0, _ := after.Reserves(); a0.Eq(b0) {
		t.Fatal("Follow applied the block but not the swap's Sync")
	}
}
