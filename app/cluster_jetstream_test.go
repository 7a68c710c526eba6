package app_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	nethttp "net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/app"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/testport"
	"github.com/orderengine/orderengine/routing"
)

// Addresses of the test nodes' registry: no chain behind it, the order
// path runs up to and including the replicated commit.
var (
	testRouter = common.HexToAddress("0x00000000000000000000000000000000000A11CE")
	testVault  = common.HexToAddress("0x000000000000000000000000000000000000FEE5")
	testIn     = common.HexToAddress("0x1000000000000000000000000000000000000001")
	testOut    = common.HexToAddress("0x2000000000000000000000000000000000000002")
)

// startClusterSystems builds and starts n engines in one process as one
// cluster (each its own data folder, JetStream server and HTTP listener;
// each serves submits through its own local actors). They stop at the end
// of the test.
func startClusterSystems(t *testing.T, n int) []*app.System {
	t.Helper()
	routes := make([]string, n)
	for i := range routes {
		routes[i] = "nats://" + testport.Addr(t)
	}
	systems := make([]*app.System, n)
	for i := range systems {
		sys, err := app.New(context.Background(), clusterConfig(t, i, routes), slog.New(slog.DiscardHandler), app.Options{NoChain: true, Tokens: testTokens(t)})
		if err != nil {
			t.Fatal(err)
		}
		systems[i] = sys
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = sys.Shutdown(ctx)
			_ = sys.Close()
		})
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, sys := range systems {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			errs[i] = sys.Start(ctx)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("start node %d: %v", i, err)
		}
	}
	return systems
}

// clusterConfig is node i's configuration.
func clusterConfig(t *testing.T, i int, routes []string) config.Config {
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.HTTP.Listen, cfg.HTTP.AdminListen = "127.0.0.1:0", "127.0.0.1:0"
	big := config.BucketLimits{Quote: 1 << 20, Read: 1 << 20, Order: 1 << 20}
	cfg.Limits.Free, cfg.Limits.Builder = big, big
	cfg.Chain.Router, cfg.Chain.FeeVault = testRouter.Hex(), testVault.Hex()
	cfg.Cluster.Enabled, cfg.Cluster.Name, cfg.Cluster.Node = true, "apptest", "node"+strconv.Itoa(i)
	cfg.Cluster.NATS.Listen = routes[i][len("nats://"):]
	cfg.Cluster.NATS.Routes = routes
	return cfg
}

func testTokens(t *testing.T) func() *routing.Tokens {
	reg, err := routing.NewTokens([]config.TokenConfig{
		{Address: testIn.Hex(), Symbol: "AAA", Decimals: 18, Class: config.ClassMajor},
		{Address: testOut.Hex(), Symbol: "BBB", Decimals: 6, Class: config.ClassStable},
	})
	if err != nil {
		t.Fatal(err)
	}
	reg = reg.WithOracle(func(common.Address) bool { return true })
	return func() *routing.Tokens { return reg }
}

// signedOrder is a v7.1 limit order of a fresh maker, signed, as the body
// of POST /v1/orders, and its hash.
func signedOrder(t *testing.T, salt uint64) ([]byte, common.Hash) {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return signOrder(key, salt)
}

func signOrder(key *ecdsa.PrivateKey, salt uint64) ([]byte, common.Hash) {
	maker := crypto.PubkeyToAddress(key.PublicKey)
	ppm := config.Default().Routing.FeePolicy["limit"][config.ClassMajor].ReferralPpm
	traits, _ := chain.EncodeTraits(chain.Traits{SlippagePpm: 5000})
	o := chain.Order{Maker: maker, Receiver: maker, TokenIn: testIn, TokenOut: testOut, Referrer: testVault,
		ReferralFeePpm: ppm, MakerTraits: traits}
	o.Salt.SetUint64(salt)
	o.AmountIn.SetUint64(1_000_000_000_000_000_000)
	o.TriggerPrice.SetUint64(2_000_000_000)
	o.TriggerAmountOut, _ = chain.DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, 18)
	h := chain.OrderHash(chain.NewRouterDomain(4663, testRouter), &o)
	sig, _ := crypto.Sign(h[:], key)
	sig[64] += 27
	body := fmt.Sprintf(`{"orderType":"limit","signature":"0x%s","orderHash":"%s","order":{"salt":"0x%s","maker":"%s","receiver":"%s",`+
		`"tokenIn":"%s","tokenOut":"%s","amountIn":"%s","triggerPrice":"%s","makerTraits":"%s","referrer":"%s","referralFeePpm":%d}}`,
		hex.EncodeToString(sig), h.Hex(), hex.EncodeToString(o.Salt.Bytes()), maker.Hex(), maker.Hex(), testIn.Hex(), testOut.Hex(),
		o.AmountIn.Dec(), o.TriggerPrice.Dec(), uint256.NewInt(0).Set(&traits).Dec(), testVault.Hex(), ppm)
	return []byte(body), h
}

// call sends a request to sys's public listener and returns the status
// and the body.
func call(t *testing.T, sys *app.System, method, path, key string, body []byte) (int, []byte) {
	t.Helper()
	req, err := nethttp.NewRequest(method, "http://"+sys.HTTP.Addr()+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := nethttp.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// eventually polls f until it holds, within 20 s, and returns how long it
// took.
func eventually(t *testing.T, what string, f func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !f() {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Since(start)
}

// TestClusterOfThreeSystems runs three engines as a cluster in one
// process: an order accepted by one node is read with the same body from
// the others; the same signed order sent to two nodes at once is accepted
// once (one 201, one 409); a key disabled on one node stops authenticating
// on the others (the time it took is logged: docs/cluster.md states the
// bound); every node reports ready.
func TestClusterOfThreeSystems(t *testing.T) {
	nodes := startClusterSystems(t, 3)
	a, b, c := nodes[0], nodes[1], nodes[2]
	acct, err := a.Accounts.CreateAccount("cluster", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	key, rec, err := a.Accounts.IssueKey(acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range nodes {
		eventually(t, fmt.Sprintf("node %d ready", i), func() bool {
			st, _ := call(t, n, "GET", "/readyz", "", nil)
			return st == 200
		})
	}

	body, h := signedOrder(t, 1)
	if st, resp := call(t, a, "POST", "/v1/orders", key, body); st != 201 {
		t.Fatalf("submit on A: %d %s", st, resp)
	}
	_, want := call(t, a, "GET", "/v1/orders/"+h.Hex(), key, nil)
	for i, n := range []*app.System{b, c} {
		var got []byte
		eventually(t, "the order on another node", func() bool {
			var st int
			st, got = call(t, n, "GET", "/v1/orders/"+h.Hex(), key, nil)
			return st == 200
		})
		if !bytes.Equal(got, want) {
			t.Fatalf("node %d reads\n%s\nnode A reads\n%s", i+1, got, want)
		}
	}

	for round := range 5 {
		body, _ := signedOrder(t, uint64(100+round))
		statuses := make([]int, 2)
		var wg sync.WaitGroup
		for i, n := range []*app.System{b, c} {
			wg.Go(func() { statuses[i], _ = call(t, n, "POST", "/v1/orders", key, body) })
		}
		wg.Wait()
		if !(statuses[0] == 201 && statuses[1] == 409 || statuses[0] == 409 && statuses[1] == 201) {
			t.Fatalf("round %d: the same order on two nodes at once answered %v", round, statuses)
		}
	}

	if _, err := a.Accounts.DisableKey(rec.ID); err != nil {
		t.Fatal(err)
	}
	for i, n := range []*app.System{b, c} {
		took := eventually(t, "the disabled key refused", func() bool {
			st, resp := call(t, n, "GET", "/v1/orders/"+h.Hex(), key, nil)
			return st == 401 && bytes.Contains(resp, []byte("KEY_DISABLED"))
		})
		t.Logf("key disabled on node A: refused by node %d %s later", i+1, took)
	}
}
