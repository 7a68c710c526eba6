package keeper_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orderengine/orderengine/app"
	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/keeper"
)

// e2e is the embedded dev chain (manual mining) behind the real server with
// the order service and the lifecycle plugged in.
type e2e struct {
	t      *testing.T
	ctx    context.Context
	dev    *devchain.DevChain
	srv    *apptest.Server
	cfg    config.Config
	maker  devchain.Account
	domain *chain.Domain
	salt   uint64
}

// sys is the running engine (a new one after a restart).
func (e *e2e) sys() *app.System { return e.srv.System }

func newE2E(t *testing.T, devKeeper bool) *e2e {
	t.Helper()
	e := &e2e{t: t, ctx: context.Background()}
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
	opts := []apptest.Option{
		apptest.WithTier(config.TierEnterprise, config.BucketLimits{Quote: 100000, Read: 100000, Order: 100000}),
		apptest.WithConfig(configure),
		apptest.WithChain(func() *devchain.Conn { return devchain.ConnOf(dev) }),
	}
	if devKeeper {
		opts = append(opts, apptest.WithKeeperKey(dev.Accounts().Keeper.Key))
	} else {
		opts = append(opts, apptest.WithConfig(func(c *config.Config) { c.Lifecycle.DevKeeper = false }))
	}
	e.srv = apptest.NewTestServer(t, opts...)
	e.maker = dev.Accounts().Makers[0]
	e.domain = chain.NewRouterDomain(dev.ChainID(), common.HexToAddress(e.cfg.Chain.Router))
	usdc := e.tok("USDC")
	h, err := dev.Faucet(e.ctx, e.maker.Address, usdc, big.NewInt(1_000_000_000_000))
	if err != nil {
		t.Fatal(err)
	}
	e.mine(h)
	e.mine(e.send(e.maker.Key, usdc, testtoken.NewTestToken().PackApprove(common.HexToAddress(e.cfg.Chain.Router), new(big.Int).Lsh(big.NewInt(1), 255))))
	return e
}

func (e *e2e) tok(symbol string) common.Address {
	tk, ok := e.dev.Deployment().Token(symbol)
	if !ok {
		e.t.Fatalf("no token %s", symbol)
	}
	return tk.Address
}

// send signs and submits a transaction from key.
func (e *e2e) send(key *ecdsa.PrivateKey, to common.Address, data []byte) common.Hash {
	e.t.Helper()
	c := e.dev.Client()
	from := crypto.PubkeyToAddress(key.PublicKey)
	gas, err := c.EstimateGas(e.ctx, ethereum.CallMsg{From: from, To: &to, Data: data})
	if err != nil {
		e.t.Fatalf("estimate: %v", err)
	}
	opts := bind.NewKeyedTransactor(key, new(big.Int).SetUint64(e.dev.ChainID()))
	opts.Context, opts.GasLimit = e.ctx, 2*gas+100_000 // estimates at latest undercount fresh-round oracle writes
	tx, err := bind.NewBoundContract(to, servicerouter.NewServiceRouter().GetABI(), c, c, c).RawTransact(opts, data)
	if err != nil {
		e.t.Fatal(err)
	}
	return tx.Hash()
}

func (e *e2e) mine(txs ...common.Hash) {
	e.t.Helper()
	if _, err := e.dev.Mine(e.ctx, txs...); err != nil {
		e.t.Fatal(err)
	}
}

// moveWETH moves the market with the dev market maker: every WETH
// constant-product pool is swapped to usd8 (USD, 8 decimals) and the
// oracle written from the pools (USDC and the other stables rewritten at
// $1, so every answer is fresh), the transactions mined. Pools and oracle
// move together, so a fill executes at the moved price. The target must be
// inside the walk's bounds (±10 % of the seeded $3000). The routing
// cache is then advanced to the head, as serve's Venues.Follow does within
// half a block interval, so the keeper's next route is quoted from the
// moved pools (a stale quote of a market that rose sets a minAmountOut the
// fill cannot reach).
func (e *e2e) moveWETH(usd8 int64) {
	e.t.Helper()
	res, err := e.dev.MarketMaker().MoveTo(e.ctx, "WETH", big.NewInt(usd8))
	if err != nil {
		e.t.Fatal(err)
	}
	if res.Clamped {
		e.t.Fatalf("WETH target %d outside the market maker's bounds (moved to %v)", usd8, res.Target)
	}
	e.mine(res.Txs...)
	if err := e.sys().Routing.Venues.Advance(e.ctx); err != nil {
		e.t.Fatal(err)
	}
}

// submit signs a USDC→WETH order of the maker and POSTs it.
func (e *e2e) submit(class string, amountIn, price uint64, tr chain.Traits, extra map[string]any) common.Hash {
	e.t.Helper()
	return e.submitAs(e.maker, class, amountIn, price, tr, extra)
}

// submitAs signs a USDC→WETH order of maker and POSTs it.
func (e *e2e) submitAs(maker devchain.Account, class string, amountIn, price uint64, tr chain.Traits, extra map[string]any) common.Hash {
	e.t.Helper()
	e.salt++
	traits, err := chain.EncodeTraits(tr)
	if err != nil {
		e.t.Fatal(err)
	}
	ppm := e.cfg.Routing.FeePolicy[class][config.ClassMajor].ReferralPpm
	vault := common.HexToAddress(e.cfg.Chain.FeeVault)
	o := chain.Order{Maker: maker.Address, Receiver: maker.Address, TokenIn: e.tok("USDC"), TokenOut: e.tok("WETH"),
		Referrer: vault, ReferralFeePpm: ppm, MakerTraits: traits}
	o.Salt.SetUint64(e.salt*7919 + uint64(time.Now().UnixNano()))
	o.AmountIn.SetUint64(amountIn)
	o.TriggerPrice.SetUint64(price)
	o.TriggerAmountOut, _ = chain.DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, 6)
	hash := chain.OrderHash(e.domain, &o)
	sig, err := crypto.Sign(hash[:], maker.Key)
	if err != nil {
		e.t.Fatal(err)
	}
	sig[64] += 27
	order := map[string]any{
		"salt": "0x" + hex.EncodeToString(o.Salt.Bytes()), "maker": o.Maker.Hex(), "receiver": o.Receiver.Hex(),
		"tokenIn": o.TokenIn.Hex(), "tokenOut": o.TokenOut.Hex(), "amountIn": o.AmountIn.Dec(), "triggerPrice": o.TriggerPrice.Dec(),
		"makerTraits": traits.Dec(), "referrer": vault.Hex(), "referralFeePpm": ppm,
	}
	body := map[string]any{"orderType": class, "order": order, "signature": "0x" + hex.EncodeToString(sig), "orderHash": hash.Hex()}
	for k, v := range extra {
		body[k] = v
	}
	raw, _ := json.Marshal(body)
	r := e.srv.Do("POST", "/v1/orders", raw, map[string]string{"X-API-Key": e.srv.APIKey})
	if r.Status != 201 {
		e.t.Fatalf("submit %s: %d %s", class, r.Status, r.Body)
	}
	return hash
}

// order reads GET /v1/orders/{hash}.
func (e *e2e) order(h common.Hash) map[string]any {
	e.t.Helper()
	r := e.srv.Do("GET", "/v1/orders/"+h.Hex(), nil, map[string]string{"X-API-Key": e.srv.APIKey})
	if r.Status != 200 {
		e.t.Fatalf("get order: %d %s", r.Status, r.Body)
	}
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		e.t.Fatal(err)
	}
	return m
}

// waitFor mines a block and checks cond until it holds or the deadline
// passes.
func (e *e2e) waitFor(what string, cond func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting for %s", what)
		}
		e.dev.Commit()
		time.Sleep(20 * time.Millisecond) // let the indexer's poll see the block
	}
}

// adjustTime moves the chain's clock by d with the in-process keeper
// running. The keeper may have a transaction pending at that moment
// (TestE2EDevKeeperTakeProfitAndDCA once found one still pending after
// AdjustTime's wait, on a loaded machine); the dev chain refuses to seal a
// pending transaction with the time jump, so it is mined in a block of its
// own first.
func (e *e2e) adjustTime(d time.Duration) {
	e.t.Helper()
	for range 3 {
		err := e.dev.AdjustTime(d)
		if err == nil {
			return
		}
		if !strings.Contains(err.Error(), "still pending") {
			e.t.Fatal(err)
		}
		e.t.Logf("%v: mining it first", err)
		e.dev.Commit()
	}
	e.t.Fatal("adjust time: transactions kept arriving")
}

func (e *e2e) wethBalance(who common.Address) *big.Int {
	e.t.Helper()
	weth := e.tok("WETH")
	tt := testtoken.NewTestToken()
	out, err := e.dev.Client().CallContract(e.ctx, ethereum.CallMsg{To: &weth, Data: tt.PackBalanceOf(who)}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	v, err := tt.UnpackBalanceOf(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

func usdcInWeth(wethUSD int64) uint64 {
	return new(big.Int).Quo(new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil), big.NewInt(wethUSD)).Uint64()
}

// The stop-loss lifecycle over HTTP with the reference keeper reading the
// public keeper list: submit, the market moves, the trigger fires, the
// order is listed with its calldata, the keeper executes, the fill is
// indexed and the order is filled to the wei.
func TestE2EStopLossWithHTTPKeeper(t *testing.T) {
	e := newE2E(t, false)
	rc := e.receiver()
	e.moveWETH(3000_00000000)
	h := e.submit("stop_loss", 100_000_000, usdcInWeth(3150), chain.Traits{Nonce: 1, SlippagePpm: 50_000, Flags: chain.FlagStopLoss}, nil)
	if got := e.order(h)["status"]; got != "pending" {
		t.Fatalf("status %v", got)
	}
	e.moveWETH(3270_00000000) // WETH up 9 %: USDC buys less than the stop's 1/3150
	var list keeper.ExecutableList
	e.waitFor("the stop to be listed", func() bool {
		r := e.srv.Do("GET", "/v1/keeper/executable", nil, map[string]string{"X-API-Key": e.srv.APIKey})
		if r.Status != 200 {
			t.Fatalf("keeper list: %d %s", r.Status, r.Body)
		}
		list = keeper.ExecutableList{}
		_ = json.Unmarshal(r.Body, &list)
		return len(list.Orders) == 1
	})
	it := list.Orders[0]
	if it.OrderHash != h.Hex() || it.FillIn != "100000000" || it.Tx.To != e.cfg.Chain.Router || it.ExpectedKeeperFee == "" {
		t.Fatalf("listed %+v", it)
	}
	if e.order(h)["triggeredAt"] == nil {
		t.Fatal("triggeredAt not set when listed")
	}
	before := e.wethBalance(e.maker.Address)
	runner := keeper.NewRunner(e.dev.Client(), e.dev.Accounts().Keeper.Key, keeper.HTTPSource(e.srv.URL, e.srv.APIKey, nil), keeper.RunnerOptions{})
	sent, err := runner.Step(e.ctx)
	if err != nil || len(sent) != 1 {
		t.Fatalf("keeper sent %d (%v)", len(sent), err)
	}
	// One block carries the fill; the order must reflect it without more
	// blocks (the elapsed time is reported, not asserted).
	e.dev.Commit()
	mined := time.Now()
	for deadline := mined.Add(30 * time.Second); e.order(h)["status"] != "filled"; {
		if time.Now().After(deadline) {
			t.Fatal("fill not reflected in GET /v1/orders/{hash}")
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Logf("fill visible in GET /v1/orders/{hash} %v after its block was mined", time.Since(mined))
	got := e.order(h)
	gain := new(big.Int).Sub(e.wethBalance(e.maker.Address), before)
	if got["filledAmountIn"] != "100000000" || got["filledAmountOut"] != gain.String() {
		t.Fatalf("order %v, receiver gained %s", got, gain)
	}
	r := e.srv.Do("GET", "/v1/orders/"+h.Hex()+"/fills", nil, map[string]string{"X-API-Key": e.srv.APIKey})
	var fills struct {
		Fills []map[string]any `json:"fills"`
	}
	if err := json.Unmarshal(r.Body, &fills); err != nil || len(fills.Fills) != 1 || fills.Fills[0]["amountOut"] != gain.String() ||
		fills.Fills[0]["keeper"] != e.dev.Accounts().Keeper.Address.Hex() {
		t.Fatalf("fills %s", r.Body)
	}
	e.waitFor("the filled order to leave the list", func() bool {
		r := e.srv.Do("GET", "/v1/keeper/executable", nil, map[string]string{"X-API-Key": e.srv.APIKey})
		return r.Status == 200 && json.Unmarshal(r.Body, &list) == nil && len(list.Orders) == 0
	})
	e.expect(rc, h, "stop.triggered", "order.filled")
	// The deliveries' data (docs/webhooks.md, event catalog): this fill's
	// amounts and transaction; the trigger's price, at or under the stop.
	base := map[string]any{"orderType": "stop_loss", "pair": got["pair"], "tokenIn": e.tok("USDC").Hex(), "tokenOut": e.tok("WETH").Hex(),
		"orderHash": h.Hex()}
	want := maps.Clone(base)
	want["amountIn"], want["amountOut"], want["txHash"] = "100000000", gain.String(), fills.Fills[0]["txHash"]
	checkData(t, "order.filled", e.only(rc, "order.filled", h), want)
	trig := e.only(rc, "stop.triggered", h)
	if p, ok := new(big.Int).SetString(fmt.Sprint(trig["triggerPrice"]), 10); !ok || p.Cmp(new(big.Int).SetUint64(usdcInWeth(3150))) > 0 {
		t.Errorf("stop.triggered triggerPrice %v, want a price at or under the stop's %d", trig["triggerPrice"], usdcInWeth(3150))
	}
	want = maps.Clone(base)
	want["amountIn"], want["amountOut"], want["triggerPrice"] = "100000000", "0", trig["triggerPrice"]
	checkData(t, "stop.triggered", trig, want)
	// Market data saw the fill.
	r = e.srv.Do("GET", "/v1/swaps?wallet="+e.maker.Address.Hex(), nil, map[string]string{"X-API-Key": e.srv.APIKey})
	if r.Status != 200 || !bytes.Contains(r.Body, []byte(h.Hex())) {
		t.Fatalf("swaps %d %s", r.Status, r.Body)
	}
	for _, p := range []string{"/v1/volume", "/v1/stats"} {
		if r := e.srv.Do("GET", p, nil, map[string]string{"X-API-Key": e.srv.APIKey}); r.Status != 200 {
			t.Fatalf("%s: %d %s", p, r.Status, r.Body)
		}
	}
}

// The dev keeper runs in-process: a take-profit and a DCA execute with no
// keeper driven by the test.
func TestE2EDevKeeperTakeProfitAndDCA(t *testing.T) {
	e := newE2E(t, true)
	rc := e.receiver()
	e.moveWETH(3000_00000000)
	tp := e.submit("take_profit", 50_000_000, usdcInWeth(2850), chain.Traits{Nonce: 2, SlippagePpm: 50_000, Flags: chain.FlagTakeProfit}, nil)
	dca := e.submit("dca", 30_000_000, 0, chain.Traits{Nonce: 3, SlippagePpm: 50_000, KindParamPpm: 100_000,
		IntervalSeconds: 3600, TotalExecutions: 3, Flags: chain.FlagDCA},
		map[string]any{"intervalSeconds": "3600", "totalExecutions": "3", "totalAmountIn": "30000000", "flexibilityPpm": 100_000, "shortCircuit": false})
	e.waitFor("the first DCA leg", func() bool { return fmt.Sprint(e.order(dca)["executions"]) == "1" })
	if got := e.order(tp)["status"]; got != "pending" {
		t.Fatalf("take-profit executed before its trigger: %v", got)
	}
	before := e.wethBalance(e.maker.Address)
	e.moveWETH(2730_00000000) // WETH down 9 %, pools and oracle: USDC now worth more WETH, take profit
	e.waitFor("the take-profit fill", func() bool { return e.order(tp)["status"] == "filled" })
	got := e.order(tp)
	if got["triggeredAt"] == nil {
		t.Fatal("take-profit filled without triggeredAt")
	}
	// The fill executed in the moved pools: the receiver got what the order
	// reports, to the wei, and more than the take-profit's trigger amount
	// (at the $3000 pools it would have got less).
	gain := new(big.Int).Sub(e.wethBalance(e.maker.Address), before)
	if got["filledAmountIn"] != "50000000" || got["filledAmountOut"] != gain.String() {
		t.Fatalf("take-profit %v, receiver gained %s", got, gain)
	}
	if triggerOut := new(big.Int).Mul(big.NewInt(50), new(big.Int).SetUint64(usdcInWeth(2850))); gain.Cmp(triggerOut) < 0 {
		t.Fatalf("take-profit filled %s WETH wei, under its trigger amount %s", gain, triggerOut)
	}
	e.expect(rc, tp, "stop.triggered", "order.filled")
	e.adjustTime(3600 * time.Second)
	e.moveWETH(3000_00000000) // back to $3000, and the oracle fresh after the hour
	e.waitFor("the second DCA leg", func() bool { return fmt.Sprint(e.order(dca)["executions"]) == "2" })
	if got := e.order(dca); got["status"] != "active" || got["filledAmountIn"] != "20000000" {
		t.Fatalf("dca after two legs: %v", got)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for k := range rc.events {
		if len(k) >= 66 && k[len(k)-66:] == dca.Hex() {
			t.Fatalf("a DCA leg emitted %s (legs emit nothing until dca.completed)", k)
		}
	}
}

// Limit and trailing orders with the in-process dev keeper: the limit
// executes at once (its price is below the market), the trailing order
// only after the price falls trailPpm under its peak.
func TestE2EDevKeeperLimitAndTrailing(t *testing.T) {
	e := newE2E(t, true)
	rc := e.receiver()
	e.moveWETH(3000_00000000)
	// 5 % trail: fires once USDC is worth ≤ 95 % of its peak in WETH (the
	// market maker moves WETH at most 10 % from $3000).
	tr := e.submit("trailing", 20_000_000, 0, chain.Traits{Nonce: 5, SlippagePpm: 50_000, KindParamPpm: 50_000, Flags: chain.FlagTrailing},
		map[string]any{"trailPpm": 50_000})
	before := e.wethBalance(e.maker.Address)
	lim := e.submit("limit", 40_000_000, usdcInWeth(4000), chain.Traits{Nonce: 6, SlippagePpm: 50_000}, nil)
	e.waitFor("the limit fill", func() bool { return e.order(lim)["status"] == "filled" })
	got := e.order(lim)
	gain := new(big.Int).Sub(e.wethBalance(e.maker.Address), before)
	if got["filledAmountIn"] != "40000000" || got["filledAmountOut"] != gain.String() {
		t.Fatalf("limit %v, receiver gained %s", got, gain)
	}
	if got := e.order(tr); got["status"] != "pending" || got["triggeredAt"] != nil {
		t.Fatalf("trailing moved before its trail: %v", got)
	}
	e.moveWETH(3100_00000000) // 3000/3100 = 0.968 of the peak: not yet
	e.dev.Commit()
	e.dev.Commit()
	if got := e.order(tr); got["status"] != "pending" {
		t.Fatalf("trailing fired 3.2 %% under its peak: %v", got)
	}
	before = e.wethBalance(e.maker.Address)
	e.moveWETH(3270_00000000) // 3000/3270 = 0.917: fires
	e.waitFor("the trailing fill", func() bool { return e.order(tr)["status"] == "filled" })
	got = e.order(tr)
	gain = new(big.Int).Sub(e.wethBalance(e.maker.Address), before)
	if got["triggeredAt"] == nil || got["filledAmountIn"] != "20000000" || got["filledAmountOut"] != gain.String() {
		t.Fatalf("trailing %v, receiver gained %s", got, gain)
	}
	e.expect(rc, lim, "order.filled")
	e.expect(rc, tr, "stop.triggered", "order.filled")
}

// A restart of the whole server in the middle of a DCA continues the
// schedule: the second leg executes after the interval, not before.
func TestE2ERestartMidDCA(t *testing.T) {
	e := newE2E(t, true)
	rc := e.receiver()
	e.moveWETH(3000_00000000)
	dca := e.submit("dca", 20_000_000, 0, chain.Traits{Nonce: 7, SlippagePpm: 50_000, KindParamPpm: 100_000,
		IntervalSeconds: 3600, TotalExecutions: 2, Flags: chain.FlagDCA},
		map[string]any{"intervalSeconds": "3600", "totalExecutions": "2", "totalAmountIn": "20000000", "flexibilityPpm": 100_000, "shortCircuit": false})
	e.waitFor("the first leg", func() bool { return fmt.Sprint(e.order(dca)["executions"]) == "1" })
	e.srv.Restart()
	for range 5 { // blocks after the restart, still inside the interval
		e.dev.Commit()
	}
	head, err := e.dev.Client().BlockNumber(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(e.ctx, 30*time.Second)
	defer cancel()
	if err := e.sys().Indexer.WaitCursor(wctx, head); err != nil {
		t.Fatal(err)
	}
	if got := e.order(dca); fmt.Sprint(got["executions"]) != "1" || got["status"] != "active" {
		t.Fatalf("after restart, inside the interval: %v", got)
	}
	e.adjustTime(3600 * time.Second)
	e.moveWETH(3000_00000000)
	e.waitFor("the second leg after the restart", func() bool { return e.order(dca)["status"] == "filled" })
	if got := e.order(dca); got["filledAmountIn"] != "20000000" || fmt.Sprint(got["executions"]) != "2" {
		t.Fatalf("dca %v", got)
	}
	e.expect(rc, dca, "dca.completed")
}

// Expiry by block time and nonce invalidation through the real server.
func TestE2EExpiryAndNonceInvalidation(t *testing.T) {
	e := newE2E(t, false)
	rc := e.receiver()
	e.moveWETH(3000_00000000)
	h, err := e.dev.Client().HeaderByNumber(e.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	deadline := max(h.Time, uint64(time.Now().Unix())) + 600
	exp := e.submit("limit", 1_000_000, usdcInWeth(4000), chain.Traits{Nonce: 8, Deadline: deadline, SlippagePpm: 50_000}, nil)
	inv := e.submit("limit", 2_000_000, usdcInWeth(4000), chain.Traits{Nonce: 9, SlippagePpm: 50_000}, nil)
	other := e.submit("limit", 3_000_000, usdcInWeth(4000), chain.Traits{Nonce: 10, SlippagePpm: 50_000}, nil)
	invTx := e.send(e.maker.Key, common.HexToAddress(e.cfg.Chain.Router), servicerouter.NewServiceRouter().PackInvalidateNonce(big.NewInt(9)))
	e.mine(invTx)
	e.waitFor("the nonce invalidation", func() bool { return e.order(inv)["status"] == "cancelled" })
	if got := e.order(other)["status"]; got != "pending" {
		t.Fatalf("order with another nonce: %v", got)
	}
	if err := e.dev.AdjustTime(1200 * time.Second); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the expiry", func() bool { return e.order(exp)["status"] == "expired" })
	if got := e.order(other)["status"]; got != "pending" {
		t.Fatalf("order without a deadline: %v", got)
	}
	e.expect(rc, inv, "order.cancelled")
	e.expect(rc, exp, "order.expired")
	// On-chain cancels carry the transaction, expiries none.
	data := map[string]any{"orderType": "limit", "tokenIn": e.tok("USDC").Hex(), "tokenOut": e.tok("WETH").Hex(), "amountOut": "0"}
	want := maps.Clone(data)
	want["pair"], want["orderHash"], want["amountIn"], want["txHash"] = e.order(inv)["pair"], inv.Hex(), "2000000", invTx.Hex()
	checkData(t, "order.cancelled", e.only(rc, "order.cancelled", inv), want)
	want = maps.Clone(data)
	want["pair"], want["orderHash"], want["amountIn"] = e.order(exp)["pair"], exp.Hex(), "1000000"
	checkData(t, "order.expired", e.only(rc, "order.expired", exp), want)
}

// receiver is a webhook endpoint of the test account on a loopback server:
// the outbox's events as an integrator receives them, each checked against
// the endpoint's signing secret when it arrives.
type receiver struct {
	mu         sync.Mutex
	secret     string
	events     map[string]int        // "trigger orderHash" → deliveries
	deliveries map[string][]delivery // same key, in arrival order
}

// delivery is one POST as the receiver saw it.
type delivery struct {
	header http.Header
	body   []byte
	verify error // webhook.Verify of the signature header at arrival
}

func (e *e2e) receiver() *receiver {
	e.t.Helper()
	rc := &receiver{events: map[string]int{}, deliveries: map[string][]delivery{}}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body struct {
			Trigger string `json:"trigger"`
			Data    struct {
				OrderHash string `json:"orderHash"`
			} `json:"data"`
		}
		_ = json.Unmarshal(raw, &body)
		rc.mu.Lock()
		d := delivery{header: r.Header.Clone(), body: raw,
			verify: webhook.Verify(r.Header.Get("X-Service-Signature"), raw, rc.secret, time.Now(), webhook.DefaultTolerance)}
		k := body.Trigger + " " + body.Data.OrderHash
		rc.events[k]++
		rc.deliveries[k] = append(rc.deliveries[k], d)
		rc.mu.Unlock()
		w.WriteHeader(200)
	}))
	e.t.Cleanup(hs.Close)
	body, _ := json.Marshal(map[string]string{"url": hs.URL + "/hook"})
	r := e.srv.Do("POST", "/v1/webhooks", body, map[string]string{"X-API-Key": e.srv.APIKey})
	if r.Status != 201 {
		e.t.Fatalf("create webhook: %d %s", r.Status, r.Body)
	}
	var created struct {
		Secret string `json:"secret"`
	}
	if err := json.Unmarshal(r.Body, &created); err != nil || created.Secret == "" {
		e.t.Fatalf("create webhook: no secret in %s (%v)", r.Body, err)
	}
	rc.mu.Lock()
	rc.secret = created.Secret
	rc.mu.Unlock()
	return rc
}

// only returns the one delivery of trigger for h (failing when there were
// several) after checking its headers and signature, and its data decoded.
func (e *e2e) only(rc *receiver, trigger string, h common.Hash) map[string]any {
	e.t.Helper()
	rc.mu.Lock()
	ds := rc.deliveries[trigger+" "+h.Hex()]
	rc.mu.Unlock()
	if len(ds) != 1 {
		e.t.Fatalf("%d deliveries of %s for %s, want exactly 1", len(ds), trigger, h.Hex()[:10])
	}
	d := ds[0]
	if d.verify != nil {
		e.t.Fatalf("%s: signature %q does not verify: %v", trigger, d.header.Get("X-Service-Signature"), d.verify)
	}
	var body struct {
		ID        string         `json:"id"`
		Trigger   string         `json:"trigger"`
		CreatedAt time.Time      `json:"createdAt"`
		Data      map[string]any `json:"data"`
	}
	if err := json.Unmarshal(d.body, &body); err != nil {
		e.t.Fatalf("%s: body %s: %v", trigger, d.body, err)
	}
	if ct := d.header.Get("Content-Type"); ct != "application/json" || d.header.Get("X-Service-Event") != trigger ||
		body.ID == "" || d.header.Get("X-Service-Delivery") != body.ID || body.Trigger != trigger || body.CreatedAt.IsZero() {
		e.t.Fatalf("%s: headers %v body %s", trigger, d.header, d.body)
	}
	return body.Data
}

// expect waits until every "trigger" of h was delivered (mining blocks
// meanwhile) and checks that nothing else was delivered for h.
func (e *e2e) expect(rc *receiver, h common.Hash, triggers ...string) {
	e.t.Helper()
	e.waitFor(fmt.Sprintf("events %v of %s", triggers, h.Hex()[:10]), func() bool {
		rc.mu.Lock()
		defer rc.mu.Unlock()
		for _, tr := range triggers {
			if rc.events[tr+" "+h.Hex()] == 0 {
				return false
			}
		}
		return true
	})
	rc.mu.Lock()
	defer rc.mu.Unlock()
	n := 0
	for k := range rc.events {
		if len(k) > 66 && k[len(k)-66:] == h.Hex() {
			n++
		}
	}
	if n != len(triggers) {
		e.t.Fatalf("events of %s: %v, want exactly %v", h.Hex()[:10], rc.events, triggers)
	}
}
