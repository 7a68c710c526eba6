package routing

import (
	"fmt"
	"math/big"
	"math/rand"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
)

// propPool is one deployed pool of the property test and its family.
type propPool struct {
	addr           common.Address
	family         Family
	token0, token1 common.Address
	label          string
}

// loadPool reads the pool's getState and decodes it with its family.
func loadPool(t *testing.T, c *simChain, pp propPool) Pool {
	t.Helper()
	ret, err := c.call(pp.addr, pp.family.StateCall())
	if err != nil {
		t.Fatalf("%s getState: %v", pp.label, err)
	}
	p, err := pp.family.Decode(pp.addr, ret)
	if err != nil {
		t.Fatalf("%s decode: %v", pp.label, err)
	}
	return p
}

// randAmount draws an input from 1 raw unit to about 20× the reserve,
// log-uniform, with a few exact edge values.
func randAmount(rng *rand.Rand, reserve *big.Int) *big.Int {
	switch rng.Intn(20) {
	case 0:
		return big.NewInt(0)
	case 1:
		return big.NewInt(1)
	case 2:
		return new(big.Int).Set(reserve)
	}
	bits := reserve.BitLen() + 5
	n := 1 + rng.Intn(bits)
	return new(big.Int).Rand(rng, new(big.Int).Lsh(big.NewInt(1), uint(n)))
}

func scaled(whole int64, decimals uint8) *big.Int {
	return new(big.Int).Mul(big.NewInt(whole), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

// TestSimulatorsMatchContracts deploys pools of both families with several
// fee tiers, amplifications and token decimals on a simulated chain, and
// checks that AmountOut equals the contract's getAmountOut to the wei for
// thousands of random inputs in both directions, also after swaps have
// moved the reserves (the Go pool then follows the Sync event).
func TestSimulatorsMatchContracts(t *testing.T) {
	if testing.Short() {
		t.Skip("simulated chain property test skipped in -short mode")
	}
	c := newSimChain(t)
	rng := rand.New(rand.NewSource(20261122))
	pools := deployPropPools(c, rng)
	cp := constantproductpool.NewConstantProductPool()
	compared := 0
	for _, pp := range pools {
		pool := loadPool(t, c, pp)
		for round := 0; round < 4; round++ {
			r0, r1 := pool.Reserves()
			for i := 0; i < 100; i++ {
				in, reserve := pp.token0, r0
				if i%2 == 1 {
					in, reserve = pp.token1, r1
				}
				amt := randAmount(rng, reserve.ToBig())
				want, callErr := c.quote(pp.addr, in, amt)
				got, simErr := pool.AmountOut(in, uint256.MustFromBig(amt))
				if (callErr != nil) != (simErr != nil) {
					t.Fatalf("%s: %s in: contract err %v, simulator err %v", pp.label, amt, callErr, simErr)
				}
				if callErr == nil && got.ToBig().Cmp(want) != 0 {
					t.Fatalf("%s: getAmountOut(%s) = %s on-chain, %s simulated", pp.label, amt, want, got.Dec())
				}
				compared++
			}
			// Move the reserves with a real swap of up to half the input reserve,
			// then follow the Sync event.
			in, reserve := pp.token0, r0
			if round%2 == 1 {
				in, reserve = pp.token1, r1
			}
			amt := new(big.Int).Rand(rng, new(big.Int).Rsh(reserve.ToBig(), 1))
			amt.Add(amt, big.NewInt(1))
			if out, _ := pool.AmountOut(in, uint256.MustFromBig(amt)); out == nil || out.IsZero() {
				continue
			}
			rec := c.send(pp.addr, cp.PackSwap(in, amt, big.NewInt(0), c.from))
			synced := false
			for _, l := range rec.Logs {
				if ev, err := cp.UnpackSyncEvent(l); err == nil && l.Address == pp.addr {
					pool = pool.WithReserves(uint256.MustFromBig(ev.Reserve0), uint256.MustFromBig(ev.Reserve1))
					synced = true
				}
			}
			if !synced {
				t.Fatalf("%s: swap emitted no Sync", pp.label)
			}
			fresh := loadPool(t, c, pp)
			f0, f1 := fresh.Reserves()
			g0, g1 := pool.Reserves()
			if f0.Cmp(g0) != 0 || f1.Cmp(g1) != 0 {
				t.Fatalf("%s: Sync-updated reserves differ from getState", pp.label)
			}
		}
	}
	if compared < 3000 {
		t.Fatalf("only %d comparisons", compared)
	}
	t.Logf("%d getAmountOut comparisons over %d pools: all equal to the wei", compared, len(pools))
}

// deployPropPools deploys the property test's pools: five constant-product
// fee tiers and five StableSwap parameter sets over tokens of 6, 8, 12 and
// 18 decimals, with random liquidity.
func deployPropPools(c *simChain, rng *rand.Rand) []propPool {
	decs := []uint8{6, 8, 18, 12}
	tokens := map[uint8]common.Address{}
	tokens2 := map[uint8]common.Address{}
	for _, d := range decs {
		tokens[d] = c.token(fmt.Sprintf("A%d", d), d)
		tokens2[d] = c.token(fmt.Sprintf("B%d", d), d)
	}
	var pools []propPool
	for i, fee := range []uint64{3000, 500, 100, 10_000, 0} {
		d0, d1 := decs[i%4], decs[(i+1)%4]
		r0 := new(big.Int).Mul(scaled(int64(1+rng.Intn(1_000_000)), d0), big.NewInt(int64(1+rng.Intn(5))))
		r1 := scaled(int64(1+rng.Intn(10_000_000)), d1)
		addr := c.cpmmPool(tokens[d0], tokens2[d1], fee, r0, r1)
		pools = append(pools, propPool{addr, cpmmFamily{}, tokens[d0], tokens2[d1], fmt.Sprintf("cpmm fee %d (%d/%d)", fee, d0, d1)})
	}
	stable := []struct {
		amp, fee uint64
		d0, d1   uint8
		skew     int64
	}{{200, 4_000_000, 6, 18, 1}, {100, 4_000_000, 6, 6, 3}, {1, 0, 18, 18, 1}, {2000, 100_000_000, 8, 18, 20}, {50, 1_000_000, 18, 6, 2}}
	for _, s := range stable {
		base := int64(1 + rng.Intn(5_000_000))
		r0, r1 := scaled(base, s.d0), scaled(base*s.skew+int64(rng.Intn(1000)), s.d1)
		addr := c.stablePool(tokens[s.d0], tokens2[s.d1], s.amp, s.fee, r0, r1)
		pools = append(pools, propPool{addr, stableFamily{}, tokens[s.d0], tokens2[s.d1], fmt.Sprintf("stableswap A %d fee %d (%d/%d ×%d)", s.amp, s.fee, s.d0, s.d1, s.skew)})
	}
	return pools
}
