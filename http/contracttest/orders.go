package contracttest

import (
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/routing"
)

// The targets' order service runs over a two-token registry without a
// chain (apptest.WithTokens): a submit is verified, admitted and made
// durable (the Pebble journal on one node, a JetStream quorum on a
// cluster) before its 201, and a cancel is the off-chain one.
var (
	testRouter = common.HexToAddress("0x00000000000000000000000000000000000A11CE")
	testVault  = common.HexToAddress("0x000000000000000000000000000000000000FEE5")
	testIn     = common.HexToAddress("0x1000000000000000000000000000000000000001")
	testOut    = common.HexToAddress("0x2000000000000000000000000000000000000002")
	testDomain = chain.NewRouterDomain(config.Default().Chain.ChainID, testRouter)
)

func orderOptions() []apptest.Option {
	reg, err := routing.NewTokens([]config.TokenConfig{
		{Address: testIn.Hex(), Symbol: "AAA", Decimals: 18, Class: config.ClassMajor},
		{Address: testOut.Hex(), Symbol: "BBB", Decimals: 6, Class: config.ClassStable},
	})
	if err != nil {
		panic(err) // a fixed, valid registry
	}
	reg = reg.WithOracle(func(common.Address) bool { return true })
	return []apptest.Option{apptest.WithTokens(func() *routing.Tokens { return reg }), apptest.WithConfig(func(c *config.Config) {
		c.Chain.Router, c.Chain.FeeVault = testRouter.Hex(), testVault.Hex()
	})}
}

// signedOrder is a v7.1 limit order of key's maker as the body of POST
// /v1/orders, with its hash.
func signedOrder(t *testing.T, key *ecdsa.PrivateKey, salt uint64) ([]byte, common.Hash) {
	t.Helper()
	maker := crypto.PubkeyToAddress(key.PublicKey)
	ppm := config.Default().Routing.FeePolicy["limit"][config.ClassMajor].ReferralPpm
	traits, err := chain.EncodeTraits(chain.Traits{SlippagePpm: 5000})
	if err != nil {
		t.Fatal(err)
	}
	o := chain.Order{Maker: maker, Receiver: maker, TokenIn: testIn, TokenOut: testOut, Referrer: testVault,
		ReferralFeePpm: ppm, MakerTraits: traits}
	o.Salt.SetUint64(salt)
	o.AmountIn.SetUint64(1_000_000_000_000_000_000)
	o.TriggerPrice.SetUint64(2_000_000_000)
	o.TriggerAmountOut, _ = chain.DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, 18)
	h := chain.OrderHash(testDomain, &o)
	sig := sign(t, h, key)
	body := fmt.Sprintf(`{"orderType":"limit","signature":"%s","orderHash":"%s","order":{"salt":"0x%s","maker":"%s","receiver":"%s",`+
		`"tokenIn":"%s","tokenOut":"%s","amountIn":"%s","triggerPrice":"%s","makerTraits":"%s","referrer":"%s","referralFeePpm":%d}}`,
		hexutil.Encode(sig), h.Hex(), hex.EncodeToString(o.Salt.Bytes()), maker.Hex(), maker.Hex(), testIn.Hex(), testOut.Hex(),
		o.AmountIn.Dec(), o.TriggerPrice.Dec(), uint256.NewInt(0).Set(&traits).Dec(), testVault.Hex(), ppm)
	return []byte(body), h
}

// sign signs digest with key, v as 27/28.
func sign(t *testing.T, digest common.Hash, key *ecdsa.PrivateKey) []byte {
	t.Helper()
	sig, err := crypto.Sign(digest[:], key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return sig
}

// cancelBody is the body of DELETE /v1/orders/{hash}: key's OrderCancel
// of h.
func cancelBody(t *testing.T, h common.Hash, key *ecdsa.PrivateKey) []byte {
	b, _ := json.Marshal(map[string]string{"signature": hexutil.Encode(sign(t, chain.CancelHash(testDomain, h), key))})
	return b
}

// orderStatus is the status of GET /v1/orders/{hash} on s ("" unless 200).
func orderStatus(s *apptest.Server, h common.Hash) string {
	r := s.Get("/v1/orders/" + h.Hex())
	var o struct {
		Status    string `json:"status"`
		OrderHash string `json:"orderHash"`
	}
	if r.Status != 200 || json.Unmarshal(r.Body, &o) != nil || !strings.EqualFold(o.OrderHash, h.Hex()) {
		return ""
	}
	return o.Status
}

// orderSubmitReadCancel: a signed order is answered 201 with its hash and
// is then readable on the node that accepted it at once; a second submit
// of it is 409 ALREADY_EXISTS on every node; every node reads it (on a
// cluster once its stream reached that node's store); an unknown hash is
// 404 NOT_FOUND; only the maker's OrderCancel cancels (400 BAD_SIGNATURE
// for another signer), once: the next cancel is 409 NOT_CANCELLABLE, and
// every node reads the order cancelled.
func orderSubmitReadCancel(t *testing.T, tg *Target) {
	ts := tg.server(t, config.TierEnterprise, config.BucketLimits{Quote: 1000, Read: 1000, Order: 1000})
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	body, h := signedOrder(t, key, 1)
	r := ts.Do("POST", "/v1/orders", body, keyHeader(ts.APIKey))
	if r.Status != 201 || !strings.Contains(strings.ToLower(string(r.Body)), strings.ToLower(h.Hex())) {
		t.Fatalf("submit: %d %s, want 201 with the order hash", r.Status, r.Body)
	}
	LimitHeaders(t, "submit", r, 1000)
	if got := orderStatus(ts, h); got != "pending" {
		t.Fatalf("read on the accepting node right after the 201: status %q, want pending", got)
	}
	nodes := tg.all(t, ts)
	for _, n := range nodes {
		CheckCode(t, n.Do("POST", "/v1/orders", body, keyHeader(ts.APIKey)), 409, orderengine.CodeAlreadyExists)
		n.WaitFor("the order readable", func() bool { return orderStatus(n, h) == "pending" })
	}
	CheckCode(t, ts.Get("/v1/orders/0x"+strings.Repeat("ab", 32)), 404, orderengine.CodeNotFound)
	other, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	del := func(s *apptest.Server, body []byte) *apptest.Response {
		return s.Do("DELETE", "/v1/orders/"+h.Hex(), body, keyHeader(ts.APIKey))
	}
	CheckCode(t, del(ts, cancelBody(t, h, other)), 400, orderengine.CodeBadSignature)
	if r := del(ts, cancelBody(t, h, key)); r.Status != 200 || string(r.Body) != `{"success":true}` {
		t.Fatalf("the maker's cancel: %d %s", r.Status, r.Body)
	}
	if got := orderStatus(ts, h); got != "cancelled" {
		t.Fatalf("read on the cancelling node right after the 200: status %q, want cancelled", got)
	}
	for _, n := range nodes {
		n.WaitFor("the order read cancelled", func() bool { return orderStatus(n, h) == "cancelled" })
		CheckCode(t, del(n, cancelBody(t, h, key)), 409, orderengine.CodeNotCancellable)
	}
}

// all returns every node reporting to t with s's account and key.
func (tg *Target) all(t *testing.T, s *apptest.Server) []*apptest.Server {
	out := make([]*apptest.Server, len(tg.nodes))
	for i, n := range tg.nodes {
		out[i] = n.For(t)
		out[i].APIKey, out[i].AccountID, out[i].KeyID = s.APIKey, s.AccountID, s.KeyID
	}
	return out
}
