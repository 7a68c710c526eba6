package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/internal/syncbuf"
	"github.com/orderengine/orderengine/internal/testport"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// TestOrdersSurviveKill9 runs the real binary against a dev chain served
// over JSON-RPC, submits orders from concurrent clients, kills the process
// with SIGKILL in the middle of the burst, restarts it on the same data
// directory and checks that every order answered 201 is there, and that
// the order key space is consistent (every index entry has its order and
// every order its index entries).
func TestOrdersSurviveKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "orderengine")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ccfg := config.Default().Chain
	ccfg.DevRPCListen = "127.0.0.1:0"
	ccfg.MarketMaker.Enabled = false
	dc, err := devchain.Start(ctx, ccfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dc.Close() })
	dep := dc.Deployment()
	weth, _ := dep.Token("WETH")
	usdc, _ := dep.Token("USDC")
	tokens, _ := json.Marshal(dep.RegistryTokens(config.Default().Routing.Tokens))
	dir := t.TempDir()
	pub, adm := testport.Addr(t), testport.Addr(t)
	envv := append(os.Environ(),
		"ORDERENGINE_DATA_DIR="+dir, "ORDERENGINE_HTTP_LISTEN="+pub, "ORDERENGINE_HTTP_ADMIN_LISTEN="+adm,
		"ORDERENGINE_CHAIN_RPC_URL="+dc.RPCURL(), "ORDERENGINE_CHAIN_ROUTER="+dep.Router.Hex(),
		"ORDERENGINE_CHAIN_ORACLE="+dep.Oracle.Hex(), "ORDERENGINE_CHAIN_FEE_VAULT="+dep.FeeVault.Hex(),
		"ORDERENGINE_ROUTING_TOKENS="+string(tokens), "ORDERENGINE_LIMITS_FREE_ORDER=1000000",
		"ORDERENGINE_LIMITS_MAKER_SUBMITS=1000000", "ORDERENGINE_LIMITS_MAKER_OPEN_ORDERS=1000000", "ORDERENGINE_LIMITS_FREE_READ=1000000",
		"ORDERENGINE_LOG_LEVEL=warn")
	start := func() (*exec.Cmd, *syncbuf.Buffer) {
		out := &syncbuf.Buffer{}
		cmd := exec.Command(bin, "serve")
		cmd.Env, cmd.Stdout, cmd.Stderr = envv, out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitHealthy(t, ctx, "http://"+pub, out)
		return cmd, out
	}
	cmd, out := start()
	if regexp.MustCompile(`svc_[A-Za-z0-9]+`).MatchString(out.String()) {
		t.Fatalf("a dev key was printed with an external node:\n%s", out.String())
	}
	key := adminIssueKey(t, adm, dir)
	domain := chain.NewRouterDomain(dep.ChainID, dep.Router)
	ppm := config.Default().Routing.FeePolicy["limit"][config.ClassMajor].ReferralPpm
	var (
		mu       sync.Mutex
		accepted []common.Hash
		n        atomic.Int64
		wg       sync.WaitGroup
	)
	client := &http.Client{Timeout: 10 * time.Second}
	for w := range 8 {
		wg.Go(func() {
			mk, _ := crypto.GenerateKey()
			for i := 0; ; i++ {
				body, h := signedLimit(domain, mk, weth, usdc, dep.FeeVault, ppm, uint64(w)<<32|uint64(i))
				req, _ := http.NewRequest("POST", "http://"+pub+"/v1/orders", bytes.NewReader(body))
				req.Header.Set("X-API-Key", key)
				resp, err := client.Do(req)
				if err != nil {
					return // the server died
				}
				_ = resp.Body.Close()
				if resp.StatusCode == 201 {
					mu.Lock()
					accepted = append(accepted, h)
					mu.Unlock()
					n.Add(1)
				} else if resp.StatusCode != 429 {
					t.Errorf("submit: status %d", resp.StatusCode)
					return
				}
			}
		})
	}
	for n.Load() < 300 && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	wg.Wait()
	mu.Lock()
	acked := append([]common.Hash(nil), accepted...)
	mu.Unlock()
	t.Logf("%d orders answered 201 before SIGKILL", len(acked))

	cmd, _ = start()
	for _, h := range acked {
		req, _ := http.NewRequest("GET", "http://"+pub+"/v1/orders/"+h.Hex(), nil)
		req.Header.Set("X-API-Key", key)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("order %s answered 201 before the crash is missing after restart: %d", h.Hex(), resp.StatusCode)
		}
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	_ = cmd.Wait()
	store, err := persistence.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	res, err := orderstore.New(store, nil).CheckOrders()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) > 0 || res.Orders < len(acked) || res.IndexEntries != len(orderstore.IndexMasks)*res.Orders {
		t.Fatalf("after kill -9: %d orders, %d index entries, problems %v", res.Orders, res.IndexEntries, res.Problems)
	}
	t.Logf("store: %d orders (%d acknowledged), %d index entries, consistent", res.Orders, len(acked), res.IndexEntries)
}

func waitHealthy(t *testing.T, ctx context.Context, base string, out *syncbuf.Buffer) {
	t.Helper()
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("server not healthy: %v\n%s", err, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// signedLimit returns the body of a signed limit order selling 1 WETH for
// at least price USDC, and its hash.
func signedLimit(d *chain.Domain, key *ecdsa.PrivateKey, in, out devchain.Token, vault common.Address, ppm uint32, salt uint64) ([]byte, common.Hash) {
	maker := crypto.PubkeyToAddress(key.PublicKey)
	traits, _ := chain.EncodeTraits(chain.Traits{SlippagePpm: 5000})
	o := chain.Order{Maker: maker, Receiver: maker, TokenIn: in.Address, TokenOut: out.Address, Referrer: vault, ReferralFeePpm: ppm, MakerTraits: traits}
	o.Salt.SetUint64(salt + 1)
	o.AmountIn.SetUint64(1_000_000_000_000_000_000)
	o.TriggerPrice.SetUint64(2_000_000_000 + salt%1000)
	o.TriggerAmountOut, _ = chain.DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, in.Decimals)
	h := chain.OrderHash(d, &o)
	sig, _ := crypto.Sign(h[:], key)
	body, _ := json.Marshal(map[string]any{
		"orderType": "limit", "signature": "0x" + hex.EncodeToString(sig), "orderHash": h.Hex(),
		"order": map[string]any{
			"salt": fmt.Sprintf("0x%x", salt+1), "maker": maker.Hex(), "receiver": maker.Hex(), "tokenIn": in.Address.Hex(),
			"tokenOut": out.Address.Hex(), "amountIn": o.AmountIn.Dec(), "triggerPrice": o.TriggerPrice.Dec(),
			"makerTraits": traits.Dec(), "referrer": vault.Hex(), "referralFeePpm": ppm,
		},
	})
	return body, h
}
