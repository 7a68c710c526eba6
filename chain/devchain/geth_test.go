package devchain

import (
	"bytes"
	"context"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
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

// freePort asks the kernel for a free loopback port.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// lockedBuffer collects a process's output for failure messages.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startGeth starts `geth --dev` (chain id 1337, a block every second) on a
// free loopback port in a temporary data directory, waits until its RPC
// answers, and stops it when the test ends.
func startGeth(t *testing.T) *gethNode {
	t.Helper()
	bin := findGeth(t)
	port := freePort(t)
	out := &lockedBuffer{}
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

func TestGethDevNodeStarts(t *testing.T) {
	g := startGeth(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// The external node's chain id is checked: 1337 passes, 4663 fails.
	if _, err := Dial(ctx, g.URL, 4663); err == nil {
		t.Fatal("Dial with chain id 4663 to geth --dev (1337) succeeded")
	}
	c, err := Dial(ctx, g.URL, 1337)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	to := common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	g.fund(ctx, t, to, 3)
	bal, err := c.BalanceAt(ctx, to, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := new(big.Int).Mul(big.NewInt(3), big.NewInt(params.Ether)); bal.Cmp(want) != 0 {
		t.Fatalf("balance %s, want %s", bal, want)
	}
}
