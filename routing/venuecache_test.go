package routing

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/contracts"
	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// deployed is a simulated chain with the full contract deployment.
type deployed struct {
	*simChain
	d *contracts.Deployment
}

func newDeployed(t *testing.T) *deployed {
	t.Helper()
	c := newSimChain(t)
	d, err := contracts.Deploy(c.ctx, c.client, c.auth, contracts.Params{Mine: func() { c.sim.Commit() }})
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	return &deployed{simChain: c, d: d}
}

func (e *deployed) poolRefs() []PoolRef {
	refs := make([]PoolRef, len(e.d.Pools))
	for i, p := range e.d.Pools {
		refs[i] = PoolRef{Address: p.Address, Family: p.Family}
	}
	return refs
}

func (e *deployed) token(symbol string) common.Address {
	tk, ok := e.d.Token(symbol)
	if !ok {
		e.t.Fatalf("no token %s", symbol)
	}
	return tk.Address
}

// swapOnChain mints amount of tokenIn (a test token) and swaps it through
// pool, returning the receipt.
func (e *deployed) swapOnChain(pool, tokenIn common.Address, amount *big.Int) *types.Receipt {
	tt := testtoken.NewTestToken()
	e.send(tokenIn, tt.PackMint(e.from, amount))
	e.send(tokenIn, tt.PackApprove(pool, amount))
	return e.send(pool, constantproductpool.NewConstantProductPool().PackSwap(tokenIn, amount, big.NewInt(0), e.from))
}

// checkAgainstChain compares every cached pool with its getState.
func checkAgainstChain(t *testing.T, e *deployed, snap *Snapshot) {
	t.Helper()
	for _, ref := range e.poolRefs() {
		fam := map[string]Family{FamilyCPMM: cpmmFamily{}, FamilyStableSwap: stableFamily{}}[ref.Family]
		want := loadPool(t, e.simChain, propPool{addr: ref.Address, family: fam, label: ref.Address.Hex()})
		got, ok := snap.Pool(ref.Address)
		if !ok {
			t.Fatalf("pool %s missing", ref.Address.Hex())
		}
		w0, w1 := want.Reserves()
		g0, g1 := got.Reserves()
		if w0.Cmp(g0) != 0 || w1.Cmp(g1) != 0 {
			t.Fatalf("pool %s: cached reserves %s/%s, chain %s/%s", ref.Address.Hex(), g0.Dec(), g1.Dec(), w0.Dec(), w1.Dec())
		}
	}
}

func TestVenueCacheLoadsWithMulticallAndFollowsSync(t *testing.T) {
	if testing.Short() {
		t.Skip("simulated chain test skipped in -short mode")
	}
	e := newDeployed(t)
	cache, err := NewVenueCache(e.client, e.d.Multicall, e.poolRefs(), DefaultFamilies())
	if err != nil {
		t.Fatal(err)
	}
	if err := cache.Load(e.ctx, nil); err != nil {
		t.Fatal(err)
	}
	head, _ := e.client.HeaderByNumber(e.ctx, nil)
	snap := cache.Snapshot()
	if snap.Block() != head.Number.Uint64() || len(snap.Pools()) != len(e.d.Pools) {
		t.Fatalf("loaded %d pools at %d, want %d at %d", len(snap.Pools()), snap.Block(), len(e.d.Pools), head.Number.Uint64())
	}
	checkAgainstChain(t, e, snap)

	// Two swaps in two blocks, then one Advance applies both.
	usdc, dai := e.token("USDC"), e.token("DAI")
	var stable, cpmm common.Address
	for _, p := range e.d.Pools {
		if p.Family == FamilyStableSwap && p.Token0 == usdc && p.Token1 == dai {
			stable = p.Address
		}
		if p.Family == FamilyCPMM && (p.Token0 == usdc || p.Token1 == usdc) && cpmm == (common.Address{}) {
			cpmm = p.Address
		}
	}
	before, _ := snap.Pool(stable)
	e.swapOnChain(stable, usdc, big.NewInt(250_000_000_000))
	e.swapOnChain(cpmm, usdc, big.NewInt(10_000_000_000))
	if err := cache.Advance(e.ctx); err != nil {
		t.Fatal(err)
	}
	head, _ = e.client.HeaderByNumber(e.ctx, nil)
	snap = cache.Snapshot()
	if snap.Block() != head.Number.Uint64() {
		t.Fatalf("advanced to %d, head %d", snap.Block(), head.Number.Uint64())
	}
	checkAgainstChain(t, e, snap)
	after, _ := snap.Pool(stable)
	if b0, _ := before.Reserves(); func() bool { a0, _ := after.Reserves(); return a0.Eq(b0) }() {
		t.Fatal("the swap did not move the cached reserves")
	}

	// A stale block's update is ignored; a newer one applies.
	r := &types.Log{Address: stable, Topics: []common.Hash{syncTopic()}, Data: make([]byte, 64), BlockNumber: snap.Block()}
	if cache.Apply(snap.Block(), []types.Log{*r}) {
		t.Fatal("update for the current block accepted")
	}
	r.BlockNumber = snap.Block() + 1
	uint256.NewInt(7).WriteToSlice(r.Data[:32])
	uint256.NewInt(9).WriteToSlice(r.Data[32:])
	if !cache.Apply(snap.Block()+1, []types.Log{*r}) {
		t.Fatal("newer update refused")
	}
	p, _ := cache.Snapshot().Pool(stable)
	if r0, r1 := p.Reserves(); r0.Uint64() != 7 || r1.Uint64() != 9 || cache.Snapshot().Block() != snap.Block()+1 {
		t.Fatalf("applied reserves %s/%s", r0.Dec(), r1.Dec())
	}
	if old, _ := snap.Pool(stable); old == p {
		t.Fatal("the old snapshot changed")
	}
}

// TestVenueCacheReloadsAfterReorg moves the chain to a fork that drops the
// block the cache was at; Advance must notice the hash change and reload
// the state of the new canonical chain.
func TestVenueCacheReloadsAfterReorg(t *testing.T) {
	if testing.Short() {
		t.Skip("simulated chain test skipped in -short mode")
	}
	e := newDeployed(t)
	cache, err := NewVenueCache(e.client, e.d.Multicall, e.poolRefs(), DefaultFamilies())
	if err != nil {
		t.Fatal(err)
	}
	parent, _ := e.client.HeaderByNumber(e.ctx, nil)
	pool := e.d.Pools[0]
	e.swapOnChain(pool.Address, pool.Token1, big.NewInt(5_000_000_000)) // mint, approve, swap: three blocks
	if err := cache.Load(e.ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.sim.Fork(parent.Hash()); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ { // the fork becomes the longer chain
		e.sim.Commit()
	}
	if err := cache.Advance(e.ctx); err != nil {
		t.Fatal(err)
	}
	head, _ := e.client.HeaderByNumber(e.ctx, nil)
	if cache.Snapshot().Block() != head.Number.Uint64() || cache.loads != 2 {
		t.Fatalf("cache at %d after the reorg (head %d), %d loads (want a reload)", cache.Snapshot().Block(), head.Number.Uint64(), cache.loads)
	}
	checkAgainstChain(t, e, cache.Snapshot())
	// Without a reorg, Advance only applies logs.
	e.sim.Commit()
	if err := cache.Advance(e.ctx); err != nil || cache.loads != 2 {
		t.Fatalf("plain advance reloaded: %v, %d loads", err, cache.loads)
	}
}
