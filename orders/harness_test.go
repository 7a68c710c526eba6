package orders_test

import (
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	nethttp "net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/orders"
	"github.com/orderengine/orderengine/routing"
)

// env is a real server (Fiber, Pebble, actors) with the order service over
// a token registry of three tokens: A (18 decimals, major, oracle), B (6
// decimals, stable, oracle) and C (18 decimals, other, no oracle price).
type env struct {
	t      testing.TB
	srv    *apptest.Server
	domain *chain.Domain
	clk    *clock.Manual
	vault  common.Address
	a, b   common.Address
	c      common.Address
	salt   uint64
	// blocks counts the blocks the chain-fact helpers indexed.
	blocks uint64
}

var (
	routerAddr = common.HexToAddress("0x00000000000000000000000000000000000A11CE")
	vaultAddr  = common.HexToAddress("0x000000000000000000000000000000000000FEE5")
	tokA       = common.HexToAddress("0x1000000000000000000000000000000000000001")
	tokB       = common.HexToAddress("0x2000000000000000000000000000000000000002")
	tokC       = common.HexToAddress("0x3000000000000000000000000000000000000003")
)

// testTokens is the registry of the three test tokens, C without oracle.
var testTokens = func() *routing.Tokens {
	reg, err := routing.NewTokens([]config.TokenConfig{
		{Address: tokA.Hex(), Symbol: "AAA", Name: "Token A", Decimals: 18, Class: config.ClassMajor},
		{Address: tokB.Hex(), Symbol: "BBB", Name: "Token B", Decimals: 6, Class: config.ClassStable},
		{Address: tokC.Hex(), Symbol: "CCC", Name: "Token C", Decimals: 18, Class: config.ClassOther},
	})
	if err != nil {
		panic(err)
	}
	return reg.WithOracle(func(a common.Address) bool { return a != tokC })
}()

func newEnv(t testing.TB, opts ...apptest.Option) *env {
	t.Helper()
	e := &env{t: t, clk: clock.NewManual(time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)), vault: vaultAddr, a: tokA, b: tokB, c: tokC}
	e.domain = chain.NewRouterDomain(4663, routerAddr)
	base := []apptest.Option{
		apptest.WithClock(e.clk),
		apptest.WithTier(config.TierEnterprise, config.BucketLimits{Quote: 100000, Read: 100000, Order: 100000}),
		apptest.WithConfig(func(c *config.Config) {
			c.Chain.Router = routerAddr.Hex()
			c.Chain.FeeVault = vaultAddr.Hex()
			c.Routing.Tokens = []config.TokenConfig{
				{Address: tokA.Hex(), Symbol: "AAA", Name: "Token A", Decimals: 18, Class: config.ClassMajor},
				{Address: tokB.Hex(), Symbol: "BBB", Name: "Token B", Decimals: 6, Class: config.ClassStable},
				{Address: tokC.Hex(), Symbol: "CCC", Name: "Token C", Decimals: 18, Class: config.ClassOther},
			}
		}),
		apptest.WithTokens(func() *routing.Tokens { return testTokens }),
	}
	e.srv = apptest.NewTestServer(t, append(base, opts...)...)
	return e
}

// svc is the running engine's order service (a new one after Restart).
func (e *env) svc() *orders.Service { return e.srv.System.OrderAPI }

// spec describes an order to sign.
type spec struct {
	class    string
	key      *ecdsa.PrivateKey
	in, out  common.Address
	amountIn uint64
	price    uint64
	traits   chain.Traits
	referrer common.Address
	ppm      *uint32
	// extra top-level fields (dca/trailing) and edits to the JSON body.
	extra map[string]any
	edit  func(body map[string]any, order map[string]any)
	// signV70 signs the v7.0 hash; signer signs with another key.
	signV70 bool
	signer  *ecdsa.PrivateKey
	// zeroRef signs a zero referrer.
	zeroRef bool
	// maker overrides the key's address (an EIP-1271 wallet); decIn is
	// tokenIn's decimals when it is not one of the test tokens.
	maker *common.Address
	decIn uint8
	// receiver overrides the order's receiver (default: the maker).
	receiver *common.Address
}

func defaultSpec(class string, key *ecdsa.PrivateKey) spec {
	s := spec{class: class, key: key, in: tokA, out: tokB, amountIn: 1_000_000_000_000_000_000, traits: chain.Traits{SlippagePpm: 5000}}
	switch class {
	case "limit":
		s.price = 2_000_000_000
	case "stop_loss":
		s.price = 1_500_000_000
		s.traits.Flags = chain.FlagStopLoss
	case "take_profit":
		s.price = 2_500_000_000
		s.traits.Flags = chain.FlagTakeProfit
	case "dca":
		s.traits.Flags = chain.FlagDCA
		s.traits.IntervalSeconds, s.traits.TotalExecutions, s.traits.KindParamPpm = 3600, 4, 100_000
	case "trailing":
		s.traits.Flags = chain.FlagTrailing
		s.traits.KindParamPpm = 20_000
	}
	return s
}

// referralPpm is the policy's referral leg for class on the A/B pair (major).
func referralPpm(class string) uint32 {
	return config.Default().Routing.FeePolicy[class][config.ClassMajor].ReferralPpm
}

// build signs sp and returns the JSON body and the order hash.
func (e *env) build(sp spec) ([]byte, common.Hash) {
	e.t.Helper()
	e.salt++
	traits, err := chain.EncodeTraits(sp.traits)
	if err != nil {
		e.t.Fatal(err)
	}
	ref := sp.referrer
	if ref == (common.Address{}) && !sp.zeroRef {
		ref = e.vault
	}
	ppm := referralPpm(sp.class)
	if sp.ppm != nil {
		ppm = *sp.ppm
	}
	maker := crypto.PubkeyToAddress(sp.key.PublicKey)
	if sp.maker != nil {
		maker = *sp.maker
	}
	receiver := maker
	if sp.receiver != nil {
		receiver = *sp.receiver
	}
	o := chain.Order{Maker: maker, Receiver: receiver, TokenIn: sp.in, TokenOut: sp.out, Referrer: ref, ReferralFeePpm: ppm, MakerTraits: traits}
	o.Salt.SetUint64(e.salt*7919 + uint64(time.Now().UnixNano()))
	o.AmountIn.SetUint64(sp.amountIn)
	o.TriggerPrice.SetUint64(sp.price)
	decimals := uint8(18)
	if sp.in == tokB {
		decimals = 6
	}
	if sp.decIn != 0 {
		decimals = sp.decIn
	}
	o.TriggerAmountOut, _ = chain.DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, decimals)
	hash := chain.OrderHash(e.domain, &o)
	digest := hash
	if sp.signV70 {
		digest = chain.OrderHashV70(e.domain, &o)
	}
	signer := sp.key
	if sp.signer != nil {
		signer = sp.signer
	}
	sig, err := crypto.Sign(digest[:], signer)
	if err != nil {
		e.t.Fatal(err)
	}
	sig[64] += 27
	order := map[string]any{
		"salt": "0x" + hex.EncodeToString(o.Salt.Bytes()), "maker": maker.Hex(), "receiver": receiver.Hex(),
		"tokenIn": sp.in.Hex(), "tokenOut": sp.out.Hex(), "amountIn": o.AmountIn.Dec(), "triggerPrice": o.TriggerPrice.Dec(),
		"makerTraits": traits.Dec(), "referrer": ref.Hex(), "referralFeePpm": ppm,
	}
	body := map[string]any{"orderType": sp.class, "order": order, "signature": "0x" + hex.EncodeToString(sig), "orderHash": hash.Hex()}
	switch sp.class {
	case "dca":
		body["intervalSeconds"] = fmt.Sprint(sp.traits.IntervalSeconds)
		body["totalExecutions"] = fmt.Sprint(sp.traits.TotalExecutions)
		body["totalAmountIn"] = o.AmountIn.Dec()
		body["flexibilityPpm"] = sp.traits.KindParamPpm
		body["shortCircuit"] = sp.traits.Flags&chain.FlagShortCircuit != 0
	case "trailing":
		body["trailPpm"] = sp.traits.KindParamPpm
	}
	for k, v := range sp.extra {
		body[k] = v
	}
	if sp.edit != nil {
		sp.edit(body, order)
	}
	data, err := json.Marshal(body)
	if err != nil {
		e.t.Fatal(err)
	}
	return data, hash
}

func (e *env) submitRaw(body []byte) *apptest.Response {
	e.t.Helper()
	return e.srv.Do("POST", "/v1/orders", body, map[string]string{"X-API-Key": e.srv.APIKey})
}

// submit signs and submits sp, expecting 201.
func (e *env) submit(sp spec) common.Hash {
	e.t.Helper()
	body, hash := e.build(sp)
	r := e.submitRaw(body)
	if r.Status != 201 {
		e.t.Fatalf("submit %s: %d %s", sp.class, r.Status, r.Body)
	}
	var out struct {
		Success   bool   `json:"success"`
		OrderHash string `json:"orderHash"`
	}
	if err := json.Unmarshal(r.Body, &out); err != nil || !out.Success || out.OrderHash != hash.Hex() {
		e.t.Fatalf("submit answer %s, want hash %s", r.Body, hash.Hex())
	}
	return hash
}

// get reads an order and decodes it.
func (e *env) get(h common.Hash) map[string]any {
	e.t.Helper()
	r := e.srv.Get("/v1/orders/" + h.Hex())
	if r.Status != 200 {
		e.t.Fatalf("get %s: %d %s", h.Hex(), r.Status, r.Body)
	}
	var out map[string]any
	if err := json.Unmarshal(r.Body, &out); err != nil {
		e.t.Fatal(err)
	}
	return out
}

func (e *env) cancel(h common.Hash, key *ecdsa.PrivateKey) *apptest.Response {
	e.t.Helper()
	return e.srv.Do("DELETE", "/v1/orders/"+h.Hex(), e.cancelBody(h, key), map[string]string{"X-API-Key": e.srv.APIKey})
}

// cancelBody is the DELETE body carrying key's OrderCancel signature of h.
func (e *env) cancelBody(h common.Hash, key *ecdsa.PrivateKey) []byte {
	e.t.Helper()
	d := chain.CancelHash(e.domain, h)
	sig, err := crypto.Sign(d[:], key)
	if err != nil {
		e.t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]string{"signature": "0x" + hex.EncodeToString(sig)})
	return body
}

// consistent fails the test when the order key space is inconsistent.
func (e *env) consistent() {
	e.t.Helper()
	res, err := e.svc().Orders().CheckOrders()
	if err != nil {
		e.t.Fatal(err)
	}
	if len(res.Problems) > 0 {
		e.t.Fatalf("inconsistent store: %v", res.Problems)
	}
}

func newKey(t testing.TB) *ecdsa.PrivateKey {
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// receiver is a webhook endpoint of the test account on a loopback server:
// events are asserted as an integrator sees them, delivered and signed.
type receiver struct {
	mu     sync.Mutex
	events []string // "trigger orderHash"
}

func (e *env) receiver() *receiver {
	e.t.Helper()
	rc := &receiver{}
	hs := httptest.NewServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		var body struct {
			Trigger string `json:"trigger"`
			Data    struct {
				OrderHash string `json:"orderHash"`
			} `json:"data"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		rc.mu.Lock()
		rc.events = append(rc.events, body.Trigger+" "+body.Data.OrderHash)
		rc.mu.Unlock()
		w.WriteHeader(200)
	}))
	e.t.Cleanup(hs.Close)
	body, _ := json.Marshal(map[string]string{"url": hs.URL + "/hook"})
	if r := e.srv.Do("POST", "/v1/webhooks", body, map[string]string{"X-API-Key": e.srv.APIKey}); r.Status != 201 {
		e.t.Fatalf("create webhook: %d %s", r.Status, r.Body)
	}
	return rc
}

// has reports whether an event trigger for hash was delivered.
func (rc *receiver) has(trigger string, hash common.Hash) bool {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, ev := range rc.events {
		if ev == trigger+" "+hash.Hex() {
			return true
		}
	}
	return false
}

func (rc *receiver) count() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.events)
}
