package contracts

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/contracts/bindings/oracle"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

func TestDeploy(t *testing.T) {
	e := newEnv(t)
	d := e.d
	opts := &bind.CallOpts{Context: e.ctx}

	// Router wiring.
	r := servicerouter.NewServiceRouter()
	ri := r.Instance(e.client, d.Router)
	if got, _ := bind.Call(ri, opts, r.PackOwner(), r.UnpackOwner); got != e.deployer.addr {
		t.Errorf("router owner %s, want deployer", got)
	}
	if got, _ := bind.Call(ri, opts, r.PackFeeVault(), r.UnpackFeeVault); got != e.vault.addr {
		t.Errorf("fee vault %s", got)
	}
	if got, _ := bind.Call(ri, opts, r.PackOracle(), r.UnpackOracle); got != d.Oracle {
		t.Errorf("oracle %s", got)
	}
	if got, _ := bind.Call(ri, opts, r.PackWrappedNative(), r.UnpackWrappedNative); got != d.WrappedNative {
		t.Errorf("wrapped native %s", got)
	}
	if d.Executor == d.Router || len(mustCode(t, e, d.Executor)) == 0 {
		t.Errorf("executor %s has no code", d.Executor)
	}
	for _, f := range testFees {
		got, err := bind.Call(ri, opts, r.PackFees(f.Kind, f.Class), r.UnpackFees)
		if err != nil || got.ProtocolPpm != f.ProtocolPpm || got.KeeperPpm != f.KeeperPpm {
			t.Errorf("fee cell %d/%d = %+v, %v", f.Kind, f.Class, got, err)
		}
	}
	if len(d.Tokens) != 6 {
		t.Fatalf("%d tokens", len(d.Tokens))
	}

	// Tokens: decimals, classes, oracle prices.
	tt := testtoken.NewTestToken()
	o := oracle.NewOracle()
	oi := o.Instance(e.client, d.Oracle)
	for _, tk := range d.Tokens {
		dec, err := bind.Call(tt.Instance(e.client, tk.Address), opts, tt.PackDecimals(), tt.UnpackDecimals)
		if err != nil || dec != tk.Decimals {
			t.Errorf("%s decimals %d, want %d (%v)", tk.Symbol, dec, tk.Decimals, err)
		}
		cls, err := bind.Call(ri, opts, r.PackTokenClass(tk.Address), r.UnpackTokenClass)
		if err != nil || cls != tk.Class {
			t.Errorf("%s class %d, want %d", tk.Symbol, cls, tk.Class)
		}
		rd, err := bind.Call(oi, opts, o.PackLatestRoundData(tk.Address), o.UnpackLatestRoundData)
		if err != nil || rd.Answer.Cmp(tk.PriceUSD) != 0 || rd.UpdatedAt.Sign() == 0 {
			t.Errorf("%s oracle %+v, want %s", tk.Symbol, rd, tk.PriceUSD)
		}
	}
	if weth, _ := d.Token("WETH"); weth.Address != d.WrappedNative {
		t.Errorf("WETH is not the wrapped native token")
	}

	// Pools: seeded reserves, both families, both cpmm fee tiers.
	families := map[string]int{}
	tiers := map[uint64]bool{}
	cp := constantproductpool.NewConstantProductPool()
	for _, p := range d.Pools {
		families[p.Family]++
		if p.Family == FamilyCPMM {
			tiers[p.FeePpm] = true
		}
		res, err := bind.Call(cp.Instance(e.client, p.Address), opts, cp.PackGetReserves(), cp.UnpackGetReserves)
		if err != nil || res.Arg0.Cmp(p.Reserve0) != 0 || res.Arg1.Cmp(p.Reserve1) != 0 {
			t.Errorf("pool %s reserves %v, want %s/%s (%v)", p.Address, res, p.Reserve0, p.Reserve1, err)
		}
	}
	if families[FamilyCPMM] == 0 || families[FamilyStableSwap] == 0 || !tiers[3000] || !tiers[500] {
		t.Errorf("families %v tiers %v", families, tiers)
	}

	// Oracle prices agree with the seeded pool prices within 1 %.
	for _, p := range d.Pools {
		t0, t1 := tokenByAddr(t, d, p.Token0), tokenByAddr(t, d, p.Token1)
		// value of reserve0 and reserve1 in USD (8 decimals), compared.
		v0 := new(big.Int).Mul(p.Reserve0, t0.PriceUSD)
		v0.Mul(v0, pow10(t1.Decimals))
		v1 := new(big.Int).Mul(p.Reserve1, t1.PriceUSD)
		v1.Mul(v1, pow10(t0.Decimals))
		diff := new(big.Int).Sub(v0, v1)
		diff.Abs(diff).Mul(diff, big.NewInt(100))
		if diff.Cmp(v0) > 0 {
			t.Errorf("pool %s/%s price disagrees with the oracle", t0.Symbol, t1.Symbol)
		}
	}
}

func mustCode(t *testing.T, e *env, addr common.Address) []byte {
	t.Helper()
	code, err := e.client.CodeAt(e.ctx, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return code
}

func tokenByAddr(t *testing.T, d *Deployment, a common.Address) Token {
	t.Helper()
	for _, tk := range d.Tokens {
		if tk.Address == a {
			return tk
		}
	}
	t.Fatalf("no token %x", a)
	return Token{}
}

func pow10(n uint8) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}
