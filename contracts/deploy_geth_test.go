package contracts

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/internal/testport"
)

// gethBinary is where `make deps` builds geth v1.16.7.
const gethBinary = "../.cache/bin/geth"

// TestDeployOnGethDev deploys against a real external node (geth --dev,
// chain id 1337, mining every second) with Mine = nil, then runs a direct
// swap through the router there.
func TestDeployOnGethDev(t *testing.T) {
	if _, err := os.Stat(gethBinary); err != nil {
		t.Fatalf("geth v1.16.7 missing (run `make deps`): %v", err)
	}
	port := testport.Port(t)
	dir := t.TempDir()
	cmd := exec.Command(gethBinary, "--dev", "--dev.period", "1", "--http", "--http.addr", "127.0.0.1",
		"--http.port", fmt.Sprint(port), "--datadir", dir, "--verbosity", "1", "--ipcdisable")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	client := dialWhenReady(ctx, t, fmt.Sprintf("http://127.0.0.1:%d", port))
	defer client.Close()
	key := devKey(t, dir)
	auth := bind.NewKeyedTransactor(key.PrivateKey, big.NewInt(1337))

	d, err := Deploy(ctx, client, auth, Params{Fees: testFees})
	if err != nil {
		t.Fatalf("deploy on geth --dev: %v", err)
	}
	if len(d.Pools) != len(poolSpecs) || d.FeeVault != key.Address {
		t.Fatalf("deployment %+v", d)
	}

	// A direct swap through the router: 1 WETH → USDC via the 0.3 % pool.
	s, err := newSender(ctx, client, auth, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var pool Pool
	weth, _ := d.Token("WETH")
	usdcTok, _ := d.Token("USDC")
	for _, p := range d.Pools {
		if p.Family == FamilyCPMM && p.FeePpm == 3000 && p.Token0 == weth.Address && p.Token1 == usdcTok.Address {
			pool = p
		}
	}
	amount := units(1, 18)
	tt := testtoken.NewTestToken()
	r := servicerouter.NewServiceRouter()
	if err := s.call("deposit", weth.Address, common.FromHex("0xd0e30db0"), amount); err != nil {
		t.Fatal(err)
	}
	if err := s.call("approve", weth.Address, tt.PackApprove(d.Router, amount), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.flush(); err != nil {
		t.Fatal(err)
	}
	before, err := bind.Call(tt.Instance(client, usdcTok.Address), nil, tt.PackBalanceOf(key.Address), tt.UnpackBalanceOf)
	if err != nil {
		t.Fatal(err)
	}
	cp := routeCalls(d.Executor, pool.Address, weth.Address, amount)
	p := servicerouter.SwapParams{TokenIn: weth.Address, TokenOut: usdcTok.Address, AmountIn: amount,
		MinAmountOut: big.NewInt(1), Calls: cp}
	if err := s.call("swap", d.Router, r.PackSwap(p), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.flush(); err != nil {
		t.Fatal(err)
	}
	after, _ := bind.Call(tt.Instance(client, usdcTok.Address), nil, tt.PackBalanceOf(key.Address), tt.UnpackBalanceOf)
	// The deployer is also the fee vault, so it gets net + protocol fee:
	// about 2,991 USDC for 1 WETH.
	got := new(big.Int).Sub(after, before)
	if got.Cmp(usdc(2_900)) < 0 || got.Cmp(usdc(3_000)) > 0 {
		t.Errorf("swap on geth paid %s USDC units", got)
	}
}

func dialWhenReady(ctx context.Context, t *testing.T, url string) *ethclient.Client {
	t.Helper()
	for {
		c, err := ethclient.DialContext(ctx, url)
		if err == nil {
			if _, err = c.ChainID(ctx); err == nil {
				return c
			}
			c.Close()
		}
		select {
		case <-ctx.Done():
			t.Fatalf("geth did not answer: %v", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// devKey reads geth --dev's prefunded account (empty password).
func devKey(t *testing.T, datadir string) *keystore.Key {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(datadir, "keystore", "*"))
	if len(files) != 1 {
		t.Fatalf("geth --dev keystore: %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	k, err := keystore.DecryptKey(b, "")
	if err != nil {
		t.Fatal(err)
	}
	return k
}
