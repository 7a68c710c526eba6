package devchain

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"

	"github.com/orderengine/orderengine/contracts/bindings/oracle"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// testConfig is the chain section of a test: manual mining, RPC on a free
// loopback port, the market maker off unless a test turns it on.
func testConfig() config.ChainConfig {
	cfg := config.Default().Chain
	cfg.ManualMining = true
	cfg.DevRPCListen = "127.0.0.1:0"
	cfg.MarketMaker.Enabled = false
	return cfg
}

func startTest(t *testing.T, cfg config.ChainConfig) *DevChain {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d, err := Start(ctx, cfg, nil)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return d
}

// testCtx bounds a whole test's chain calls. The bound only stops a hung
// test: a loaded machine running the race detector needs well over ten
// seconds for the market maker's 25 steps.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func balanceOf(ctx context.Context, t *testing.T, c bind.ContractBackend, token, who common.Address) *big.Int {
	t.Helper()
	tt := testtoken.NewTestToken()
	b, err := bind.Call(tt.Instance(c, token), &bind.CallOpts{Context: ctx}, tt.PackBalanceOf(who), tt.UnpackBalanceOf)
	if err != nil {
		t.Fatalf("balanceOf: %v", err)
	}
	return b
}

func TestDevChainDeploysAndServesRPC(t *testing.T) {
	d := startTest(t, testConfig())
	ctx := testCtx(t)
	dep := d.Deployment()

	// Every contract has code.
	addrs := map[string]common.Address{"router": dep.Router, "executor": dep.Executor, "oracle": dep.Oracle}
	for _, tok := range dep.Tokens {
		addrs[tok.Symbol] = tok.Address
	}
	for _, p := range dep.Pools {
		addrs["pool "+p.Address.Hex()] = p.Address
	}
	for name, a := range addrs {
		code, err := d.Client().CodeAt(ctx, a, nil)
		if err != nil || len(code) == 0 {
			t.Fatalf("%s %s has no code (%v)", name, a, err)
		}
	}
	families := map[string]int{}
	for _, p := range dep.Pools {
		families[p.Family]++
	}
	if families[FamilyCPMM] < 2 || families[FamilyStableSwap] < 1 {
		t.Fatalf("pool families %v: want two cpmm tiers and a stableswap", families)
	}

	// Standard JSON-RPC over loopback HTTP.
	if !strings.HasPrefix(d.RPCURL(), "http://127.0.0.1:") {
		t.Fatalf("RPC URL %q", d.RPCURL())
	}
	c, err := ethclient.DialContext(ctx, d.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	id, err := c.ChainID(ctx)
	if err != nil || id.Uint64() != 4663 {
		t.Fatalf("chain id over RPC %v %v, want 4663", id, err)
	}
	maker := d.Accounts().Makers[0]
	bal, err := c.BalanceAt(ctx, maker.Address, nil)
	if err != nil || bal.Cmp(new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(params.Ether))) < 0 {
		t.Fatalf("maker balance %v %v: want at least 1,000,000 ETH", bal, err)
	}
	usdc, ok := dep.Token("USDC")
	if !ok {
		t.Fatal("no USDC deployed")
	}
	if b := balanceOf(ctx, t, c, usdc.Address, maker.Address); b.Sign() == 0 {
		t.Fatal("maker holds no USDC")
	}

	// A wallet-style transaction: signed locally, sent over HTTP, mined.
	to := common.HexToAddress("0x000000000000000000000000000000000000b0b0")
	nonce, err := c.PendingNonceAt(ctx, maker.Address)
	if err != nil {
		t.Fatal(err)
	}
	tip, err := c.SuggestGasTipCap(ctx)
	if err != nil {
		t.Fatal(err)
	}
	head, err := c.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	value := big.NewInt(123456789)
	tx, err := types.SignNewTx(maker.Key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
		ChainID: id, Nonce: nonce, GasTipCap: tip, GasFeeCap: new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2))),
		Gas: 21000, To: &to, Value: value,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	// Manual mining: not mined until Commit.
	if _, err := c.TransactionReceipt(ctx, tx.Hash()); !errors.Is(err, ethereum.NotFound) {
		t.Fatalf("receipt before Commit: %v, want not found", err)
	}
	before, _ := c.BlockNumber(ctx)
	d.Commit()
	rc, err := WaitReceipt(ctx, c, tx.Hash(), 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if rc.BlockNumber.Uint64() != before+1 {
		t.Fatalf("mined in block %d, want %d", rc.BlockNumber, before+1)
	}
	if got, _ := c.BalanceAt(ctx, to, nil); got.Cmp(value) != 0 {
		t.Fatalf("recipient balance %v, want %v", got, value)
	}
}

func TestFaucet(t *testing.T) {
	d := startTest(t, testConfig())
	ctx := testCtx(t)
	dep := d.Deployment()
	who := crypto.PubkeyToAddress(mustKey(t).PublicKey)
	weth, _ := dep.Token("WETH")
	usdc, _ := dep.Token("USDC")
	native := big.NewInt(5e18)
	amounts := map[common.Address]*big.Int{
		{}:           native,
		weth.Address: big.NewInt(7e18),
		usdc.Address: big.NewInt(1_234_567),
	}
	var txs []common.Hash
	for token, amount := range amounts {
		h, err := d.Faucet(ctx, who, token, amount)
		if err != nil {
			t.Fatalf("Faucet %s: %v", token, err)
		}
		txs = append(txs, h)
	}
	if _, err := d.Mine(ctx, txs...); err != nil {
		t.Fatal(err)
	}
	if b, _ := d.Client().BalanceAt(ctx, who, nil); b.Cmp(native) != 0 {
		t.Fatalf("native %v, want %v", b, native)
	}
	for _, tok := range []Token{weth, usdc} {
		if b := balanceOf(ctx, t, d.Client(), tok.Address, who); b.Cmp(amounts[tok.Address]) != 0 {
			t.Fatalf("%s balance %v, want %v", tok.Symbol, b, amounts[tok.Address])
		}
	}
	if _, err := d.Faucet(ctx, who, common.HexToAddress("0x1234"), big.NewInt(1)); !errors.Is(err, ErrUnknownToken) {
		t.Fatalf("faucet of an unknown token: %v", err)
	}
	if _, err := d.Faucet(ctx, who, usdc.Address, big.NewInt(0)); err == nil {
		t.Fatal("faucet of zero succeeded")
	}
}

func mustKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestMarketMakerWalksWithinBoundsAndOracleFollows(t *testing.T) {
	cfg := testConfig()
	cfg.DevRPCListen = ""
	cfg.MarketMaker = config.MarketMakerConfig{Enabled: true, MaxStepPpm: 20_000, MaxDeviationPpm: 50_000, Seed: 42}
	d := startTest(t, cfg)
	ctx := testCtx(t)
	mm := d.MarketMaker()
	if mm == nil {
		t.Fatal("market maker not created")
	}
	o := oracle.NewOracle()
	readOracle := func(token common.Address) *big.Int {
		r, err := bind.Call(o.Instance(d.Client(), d.Deployment().Oracle), &bind.CallOpts{Context: ctx}, o.PackLatestRoundData(token), o.UnpackLatestRoundData)
		if err != nil {
			t.Fatal(err)
		}
		return r.Answer
	}
	weth, _ := d.Deployment().Token("WETH")
	initial := readOracle(weth.Address)
	lo, hi, ok := mm.Bounds(weth.Address)
	if !ok {
		t.Fatal("WETH does not walk")
	}
	moved := false
	for step := 0; step < 25; step++ {
		res, err := mm.Step(ctx)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if _, err := d.Mine(ctx, res.Txs...); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		for token, want := range res.Oracle {
			if got := readOracle(token); got.Cmp(want) != 0 {
				t.Fatalf("step %d: oracle of %s is %v, step wrote %v", step, token, got, want)
			}
		}
		// The oracle follows the pool: the WETH answer is the deepest
		// WETH/stable pool's price from its on-chain reserves.
		got := readOracle(weth.Address)
		after := map[common.Address][2]*big.Int{}
		for _, p := range mm.walkedPools() {
			r, err := mm.reserves(ctx, p.Address)
			if err != nil {
				t.Fatal(err)
			}
			after[p.Address] = [2]*big.Int{r.Arg0, r.Arg1}
		}
		if poolPrice := mm.poolPrice(weth, after); poolPrice.Cmp(got) != 0 {
			t.Fatalf("step %d: oracle WETH %v, pool price %v", step, got, poolPrice)
		}
		// Bounded: within the walk's bounds, give or take the fee rounding
		// of landing a pool on its target (0.1 %).
		slack := new(big.Int).Quo(hi, big.NewInt(1000))
		if got.Cmp(new(big.Int).Sub(lo, slack)) < 0 || got.Cmp(new(big.Int).Add(hi, slack)) > 0 {
			t.Fatalf("step %d: WETH %v outside [%v, %v]", step, got, lo, hi)
		}
		// The pool lands on the target within 0.1 %.
		target := res.Targets[weth.Address]
		diff := new(big.Int).Sub(got, target)
		if diff.Abs(diff).Cmp(new(big.Int).Quo(target, big.NewInt(1000))) > 0 {
			t.Fatalf("step %d: WETH pool price %v, target %v", step, got, target)
		}
		moved = moved || got.Cmp(initial) != 0
	}
	if !moved {
		t.Fatal("25 steps never moved the WETH price")
	}
}

// TestTimerMiningAndClose runs the timers: blocks come by themselves, the
// market maker's loop steps (the oracle's WETH round advances), and Close
// stops all of it and the RPC server.
func TestTimerMiningAndClose(t *testing.T) {
	cfg := testConfig()
	cfg.ManualMining = false
	cfg.BlockInterval = 20 * time.Millisecond
	cfg.MarketMaker = config.MarketMakerConfig{Enabled: true, Period: 30 * time.Millisecond}
	ctx := testCtx(t)
	d, err := Start(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := oracle.NewOracle()
	weth, _ := d.Deployment().Token("WETH")
	round := func() uint64 {
		r, err := bind.Call(o.Instance(d.Client(), d.Deployment().Oracle), &bind.CallOpts{Context: ctx},
			o.PackLatestRoundData(weth.Address), o.UnpackLatestRoundData)
		if err != nil {
			t.Fatal(err)
		}
		return r.RoundId.Uint64()
	}
	firstRound := round()
	heads := make(chan *types.Header, 16)
	sub, err := d.Client().SubscribeNewHead(ctx, heads)
	if err != nil {
		t.Fatal(err)
	}
	start, _ := d.Client().BlockNumber(ctx)
	for n := start; n < start+3 || round() < firstRound+2; {
		select {
		case h := <-heads:
			n = h.Number.Uint64()
		case err := <-sub.Err():
			t.Fatal(err)
		case <-ctx.Done():
			t.Fatalf("timer blocks up to %d (from %d), oracle round %d (from %d): %v", n, start, round(), firstRound, ctx.Err())
		}
	}
	sub.Unsubscribe()
	url := d.RPCURL()
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	// The RPC server is gone with the node.
	c, err := ethclient.DialContext(ctx, url)
	if err == nil {
		defer c.Close()
		if _, err := c.ChainID(ctx); err == nil {
			t.Fatal("RPC still answers after Close")
		}
	}
}

func TestOpen(t *testing.T) {
	d := startTest(t, testConfig())
	ctx := testCtx(t)

	// Dev mode fills the configuration; the chain is kept in the data
	// folder (chain.devPersist).
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.Chain = testConfig()
	conn, err := Open(ctx, &cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if !conn.Dev.Persistent() {
		t.Fatal("the dev chain of Open is not kept in the data folder")
	}
	if _, err := os.Stat(filepath.Join(cfg.DataDir, DataDirName, savedFile)); err != nil {
		t.Fatal(err)
	}
	if conn.Dev == nil || cfg.Chain.Router != conn.Dev.Deployment().Router.Hex() || cfg.Chain.PublicRPCURL != conn.RPCURL || conn.RPCURL == "" {
		t.Fatalf("dev Open: router %q public %q conn %q", cfg.Chain.Router, cfg.Chain.PublicRPCURL, conn.RPCURL)
	}
	for _, tok := range cfg.Routing.Tokens {
		if tok.Address == "" {
			t.Fatalf("registry token %s has no address after Open", tok.Symbol)
		}
	}
	if len(cfg.Chain.Pools) != len(conn.Dev.Deployment().Pools) || cfg.Chain.Pools[0].Family == "" {
		t.Fatalf("pools in config %+v", cfg.Chain.Pools)
	}
	var id hexutil.Big
	if conn.RPC == nil || conn.RPC.CallContext(ctx, &id, "eth_chainId") != nil || id.ToInt().Uint64() != 4663 {
		t.Fatalf("dev conn raw RPC: %v", id.ToInt())
	}

	// External mode: the node's chain id and the router's code are checked.
	ext := config.Default()
	d.Deployment().ApplyTo(&ext)
	ext.Chain.RPCURL = d.RPCURL()
	c, err := Open(ctx, &ext, nil, nil)
	if err != nil {
		t.Fatalf("external Open: %v", err)
	}
	if c.Dev != nil || c.ChainID != 4663 || c.RPCURL != d.RPCURL() || c.RPC == nil {
		t.Fatalf("external conn %+v", c)
	}
	c.Close()

	wrongID := ext
	wrongID.Chain.ChainID = 1337
	if _, err := Open(ctx, &wrongID, nil, nil); err == nil || !strings.Contains(err.Error(), "chain id 4663") {
		t.Fatalf("chain id mismatch: %v", err)
	}
	noCode := ext
	noCode.Chain.Router = "0x000000000000000000000000000000000000dEaD"
	if _, err := Open(ctx, &noCode, nil, nil); err == nil || !strings.Contains(err.Error(), "no code") {
		t.Fatalf("router without code: %v", err)
	}
	noHost := config.Default()
	noHost.DataDir = t.TempDir()
	noHost.Chain = testConfig()
	noHost.Chain.DevRPCListen = ":0"
	if _, err := Open(ctx, &noHost, nil, nil); err == nil || !strings.Contains(err.Error(), "needs a host") {
		t.Fatalf("dev RPC address without host: %v", err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busyCfg := testConfig()
	busyCfg.DevRPCListen = busy.Addr().String()
	if _, err := Start(ctx, busyCfg, nil); err == nil || !strings.Contains(err.Error(), "address already in use") || !strings.Contains(err.Error(), "chain.devRPCListen") {
		t.Fatalf("dev RPC on a busy port: %v", err)
	}
	notDev := config.Default()
	notDev.Dev = false
	if _, err := Open(ctx, &notDev, nil, nil); err == nil {
		t.Fatal("Open without RPC URL outside dev mode succeeded")
	}
}
