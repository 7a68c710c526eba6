package platform_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/accounts/accountstest"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/contracts/bindings/smartwallet"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// env is the dev chain (manual mining) behind the real server, with the
// dev keeper filling orders.
type env struct {
	t      *testing.T
	ctx    context.Context
	dev    *devchain.DevChain
	srv    *apptest.Server
	cfg    config.Config
	domain *chain.Domain
	salt   uint64
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background()}
	base := config.Default()
	cc := base.Chain
	cc.ManualMining, cc.DevRPCListen = true, ""
	dev, err := devchain.Start(e.ctx, cc, nil, devchain.WithFeePolicy(base.Routing.FeePolicy))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dev.Close() })
	e.dev = dev
	configure := func(c *config.Config) {
		dev.Deployment().ApplyTo(c)
		c.Chain.ChainID, c.Chain.ManualMining = dev.ChainID(), true
		c.Lifecycle.IndexerPoll, c.Lifecycle.KeeperPoll = 20*time.Millisecond, 50*time.Millisecond
	}
	e.cfg = config.Default()
	configure(&e.cfg)
	e.srv = apptest.NewTestServer(t, apptest.WithConfig(configure),
		apptest.WithTier(config.TierEnterprise, config.BucketLimits{Quote: 100000, Read: 100000, Order: 100000}),
		apptest.WithChain(func() *devchain.Conn { return devchain.ConnOf(dev) }),
		apptest.WithKeeperKey(dev.Accounts().Keeper.Key))
	e.domain = chain.NewRouterDomain(dev.ChainID(), common.HexToAddress(e.cfg.Chain.Router))
	return e
}

func (e *env) tok(symbol string) common.Address {
	tk, ok := e.dev.Deployment().Token(symbol)
	if !ok {
		e.t.Fatalf("no token %s", symbol)
	}
	return tk.Address
}

// send signs, sends and mines a transaction from key (a contract
// creation when to is nil, whose address it returns).
func (e *env) send(key *ecdsa.PrivateKey, to *common.Address, data []byte) common.Address {
	e.t.Helper()
	c := e.dev.Client()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := c.PendingNonceAt(e.ctx, from)
	if err != nil {
		e.t.Fatal(err)
	}
	head, err := c.HeaderByNumber(e.ctx, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	price := new(big.Int).Mul(head.BaseFee, big.NewInt(2))
	gas := uint64(3_000_000)
	if to != nil {
		est, err := c.EstimateGas(e.ctx, ethereum.CallMsg{From: from, To: to, Data: data})
		if err != nil {
			e.t.Fatalf("estimate: %v", err)
		}
		gas = 2*est + 100_000
	}
	var tx *types.Transaction
	if to == nil {
		tx = types.NewContractCreation(nonce, nil, gas, price, data)
	} else {
		tx = types.NewTransaction(nonce, *to, nil, gas, price, data)
	}
	signed, err := types.SignTx(tx, types.LatestSignerForChainID(new(big.Int).SetUint64(e.dev.ChainID())), key)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := c.SendTransaction(e.ctx, signed); err != nil {
		e.t.Fatal(err)
	}
	receipts, err := e.dev.Mine(e.ctx, signed.Hash())
	if err != nil || receipts[0].Status != 1 {
		e.t.Fatalf("transaction failed: %v", err)
	}
	return receipts[0].ContractAddress
}

func (e *env) balance(token, who common.Address) *big.Int {
	e.t.Helper()
	tt := testtoken.NewTestToken()
	out, err := e.dev.Client().CallContract(e.ctx, ethereum.CallMsg{To: &token, Data: tt.PackBalanceOf(who)}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	v, err := tt.UnpackBalanceOf(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

// route calls GET /v1/route for maker and returns the answer.
func (e *env) route(query string) map[string]any {
	e.t.Helper()
	r := e.srv.Get("/v1/route?" + query)
	if r.Status != 200 {
		e.t.Fatalf("route %s: %d %s", query, r.Status, r.Body)
	}
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		e.t.Fatal(err)
	}
	return m
}

// submitLimit signs a USDC→WETH limit order of maker with the fee legs the
// route serves for referrer, and submits it.
func (e *env) submitLimit(maker devchain.Account, amountIn uint64, referrer common.Address) common.Hash {
	e.t.Helper()
	usdc, weth := e.tok("USDC"), e.tok("WETH")
	legs := e.route("tokenIn=" + usdc.Hex() + "&tokenOut=" + weth.Hex() + "&amountIn=1000000&orderType=limit&wallet=" +
		maker.Address.Hex() + "&referrer=" + referrer.Hex())["feeLegs"].(map[string]any)
	ppm := uint32(legs["fees"].(map[string]any)["triggered"].(map[string]any)["referralPpm"].(float64))
	ref := common.HexToAddress(legs["referrer"].(string))
	e.salt++
	traits, err := chain.EncodeTraits(chain.Traits{Nonce: e.salt, SlippagePpm: 50_000})
	if err != nil {
		e.t.Fatal(err)
	}
	o := chain.Order{Maker: maker.Address, Receiver: maker.Address, TokenIn: usdc, TokenOut: weth,
		Referrer: ref, ReferralFeePpm: ppm, MakerTraits: traits}
	o.Salt.SetUint64(e.salt*7919 + uint64(time.Now().UnixNano()))
	o.AmountIn.SetUint64(amountIn)
	o.TriggerPrice.SetUint64(new(big.Int).Quo(big.NewInt(1e18), big.NewInt(4000)).Uint64()) // far under the market: fills at once
	o.TriggerAmountOut, _ = chain.DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, 6)
	hash := chain.OrderHash(e.domain, &o)
	sig, err := crypto.Sign(hash[:], maker.Key)
	if err != nil {
		e.t.Fatal(err)
	}
	sig[64] += 27
	body, _ := json.Marshal(map[string]any{"orderType": "limit", "signature": hexutil.Encode(sig), "orderHash": hash.Hex(),
		"order": map[string]any{
			"salt": "0x" + hex.EncodeToString(o.Salt.Bytes()), "maker": o.Maker.Hex(), "receiver": o.Receiver.Hex(),
			"tokenIn": usdc.Hex(), "tokenOut": weth.Hex(), "amountIn": o.AmountIn.Dec(), "triggerPrice": o.TriggerPrice.Dec(),
			"makerTraits": traits.Dec(), "referrer": ref.Hex(), "referralFeePpm": ppm,
		}})
	if r := e.srv.Do("POST", "/v1/orders", body, map[string]string{"X-API-Key": e.srv.APIKey}); r.Status != 201 {
		e.t.Fatalf("submit: %d %s", r.Status, r.Body)
	}
	return hash
}

// waitFor mines blocks until cond holds.
func (e *env) waitFor(what string, cond func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting for %s", what)
		}
		e.dev.Commit()
		time.Sleep(20 * time.Millisecond)
	}
}

type accrualPage struct {
	Accruals []struct {
		OrderHash *string `json:"orderHash"`
		TxHash    string  `json:"txHash"`
		Referrer  string  `json:"referrer"`
		Token     string  `json:"token"`
		Amount    string  `json:"amount"`
	} `json:"accruals"`
	Totals []struct {
		Token  string `json:"token"`
		Amount string `json:"amount"`
	} `json:"totals"`
	NextCursor *string `json:"nextCursor"`
}

// TestFeeAccrualsMatchTheChainToTheWei: a referrer signs in with its
// wallet and takes a key; a maker's limit orders naming it are filled by
// the dev keeper and the maker swaps directly through the served route;
// the fee accruals list every referral leg, their sum and the totals equal
// the referrer's on-chain balance to the wei, pages of one walk the same
// rows, and the referees list shows the maker with its orders and filled
// volume.
func TestFeeAccrualsMatchTheChainToTheWei(t *testing.T) {
	e := newEnv(t)
	usdc, weth := e.tok("USDC"), e.tok("WETH")
	refKey, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	referrer := crypto.PubkeyToAddress(refKey.PublicKey)
	s := accountstest.SignIn(t, e.srv, referrer, refKey)
	created := s.Do("POST", "/v1/account/keys", []byte(`{"name":"platform"}`))
	var key struct {
		Key string `json:"key"`
	}
	if created.Status != 201 || json.Unmarshal(created.Body, &key) != nil {
		t.Fatalf("key: %d %s", created.Status, created.Body)
	}

	maker := e.dev.Accounts().Makers[0]
	h, err := e.dev.Faucet(e.ctx, maker.Address, usdc, big.NewInt(1_000_000_000_000))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.dev.Mine(e.ctx, h); err != nil {
		t.Fatal(err)
	}
	router := common.HexToAddress(e.cfg.Chain.Router)
	e.send(maker.Key, &usdc, testtoken.NewTestToken().PackApprove(router, new(big.Int).Lsh(big.NewInt(1), 255)))
	res, err := e.dev.MarketMaker().MoveTo(e.ctx, "WETH", big.NewInt(3000_00000000))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.dev.Mine(e.ctx, res.Txs...); err != nil {
		t.Fatal(err)
	}
	if err := e.srv.System.Routing.Venues.Advance(e.ctx); err != nil {
		t.Fatal(err)
	}
	before := e.balance(weth, referrer)
	first := e.submitLimit(maker, 40_000_000, referrer)
	second := e.submitLimit(maker, 25_000_000, referrer)
	filled := func(h common.Hash) bool {
		r := e.srv.Get("/v1/orders/" + h.Hex())
		var o struct {
			Status string `json:"status"`
		}
		_ = json.Unmarshal(r.Body, &o)
		return o.Status == "filled"
	}
	e.waitFor("both fills", func() bool { return filled(first) && filled(second) })
	// A direct swap on the route served for the (now bound) maker.
	rt := e.route("tokenIn=" + usdc.Hex() + "&tokenOut=" + weth.Hex() + "&amountIn=7000000&directSwap=1&wallet=" + maker.Address.Hex())
	legs := rt["feeLegs"].(map[string]any)
	if legs["referrer"] != referrer.Hex() || legs["referrerBound"] != true {
		t.Fatalf("the bound maker's direct-swap legs: %v", legs)
	}
	tx := rt["route"].(map[string]any)["tx"].(map[string]any)
	to := common.HexToAddress(tx["to"].(string))
	e.send(maker.Key, &to, hexutil.MustDecode(tx["data"].(string)))

	list := func(query string, h map[string]string) accrualPage {
		t.Helper()
		r := e.srv.Do("GET", "/v1/platform/fee-accruals"+query, nil, h)
		var p accrualPage
		if r.Status != 200 || json.Unmarshal(r.Body, &p) != nil {
			t.Fatalf("fee accruals %s: %d %s", query, r.Status, r.Body)
		}
		return p
	}
	byKey := map[string]string{"X-API-Key": key.Key}
	e.waitFor("three accruals", func() bool { return len(list("", byKey).Accruals) == 3 })
	page := list("", byKey)
	earned := new(big.Int).Sub(e.balance(weth, referrer), before)
	sum := new(big.Int)
	orders := map[string]bool{}
	swaps := 0
	for _, a := range page.Accruals {
		if a.Referrer != referrer.Hex() || a.Token != weth.Hex() {
			t.Fatalf("accrual %+v", a)
		}
		v, _ := new(big.Int).SetString(a.Amount, 10)
		if v.Sign() <= 0 {
			t.Fatalf("a leg of %s", a.Amount)
		}
		sum.Add(sum, v)
		if a.OrderHash == nil {
			swaps++
		} else {
			orders[*a.OrderHash] = true
		}
	}
	if sum.Cmp(earned) != 0 || earned.Sign() <= 0 {
		t.Fatalf("accruals sum to %s, the referrer's balance grew by %s", sum, earned)
	}
	if swaps != 1 || !orders[first.Hex()] || !orders[second.Hex()] {
		t.Fatalf("rows: %d swaps, orders %v", swaps, orders)
	}
	if len(page.Totals) != 1 || page.Totals[0].Token != weth.Hex() || page.Totals[0].Amount != earned.String() {
		t.Fatalf("totals %+v, want %s of WETH", page.Totals, earned)
	}
	// The session sees the same; pages of one walk the same rows; a token
	// or time filter narrows them; another referrer is refused.
	if got := list("?referrer="+referrer.Hex(), map[string]string{"Cookie": s.Cookie}); len(got.Accruals) != 3 {
		t.Fatalf("with the session: %d rows", len(got.Accruals))
	}
	var walked []string
	cursor := ""
	for {
		p := list("?limit=1"+cursor, byKey)
		for _, a := range p.Accruals {
			walked = append(walked, a.TxHash+a.Amount)
		}
		if p.NextCursor == nil {
			break
		}
		cursor = "&cursor=" + *p.NextCursor
		if p.Totals[0].Amount != earned.String() {
			t.Fatalf("a later page's totals %+v", p.Totals)
		}
	}
	if len(walked) != 3 || walked[0] != page.Accruals[0].TxHash+page.Accruals[0].Amount || walked[2] != page.Accruals[2].TxHash+page.Accruals[2].Amount {
		t.Fatalf("pages of one: %v", walked)
	}
	if got := list("?token="+usdc.Hex(), byKey); len(got.Accruals) != 0 || len(got.Totals) != 0 {
		t.Fatalf("USDC legs: %+v", got)
	}
	if got := list("?to=1", byKey); len(got.Accruals) != 0 {
		t.Fatalf("legs before 1970: %+v", got)
	}
	if r := e.srv.Do("GET", "/v1/platform/fee-accruals?referrer="+maker.Address.Hex(), nil, byKey); r.Status != 403 || r.Code() != "FORBIDDEN" {
		t.Fatalf("another referrer: %d %s", r.Status, r.Body)
	}
	if r := e.srv.Do("GET", "/v1/platform/fee-accruals?from=10&to=5", nil, byKey); r.Status != 400 {
		t.Fatalf("to before from: %d %s", r.Status, r.Body)
	}

	r := e.srv.Do("GET", "/v1/platform/referees", nil, byKey)
	var refs struct {
		Referees []struct {
			Wallet         string  `json:"wallet"`
			Referrer       string  `json:"referrer"`
			BoundAt        *string `json:"boundAt"`
			FirstOrderHash *string `json:"firstOrderHash"`
			Orders         int     `json:"orders"`
			VolumeIn       []struct {
				Token  string `json:"token"`
				Amount string `json:"amount"`
			} `json:"volumeIn"`
		} `json:"referees"`
	}
	if r.Status != 200 || json.Unmarshal(r.Body, &refs) != nil || len(refs.Referees) != 1 {
		t.Fatalf("referees: %d %s", r.Status, r.Body)
	}
	ref := refs.Referees[0]
	if ref.Wallet != maker.Address.Hex() || ref.Referrer != referrer.Hex() || ref.BoundAt == nil || ref.FirstOrderHash == nil ||
		*ref.FirstOrderHash != first.Hex() || ref.Orders != 2 || len(ref.VolumeIn) != 1 || ref.VolumeIn[0].Token != usdc.Hex() ||
		ref.VolumeIn[0].Amount != "65000000" {
		t.Fatalf("referee row: %s", r.Body)
	}
}

// A contract wallet (EIP-1271) signs in through the chain: its owner's
// signature of the message's EIP-191 hash, checked by the wallet's
// isValidSignature.
func TestContractWalletSignsIn(t *testing.T) {
	e := newEnv(t)
	owner := e.dev.Accounts().Makers[1]
	bin := hexutil.MustDecode(smartwallet.SmartWalletMetaData.Bin)
	wallet := e.send(owner.Key, nil, append(bin, common.LeftPadBytes(owner.Address[:], 32)...))
	s := accountstest.SignIn(t, e.srv, wallet, owner.Key)
	r := s.Do("GET", "/v1/account", nil)
	var acct struct {
		Wallets []string `json:"wallets"`
	}
	if r.Status != 200 || json.Unmarshal(r.Body, &acct) != nil || len(acct.Wallets) != 1 || acct.Wallets[0] != wallet.Hex() {
		t.Fatalf("the contract wallet's account: %d %s", r.Status, r.Body)
	}
	// Another key's signature is refused by the wallet.
	other, _ := crypto.GenerateKey()
	text := accountstest.Message(e.srv, wallet, accountstest.Nonce(t, e.srv), "", time.Now()).String()
	body, _ := json.Marshal(map[string]string{"message": text, "signature": accountstest.SignDigest(t, other, text)})
	if r := e.srv.Do("POST", "/v1/auth/signin", body, nil); r.Status != 400 || r.Code() != "BAD_SIGNATURE" {
		t.Fatalf("a stranger's signature for the contract wallet: %d %s", r.Status, r.Body)
	}
}
