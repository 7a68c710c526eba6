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

// The integrator examples of the README ("Sign and submit an order"),
// relative to this package.
const (
	ethersExample = "../../docs/examples/ethers-order"
	viemExample   = "../../docs/examples/viem-order"
)

// exampleSteps are the steps both examples print, in any order.
var exampleSteps = []string{"config", "tokens", "route", "sign", "onchain", "submit", "read", "list", "orderbook", "cancel", "done"}

// TestOrderExamples runs the README's integrator examples with node against
// `serve` on the embedded dev chain, exactly as the README tells a newcomer
// to. Each reads the domain and types from /v1/config, signs a limit order,
// checks the router computes the same hash, submits, reads, lists, finds it
// in the orderbook and cancels it with a signed OrderCancel.
//   - ethers (docs/examples/ethers-order), which also funds the maker and
//     checks the router's activate (eth_call): as maker-1 of the banner
//     (prefunded with WETH), and as a fresh wallet holding only native coin
//     (the script wraps);
//   - viem (docs/examples/viem-order), signing with the served EIP712Domain
//     type: as a fresh wallet holding nothing, whose order is accepted
//     unfunded.
func TestOrderExamples(t *testing.T) {
	node := exampleNode(t, ethersExample, "ethers")
	exampleNode(t, viemExample, "viem")
	r := startServe(t, t.TempDir())
	defer r.stop(t)
	m := r.devKeyMatch(t)
	if m == nil {
		t.Fatalf("no dev key printed:\n%s", r.stdout.String())
	}
	base, apiKey := "http://"+r.pub, m[1]

	t.Run("ethers/maker-1", func(t *testing.T) {
		steps, _ := runExample(t, node, ethersExample, base, apiKey, devchain.DevKey(3)) // index 3 = maker-1 (0 deployer, 1 market maker, 2 keeper)
		if !slices.Contains(steps, "funds") || !slices.Contains(steps, "approve") || slices.Contains(steps, "wrap") {
			t.Fatalf("steps %v: a prefunded maker approves the router and needs no wrap", steps)
		}
	})
	t.Run("ethers/native coin only", func(t *testing.T) {
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
		steps, _ := runExample(t, node, ethersExample, base, apiKey, key)
		if !slices.Contains(steps, "funds") || !slices.Contains(steps, "wrap") || !slices.Contains(steps, "approve") {
			t.Fatalf("steps %v: a wallet without WETH wraps and approves", steps)
		}
	})
	t.Run("viem/fresh wallet", func(t *testing.T) {
		key, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		_, lines := runExample(t, node, viemExample, base, apiKey, key)
		var read struct {
			Status string
			Funded *bool
		}
		if err := json.Unmarshal(lines["read"], &read); err != nil || read.Funded == nil || *read.Funded || read.Status != "pending" {
			t.Fatalf("read step %s: want a pending order with funded false (the wallet holds nothing)", lines["read"])
		}
	})
}

// exampleNode returns node's path, once the example in dir has its
// dependency pkg installed; without them the test fails in CI and is
// skipped elsewhere.
func exampleNode(t *testing.T, dir, pkg string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json"))
	}
	if err != nil {
		msg := "needs node and the example's dependencies (make deps, or npm ci --prefix " + strings.TrimPrefix(dir, "../../") + "): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node
}

// runExample runs order.mjs of the example in dir as the maker key, checks
// that it went through every step of exampleSteps and exited 0, and that the
// server holds its order cancelled. It returns the names of the steps
// printed, and each step's line.
func runExample(t *testing.T, node, dir, base, apiKey string, key *ecdsa.PrivateKey) ([]string, map[string]json.RawMessage) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "order.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"BASE_URL="+base, "API_KEY="+apiKey, "MAKER_KEY=0x"+hex.EncodeToString(crypto.FromECDSA(key)), "RPC_URL=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node order.mjs (%s): %v\nstdout:\n%s\nstderr:\n%s", dir, err, stdout.String(), stderr.String())
	}

	var steps []string
	lines := map[string]json.RawMessage{}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		var line struct{ Step string }
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("order.mjs printed a line that is not JSON: %q", sc.Text())
		}
		steps = append(steps, line.Step)
		lines[line.Step] = append(json.RawMessage(nil), sc.Bytes()...)
	}
	for _, want := range exampleSteps {
		if !slices.Contains(steps, want) {
			t.Fatalf("order.mjs exited 0 without step %q: %v\n%s", want, steps, stdout.String())
		}
	}
	var done struct{ OrderHash string }
	if err := json.Unmarshal(lines["done"], &done); err != nil {
		t.Fatal(err)
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
	return steps, lines
}
