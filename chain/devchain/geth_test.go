package devchain

import (
	"context"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/orderengine/orderengine/internal/syncbuf"
	"github.com/orderengine/orderengine/internal/testport"
)

// gethEnv names the geth binary when it is not at <module>/.cache/bin/geth.
const gethEnv = "ORDERENGINE_GETH"

// findGeth locates the geth v1.16.7 binary `make deps` builds. Under CI it
// must exist (the test fails); locally the test skips with the command that
// builds it.
func findGeth(t *testing.T) string {
	t.Helper()
	if p := os.Getenv(gethEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s=%s: %v", gethEnv, p, err)
		}
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("module root (go.mod) not found above the test directory")
		}
		dir = parent
	}
	p := filepath.Join(dir, ".cache", "bin", "geth")
	if _, err := os.Stat(p); err != nil {
		msg := "geth v1.16.7 not found at " + p + "; build it with `make deps` (or set " + gethEnv + ")"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return p
}

// gethNode is a `geth --dev` process started by a test.
type gethNode struct {
	URL      string
	Client   *ethclient.Client
	RPC      *rpc.Client
	Coinbase common.Address
}

// startGeth starts `geth --dev` (chain id 1337, a block every second) on a
// free loopback port in a temporary data directory, waits until its RPC
// answers, and stops it when the test ends.
func startGeth(t *testing.T) *gethNode {
	t.Helper()
	bin := findGeth(t)
	port := testport.Port(t)
	out := &syncbuf.Buffer{}
	cmd := exec.Command(bin,
		"--dev", "--dev.period", "1", "--dev.gaslimit", "60000000",
		"--http", "--http.addr", "127.0.0.1", "--http.port", strconv.Itoa(port), "--http.api", "eth,net,web3",
		"--datadir", t.TempDir(), "--ipcdisable", "--nodiscover", "--maxpeers", "0", "--port", "0",
		"--authrpc.port", "0", "--verbosity", "2")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start geth: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})

	url := "http://127.0.0.1:" + strconv.Itoa(port)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var rc *rpc.Client
	for rc == nil {
		c, err := rpc.DialContext(ctx, url)
		if err == nil {
			var id hexutil.Big
			if err = c.CallContext(ctx, &id, "eth_chainId"); err == nil {
				rc = c
				break
			}
			c.Close()
		}
		select {
		case err := <-exited:
			t.Fatalf("geth exited before serving RPC: %v\n%s", err, out.String())
		case <-ctx.Done():
			t.Fatalf("geth RPC at %s not ready: %v\n%s", url, ctx.Err(), out.String())
		case <-tick.C:
		}
	}
	t.Cleanup(rc.Close)
	var accounts []common.Address
	if err := rc.CallContext(ctx, &accounts, "eth_accounts"); err != nil || len(accounts) == 0 {
		t.Fatalf("geth dev account: %v %v", accounts, err)
	}
	return &gethNode{URL: url, Client: ethclient.NewClient(rc), RPC: rc, Coinbase: accounts[0]}
}

// fund sends eth whole coins from geth's unlocked dev account to to and
// waits until it is mined.
func (g *gethNode) fund(ctx context.Context, t *testing.T, to common.Address, eth int64) {
	t.Helper()
	value := new(big.Int).Mul(big.NewInt(eth), big.NewInt(params.Ether))
	var hash common.Hash
	err := g.RPC.CallContext(ctx, &hash, "eth_sendTransaction", map[string]any{
		"from": g.Coinbase, "to": to, "value": (*hexutil.Big)(value),
	})
	if err != nil {
		t.Fatalf("fund %s from the dev account: %v", to, err)
	}
	if _, err := WaitReceipt(ctx, g.Client, hash, 100*time.Millisecond); err != nil {
		t.Fatalf("fund %s: %v", to, err)
	}
}

// TestDeployRemoteOnGeth deploys the contracts to a real geth --dev node
// (chain id 1337) the way `orderengine devnet deploy` does, then uses them:
// every contract has code, the faucet wraps and mints, and a swap through
// the router pays every fee leg to the wei.
func TestDeployRemoteOnGeth(t *testing.T) {
	g := startGeth(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	// The external node's chain id is checked: 4663 (the default) fails.
	if _, err := Dial(ctx, g.URL, 4663); err == nil || !strings.Contains(err.Error(), "chain id 1337") {
		t.Fatalf("Dial with chain id 4663 to geth --dev: %v", err)
	}
	if _, err := DeployRemote(ctx, g.URL, DevKey(0), RemoteOptions{}, nil); err == nil {
		t.Fatal("DeployRemote with the default chain id 4663 succeeded on a 1337 node")
	}

	key := DevKey(0)
	deployer := crypto.PubkeyToAddress(key.PublicKey)
	g.fund(ctx, t, deployer, 10_000)
	vault := common.HexToAddress("0x00000000000000000000000000000000000fee00")
	dep, err := DeployRemote(ctx, g.URL, key, RemoteOptions{ChainID: 1337, FeeVault: vault, PollInterval: 100 * time.Millisecond}, nil)
	if err != nil {
		t.Fatalf("DeployRemote: %v", err)
	}
	if dep.ChainID != 1337 || dep.FeeVault != vault {
		t.Fatalf("deployment chain %d vault %s", dep.ChainID, dep.FeeVault)
	}
	addrs := []common.Address{dep.Router, dep.Executor, dep.Oracle, dep.Multicall}
	for _, tok := range dep.Tokens {
		addrs = append(addrs, tok.Address)
	}
	for _, p := range dep.Pools {
		addrs = append(addrs, p.Address)
	}
	for _, a := range addrs {
		code, err := g.Client.CodeAt(ctx, a, nil)
		if err != nil || len(code) == 0 {
			t.Fatalf("%s has no code on geth (%v)", a, err)
		}
	}
	// The config snippet round-trips into an external-node configuration
	// that Open accepts.
	cfg := config.Default()
	cfg.Chain = dep.ChainSection(g.URL)
	cfg.Routing.Tokens = dep.RegistryTokens(cfg.Routing.Tokens)
	conn, err := Open(ctx, &cfg, nil, nil)
	if err != nil {
		t.Fatalf("Open on the deployed geth: %v", err)
	}
	conn.Close()

	// Faucet: WETH by wrapping, USDC by minting, on a node that mines by
	// itself.
	trader := DevKey(3)
	me := crypto.PubkeyToAddress(trader.PublicKey)
	g.fund(ctx, t, me, 10)
	weth, _ := dep.Token("WETH")
	usdc, _ := dep.Token("USDC")
	if _, err := RemoteFaucet(ctx, g.URL, 1337, key, me, weth.Address, big.NewInt(3e18)); err != nil {
		t.Fatalf("RemoteFaucet WETH: %v", err)
	}
	if _, err := RemoteFaucet(ctx, g.URL, 1337, key, me, usdc.Address, nil); err != nil {
		t.Fatalf("RemoteFaucet USDC: %v", err)
	}
	if b := balanceOf(ctx, t, g.Client, usdc.Address, me); b.Cmp(big.NewInt(1000e6)) != 0 {
		t.Fatalf("faucet USDC %v, want 1000e6", b)
	}

	mine := func(ctx context.Context, h common.Hash) (*types.Receipt, error) {
		return WaitReceipt(ctx, g.Client, h, 100*time.Millisecond)
	}
	checkRouterSwap(ctx, t, g.Client, 1337, trader, mine, dep, weth, usdc,
		common.HexToAddress("0x00000000000000000000000000000000000f00d0"), 50, big.NewInt(2e18))
}
