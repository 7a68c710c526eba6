package orders_test

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/contracts/bindings/smartwallet"
	"github.com/orderengine/orderengine/internal/clock"
)

// chainEnv is env over the dev chain (manual mining): the deployed router,
// tokens and oracle, the chain client behind EIP-1271 and funded reads.
type chainEnv struct {
	*env
	dc         *devchain.DevChain
	weth, usdc devchain.Token
}

// newChainEnv starts the dev chain and the engine following it; opts add
// server options that may use the chain env.
func newChainEnv(t *testing.T, opts ...func(*chainEnv) apptest.Option) *chainEnv {
	t.Helper()
	ctx := context.Background()
	ccfg := config.Default().Chain
	ccfg.DevRPCListen, ccfg.ManualMining, ccfg.MarketMaker.Enabled = "", true, false
	dc, err := devchain.Start(ctx, ccfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dc.Close() })
	dep := dc.Deployment()
	ce := &chainEnv{dc: dc}
	ce.weth, _ = dep.Token("WETH")
	ce.usdc, _ = dep.Token("USDC")
	e := &env{t: t, clk: clock.NewManual(time.Now().UTC()), vault: dep.FeeVault, a: ce.weth.Address, b: ce.usdc.Address}
	e.domain = chain.NewRouterDomain(dep.ChainID, dep.Router)
	ce.env = e
	sopts := []apptest.Option{
		apptest.WithClock(e.clk),
		apptest.WithTier(config.TierEnterprise, config.BucketLimits{Quote: 100000, Read: 100000, Order: 100000}),
		apptest.WithConfig(func(c *config.Config) {
			dep.ApplyTo(c)
			c.Lifecycle.DevKeeper = false // the tests fill orders themselves
		}),
		apptest.WithChain(func() *devchain.Conn { return devchain.ConnOf(dc) }),
	}
	for _, o := range opts {
		sopts = append(sopts, o(ce))
	}
	e.srv = apptest.NewTestServer(t, sopts...)
	return ce
}

func (ce *chainEnv) spec(class string, key *ecdsa.PrivateKey) spec {
	sp := defaultSpec(class, key)
	sp.in, sp.out, sp.decIn = ce.weth.Address, ce.usdc.Address, ce.weth.Decimals
	return sp
}

// deployWallet deploys an EIP-1271 smart wallet owned by key's address.
func (ce *chainEnv) deployWallet(key *ecdsa.PrivateKey) common.Address {
	ce.t.Helper()
	bin := hexutil.MustDecode(smartwallet.SmartWalletMetaData.Bin)
	owner := crypto.PubkeyToAddress(key.PublicKey)
	return ce.send(key, nil, append(bin, common.LeftPadBytes(owner[:], 32)...))
}

// send signs and mines one transaction from key.
func (ce *chainEnv) send(key *ecdsa.PrivateKey, to *common.Address, data []byte) common.Address {
	ce.t.Helper()
	ctx := context.Background()
	c := ce.dc.Client()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := c.PendingNonceAt(ctx, from)
	if err != nil {
		ce.t.Fatal(err)
	}
	head, err := c.HeaderByNumber(ctx, nil)
	if err != nil {
		ce.t.Fatal(err)
	}
	price := new(big.Int).Mul(head.BaseFee, big.NewInt(2))
	var tx *types.Transaction
	if to == nil {
		tx = types.NewContractCreation(nonce, nil, 3_000_000, price, data)
	} else {
		tx = types.NewTransaction(nonce, *to, nil, 3_000_000, price, data)
	}
	signed, err := types.SignTx(tx, types.LatestSignerForChainID(new(big.Int).SetUint64(ce.dc.ChainID())), key)
	if err != nil {
		ce.t.Fatal(err)
	}
	if err := c.SendTransaction(ctx, signed); err != nil {
		ce.t.Fatal(err)
	}
	receipts, err := ce.dc.Mine(ctx, signed.Hash())
	if err != nil || receipts[0].Status != 1 {
		ce.t.Fatalf("tx failed: %v", err)
	}
	return receipts[0].ContractAddress
}

func TestEIP1271WalletSubmitAndCancel(t *testing.T) {
	ce := newChainEnv(t)
	owner := ce.dc.Accounts().Makers[0]
	wallet := ce.deployWallet(owner.Key)
	sp := ce.spec("limit", owner.Key)
	sp.maker = &wallet
	h := ce.submit(sp)
	if got := ce.get(h)["order"].(map[string]any)["maker"]; got != wallet.Hex() {
		t.Fatalf("maker %v, want the wallet %s", got, wallet.Hex())
	}
	// A key that is not the wallet's owner is refused by isValidSignature.
	sp = ce.spec("limit", newKey(t))
	sp.maker = &wallet
	body, _ := ce.build(sp)
	if r := ce.submitRaw(body); r.Status != 400 || r.Code() != "BAD_SIGNATURE" || !strings.Contains(string(r.Body), "EIP-1271") {
		t.Fatalf("stranger: %d %s", r.Status, r.Body)
	}
	if r := ce.cancel(h, newKey(t)); r.Status != 400 || r.Code() != "BAD_SIGNATURE" {
		t.Fatalf("cancel by stranger: %d %s", r.Status, r.Body)
	}
	if r := ce.cancel(h, owner.Key); r.Status != 200 {
		t.Fatalf("cancel by the owner through EIP-1271: %d %s", r.Status, r.Body)
	}
}

func TestFundedFlagAndOracleFromChain(t *testing.T) {
	ce := newChainEnv(t)
	maker := ce.dc.Accounts().Makers[1]
	h := ce.submit(ce.spec("stop_loss", maker.Key)) // WETH and USDC have oracle prices
	// The maker holds WETH but has not approved the router.
	if rec := ce.get(h); rec["funded"] != false {
		t.Fatalf("funded before approve: %v", rec["funded"])
	}
	approve := append([]byte{0x09, 0x5e, 0xa7, 0xb3}, common.LeftPadBytes(ce.dc.Deployment().Router[:], 32)...)
	approve = append(approve, common.LeftPadBytes(new(big.Int).Lsh(big.NewInt(1), 255).Bytes(), 32)...)
	weth := ce.weth.Address
	ce.send(maker.Key, &weth, approve)
	ce.clk.Advance(2 * time.Second) // past the funded cache
	if rec := ce.get(h); rec["funded"] != true {
		t.Fatalf("funded after approve: %v", rec["funded"])
	}
	// A maker without WETH: not funded, still accepted.
	h2 := ce.submit(ce.spec("limit", newKey(t)))
	if rec := ce.get(h2); rec["funded"] != false || rec["status"] != "pending" {
		t.Fatalf("unfunded maker: %v %v", rec["funded"], rec["status"])
	}
	// Closed orders carry no funded flag.
	if r := ce.cancel(h, maker.Key); r.Status != 200 {
		t.Fatal(r.Status)
	}
	if _, ok := ce.get(h)["funded"]; ok {
		t.Fatal("a cancelled order has a funded flag")
	}
}

// An EIP-1271 wallet's cancel: the owner's OrderCancel over another hash
// or under another domain is refused, the owner's cancel is idempotent
// and takes the order out of the book and the pending list at once; a
// node that cannot be reached answers 503 CHAIN_UNAVAILABLE, which the
// served OpenAPI document lists for the operation.
func TestEIP1271WalletCancelContract(t *testing.T) {
	ce := newChainEnv(t)
	owner := ce.dc.Accounts().Makers[0]
	wallet := ce.deployWallet(owner.Key)
	sp := ce.spec("limit", owner.Key)
	sp.maker = &wallet
	h := ce.submit(sp)
	sp2 := ce.spec("stop_loss", owner.Key)
	sp2.maker = &wallet
	h2 := ce.submit(sp2)
	del := func(hash common.Hash, sig []byte) *apptest.Response {
		return ce.srv.Do("DELETE", "/v1/orders/"+hash.Hex(), cancelBody(sig), map[string]string{"X-API-Key": ce.srv.APIKey})
	}
	dep := ce.dc.Deployment()
	for name, sig := range map[string][]byte{
		"another order's cancel": signCancel(t, ce.domain, h2, owner.Key),
		"another chain id":       signCancel(t, chain.NewRouterDomain(1, dep.Router), h, owner.Key),
		"another router":         signCancel(t, chain.NewRouterDomain(dep.ChainID, wallet), h, owner.Key),
	} {
		if r := del(h, sig); r.Status != 400 || r.Code() != "BAD_SIGNATURE" {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	if r := del(h, signCancel(t, ce.domain, h, owner.Key)); r.Status != 200 || string(r.Body) != `{"success":true}` {
		t.Fatalf("cancel by the owner: %d %s", r.Status, r.Body)
	}
	if r := del(h, signCancel(t, ce.domain, h, owner.Key)); r.Status != 409 || r.Code() != "NOT_CANCELLABLE" {
		t.Fatalf("second cancel by the owner: %d %s, want 409 NOT_CANCELLABLE", r.Status, r.Body)
	}
	if slices.Contains(ce.walk("/v1/orderbook/"+ce.weth.Address.Hex()+"-"+ce.usdc.Address.Hex()+"?", 500), h.Hex()) ||
		slices.Contains(ce.walk("/v1/orders?status=pending&wallet="+wallet.Hex()+"&", 500), h.Hex()) ||
		!slices.Contains(ce.walk("/v1/orders?status=cancelled&wallet="+wallet.Hex()+"&", 500), h.Hex()) {
		t.Fatal("the cancelled order did not leave the book and the pending list")
	}
	// The node goes away: the wallet's signature cannot be checked.
	if err := ce.dc.Close(); err != nil {
		t.Fatal(err)
	}
	r := del(h2, signCancel(t, ce.domain, h2, owner.Key))
	if r.Status != 503 || r.Code() != "CHAIN_UNAVAILABLE" {
		t.Fatalf("cancel without a node: %d %s", r.Status, r.Body)
	}
	if rec := ce.get(h2); rec["status"] != "pending" || rec["funded"] != nil {
		t.Fatalf("an open order without a node: status %v funded %v", rec["status"], rec["funded"])
	}
	doc, err := apptest.LoadDocument(context.Background(), ce.srv.Do("GET", "/v1/openapi.json", nil, nil).Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp := doc.Paths.Find("/v1/orders/{hash}").Delete.Responses.Status(503); resp == nil || !strings.Contains(*resp.Value.Description, "CHAIN_UNAVAILABLE") {
		t.Fatal("the OpenAPI document does not list 503 CHAIN_UNAVAILABLE for the cancel")
	}
}
