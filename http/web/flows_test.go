package web_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"math/big"
	nethttp "net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// flowsSeen is what the flows scenario saw.
type flowsSeen struct {
	LastStep   string
	FailedView string
	SignIn     struct {
		Tier, AccountID, Message string
		WalletCalls              []string
	}
	Keys struct {
		SecretA, Listed, Copied, SecretA2 string
		StatusA, StatusAAfterReissue      int
		StatusA2, StatusBBeforeDisable    int
		StatusB                           int
		SecretAfterReload                 bool
		Rows                              []string
	}
	ApproveStatus     int
	TierAfterApproval string
	LinkMessage       string
	Linked            []string
	Webhook           struct {
		Secret1, Secret2, Card  string
		Deliveries, AfterResend []deliveryRow
		AfterRotate             []deliveryRow
	}
	Platform struct {
		Totals, Accruals, Referees []map[string]string
	}
	Orders struct {
		Waiting                  []string
		Diagnostics, AfterCancel string
		CancelStatus             int
		Event                    map[string]string
	}
	WebhookDeleted bool
	AfterSignOut   int
}

type deliveryRow struct {
	Event, Status, Response, Latency, Attempts, NextRetry string
}

// TestDashboardFlows drives the dashboard in chromium through what issue's
// "done" names, against the real API and the dev chain: a referred order
// is filled on the chain first (its referrer is the wallet the person
// links later); then the person signs in with a wallet, creates a key and
// sees it once (copied to the clipboard, gone after a reload; the key
// works), reissues it (the old one stops working) and disables another,
// applies for the builder tier and sees it approved after the operator's
// admin call, links a second wallet and links and unlinks a third,
// registers a webhook to a local receiver for two events, sends a test
// event and sees it delivered in the log (the receiver got it, signed with
// the secret shown), resends it, rotates the secret (the next delivery is
// signed by both), reads the fee accrual of the filled order to the wei
// and its referee, reads why a pending order of the linked wallet waits
// (its diagnostics) and sees its cancel arrive live from the order stream,
// deletes the webhook and signs out. Every view is
// audited at 1280 px and 390 px.
func TestDashboardFlows(t *testing.T) {
	env := newChainEnv(t)
	keys := []*ecdsa.PrivateKey{newKey(t), newKey(t), newKey(t)}
	referrer := crypto.PubkeyToAddress(keys[1].PublicKey)
	fill := env.referredFill(referrer)
	waitingOrder := env.unfundedOrder(keys[1])
	rc := newReceiver(t)

	hexKeys := make([]string, len(keys))
	for i, k := range keys {
		hexKeys[i] = "0x" + hex.EncodeToString(crypto.FromECDSA(k))
	}
	r := runBrowser(t, plan{BaseURL: env.srv.URL, Scenarios: []string{"flows"}, WalletKeys: hexKeys, ChainID: env.dev.ChainID(),
		Extra: map[string]any{"adminURL": env.srv.AdminURL, "adminToken": env.srv.AdminToken, "receiverURL": rc.url + "/hook",
			"waitingOrder": waitingOrder.Hex()}})
	var seen flowsSeen
	s := r.scenarioOr(t, "flows", &seen, func() { t.Logf("the page showed, at step %s:\n%s", seen.LastStep, seen.FailedView) })
	if seen.LastStep != "done" {
		t.Fatalf("the flows stopped at %s", seen.LastStep)
	}
	if len(s.Audits) != 14 {
		t.Errorf("%d page states audited, want 14 (7 page states at 2 widths)", len(s.Audits))
	}
	checkSignIn(t, env, keys[0], seen)
	checkKeys(t, seen)
	if seen.ApproveStatus != 200 || seen.TierAfterApproval != "builder" {
		t.Errorf("builder application: admin approve answered %d, tier shown after it %q", seen.ApproveStatus, seen.TierAfterApproval)
	}
	want := []string{crypto.PubkeyToAddress(keys[0].PublicKey).Hex(), referrer.Hex()}
	if !slices.Equal(seen.Linked, want) {
		t.Errorf("linked wallets shown %v, want %v (the third unlinked)", seen.Linked, want)
	}
	if !strings.Contains(seen.LinkMessage, "Link this wallet to account "+seen.SignIn.AccountID+".") || !strings.Contains(seen.LinkMessage, "\n"+referrer.Hex()+"\n") {
		t.Errorf("link message %q", seen.LinkMessage)
	}
	checkWebhook(t, rc, seen)
	checkPlatform(t, fill, referrer, seen)
	checkOrders(t, waitingOrder, seen)
	if !seen.WebhookDeleted || seen.AfterSignOut != 401 {
		t.Errorf("webhook deleted %v; GET /v1/account after sign-out answered %d, want 401", seen.WebhookDeleted, seen.AfterSignOut)
	}
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func checkSignIn(t *testing.T, env *chainEnv, key *ecdsa.PrivateKey, seen flowsSeen) {
	t.Helper()
	host := strings.TrimPrefix(env.srv.URL, "http://")
	m := seen.SignIn.Message
	for _, part := range []string{
		host + " wants you to sign in with your Ethereum account:\n" + crypto.PubkeyToAddress(key.PublicKey).Hex() + "\n\n",
		"\nURI: " + env.srv.URL + "/\n", "\nVersion: 1\n", "\nChain ID: " + strconv.FormatUint(env.dev.ChainID(), 10) + "\n", "\nNonce: ", "\nIssued At: ", "\nExpiration Time: ",
	} {
		if !strings.Contains(m, part) {
			t.Errorf("sign-in message lacks %q:\n%s", part, m)
		}
	}
	if seen.SignIn.Tier != "free" || !strings.HasPrefix(seen.SignIn.AccountID, "acc_") {
		t.Errorf("after the first sign-in: tier %q, account %q; want a new free account", seen.SignIn.Tier, seen.SignIn.AccountID)
	}
	if !slices.Contains(seen.SignIn.WalletCalls, "eth_chainId") {
		t.Errorf("the page never asked the wallet for its chain: %v", seen.SignIn.WalletCalls)
	}
}

func checkKeys(t *testing.T, seen flowsSeen) {
	t.Helper()
	k := seen.Keys
	if !strings.HasPrefix(k.SecretA, "svc_") || k.Copied != k.SecretA || !strings.Contains(k.Listed, "ci") || !strings.Contains(k.Listed, k.SecretA[:8]) {
		t.Errorf("created key %q: copied %q, listed as %q", k.SecretA, k.Copied, k.Listed)
	}
	if k.SecretAfterReload {
		t.Error("the key's secret is still on the page after the reload")
	}
	if k.StatusA != 200 || k.StatusAAfterReissue != 401 || k.StatusA2 != 200 || k.SecretA2 == k.SecretA {
		t.Errorf("key calls: created %d, after reissue %d, reissued %d (want 200, 401, 200)", k.StatusA, k.StatusAAfterReissue, k.StatusA2)
	}
	if k.StatusBBeforeDisable != 200 || k.StatusB != 401 {
		t.Errorf("disabled key: %d before, %d after (want 200, 401)", k.StatusBBeforeDisable, k.StatusB)
	}
	if len(k.Rows) != 3 {
		t.Errorf("key list %q, want 3 rows (reissued, its replacement, disabled)", k.Rows)
	}
}

func checkWebhook(t *testing.T, rc *receiver, seen flowsSeen) {
	t.Helper()
	w := seen.Webhook
	if !strings.HasPrefix(w.Secret1, "whsec_") || !strings.HasPrefix(w.Secret2, "whsec_") || w.Secret1 == w.Secret2 {
		t.Errorf("webhook secrets %q then %q", w.Secret1, w.Secret2)
	}
	if !strings.Contains(w.Card, rc.url+"/hook") || !strings.Contains(w.Card, "test.ping") || !strings.Contains(w.Card, "order.filled") ||
		strings.Contains(w.Card, "every event") || strings.Contains(w.Card, "order.cancelled") {
		t.Errorf("endpoint card %q: want the receiver's URL and its two events", w.Card)
	}
	if len(w.Deliveries) == 0 || w.Deliveries[0].Event != "test.ping" || w.Deliveries[0].Status != "delivered" ||
		w.Deliveries[0].Response != "200" || !strings.HasSuffix(w.Deliveries[0].Latency, " ms") || w.Deliveries[0].Attempts != "1" {
		t.Errorf("delivery log after the test event: %+v", w.Deliveries)
	}
	got := rc.pings()
	// The test event, its resend, and the test event after the rotation.
	if len(got) < 3 {
		t.Fatalf("the receiver got %d test.ping deliveries, want 3 or more", len(got))
	}
	if !signedBy(got[0], w.Secret1) {
		t.Errorf("the first test event is not signed with the secret shown: %s", got[0].header)
	}
	last := got[len(got)-1]
	if strings.Count(last.header, "v1=") != 2 || !signedBy(last, w.Secret2) || !signedBy(last, w.Secret1) {
		t.Errorf("after the rotation a delivery carries %q: want one v1 of each secret during the overlap", last.header)
	}
}

func checkPlatform(t *testing.T, fill referredFill, referrer common.Address, seen flowsSeen) {
	t.Helper()
	p := seen.Platform
	if len(p.Accruals) != 1 {
		t.Fatalf("fee accruals shown %v, want the one leg of the filled order", p.Accruals)
	}
	a := p.Accruals[0]
	if a["Amount"] != fill.referralFee || a["Referrer"] != referrer.Hex() || !strings.EqualFold(a["Token"], fill.token.Hex()) ||
		a["Order"] != fill.orderHash.Hex() || !strings.HasPrefix(a["Transaction"], fill.txHash) {
		t.Errorf("accrual shown %v; the fill paid %s of %s to %s in %s (order %s)", a, fill.referralFee, fill.token.Hex(), referrer.Hex(), fill.txHash, fill.orderHash.Hex())
	}
	if len(p.Totals) != 1 || p.Totals[0]["Total"] != fill.referralFee {
		t.Errorf("totals shown %v, want %s", p.Totals, fill.referralFee)
	}
	if len(p.Referees) != 1 || p.Referees[0]["Wallet"] != fill.maker.Hex() || p.Referees[0]["Orders"] != "1" {
		t.Errorf("referees shown %v, want the maker %s with 1 order", p.Referees, fill.maker.Hex())
	}
}

func checkOrders(t *testing.T, h common.Hash, seen flowsSeen) {
	t.Helper()
	o := seen.Orders
	// The linked wallet holds nothing: its limit order (below the market)
	// waits for the balance and the allowance.
	if !slices.Equal(o.Waiting, []string{"balance", "allowance"}) || !strings.Contains(o.Diagnostics, "short") {
		t.Errorf("the pending order's diagnostics: waiting for %v\n%s", o.Waiting, o.Diagnostics)
	}
	if o.CancelStatus != 200 || o.Event["Event"] != "order.cancelled" || o.Event["Order"] != h.Hex() {
		t.Errorf("cancel answered %d; the live list's newest event %v, want the order.cancelled of %s", o.CancelStatus, o.Event, h.Hex())
	}
	if !strings.Contains(o.AfterCancel, "closed") {
		t.Errorf("after the cancel the order shows %q", o.AfterCancel)
	}
}

// unfundedOrder has key sign a limit order (USDC for WETH, below the
// market, unfunded: key holds nothing) and submits it with the test key.
func (e *chainEnv) unfundedOrder(key *ecdsa.PrivateKey) common.Hash {
	e.t.Helper()
	maker := crypto.PubkeyToAddress(key.PublicKey)
	usdc, weth := e.token("USDC"), e.token("WETH")
	router, vault := common.HexToAddress(e.cfg.Chain.Router), common.HexToAddress(e.cfg.Chain.FeeVault)
	ppm := e.cfg.Routing.FeePolicy[config.KindLimit][config.ClassMajor].ReferralPpm
	traits, err := chain.EncodeTraits(chain.Traits{Nonce: 2, SlippagePpm: 50_000})
	if err != nil {
		e.t.Fatal(err)
	}
	o := chain.Order{Maker: maker, Receiver: maker, TokenIn: usdc, TokenOut: weth, Referrer: vault, ReferralFeePpm: ppm, MakerTraits: traits}
	o.Salt.SetUint64(uint64(time.Now().UnixNano()))
	o.AmountIn.SetUint64(25_000_000)
	o.TriggerPrice.SetUint64(new(big.Int).Quo(big.NewInt(1e18), big.NewInt(4000)).Uint64())
	o.TriggerAmountOut, _ = chain.DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, 6)
	hash := chain.OrderHash(chain.NewRouterDomain(e.dev.ChainID(), router), &o)
	sig, err := crypto.Sign(hash[:], key)
	if err != nil {
		e.t.Fatal(err)
	}
	sig[64] += 27
	body, _ := json.Marshal(map[string]any{"orderType": "limit", "signature": "0x" + hex.EncodeToString(sig), "orderHash": hash.Hex(),
		"order": map[string]any{"salt": "0x" + hex.EncodeToString(o.Salt.Bytes()), "maker": maker.Hex(), "receiver": maker.Hex(),
			"tokenIn": usdc.Hex(), "tokenOut": weth.Hex(), "amountIn": o.AmountIn.Dec(), "triggerPrice": o.TriggerPrice.Dec(),
			"makerTraits": traits.Dec(), "referrer": vault.Hex(), "referralFeePpm": ppm}})
	if r := e.srv.Do("POST", "/v1/orders", body, map[string]string{"X-API-Key": e.srv.APIKey}); r.Status != 201 {
		e.t.Fatalf("submit the unfunded order: %d %s", r.Status, r.Body)
	}
	e.dev.Commit() // a block evaluated with the order in it
	return hash
}

// chainEnv is the embedded dev chain (manual mining) behind the real
// engine with the in-process dev keeper.
type chainEnv struct {
	t   *testing.T
	ctx context.Context
	dev *devchain.DevChain
	srv *apptest.Server
	cfg config.Config
}

func newChainEnv(t *testing.T) *chainEnv {
	t.Helper()
	e := &chainEnv{t: t, ctx: t.Context()}
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
		apptest.WithChain(func() *devchain.Conn { return devchain.ConnOf(dev) }),
		apptest.WithKeeperKey(dev.Accounts().Keeper.Key))
	return e
}

func (e *chainEnv) token(symbol string) common.Address {
	tk, ok := e.dev.Deployment().Token(symbol)
	if !ok {
		e.t.Fatalf("no token %s", symbol)
	}
	return tk.Address
}

// send signs and sends a transaction from key and mines it.
func (e *chainEnv) send(key *ecdsa.PrivateKey, to common.Address, data []byte) {
	e.t.Helper()
	c := e.dev.Client()
	from := crypto.PubkeyToAddress(key.PublicKey)
	gas, err := c.EstimateGas(e.ctx, ethereum.CallMsg{From: from, To: &to, Data: data})
	if err != nil {
		e.t.Fatalf("estimate: %v", err)
	}
	opts := bind.NewKeyedTransactor(key, new(big.Int).SetUint64(e.dev.ChainID()))
	opts.Context, opts.GasLimit = e.ctx, 2*gas+100_000
	tx, err := bind.NewBoundContract(to, servicerouter.NewServiceRouter().GetABI(), c, c, c).RawTransact(opts, data)
	if err != nil {
		e.t.Fatal(err)
	}
	e.mine(tx.Hash())
}

func (e *chainEnv) mine(txs ...common.Hash) {
	e.t.Helper()
	if _, err := e.dev.Mine(e.ctx, txs...); err != nil {
		e.t.Fatal(err)
	}
}

// referredFill is a fill whose referral leg was paid to a referrer.
type referredFill struct {
	orderHash   common.Hash
	maker       common.Address
	token       common.Address
	txHash      string
	referralFee string
}

// referredFill has a dev maker sign a limit order (USDC for WETH, below
// the market so the dev keeper fills it at once) with referrer and the
// route's referral leg for it, submits it, and mines until it is filled.
func (e *chainEnv) referredFill(referrer common.Address) referredFill {
	e.t.Helper()
	maker := e.dev.Accounts().Makers[0]
	usdc, weth := e.token("USDC"), e.token("WETH")
	router := common.HexToAddress(e.cfg.Chain.Router)
	h, err := e.dev.Faucet(e.ctx, maker.Address, usdc, big.NewInt(1_000_000_000_000))
	if err != nil {
		e.t.Fatal(err)
	}
	e.mine(h)
	e.send(maker.Key, usdc, testtoken.NewTestToken().PackApprove(router, new(big.Int).Lsh(big.NewInt(1), 255)))
	res, err := e.dev.MarketMaker().MoveTo(e.ctx, "WETH", big.NewInt(3000_00000000))
	if err != nil {
		e.t.Fatal(err)
	}
	e.mine(res.Txs...)
	if err := e.srv.System.Routing.Venues.Advance(e.ctx); err != nil {
		e.t.Fatal(err)
	}
	key := map[string]string{"X-API-Key": e.srv.APIKey}
	const amountIn = 40_000_000 // 40 USDC
	route := e.srv.Do("GET", "/v1/route?tokenIn="+usdc.Hex()+"&tokenOut="+weth.Hex()+"&amountIn=40000000&orderType=limit&wallet="+
		maker.Address.Hex()+"&referrer="+referrer.Hex(), nil, key)
	var legs struct {
		FeeLegs struct {
			Referrer string
			Fees     struct{ Triggered struct{ ReferralPpm uint32 } }
		}
	}
	if err := json.Unmarshal(route.Body, &legs); err != nil || route.Status != 200 || legs.FeeLegs.Referrer != referrer.Hex() {
		e.t.Fatalf("route for the referred order: %d %s", route.Status, route.Body)
	}
	traits, err := chain.EncodeTraits(chain.Traits{Nonce: 1, SlippagePpm: 50_000})
	if err != nil {
		e.t.Fatal(err)
	}
	o := chain.Order{Maker: maker.Address, Receiver: maker.Address, TokenIn: usdc, TokenOut: weth,
		Referrer: referrer, ReferralFeePpm: legs.FeeLegs.Fees.Triggered.ReferralPpm, MakerTraits: traits}
	o.Salt.SetUint64(uint64(time.Now().UnixNano()))
	o.AmountIn.SetUint64(amountIn)
	o.TriggerPrice.SetUint64(new(big.Int).Quo(big.NewInt(1e18), big.NewInt(4000)).Uint64()) // wants WETH at $4000: below the market
	o.TriggerAmountOut, _ = chain.DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, 6)
	hash := chain.OrderHash(chain.NewRouterDomain(e.dev.ChainID(), router), &o)
	sig, err := crypto.Sign(hash[:], maker.Key)
	if err != nil {
		e.t.Fatal(err)
	}
	sig[64] += 27
	body, _ := json.Marshal(map[string]any{"orderType": "limit", "signature": "0x" + hex.EncodeToString(sig), "orderHash": hash.Hex(),
		"order": map[string]any{"salt": "0x" + hex.EncodeToString(o.Salt.Bytes()), "maker": maker.Address.Hex(), "receiver": maker.Address.Hex(),
			"tokenIn": usdc.Hex(), "tokenOut": weth.Hex(), "amountIn": o.AmountIn.Dec(), "triggerPrice": o.TriggerPrice.Dec(),
			"makerTraits": traits.Dec(), "referrer": referrer.Hex(), "referralFeePpm": o.ReferralFeePpm}})
	if r := e.srv.Do("POST", "/v1/orders", body, key); r.Status != 201 {
		e.t.Fatalf("submit the referred order: %d %s", r.Status, r.Body)
	}
	var fills struct {
		Fills []struct{ TxHash, ReferralFee string }
	}
	deadline := time.Now().Add(time.Minute)
	for len(fills.Fills) == 0 {
		if time.Now().After(deadline) {
			e.t.Fatal("the referred order was not filled")
		}
		e.dev.Commit()
		time.Sleep(20 * time.Millisecond) // the indexer polls every 20 ms
		r := e.srv.Do("GET", "/v1/orders/"+hash.Hex()+"/fills", nil, key)
		_ = json.Unmarshal(r.Body, &fills)
	}
	f := fills.Fills[0]
	if f.ReferralFee == "" || f.ReferralFee == "0" {
		e.t.Fatalf("the fill paid no referral leg: %+v", f)
	}
	return referredFill{orderHash: hash, maker: maker.Address, token: weth, txHash: f.TxHash, referralFee: f.ReferralFee}
}

// receiver is a local webhook endpoint that keeps every delivery.
type receiver struct {
	url string
	mu  sync.Mutex
	got []received
}

type received struct {
	event, header string
	body          []byte
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{}
	hs := httptest.NewServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		raw, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, received{event: r.Header.Get("X-Service-Event"), header: r.Header.Get("X-Service-Signature"), body: raw})
		rc.mu.Unlock()
		w.WriteHeader(200)
	}))
	t.Cleanup(hs.Close)
	rc.url = hs.URL
	return rc
}

// pings returns the test.ping deliveries in arrival order.
func (rc *receiver) pings() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out []received
	for _, d := range rc.got {
		if d.event == "test.ping" {
			out = append(out, d)
		}
	}
	return out
}

// signedBy reports whether one v1 signature of d is the HMAC-SHA256 of
// "t.body" with secret (the scheme of the WebhookSignature security
// scheme), computed here independently of the engine's code.
func signedBy(d received, secret string) bool {
	var ts string
	var sigs []string
	for _, part := range strings.Split(d.header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(d.body)
	want := hex.EncodeToString(mac.Sum(nil))
	return ts != "" && slices.Contains(sigs, want)
}
