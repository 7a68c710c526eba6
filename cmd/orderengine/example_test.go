package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/chain/devchain"
)

// exampleDir is the integrator example of the README ("Sign and submit an
// order"), relative to this package.
const exampleDir = "../../docs/examples/ethers-order"

// TestEthersOrderExample runs docs/examples/ethers-order/order.mjs with node
// against `serve` on the embedded dev chain, exactly as the README tells a
// newcomer to: it reads the domain and types from /v1/config, signs a limit
// order with ethers, checks the router's hashOrder and activate (eth_call)
// accept it, submits, reads, lists, finds it in the orderbook and cancels it
// with a signed OrderCancel. Twice: as maker-1 of the banner (prefunded with
// WETH), and as a fresh wallet holding only native coin (the script wraps).
func TestEthersOrderExample(t *testing.T) {
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(exampleDir, "node_modules", "ethers", "package.json"))
	}
	if err != nil {
		msg := "needs node and the example's dependencies (make deps, or npm ci --prefix docs/examples/ethers-order): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}

	r := startServe(t, t.TempDir())
	defer r.stop(t)
	m := keyRe.FindStringSubmatch(r.stdout.String())
	if m == nil {
		t.Fatalf("no dev key printed:\n%s", r.stdout.String())
	}
	base, apiKey := "http://"+r.pub, m[1]

	t.Run("maker-1", func(t *testing.T) {
		steps := runExample(t, node, base, apiKey, devchain.DevKey(3)) // index 3 = maker-1 (0 deployer, 1 market maker, 2 keeper)
		if !slices.Contains(steps, "approve") || slices.Contains(steps, "wrap") {
			t.Fatalf("steps %v: a prefunded maker approves the router and needs no wrap", steps)
		}
	})
	t.Run("native coin only", func(t *testing.T) {
		key, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		var cfg struct {
			RPCURL  string `json:"rpcUrl"`
			ChainID uint64 `json:"chainId"`
		}
		getJSON(t, base+"/v1/config", apiKey, &cfg)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// 100 coins from maker-2, so no other dev account's nonces are touched.
		if _, err := devchain.RemoteFaucet(ctx, cfg.RPCURL, cfg.ChainID, devchain.DevKey(4), crypto.PubkeyToAddress(key.PublicKey), common.Address{}, nil); err != nil {
			t.Fatal(err)
		}
		steps := runExample(t, node, base, apiKey, key)
		if !slices.Contains(steps, "wrap") || !slices.Contains(steps, "approve") {
			t.Fatalf("steps %v: a wallet without WETH wraps and approves", steps)
		}
	})
}

// runExample runs order.mjs as the maker key, checks that it went through
// every step and exited 0, and that the server holds its order cancelled.
// It returns the names of the steps printed.
func runExample(t *testing.T, node, base, apiKey string, key *ecdsa.PrivateKey) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "order.mjs")
	cmd.Dir = exampleDir
	cmd.Env = append(os.Environ(),
		"BASE_URL="+base, "API_KEY="+apiKey, "MAKER_KEY=0x"+hex.EncodeToString(crypto.FromECDSA(key)), "RPC_URL=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node order.mjs: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}

	var steps []string
	var done struct{ OrderHash string }
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		var line struct {
			Step      string
			OrderHash string
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("order.mjs printed a line that is not JSON: %q", sc.Text())
		}
		steps = append(steps, line.Step)
		if line.Step == "done" {
			done.OrderHash = line.OrderHash
		}
	}
	for _, want := range []string{"config", "tokens", "funds", "route", "sign", "onchain", "submit", "read", "list", "orderbook", "cancel", "done"} {
		if !slices.Contains(steps, want) {
			t.Fatalf("order.mjs exited 0 without step %q: %v\n%s", want, steps, stdout.String())
		}
	}

	// The server's own view, independently of the script.
	var rec struct {
		OrderHash string
		OrderType string
		Status    string
		Order     struct{ Maker string }
	}
	getJSON(t, base+"/v1/orders/"+done.OrderHash, apiKey, &rec)
	maker := crypto.PubkeyToAddress(key.PublicKey)
	if !strings.EqualFold(rec.OrderHash, done.OrderHash) || rec.Status != "cancelled" || rec.OrderType != "limit" ||
		common.HexToAddress(rec.Order.Maker) != maker {
		t.Fatalf("GET /v1/orders/%s = %+v, want a cancelled limit order of %s", done.OrderHash, rec, maker.Hex())
	}
	return steps
}
