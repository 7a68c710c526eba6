package contracts

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
)

// payees snapshots the tokenOut balances a fill pays.
type payees struct {
	e                                  *env
	token                              common.Address
	vault, referrer, keeper, recipient *big.Int
	keeperAddr                         common.Address
	recipientAddr                      common.Address
}

func (e *env) snapshot(token common.Address, keeper, recipient common.Address) payees {
	return payees{
		e: e, token: token, keeperAddr: keeper, recipientAddr: recipient,
		vault: e.balance(token, e.vault.addr), referrer: e.balance(token, e.referrer.addr),
		keeper: e.balance(token, keeper), recipient: e.balance(token, recipient),
	}
}

// check requires every payee's balance to have grown by exactly its leg.
func (p payees) check(l legs) {
	e := p.e
	e.t.Helper()
	for _, c := range []struct {
		name   string
		who    common.Address
		before *big.Int
		want   *big.Int
	}{
		{"vault (protocol)", e.vault.addr, p.vault, l.protocol},
		{"referrer", e.referrer.addr, p.referrer, l.referral},
		{"keeper", p.keeperAddr, p.keeper, l.keeper},
		{"receiver (net)", p.recipientAddr, p.recipient, l.net},
	} {
		got := new(big.Int).Sub(e.balance(p.token, c.who), c.before)
		if got.Cmp(c.want) != 0 {
			e.t.Errorf("%s got %s, want %s", c.name, got, c.want)
		}
	}
}

// wethUsdc is the 0.3 % WETH/USDC cpmm pool the router tests route through.
func (e *env) wethUsdc() common.Address {
	return e.poolFor(FamilyCPMM, "WETH", "USDC", 3000).Address
}

// fillVia fills through the WETH/USDC pool and returns the receipt and the
// fee legs expected from the quote taken just before.
func (e *env) fillVia(keeper account, o servicerouter.Order, sig []byte, fillIn *big.Int, kind uint8) (*types.Receipt, legs) {
	e.t.Helper()
	pool := e.wethUsdc()
	gross := e.quote(pool, o.TokenIn, fillIn)
	l := splitFees(gross, feeCell(kind, ClassMajor), o.ReferralFeePpm, true)
	r := e.send(keeper, e.d.Router, e.fillData(o, sig, fillIn, e.route(pool, o.TokenIn, fillIn), l.net), nil)
	return r, l
}

func (e *env) fillDataVia(o servicerouter.Order, sig []byte, fillIn *big.Int) []byte {
	return e.fillData(o, sig, fillIn, e.route(e.wethUsdc(), o.TokenIn, fillIn), big.NewInt(0))
}

func usd8(dollars int64) *big.Int {
	return new(big.Int).Mul(big.NewInt(dollars), big.NewInt(100_000_000))
}

func usdc(whole int64) *big.Int { return units(whole, 6) }

func TestHashOrderMatchesEIP712(t *testing.T) {
	e := newEnv(t)
	o := e.newOrder("WETH", "USDC", units(1, 18), usdc(2900), traits{nonce: 3, deadline: 1 << 39, slippagePpm: 5000, flags: []uint{flagAllowPartial}})
	out, err := e.call(e.maker.addr, e.d.Router, e.router.PackHashOrder(o))
	if err != nil {
		t.Fatal(err)
	}
	h, err := e.router.UnpackHashOrder(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := e.orderDigest(o); common.BytesToHash(want) != common.Hash(h) {
		t.Fatalf("router hashOrder %x, apitypes %x", h, want)
	}
}

func TestLimitFullFillPaysEveryLeg(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(2, 18)
	o := e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 1})
	sig := e.sign(e.maker.key, o)
	snap := e.snapshot(o.TokenOut, e.keeper.addr, e.receiver.addr)
	makerBefore := e.balance(o.TokenIn, e.maker.addr)

	r, l := e.fillVia(e.keeper, o, sig, amount, KindLimit)
	snap.check(l)
	if got := new(big.Int).Sub(makerBefore, e.balance(o.TokenIn, e.maker.addr)); got.Cmp(amount) != 0 {
		t.Errorf("maker paid %s, want %s", got, amount)
	}
	if l.protocol.Sign() == 0 || l.referral.Sign() == 0 || l.keeper.Sign() == 0 {
		t.Fatalf("a fee leg is zero: %+v", l)
	}
	ev := e.filledEvent(r)
	hash := common.BytesToHash(e.orderDigest(o))
	if common.Hash(ev.OrderHash) != hash || ev.Maker != e.maker.addr || ev.Keeper != e.keeper.addr ||
		ev.AmountIn.Cmp(amount) != 0 || ev.AmountOut.Cmp(l.net) != 0 || ev.ProtocolFee.Cmp(l.protocol) != 0 ||
		ev.ReferralFee.Cmp(l.referral) != 0 || ev.KeeperFee.Cmp(l.keeper) != 0 ||
		ev.FilledAmountIn.Cmp(amount) != 0 || ev.Executions != 1 {
		t.Errorf("OrderFilled %+v, legs %+v", ev, l)
	}
	if n := e.countEvents(r, "OrderActivated"); n != 1 {
		t.Errorf("%d OrderActivated events on the first fill", n)
	}
	st := e.fillState(hash)
	if st.FilledIn.Cmp(amount) != 0 || st.Executions != 1 || st.FirstExecution == 0 || st.LastExecution != st.FirstExecution {
		t.Errorf("filled state %+v", st)
	}
	// The router and executor keep nothing.
	for _, tok := range []common.Address{o.TokenIn, o.TokenOut} {
		if e.balance(tok, e.d.Router).Sign() != 0 || e.balance(tok, e.d.Executor).Sign() != 0 {
			t.Errorf("router or executor holds %s", tok)
		}
	}
	// Replaying the same signature after the full fill is refused.
	e.expectRevert("FillExceedsRemaining", e.keeper, e.d.Router, e.fillDataVia(o, sig, amount))
	e.expectRevert("FillExceedsRemaining", e.keeper, e.d.Router, e.fillDataVia(o, sig, big.NewInt(1)))
}

func TestLimitPartialFills(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	o := e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 1, flags: []uint{flagAllowPartial}})
	sig := e.sign(e.maker.key, o)
	first := new(big.Int).Div(amount, big.NewInt(3))
	second := new(big.Int).Sub(amount, first)

	snap := e.snapshot(o.TokenOut, e.keeper.addr, e.receiver.addr)
	r1, l1 := e.fillVia(e.keeper, o, sig, first, KindLimit)
	snap.check(l1)
	if ev := e.filledEvent(r1); ev.FilledAmountIn.Cmp(first) != 0 || ev.Executions != 1 {
		t.Errorf("first fill event %+v", ev)
	}
	e.expectRevert("FillExceedsRemaining", e.keeper, e.d.Router, e.fillDataVia(o, sig, new(big.Int).Add(second, big.NewInt(1))))
	e.expectRevert("ZeroAmount", e.keeper, e.d.Router, e.fillDataVia(o, sig, big.NewInt(0)))

	snap = e.snapshot(o.TokenOut, e.keeper.addr, e.receiver.addr)
	r2, l2 := e.fillVia(e.keeper, o, sig, second, KindLimit)
	snap.check(l2)
	ev := e.filledEvent(r2)
	if ev.FilledAmountIn.Cmp(amount) != 0 || ev.Executions != 2 {
		t.Errorf("second fill event %+v", ev)
	}
	if n := e.countEvents(r2, "OrderActivated"); n != 0 {
		t.Errorf("OrderActivated emitted again on the second fill")
	}
	e.expectRevert("FillExceedsRemaining", e.keeper, e.d.Router, e.fillDataVia(o, sig, big.NewInt(1)))

	// Without ALLOW_PARTIAL_FILL a part is refused.
	o2 := e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 2})
	e.expectRevert("PartialFillNotAllowed", e.keeper, e.d.Router, e.fillDataVia(o2, e.sign(e.maker.key, o2), first))
}

func TestLimitPriceAndMinOutput(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	// Pool price is about 2991 USDC per WETH: a 3100 limit cannot fill.
	o := e.newOrder("WETH", "USDC", amount, usdc(3100), traits{nonce: 1})
	e.expectRevert("LimitPriceNotMet", e.keeper, e.d.Router, e.fillDataVia(o, e.sign(e.maker.key, o), amount))

	// The keeper's own minAmountOut applies to the net amount.
	o = e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 1})
	sig := e.sign(e.maker.key, o)
	pool := e.wethUsdc()
	l := splitFees(e.quote(pool, o.TokenIn, amount), feeCell(KindLimit, ClassMajor), o.ReferralFeePpm, true)
	tooHigh := new(big.Int).Add(l.net, big.NewInt(1))
	e.expectRevert("InsufficientOutput", e.keeper, e.d.Router, e.fillData(o, sig, amount, e.route(pool, o.TokenIn, amount), tooHigh))
	// Exactly net passes.
	e.send(e.keeper, e.d.Router, e.fillData(o, sig, amount, e.route(pool, o.TokenIn, amount), l.net), nil)
}

func TestStopLoss(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	o := e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 1, slippagePpm: 50_000, flags: []uint{flagStopLoss}})
	sig := e.sign(e.maker.key, o)
	// Oracle at 3000 > 2900: not triggered.
	e.expectRevert("TriggerNotReached", e.keeper, e.d.Router, e.fillDataVia(o, sig, amount))
	e.setPrice("WETH", usd8(2850))
	// Only the whole amount.
	e.expectRevert("PartialFillNotAllowed", e.keeper, e.d.Router, e.fillDataVia(o, sig, new(big.Int).Div(amount, big.NewInt(2))))
	snap := e.snapshot(o.TokenOut, e.keeper.addr, e.receiver.addr)
	_, l := e.fillVia(e.keeper, o, sig, amount, KindStopLoss)
	snap.check(l)
	e.expectRevert("FillExceedsRemaining", e.keeper, e.d.Router, e.fillDataVia(o, sig, amount))
}

func TestTakeProfitAndSlippage(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	o := e.newOrder("WETH", "USDC", amount, usdc(3050), traits{nonce: 1, slippagePpm: 10_000, flags: []uint{flagTakeProfit}})
	sig := e.sign(e.maker.key, o)
	e.expectRevert("TriggerNotReached", e.keeper, e.d.Router, e.fillDataVia(o, sig, amount))
	// Oracle 3100 triggers, but the pool pays ~2991 < 3100 × 99 %.
	e.setPrice("WETH", usd8(3100))
	e.expectRevert("SlippageExceeded", e.keeper, e.d.Router, e.fillDataVia(o, sig, amount))

	o = e.newOrder("WETH", "USDC", amount, usdc(3050), traits{nonce: 1, slippagePpm: 50_000, flags: []uint{flagTakeProfit}})
	sig = e.sign(e.maker.key, o)
	snap := e.snapshot(o.TokenOut, e.keeper.addr, e.receiver.addr)
	_, l := e.fillVia(e.keeper, o, sig, amount, KindTakeProfit)
	snap.check(l)
}

func TestTrailingDesignatedKeeper(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	o := e.newOrder("WETH", "USDC", amount, big.NewInt(0),
		traits{nonce: 1, slippagePpm: 20_000, kindParamPpm: 50_000, allowedSender: e.keeper.addr, flags: []uint{flagTrailing}})
	sig := e.sign(e.maker.key, o)
	e.expectRevert("SenderNotAllowed", e.other, e.d.Router, e.fillDataVia(o, sig, amount))
	snap := e.snapshot(o.TokenOut, e.keeper.addr, e.receiver.addr)
	_, l := e.fillVia(e.keeper, o, sig, amount, KindTrailing)
	snap.check(l)

	// Slippage against the oracle: with the oracle far above the pool it fails.
	o2 := e.newOrder("WETH", "USDC", amount, big.NewInt(0),
		traits{nonce: 2, slippagePpm: 1_000, kindParamPpm: 50_000, flags: []uint{flagTrailing}})
	e.expectRevert("SlippageExceeded", e.other, e.d.Router, e.fillDataVia(o2, e.sign(e.maker.key, o2), amount))
}

// refreshPrices rewrites the oracle prices (after moving the clock).
func (e *env) refreshPrices() {
	e.t.Helper()
	for _, tk := range e.d.Tokens {
		e.setPrice(tk.Symbol, tk.PriceUSD)
	}
}

func TestDCALegsAndInterval(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := new(big.Int).Add(units(1, 18), big.NewInt(3)) // the last leg takes the remainder
	o := e.newOrder("WETH", "USDC", amount, big.NewInt(0),
		traits{nonce: 1, slippagePpm: 30_000, kindParamPpm: 100_000, interval: 3600, total: 4, flags: []uint{flagDCA}})
	sig := e.sign(e.maker.key, o)
	leg := new(big.Int).Div(amount, big.NewInt(4))
	last := new(big.Int).Sub(amount, new(big.Int).Mul(leg, big.NewInt(3)))

	e.expectRevert("DcaLegSize", e.keeper, e.d.Router, e.fillDataVia(o, sig, new(big.Int).Add(leg, big.NewInt(1))))
	e.expectRevert("DcaLegSize", e.keeper, e.d.Router, e.fillDataVia(o, sig, new(big.Int).Mul(leg, big.NewInt(2))))
	snap := e.snapshot(o.TokenOut, e.keeper.addr, e.receiver.addr)
	r, l := e.fillVia(e.keeper, o, sig, leg, KindDCA)
	snap.check(l)
	if e.countEvents(r, "OrderActivated") != 1 {
		t.Errorf("first leg did not activate the order")
	}
	// Too early: the next leg may run from 3600 × 0.9 = 3240 s on.
	e.expectRevert("DcaTooEarly", e.keeper, e.d.Router, e.fillDataVia(o, sig, leg))
	e.advance(3000 * time.Second)
	e.refreshPrices()
	e.expectRevert("DcaTooEarly", e.keeper, e.d.Router, e.fillDataVia(o, sig, leg))
	e.advance(250 * time.Second)
	e.refreshPrices()
	e.fillVia(e.keeper, o, sig, leg, KindDCA) // within the flexibility window

	// Late by several intervals, without SHORT_CIRCUIT: still one leg at a time.
	e.advance(3 * 3600 * time.Second)
	e.refreshPrices()
	e.expectRevert("DcaLegSize", e.keeper, e.d.Router, e.fillDataVia(o, sig, new(big.Int).Mul(leg, big.NewInt(2))))
	e.fillVia(e.keeper, o, sig, leg, KindDCA)
	e.advance(3600 * time.Second)
	e.refreshPrices()
	// The last leg is the remainder, not a plain leg.
	e.expectRevert("DcaLegSize", e.keeper, e.d.Router, e.fillDataVia(o, sig, leg))
	r, _ = e.fillVia(e.keeper, o, sig, last, KindDCA)
	ev := e.filledEvent(r)
	if ev.FilledAmountIn.Cmp(amount) != 0 || ev.Executions != 4 {
		t.Errorf("last leg event %+v", ev)
	}
	e.advance(3600 * time.Second)
	e.refreshPrices()
	e.expectRevert("FillExceedsRemaining", e.keeper, e.d.Router, e.fillDataVia(o, sig, leg))
}

func TestDCAShortCircuitCatchUp(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	o := e.newOrder("WETH", "USDC", amount, big.NewInt(0),
		traits{nonce: 1, slippagePpm: 30_000, interval: 3600, total: 5, flags: []uint{flagDCA, flagShortCircuit}})
	sig := e.sign(e.maker.key, o)
	leg := new(big.Int).Div(amount, big.NewInt(5))
	legs := func(k int64) *big.Int { return new(big.Int).Mul(leg, big.NewInt(k)) }

	e.expectRevert("DcaLegSize", e.keeper, e.d.Router, e.fillDataVia(o, sig, legs(2))) // one leg due at first
	e.fillVia(e.keeper, o, sig, leg, KindDCA)
	// Three intervals later, three legs are due (legs 2, 3 and 4).
	e.advance(3*3600*time.Second + 10*time.Second)
	e.refreshPrices()
	e.expectRevert("DcaLegSize", e.keeper, e.d.Router, e.fillDataVia(o, sig, legs(4)))
	r, _ := e.fillVia(e.keeper, o, sig, legs(3), KindDCA)
	if ev := e.filledEvent(r); ev.FilledAmountIn.Cmp(legs(4)) != 0 || ev.Executions != 2 {
		t.Errorf("catch-up event %+v", ev)
	}
	e.advance(3600 * time.Second)
	e.refreshPrices()
	r, _ = e.fillVia(e.keeper, o, sig, legs(1), KindDCA)
	if ev := e.filledEvent(r); ev.FilledAmountIn.Cmp(amount) != 0 || ev.Executions != 3 {
		t.Errorf("completing event %+v", ev)
	}
}

func TestDCAPriceGated(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	tr := traits{nonce: 1, interval: 60, total: 2, flags: []uint{flagDCA, flagPriceGated}}
	leg := new(big.Int).Div(amount, big.NewInt(2))
	// Gate at 3100: the oracle says 3000.
	o := e.newOrder("WETH", "USDC", amount, usdc(3100), tr)
	sig := e.sign(e.maker.key, o)
	e.expectRevert("TriggerNotReached", e.keeper, e.d.Router, e.fillDataVia(o, sig, leg))
	// Gate reached on the oracle, but the pool pays below the signed limit.
	e.setPrice("WETH", usd8(3100))
	e.expectRevert("LimitPriceNotMet", e.keeper, e.d.Router, e.fillDataVia(o, sig, leg))
	// A gate at 2900 executes a leg at the pool price.
	o = e.newOrder("WETH", "USDC", amount, usdc(2900), tr)
	sig = e.sign(e.maker.key, o)
	snap := e.snapshot(o.TokenOut, e.keeper.addr, e.receiver.addr)
	_, l := e.fillVia(e.keeper, o, sig, leg, KindDCA)
	snap.check(l)
}

func TestUnwrapNative(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "USDC", usdc(10_000))
	amount := usdc(3_000)
	// 1 USDC = 0.0003 WETH: limit at 0.0003 × 0.98.
	o := e.newOrder("USDC", "WETH", amount, big.NewInt(294_000_000_000_000), traits{nonce: 1, flags: []uint{flagUnwrapNative}})
	sig := e.sign(e.maker.key, o)
	nativeBefore, err := e.client.BalanceAt(e.ctx, e.receiver.addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	wethBefore := e.balance(o.TokenOut, e.receiver.addr)
	snap := e.snapshot(o.TokenOut, e.keeper.addr, e.receiver.addr)
	_, l := e.fillVia(e.keeper, o, sig, amount, KindLimit)
	nativeAfter, _ := e.client.BalanceAt(e.ctx, e.receiver.addr, nil)
	if got := new(big.Int).Sub(nativeAfter, nativeBefore); got.Cmp(l.net) != 0 {
		t.Errorf("receiver got %s native, want %s", got, l.net)
	}
	if e.balance(o.TokenOut, e.receiver.addr).Cmp(wethBefore) != 0 {
		t.Errorf("receiver also got WETH")
	}
	// The fee legs stay in WETH.
	l.net = new(big.Int)
	snap.check(l)

	// A receiver that refuses native coin: NativeTransferFailed.
	o = e.newOrder("USDC", "WETH", amount, big.NewInt(294_000_000_000_000), traits{nonce: 2, flags: []uint{flagUnwrapNative}})
	o.Receiver = e.d.Oracle
	e.expectRevert("NativeTransferFailed", e.keeper, e.d.Router, e.fillDataVia(o, e.sign(e.maker.key, o), amount))
	// The router itself only takes native coin from the wrapped native token.
	e.expectRevert("NativeTransferFailed", e.other, e.d.Router, nil)
}

func TestDirectSwap(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.other, "WETH", units(5, 18))
	pool := e.wethUsdc()
	weth, usdcTok := e.tok("WETH"), e.tok("USDC")
	amount := units(1, 18)
	gross := e.quote(pool, weth, amount)
	l := splitFees(gross, feeCell(KindDirect, ClassMajor), 250, false)
	p := servicerouter.SwapParams{
		TokenIn: weth, TokenOut: usdcTok, AmountIn: amount, MinAmountOut: l.net,
		Receiver: e.receiver.addr, Referrer: e.referrer.addr, ReferralFeePpm: 250,
		Calls: e.route(pool, weth, amount),
	}
	snap := e.snapshot(usdcTok, e.other.addr, e.receiver.addr)
	r := e.send(e.other, e.d.Router, e.router.PackSwap(p), nil)
	snap.check(l) // no keeper leg on a direct swap
	var ev *servicerouter.ServiceRouterSwapped
	for _, lg := range r.Logs {
		if x, err := e.router.UnpackSwappedEvent(lg); err == nil {
			ev = x
		}
	}
	if ev == nil || ev.Sender != e.other.addr || ev.Receiver != e.receiver.addr || ev.TokenIn != weth ||
		ev.TokenOut != usdcTok || ev.AmountIn.Cmp(amount) != 0 || ev.AmountOut.Cmp(l.net) != 0 ||
		ev.ProtocolFee.Cmp(l.protocol) != 0 || ev.ReferralFee.Cmp(l.referral) != 0 || ev.Referrer != e.referrer.addr {
		t.Errorf("Swapped %+v, legs %+v", ev, l)
	}

	// minAmountOut is checked on the net amount.
	p.MinAmountOut = new(big.Int).Add(e.quote(pool, weth, amount), big.NewInt(1))
	e.expectRevert("InsufficientOutput", e.other, e.d.Router, e.router.PackSwap(p))
	p.MinAmountOut = big.NewInt(0)
	p.AmountIn = big.NewInt(0)
	e.expectRevert("ZeroAmount", e.other, e.d.Router, e.router.PackSwap(p))

	// unwrapNative on a direct swap into WETH.
	e.fundAndApprove(e.other, "USDC", usdc(3_000))
	usdcPool := pool
	back := servicerouter.SwapParams{
		TokenIn: usdcTok, TokenOut: weth, AmountIn: usdc(3_000), MinAmountOut: big.NewInt(0),
		Receiver: e.receiver.addr, UnwrapNative: true,
		Calls: e.route(usdcPool, usdcTok, usdc(3_000)),
	}
	grossBack := e.quote(usdcPool, usdcTok, usdc(3_000))
	lb := splitFees(grossBack, feeCell(KindDirect, ClassMajor), 0, false)
	nb, _ := e.client.BalanceAt(e.ctx, e.receiver.addr, nil)
	e.send(e.other, e.d.Router, e.router.PackSwap(back), nil)
	na, _ := e.client.BalanceAt(e.ctx, e.receiver.addr, nil)
	if got := new(big.Int).Sub(na, nb); got.Cmp(lb.net) != 0 {
		t.Errorf("unwrapped swap paid %s native, want %s", got, lb.net)
	}
}

// TestMultiHopRouteAcrossFamilies fills WETH → DAI through the cpmm
// WETH/USDC pool and then the stableswap USDC/DAI pool. The second hop uses
// the whole-balance amount (type(uint256).max) because its input is only
// known on-chain, and pays the router directly.
func TestMultiHopRouteAcrossFamilies(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	o := e.newOrder("WETH", "DAI", amount, units(2900, 18), traits{nonce: 1})
	sig := e.sign(e.maker.key, o)
	weth, usdcTok := e.tok("WETH"), e.tok("USDC")
	hop1 := e.wethUsdc()
	hop2 := e.poolFor(FamilyStableSwap, "USDC", "DAI", 0).Address
	mid := e.quote(hop1, weth, amount)
	gross := e.quote(hop2, usdcTok, mid)
	l := splitFees(gross, feeCell(KindLimit, ClassMajor), o.ReferralFeePpm, true)
	cp := constantproductpool.NewConstantProductPool()
	calls := []servicerouter.Call{
		{Target: weth, Data: e.token.PackApprove(hop1, amount)},
		{Target: hop1, Data: cp.PackSwap(weth, maxUint256(), big.NewInt(0), e.d.Executor)},
		{Target: usdcTok, Data: e.token.PackApprove(hop2, maxUint256())},
		{Target: hop2, Data: cp.PackSwap(usdcTok, maxUint256(), big.NewInt(0), e.d.Router)},
	}
	snap := e.snapshot(o.TokenOut, e.keeper.addr, e.receiver.addr)
	e.send(e.keeper, e.d.Router, e.fillData(o, sig, amount, calls, l.net), nil)
	snap.check(l)
	if e.balance(usdcTok, e.d.Executor).Sign() != 0 {
		t.Errorf("intermediate USDC left in the executor")
	}
}
