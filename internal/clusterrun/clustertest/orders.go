package clustertest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// Contracts is the shared chain as the nodes are configured with it: the
// configuration file `devnet serve` writes (chain section and token
// registry).
type Contracts struct {
	ChainID  uint64
	RPCURL   string
	Router   common.Address
	FeeVault common.Address
	// Tokens by symbol.
	Tokens map[string]config.TokenConfig
}

// ReadContracts reads the configuration file `devnet serve` wrote.
func ReadContracts(t testing.TB, file string) *Contracts {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Chain   config.ChainConfig `json:"chain"`
		Routing struct {
			Tokens []config.TokenConfig `json:"tokens"`
		} `json:"routing"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("clustertest: %s: %v", file, err)
	}
	c := &Contracts{ChainID: f.Chain.ChainID, RPCURL: f.Chain.RPCURL, Router: common.HexToAddress(f.Chain.Router),
		FeeVault: common.HexToAddress(f.Chain.FeeVault), Tokens: map[string]config.TokenConfig{}}
	for _, tok := range f.Routing.Tokens {
		c.Tokens[tok.Symbol] = tok
	}
	return c
}

// Contracts reads the chain's configuration file.
func (h *Harness) Contracts() *Contracts { return ReadContracts(h.t, h.Layout.Chain.ConfigFile) }

// Maker is the key of dev maker k (from 0): maker-(k+1) of the dev
// chain's banner, funded with native coin and about $1,000,000 of every
// token. The dev chain has five.
func Maker(k int) *ecdsa.PrivateKey { return devchain.DevKey(3 + k) }

// Approve lets the router spend all of key's token (by symbol), over the
// chain's JSON-RPC, and waits until the approval is mined.
func (c *Contracts) Approve(t testing.TB, key *ecdsa.PrivateKey, symbol string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client, err := ethclient.DialContext(ctx, c.RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	token := common.HexToAddress(c.Tokens[symbol].Address)
	tt := testtoken.NewTestToken()
	opts := bind.NewKeyedTransactor(key, new(big.Int).SetUint64(c.ChainID))
	opts.Context = ctx
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	tx, err := bind.NewBoundContract(token, tt.GetABI(), client, client, client).RawTransact(opts, tt.PackApprove(c.Router, max))
	if err != nil {
		t.Fatalf("clustertest: approve %s: %v", symbol, err)
	}
	r, err := devchain.WaitReceipt(ctx, client, tx.Hash(), 50*time.Millisecond)
	if err != nil || r.Status != 1 {
		t.Fatalf("clustertest: approve %s: status %v, %v", symbol, r, err)
	}
}

// Limit is a limit order to sign: sell AmountIn (raw units) of In for
// Out at TriggerPrice (raw units of Out per whole In).
type Limit struct {
	Maker        *ecdsa.PrivateKey
	In, Out      string
	AmountIn     uint64
	TriggerPrice uint64
	Salt         uint64
}

// Fillable is a limit order of maker selling 0.1 WETH for USDC at 2,000
// USDC per WETH, far below the dev chain's price (about 3,000): listed as
// executable at once, the nodes' keeper fills it within a few blocks
// (once the maker has approved WETH).
func Fillable(maker *ecdsa.PrivateKey, salt uint64) Limit {
	return Limit{Maker: maker, In: "WETH", Out: "USDC", AmountIn: 1e17, TriggerPrice: 2_000_000_000, Salt: salt}
}

// Resting is a limit order of maker selling 0.1 WETH at 100,000 USDC per
// WETH: it stays open.
func Resting(maker *ecdsa.PrivateKey, salt uint64) Limit {
	return Limit{Maker: maker, In: "WETH", Out: "USDC", AmountIn: 1e17, TriggerPrice: 100_000_000_000, Salt: salt}
}

// Sign signs l and returns the body of POST /v1/orders and the order's
// hash. The referral leg goes to the fee vault at the limit × major
// cell's default rate.
func (c *Contracts) Sign(t testing.TB, l Limit) ([]byte, common.Hash) {
	t.Helper()
	in, out := c.Tokens[l.In], c.Tokens[l.Out]
	maker := crypto.PubkeyToAddress(l.Maker.PublicKey)
	traits, err := chain.EncodeTraits(chain.Traits{SlippagePpm: 5000})
	if err != nil {
		t.Fatal(err)
	}
	ppm := config.Default().Routing.FeePolicy[config.KindLimit][config.ClassMajor].ReferralPpm
	o := chain.Order{Maker: maker, Receiver: maker, TokenIn: common.HexToAddress(in.Address), TokenOut: common.HexToAddress(out.Address),
		Referrer: c.FeeVault, ReferralFeePpm: ppm, MakerTraits: traits}
	o.Salt.SetUint64(l.Salt)
	o.AmountIn.SetUint64(l.AmountIn)
	o.TriggerPrice.SetUint64(l.TriggerPrice)
	if o.TriggerAmountOut, err = chain.DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, in.Decimals); err != nil {
		t.Fatal(err)
	}
	h := chain.OrderHash(chain.NewRouterDomain(c.ChainID, c.Router), &o)
	sig, err := crypto.Sign(h[:], l.Maker)
	if err != nil {
		t.Fatal(err)
	}
	body, err := json.Marshal(map[string]any{
		"orderType": "limit", "signature": "0x" + hex.EncodeToString(sig), "orderHash": h.Hex(),
		"order": map[string]any{
			"salt": fmt.Sprintf("0x%x", l.Salt), "maker": maker.Hex(), "receiver": maker.Hex(),
			"tokenIn": o.TokenIn.Hex(), "tokenOut": o.TokenOut.Hex(), "amountIn": o.AmountIn.Dec(),
			"triggerPrice": o.TriggerPrice.Dec(), "makerTraits": traits.Dec(), "referrer": c.FeeVault.Hex(), "referralFeePpm": ppm,
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return body, h
}

// Do makes one request to node i's public API with key (none when empty)
// and returns the status and body; a request that gets no answer within
// 10 s (the node is down, or paused) is status 0 with the error's text as
// body. Do and Submit may be called from several goroutines (a load).
func (h *Harness) Do(i int, method, path, key string, body []byte) (int, []byte) {
	ctx, cancel := context.WithTimeout(h.ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, h.BaseURL(i)+path, bytes.NewReader(body))
	if err != nil {
		return 0, []byte(err.Error())
	}
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer func() { _ = resp.Body.Close() }()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// Submit POSTs an order body to node i and returns the status.
func (h *Harness) Submit(i int, key string, body []byte) int {
	code, _ := h.Do(i, http.MethodPost, "/v1/orders", key, body)
	return code
}

// Status reads an order's status on node i: its status field and the
// answer's code ("" unless 200).
func (h *Harness) Status(i int, key string, hash common.Hash) (string, int) {
	code, body := h.Do(i, http.MethodGet, "/v1/orders/"+hash.Hex(), key, nil)
	if code != http.StatusOK {
		return "", code
	}
	var rec struct {
		Status string `json:"status"`
	}
	if err := json.Unmarshal(body, &rec); err != nil {
		h.t.Fatalf("GET /v1/orders/%s on %s: %v in %s", hash.Hex(), h.Nodes[i].Name, err, body)
	}
	return rec.Status, code
}

// WaitStatus waits until node i reads the order with status want, and
// fails the test after timeout with the last status read.
func (h *Harness) WaitStatus(i int, key string, hash common.Hash, want string, timeout time.Duration) {
	h.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got, code := h.Status(i, key, hash)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("order %s on %s: status %q (HTTP %d) after %s, want %q", hash.Hex(), h.Nodes[i].Name, got, code, timeout, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
