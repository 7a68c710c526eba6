package devchain

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/contracts/bindings/oracle"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
)

// TestPersistedChainSurvivesARestart: a dev chain kept in a data directory
// is continued by the next Start: the same deployment, the head where it
// was (and mining on from there), balances and the market maker's
// approvals kept, nothing deployed or funded again.
func TestPersistedChainSurvivesARestart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "devchain")
	cfg := testConfig()
	cfg.ManualMining = false
	cfg.BlockInterval = 50 * time.Millisecond
	cfg.MarketMaker.Enabled = true
	cfg.MarketMaker.Period = 100 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	began := time.Now()
	d, err := Start(ctx, cfg, nil, WithDataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	first := time.Since(began)
	if !d.Persistent() || d.Resumed() {
		t.Fatalf("first start: persistent %v resumed %v", d.Persistent(), d.Resumed())
	}
	dep := d.Deployment()
	usdc, _ := dep.Token("USDC")
	who := common.HexToAddress("0x00000000000000000000000000000000c0ffee01")
	h, err := d.Faucet(ctx, who, usdc.Address, big.NewInt(123456789))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Mine(ctx, h); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * cfg.MarketMaker.Period) // a few market maker steps
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	// The head at Close, read from a chain opened in memory would be
	// gone; read it back after the restart instead.
	began = time.Now()
	d2, err := Start(ctx, cfg, nil, WithDataDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	again := time.Since(began)
	defer d2.Close()
	t.Logf("first start %v, restart %v", first.Round(time.Millisecond), again.Round(time.Millisecond))
	if !d2.Resumed() || d2.Deployment().Router != dep.Router || d2.Deployment().Block != dep.Block {
		t.Fatalf("restart: resumed %v, router %s (was %s)", d2.Resumed(), d2.Deployment().Router, dep.Router)
	}
	if got := balanceOf(ctx, t, d2.Client(), usdc.Address, who); got.Cmp(big.NewInt(123456789)) != 0 {
		t.Fatalf("balance after the restart: %v", got)
	}
	r, err := d2.Client().TransactionReceipt(ctx, h)
	if err != nil || r.BlockNumber.Sign() <= 0 {
		t.Fatalf("the faucet's transaction after the restart: %v %v", r, err)
	}
	head, err := d2.Client().BlockNumber(ctx)
	if err != nil || head < r.BlockNumber.Uint64() {
		t.Fatalf("head after the restart %d, the faucet was mined in %d: %v", head, r.BlockNumber, err)
	}
	if _, err := d2.Mine(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := d2.MarketMaker().Step(ctx)
	if err != nil {
		t.Fatalf("market maker after the restart: %v", err)
	}
	if _, err := d2.Mine(ctx, res.Txs...); err != nil {
		t.Fatalf("market maker's transactions after the restart: %v", err)
	}
	var banner strings.Builder
	if err := d2.WriteBanner(&banner); err != nil || !strings.Contains(banner.String(), "continued from "+dir) {
		t.Fatalf("banner: %v\n%s", err, banner.String())
	}
	if _, err := os.Stat(filepath.Join(dir, savedFile)); err != nil {
		t.Fatal(err)
	}
}

// TestPersistedChainFollowsTheSettings: a restart with another fee policy
// or oracle staleness bound writes them to the router and the oracle, and
// one that turns the market maker on (the chain was made with it off)
// funds and approves its account first; one
// with another chain id or number of dev accounts (both in the genesis) is
// refused, naming the settings and the folder; a folder whose first setup
// did not finish (no deployment record) is started over.
func TestPersistedChainFollowsTheSettings(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "devchain")
	cfg := testConfig()
	cfg.DevRPCListen = ""
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := func(cfg config.ChainConfig, opts ...Option) (*DevChain, error) {
		return Start(ctx, cfg, nil, append(opts, WithDataDir(dir))...)
	}
	d, err := start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	router := d.Deployment().Router
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	policy := config.Default().Routing.FeePolicy
	cell := policy[config.KindLimit][config.ClassMajor]
	cell.ProtocolPpm += 111
	policy[config.KindLimit][config.ClassMajor] = cell
	changed := cfg
	changed.OracleMaxAge = 2 * time.Hour
	changed.MarketMaker.Enabled = true
	d, err = start(changed, WithFeePolicy(policy))
	if err != nil {
		t.Fatal(err)
	}
	step, err := d.MarketMaker().Step(ctx)
	if err != nil {
		t.Fatalf("market maker turned on after the restart: %v", err)
	}
	if _, err := d.Mine(ctx, step.Txs...); err != nil {
		t.Fatalf("market maker's transactions after the restart: %v", err)
	}
	r := servicerouter.NewServiceRouter()
	fees, err := bind.Call(r.Instance(d.Client(), router), &bind.CallOpts{Context: ctx}, r.PackFees(1, 1), r.UnpackFees)
	if err != nil || fees.ProtocolPpm != cell.ProtocolPpm {
		t.Fatalf("limit/major fee after the restart: %+v %v, want protocol %d", fees, err, cell.ProtocolPpm)
	}
	o := oracle.NewOracle()
	maxAge, err := bind.Call(o.Instance(d.Client(), d.Deployment().Oracle), &bind.CallOpts{Context: ctx}, o.PackMaxAge(), o.UnpackMaxAge)
	if err != nil || maxAge.Int64() != 7200 {
		t.Fatalf("oracle maxAge after the restart: %v %v", maxAge, err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	for name, edit := range map[string]func(*config.ChainConfig){
		"chain.devAccounts": func(c *config.ChainConfig) { c.DevAccounts = 6 },
		"chain.chainId":     func(c *config.ChainConfig) { c.ChainID = 4664 },
	} {
		other := changed
		edit(&other)
		if _, err := start(other, WithFeePolicy(policy)); err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "remove "+dir) {
			t.Errorf("%s changed: %v", name, err)
		}
	}

	if err := os.Remove(filepath.Join(dir, savedFile)); err != nil {
		t.Fatal(err)
	}
	d, err = start(cfg)
	if err != nil {
		t.Fatalf("a folder without a deployment record: %v", err)
	}
	defer d.Close()
	if d.Resumed() {
		t.Fatal("a folder whose setup did not finish was continued")
	}
	if _, err := os.Stat(filepath.Join(dir, savedFile)); err != nil {
		t.Fatal(err)
	}
}
