package contracts

import (
	"bytes"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/contracts/bindings/executor"
	"github.com/orderengine/orderengine/contracts/bindings/feeontransfertoken"
	"github.com/orderengine/orderengine/contracts/bindings/reentranttoken"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/contracts/bindings/smartwallet"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// deployContract deploys a contract from the deployer and mines it.
func (e *env) deployContract(meta *bind.MetaData, ctor []byte) common.Address {
	e.t.Helper()
	opts := *e.deployer.auth
	opts.Context = e.ctx
	addr, tx, err := bind.DeployContract(&opts, common.FromHex(meta.Bin), e.client, ctor)
	if err != nil {
		e.t.Fatalf("deploy %s: %v", meta.ID, err)
	}
	e.sim.Commit()
	if r, err := e.client.TransactionReceipt(e.ctx, tx.Hash()); err != nil || r.Status != 1 {
		e.t.Fatalf("deploy %s failed: %v", meta.ID, err)
	}
	return addr
}

// secp256k1N is the curve order.
var secp256k1N = crypto.S256().Params().N

func TestSignatureForms(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(10, 18))
	amount := units(1, 18)
	newOrd := func(nonce uint64) servicerouter.Order {
		return e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: nonce})
	}

	// 65 bytes with v 0/1 is accepted like 27/28.
	o := newOrd(1)
	sig := e.sign(e.maker.key, o)
	sig01 := bytes.Clone(sig)
	sig01[64] -= 27
	e.fillVia(e.keeper, o, sig01, amount, KindLimit)

	// EIP-2098 compact 64-byte signature.
	o = newOrd(2)
	sig = e.sign(e.maker.key, o)
	compact := make([]byte, 64)
	copy(compact, sig[:64])
	if sig[64] == 28 {
		compact[32] |= 0x80
	}
	e.fillVia(e.keeper, o, compact, amount, KindLimit)

	// High-s (the malleable twin of a valid signature) is rejected.
	o = newOrd(3)
	sig = e.sign(e.maker.key, o)
	s := new(big.Int).SetBytes(sig[32:64])
	high := bytes.Clone(sig)
	new(big.Int).Sub(secp256k1N, s).FillBytes(high[32:64])
	high[64] = 27 + 28 - sig[64]
	if pub, err := crypto.SigToPub(e.orderDigest(o), append(bytes.Clone(high[:64]), high[64]-27)); err != nil ||
		crypto.PubkeyToAddress(*pub) != e.maker.addr {
		t.Fatalf("test bug: the high-s twin does not recover to the maker")
	}
	e.expectRevert("BadSignature", e.keeper, e.d.Router, e.fillDataVia(o, high, amount))

	// A signature by someone else, a bad v, a bad length, and a signature of
	// different order content are rejected.
	e.expectRevert("BadSignature", e.keeper, e.d.Router, e.fillDataVia(o, e.sign(e.other.key, o), amount))
	badV := bytes.Clone(sig)
	badV[64] = 29
	e.expectRevert("BadSignature", e.keeper, e.d.Router, e.fillDataVia(o, badV, amount))
	e.expectRevert("BadSignature", e.keeper, e.d.Router, e.fillDataVia(o, sig[:63], amount))
	tampered := o
	tampered.AmountIn = new(big.Int).Add(amount, big.NewInt(1))
	e.expectRevert("BadSignature", e.keeper, e.d.Router, e.fillDataVia(tampered, sig, amount))
	// The untouched signature still fills.
	e.fillVia(e.keeper, o, sig, amount, KindLimit)
}

func TestEIP1271SmartWalletMaker(t *testing.T) {
	e := newEnv(t)
	owner := e.other
	wallet := e.deployContract(&smartwallet.SmartWalletMetaData, smartwallet.NewSmartWallet().PackConstructor(owner.addr))
	sw := smartwallet.NewSmartWallet()
	weth := e.tok("WETH")
	amount := units(1, 18)
	// Fund the wallet with WETH and approve the router through execute.
	e.send(owner, weth, common.FromHex("0xd0e30db0"), amount)
	e.send(owner, weth, e.token.PackTransfer(wallet, amount), nil)
	e.send(owner, wallet, sw.PackExecute(weth, big.NewInt(0), e.token.PackApprove(e.d.Router, maxUint256())), nil)

	o := e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 1})
	o.Maker = wallet
	// Signed by an EOA that is not the wallet's owner: refused.
	e.expectRevert("BadSignature", e.keeper, e.d.Router, e.fillDataVia(o, e.sign(e.maker.key, o), amount))
	snap := e.snapshot(o.TokenOut, e.keeper.addr, e.receiver.addr)
	_, l := e.fillVia(e.keeper, o, e.sign(owner.key, o), amount, KindLimit)
	snap.check(l)
	if e.balance(weth, wallet).Sign() != 0 {
		t.Errorf("wallet still holds WETH")
	}
}

func TestCancelAndActivate(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	o := e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 1, flags: []uint{flagAllowPartial}})
	sig := e.sign(e.maker.key, o)
	hash := common.BytesToHash(e.orderDigest(o))

	// activate: anyone, once.
	r := e.send(e.other, e.d.Router, e.router.PackActivate(o, sig), nil)
	if e.countEvents(r, "OrderActivated") != 1 {
		t.Fatalf("activate emitted no OrderActivated")
	}
	r = e.send(e.other, e.d.Router, e.router.PackActivate(o, sig), nil)
	if e.countEvents(r, "OrderActivated") != 0 {
		t.Errorf("second activate emitted OrderActivated again")
	}
	e.expectRevert("BadSignature", e.other, e.d.Router, e.router.PackActivate(o, e.sign(e.other.key, o)))
	half := new(big.Int).Div(amount, big.NewInt(2))
	r, _ = e.fillVia(e.keeper, o, sig, half, KindLimit)
	if e.countEvents(r, "OrderActivated") != 0 {
		t.Errorf("fill after activate emitted OrderActivated")
	}

	// cancel: maker only.
	e.expectRevert("NotMaker", e.other, e.d.Router, e.router.PackCancel(o))
	r = e.send(e.maker, e.d.Router, e.router.PackCancel(o), nil)
	var ev *servicerouter.ServiceRouterOrderCancelled
	for _, l := range r.Logs {
		if x, err := e.router.UnpackOrderCancelledEvent(l); err == nil {
			ev = x
		}
	}
	if ev == nil || common.Hash(ev.OrderHash) != hash || ev.Maker != e.maker.addr {
		t.Fatalf("OrderCancelled %+v", ev)
	}
	e.expectRevert("OrderIsCancelled", e.keeper, e.d.Router, e.fillDataVia(o, sig, half))
	e.expectRevert("OrderIsCancelled", e.other, e.d.Router, e.router.PackActivate(o, sig))
}

func TestInvalidateNonce(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	o7 := e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 7})
	o8 := e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 8})
	r := e.send(e.maker, e.d.Router, e.router.PackInvalidateNonce(big.NewInt(7)), nil)
	var ev *servicerouter.ServiceRouterNonceInvalidated
	for _, l := range r.Logs {
		if x, err := e.router.UnpackNonceInvalidatedEvent(l); err == nil {
			ev = x
		}
	}
	if ev == nil || ev.Maker != e.maker.addr || ev.Nonce.Uint64() != 7 {
		t.Fatalf("NonceInvalidated %+v", ev)
	}
	e.expectRevert("NonceIsInvalidated", e.keeper, e.d.Router, e.fillDataVia(o7, e.sign(e.maker.key, o7), amount))
	// Another maker's nonce 7 and the maker's nonce 8 are untouched.
	e.fillVia(e.keeper, o8, e.sign(e.maker.key, o8), amount, KindLimit)
}

func TestOrderExpired(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	o := e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 1, deadline: e.now() + 100})
	sig := e.sign(e.maker.key, o)
	e.advance(200 * time.Second)
	e.expectRevert("OrderExpired", e.keeper, e.d.Router, e.fillDataVia(o, sig, amount))
	// A deadline still ahead fills.
	o = e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 1, deadline: e.now() + 100})
	e.fillVia(e.keeper, o, e.sign(e.maker.key, o), amount, KindLimit)
}

func TestInvalidTraits(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	p := usdc(2900)
	zero := big.NewInt(0)
	cases := []struct {
		name  string
		price *big.Int
		tr    traits
		edit  func(*servicerouter.Order)
	}{
		{"two kind flags", p, traits{flags: []uint{flagStopLoss, flagTakeProfit}}, nil},
		{"limit without price", zero, traits{}, nil},
		{"limit with dca fields", p, traits{interval: 60, total: 2}, nil},
		{"limit with kind param", p, traits{kindParamPpm: 10}, nil},
		{"stop with partial fill", p, traits{flags: []uint{flagStopLoss, flagAllowPartial}}, nil},
		{"short circuit on limit", p, traits{flags: []uint{flagShortCircuit}}, nil},
		{"price gated on limit", p, traits{flags: []uint{flagPriceGated}}, nil},
		{"trailing with price", p, traits{kindParamPpm: 1000, flags: []uint{flagTrailing}}, nil},
		{"trailing without trail", zero, traits{flags: []uint{flagTrailing}}, nil},
		{"trailing with a 100 % trail", zero, traits{kindParamPpm: 1_000_000, flags: []uint{flagTrailing}}, nil},
		{"dca legs below one unit", zero, traits{interval: 60, total: 2, flags: []uint{flagDCA}}, func(o *servicerouter.Order) {
			o.AmountIn = big.NewInt(1)
		}},
		{"dca without executions", zero, traits{interval: 60, flags: []uint{flagDCA}}, nil},
		{"dca without interval", zero, traits{total: 2, flags: []uint{flagDCA}}, nil},
		{"ungated dca with price", p, traits{interval: 60, total: 2, flags: []uint{flagDCA}}, nil},
		{"gated dca without price", zero, traits{interval: 60, total: 2, flags: []uint{flagDCA, flagPriceGated}}, nil},
		{"dca partial fill", zero, traits{interval: 60, total: 2, flags: []uint{flagDCA, flagAllowPartial}}, nil},
		{"slippage above 1e6", p, traits{slippagePpm: 1_000_001}, nil},
		{"same tokens", p, traits{}, func(o *servicerouter.Order) { o.TokenOut = o.TokenIn }},
	}
	parent := e.t
	defer func() { e.t = parent }()
	for _, c := range cases {
		o := e.newOrder("WETH", "USDC", amount, c.price, c.tr)
		if c.edit != nil {
			c.edit(&o)
		}
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			e.expectRevert("InvalidTraits", e.keeper, e.d.Router, e.fillDataVia(o, e.sign(e.maker.key, o), amount))
		})
	}
}

func TestOracleMissingAndStale(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	// A token the oracle never priced.
	unpriced := e.deployContract(&testtoken.TestTokenMetaData, testtoken.NewTestToken().PackConstructor("Unpriced", "UNP", 18))
	o := e.newOrder("WETH", "USDC", amount, big.NewInt(0), traits{nonce: 1, slippagePpm: 50_000, kindParamPpm: 1000, flags: []uint{flagTrailing}})
	o.TokenOut = unpriced
	e.expectRevert("OracleMissing", e.keeper, e.d.Router, e.fillDataVia(o, e.sign(e.maker.key, o), amount))
	// A non-positive answer is missing too.
	e.setPrice("USDC", big.NewInt(0))
	o = e.newOrder("WETH", "USDC", amount, big.NewInt(0), traits{nonce: 1, slippagePpm: 50_000, kindParamPpm: 1000, flags: []uint{flagTrailing}})
	sig := e.sign(e.maker.key, o)
	e.expectRevert("OracleMissing", e.keeper, e.d.Router, e.fillDataVia(o, sig, amount))
	e.refreshPrices()
	// Older than maxAge (3600 s): stale.
	e.advance(3601 * time.Second)
	e.expectRevert("OracleStale", e.keeper, e.d.Router, e.fillDataVia(o, sig, amount))
	e.refreshPrices()
	e.fillVia(e.keeper, o, sig, amount, KindTrailing)
	// A limit order does not read the oracle.
	e.advance(3601 * time.Second)
	lo := e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 2})
	e.fillVia(e.keeper, lo, e.sign(e.maker.key, lo), amount, KindLimit)
}

func TestFeeOnTransferTokenRefused(t *testing.T) {
	e := newEnv(t)
	fot := feeontransfertoken.NewFeeOnTransferToken()
	tok := e.deployContract(&feeontransfertoken.FeeOnTransferTokenMetaData, fot.PackConstructor("Taxed", "TAX", 18, 10_000))
	amount := units(10, 18)
	e.send(e.maker, tok, fot.PackMint(e.maker.addr, amount), nil)
	e.send(e.maker, tok, fot.PackApprove(e.d.Router, maxUint256()), nil)
	o := e.newOrder("WETH", "USDC", amount, usdc(1), traits{nonce: 1})
	o.TokenIn = tok
	e.expectRevert("FeeOnTransferToken", e.keeper, e.d.Router, e.fillData(o, e.sign(e.maker.key, o), amount, nil, big.NewInt(0)))
	// The direct swap path refuses it too.
	e.send(e.other, tok, fot.PackMint(e.other.addr, amount), nil)
	e.send(e.other, tok, fot.PackApprove(e.d.Router, maxUint256()), nil)
	p := servicerouter.SwapParams{TokenIn: tok, TokenOut: e.tok("USDC"), AmountIn: amount, MinAmountOut: big.NewInt(0)}
	e.expectRevert("FeeOnTransferToken", e.other, e.d.Router, e.router.PackSwap(p))
}

func TestReentrancyRefused(t *testing.T) {
	e := newEnv(t)
	rt := reentranttoken.NewReentrantToken()
	tok := e.deployContract(&reentranttoken.ReentrantTokenMetaData, rt.PackConstructor("Evil", "EVIL", 18))
	amount := units(10, 18)
	e.send(e.maker, tok, rt.PackMint(e.maker.addr, amount), nil)
	e.send(e.maker, tok, rt.PackApprove(e.d.Router, maxUint256()), nil)
	o := e.newOrder("WETH", "USDC", amount, usdc(1), traits{nonce: 1})
	o.TokenIn = tok
	sig := e.sign(e.maker.key, o)
	fill := e.fillData(o, sig, amount, nil, big.NewInt(0))

	// During the router's transferFrom the token re-enters fillOrder (the
	// same fill, a second time) and, in another attempt, the swap entry.
	e.send(e.other, tok, rt.PackArm(e.d.Router, fill), nil)
	e.expectRevert("Reentrancy", e.keeper, e.d.Router, fill)
	p := servicerouter.SwapParams{TokenIn: tok, TokenOut: e.tok("USDC"), AmountIn: big.NewInt(1), MinAmountOut: big.NewInt(0)}
	e.send(e.other, tok, rt.PackArm(e.d.Router, e.router.PackSwap(p)), nil)
	e.expectRevert("Reentrancy", e.keeper, e.d.Router, fill)
	e.send(e.other, tok, rt.PackArm(e.d.Router, e.router.PackInvalidateNonce(big.NewInt(1))), nil)
	e.expectRevert("Reentrancy", e.keeper, e.d.Router, fill)

	// Disarmed, the same fill gets past the pull and fails only at the price
	// check (the route is empty: 0 USDC out against a 10 USDC limit), so the
	// Reentrancy reverts above came from the callback.
	e.send(e.other, tok, rt.PackDisarm(), nil)
	e.expectRevert("LimitPriceNotMet", e.keeper, e.d.Router, fill)
}

func TestCallFailedCarriesIndexAndReason(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	o := e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 1})
	pool := e.wethUsdc()
	cp := constantproductpool.NewConstantProductPool()
	calls := []servicerouter.Call{
		{Target: o.TokenIn, Data: e.token.PackApprove(pool, amount)},
		{Target: pool, Data: cp.PackSwap(o.TokenIn, amount, maxUint256(), e.d.Executor)}, // minAmountOut unreachable
	}
	_, err := e.trySend(e.keeper, e.d.Router, e.fillData(o, e.sign(e.maker.key, o), amount, calls, big.NewInt(0)), nil)
	if got := e.revertName(err); got != "CallFailed" {
		t.Fatalf("revert %q, want CallFailed (%v)", got, err)
	}
	data := revertData(err)
	args, uerr := e.routerABI.Errors["CallFailed"].Inputs.Unpack(data[4:])
	if uerr != nil {
		t.Fatal(uerr)
	}
	index := args[0].(*big.Int)
	reason := args[1].([]byte)
	wantSel := constantproductpoolErrorID(t, "OutputTooLow")
	if index.Int64() != 1 || len(reason) < 4 || !bytes.Equal(reason[:4], wantSel) {
		t.Errorf("CallFailed(%s, %x), want index 1 and OutputTooLow", index, reason)
	}
}

func constantproductpoolErrorID(t *testing.T, name string) []byte {
	t.Helper()
	a, err := constantproductpool.ConstantProductPoolMetaData.ParseABI()
	if err != nil {
		t.Fatal(err)
	}
	id := a.Errors[name].ID
	return id[:4]
}

func TestFeeTableAdmin(t *testing.T) {
	e := newEnv(t)
	e.fundAndApprove(e.maker, "WETH", units(5, 18))
	amount := units(1, 18)
	// Only the owner writes the fee table.
	e.expectRevert("NotOwner", e.other, e.d.Router, e.router.PackSetFee(KindLimit, ClassMajor, 10, 10))
	e.expectRevert("NotOwner", e.other, e.d.Router, e.router.PackSetTokenClass(e.tok("WETH"), ClassStable))
	e.expectRevert("NotOwner", e.other, e.d.Router, e.router.PackSetFeeVault(e.other.addr))
	e.expectRevert("FeeTooHigh", e.deployer, e.d.Router, e.router.PackSetFee(KindLimit, ClassMajor, 60_000, 40_001))
	e.expectRevert("InvalidFeeCell", e.deployer, e.d.Router, e.router.PackSetFee(6, ClassMajor, 1, 1))
	// An order signing a referral above the cap cannot execute.
	o := e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 1})
	o.ReferralFeePpm = 100_001
	e.expectRevert("FeeTooHigh", e.keeper, e.d.Router, e.fillDataVia(o, e.sign(e.maker.key, o), amount))

	// A new cell applies to the next fill; unknown tokens are class other.
	e.send(e.deployer, e.d.Router, e.router.PackSetFee(KindLimit, ClassMajor, 7_000, 3_000), nil)
	o = e.newOrder("WETH", "USDC", amount, usdc(2900), traits{nonce: 2})
	pool := e.wethUsdc()
	l := splitFees(e.quote(pool, o.TokenIn, amount), FeeCell{ProtocolPpm: 7_000, KeeperPpm: 3_000}, o.ReferralFeePpm, true)
	snap := e.snapshot(o.TokenOut, e.keeper.addr, e.receiver.addr)
	e.send(e.keeper, e.d.Router, e.fillData(o, e.sign(e.maker.key, o), amount, e.route(pool, o.TokenIn, amount), l.net), nil)
	snap.check(l)
	out, err := e.call(e.other.addr, e.d.Router, e.router.PackTokenClass(common.HexToAddress("0x1234")))
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := e.router.UnpackTokenClass(out); c != ClassOther {
		t.Errorf("unknown token class %d", c)
	}
}

func TestExecutorObeysOnlyTheRouter(t *testing.T) {
	e := newEnv(t)
	ex := executor.NewExecutor()
	data := ex.PackExecute(e.tok("WETH"), e.tok("USDC"), e.other.addr, nil)
	e.expectRevert("NotRouter", e.other, e.d.Executor, data)
	out, err := e.call(e.other.addr, e.d.Executor, ex.PackRouter())
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := ex.UnpackRouter(out); r != e.d.Router {
		t.Errorf("executor router %s", r)
	}
}
