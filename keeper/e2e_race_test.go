package keeper_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"testing"

	abipkg "github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/routing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/keeper"
)

// Two keepers race for the same limit order: both read it from the public
// list (each under its own address) and send before a block is mined. One
// fill succeeds, the other transaction reverts cleanly with the router's
// FillExceedsRemaining; the engine records one fill, and after it is
// indexed neither keeper sees the order listed again.
func TestE2ETwoKeepersRaceForOneOrder(t *testing.T) {
	e := newE2E(t, false)
	e.moveWETH(3000_00000000)
	h := e.submit("limit", 20_000_000, usdcInWeth(4000), chain.Traits{Nonce: 41, SlippagePpm: 50_000}, nil)
	k1, k2 := e.dev.Accounts().Keeper, e.dev.Accounts().Makers[4]
	e.waitFor("the order to be listed to both keepers", func() bool {
		return len(e.executable(k1.Address).Orders) == 1 && len(e.executable(k2.Address).Orders) == 1
	})
	r1 := keeper.NewRunner(e.dev.Client(), k1.Key, keeper.HTTPSource(e.srv.URL, e.srv.APIKey, nil), keeper.RunnerOptions{})
	r2 := keeper.NewRunner(e.dev.Client(), k2.Key, keeper.HTTPSource(e.srv.URL, e.srv.APIKey, nil), keeper.RunnerOptions{})
	s1, err1 := r1.Step(e.ctx)
	s2, err2 := r2.Step(e.ctx)
	if err1 != nil || err2 != nil || len(s1) != 1 || len(s2) != 1 {
		t.Fatalf("keepers sent %d (%v) and %d (%v)", len(s1), err1, len(s2), err2)
	}
	e.dev.Commit() // one block holds both (Mine would fail on the revert)
	var won, lost *types.Receipt
	for _, tx := range []*types.Transaction{s1[0], s2[0]} {
		r, err := e.dev.Client().TransactionReceipt(e.ctx, tx.Hash())
		if err != nil {
			t.Fatal(err)
		}
		if r.Status == types.ReceiptStatusSuccessful {
			won = r
		} else {
			lost = r
		}
	}
	if won == nil || lost == nil {
		t.Fatalf("receipts: winner %v loser %v, want one success and one revert", won, lost)
	}
	e.waitFor("the fill", func() bool { return e.order(h)["status"] == "filled" })
	r := e.srv.Do("GET", "/v1/orders/"+h.Hex()+"/fills", nil, map[string]string{"X-API-Key": e.srv.APIKey})
	var fills struct {
		Fills []map[string]any `json:"fills"`
	}
	if err := jsonUnmarshal(r.Body, &fills); err != nil || len(fills.Fills) != 1 || fills.Fills[0]["txHash"] != won.TxHash.Hex() {
		t.Fatalf("fills %s, winner %s", r.Body, won.TxHash.Hex())
	}
	if got := e.order(h)["filledAmountIn"]; got != "20000000" {
		t.Fatalf("filledAmountIn %v", got)
	}
	for range 3 {
		e.dev.Commit()
	}
	for _, k := range []common.Address{k1.Address, k2.Address} {
		if l := e.executable(k); len(l.Orders) != 0 {
			t.Fatalf("filled order listed again to %s: %+v", k, l.Orders)
		}
	}
}

// One step of the reference keeper sends several fills (three makers'
// orders): each gets its own nonce and every one executes.
func TestE2EKeeperSendsSeveralFillsInOneStep(t *testing.T) {
	e := newE2E(t, false)
	e.moveWETH(3000_00000000)
	usdc := e.tok("USDC")
	var hashes []common.Hash
	for i, m := range e.dev.Accounts().Makers[:3] {
		if i > 0 {
			e.mine(e.send(m.Key, usdc, testtoken.NewTestToken().PackApprove(common.HexToAddress(e.cfg.Chain.Router), new(big.Int).Lsh(big.NewInt(1), 255))))
		}
		hashes = append(hashes, e.submitAs(m, "limit", uint64(10_000_000*(i+1)), usdcInWeth(4000), chain.Traits{Nonce: uint64(50 + i), SlippagePpm: 50_000}, nil))
	}
	k := e.dev.Accounts().Keeper
	e.waitFor("the three orders to be listed", func() bool { return len(e.executable(k.Address).Orders) == 3 })
	r := keeper.NewRunner(e.dev.Client(), k.Key, keeper.HTTPSource(e.srv.URL, e.srv.APIKey, nil), keeper.RunnerOptions{})
	sent, err := r.Step(e.ctx)
	if err != nil || len(sent) != 3 {
		t.Fatalf("sent %d (%v)", len(sent), err)
	}
	var txs []common.Hash
	for i, tx := range sent {
		if i > 0 && tx.Nonce() != sent[i-1].Nonce()+1 {
			t.Fatalf("nonces %d then %d", sent[i-1].Nonce(), tx.Nonce())
		}
		txs = append(txs, tx.Hash())
	}
	rcpts, err := e.dev.Mine(e.ctx, txs...)
	if err != nil {
		t.Fatal(err)
	}
	for i, rc := range rcpts {
		if rc.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("fill %d reverted", i)
		}
	}
	for _, h := range hashes {
		e.waitFor("the fills", func() bool { return e.order(h)["status"] == "filled" })
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// A limit order with ALLOW_PARTIAL_FILL: a keeper fills part of it with its
// own route; once the fill is indexed the order is active and the
// remainder is listed (fillIn = what is left), and the listed transaction
// completes it.
func TestE2EPartialFillLeavesTheRemainderExecutable(t *testing.T) {
	e := newE2E(t, false)
	e.moveWETH(3000_00000000)
	h := e.submit("limit", 40_000_000, usdcInWeth(4000), chain.Traits{Nonce: 61, SlippagePpm: 50_000, Flags: chain.FlagAllowPartialFill}, nil)
	k := e.dev.Accounts().Keeper
	var list keeper.ExecutableList
	e.waitFor("the order to be listed", func() bool { list = e.executable(k.Address); return len(list.Orders) == 1 })
	if list.Orders[0].FillIn != "40000000" {
		t.Fatalf("fillIn %s", list.Orders[0].FillIn)
	}
	// Part of it: the listed transaction's order and signature, a fresh
	// route for 15 USDC.
	abi := servicerouter.NewServiceRouter().GetABI()
	data, _ := hexutil.Decode(list.Orders[0].Tx.Data)
	args, err := abi.Methods["fillOrder"].Inputs.Unpack(data[4:])
	if err != nil {
		t.Fatal(err)
	}
	slip := int64(50_000)
	rt, err := e.sys().Routing.Service.Route(e.ctx, routing.RouteParams{TokenIn: e.tok("USDC").Hex(), TokenOut: e.tok("WETH").Hex(), AmountIn: "15000000",
		SlippagePpm: &slip, DirectSwap: "0", Wallet: e.maker.Address.Hex(), OrderType: "limit"})
	if err != nil {
		t.Fatal(err)
	}
	calls := make([]servicerouter.Call, len(rt.Route.Targets))
	for i := range calls {
		calls[i] = servicerouter.Call{Target: common.HexToAddress(rt.Route.Targets[i]), Data: hexutil.MustDecode(rt.Route.Calldatas[i])}
	}
	minOut, _ := new(big.Int).SetString(rt.Route.MinAmountOut, 10)
	o := *abipkg.ConvertType(args[0], new(servicerouter.Order)).(*servicerouter.Order)
	part := servicerouter.NewServiceRouter().PackFillOrder(o, args[1].([]byte), big.NewInt(15_000_000), calls, minOut)
	e.mine(e.send(k.Key, common.HexToAddress(e.cfg.Chain.Router), part))
	e.waitFor("the partial fill", func() bool { return e.order(h)["filledAmountIn"] == "15000000" })
	if got := e.order(h)["status"]; got != "active" {
		t.Fatalf("status after a partial fill: %v", got)
	}
	e.waitFor("the remainder to be listed", func() bool {
		list = e.executable(k.Address)
		return len(list.Orders) == 1 && list.Orders[0].FillIn == "25000000"
	})
	runner := keeper.NewRunner(e.dev.Client(), k.Key, keeper.HTTPSource(e.srv.URL, e.srv.APIKey, nil), keeper.RunnerOptions{})
	sent, err := runner.Step(e.ctx)
	if err != nil || len(sent) != 1 {
		t.Fatalf("sent %d (%v)", len(sent), err)
	}
	e.mine(sent[0].Hash())
	e.waitFor("the rest of the fill", func() bool { return e.order(h)["status"] == "filled" })
	if got := e.order(h); got["filledAmountIn"] != "40000000" || fmt.Sprint(got["executions"]) != "2" {
		t.Fatalf("order %v", got)
	}
}

// Every order class executed with the listed transaction, as is, from the
// keeper: it succeeds, the receiver gets the fill's amountOut (at least the
// listed minAmountOut), and the fee legs are the class's cell of the fee
// policy (floor of gross × ppm); the first one executed gets exactly the
// listed expectedAmountOut and expectedKeeperFee.
func TestE2EEveryClassExecutesWithTheListedTxAndItsFees(t *testing.T) {
	e := newE2E(t, false)
	e.moveWETH(3000_00000000)
	k := e.dev.Accounts().Keeper
	orders := map[common.Hash]string{
		e.submit("limit", 10_000_000, usdcInWeth(4000), chain.Traits{Nonce: 71, SlippagePpm: 50_000}, nil):                                    "limit",
		e.submit("stop_loss", 11_000_000, usdcInWeth(2900), chain.Traits{Nonce: 72, SlippagePpm: 50_000, Flags: chain.FlagStopLoss}, nil):     "stop_loss",
		e.submit("take_profit", 12_000_000, usdcInWeth(3100), chain.Traits{Nonce: 73, SlippagePpm: 50_000, Flags: chain.FlagTakeProfit}, nil): "take_profit",
		e.submit("dca", 30_000_000, 0, chain.Traits{Nonce: 74, SlippagePpm: 50_000, KindParamPpm: 100_000, IntervalSeconds: 3600, TotalExecutions: 3, Flags: chain.FlagDCA},
			map[string]any{"intervalSeconds": "3600", "totalExecutions": "3", "totalAmountIn": "30000000", "flexibilityPpm": 100_000, "shortCircuit": false}): "dca",
	}
	tr := e.submit("trailing", 14_000_000, 0, chain.Traits{Nonce: 75, SlippagePpm: 50_000, KindParamPpm: 50_000, Flags: chain.FlagTrailing,
		AllowedSender: chain.SenderLow80(k.Address)}, map[string]any{"trailPpm": 50_000, "designatedKeeper": k.Address.Hex()})
	check := func(want int) {
		t.Helper()
		var list keeper.ExecutableList
		e.waitFor(fmt.Sprintf("%d orders listed", want), func() bool { list = e.executable(k.Address); return len(list.Orders) == want })
		vault := common.HexToAddress(e.cfg.Chain.FeeVault)
		type bal struct{ maker, vault, keeper *big.Int }
		before := bal{e.wethBalance(e.maker.Address), e.wethBalance(vault), e.wethBalance(k.Address)}
		var txs []common.Hash
		for _, it := range list.Orders {
			txs = append(txs, e.send(k.Key, common.HexToAddress(it.Tx.To), hexutil.MustDecode(it.Tx.Data)))
		}
		for _, h := range txs {
			e.mine(h) // one block each: the fee check is per fill
		}
		sumOut, sumVault, sumKeeper := new(big.Int), new(big.Int), new(big.Int)
		for i, it := range list.Orders {
			h := common.HexToHash(it.OrderHash)
			e.waitFor("the fill of "+it.OrderType, func() bool { return e.order(h)["executions"] != float64(0) })
			r := e.srv.Do("GET", "/v1/orders/"+it.OrderHash+"/fills", nil, map[string]string{"X-API-Key": e.srv.APIKey})
			var body struct {
				Fills []struct{ AmountIn, AmountOut, ProtocolFee, ReferralFee, KeeperFee string } `json:"fills"`
			}
			if r.Status != 200 || json.Unmarshal(r.Body, &body) != nil || len(body.Fills) != 1 {
				t.Fatalf("%s fills: %d %s", it.OrderType, r.Status, r.Body)
			}
			f := body.Fills[0]
			n := func(s string) *big.Int { v, _ := new(big.Int).SetString(s, 10); return v }
			out, pf, rf, kf := n(f.AmountOut), n(f.ProtocolFee), n(f.ReferralFee), n(f.KeeperFee)
			gross := new(big.Int).Add(out, pf)
			gross.Add(gross, rf).Add(gross, kf)
			cell := e.cfg.Routing.FeePolicy[it.OrderType]["major"]
			leg := func(ppm uint32) *big.Int {
				v := new(big.Int).Mul(gross, big.NewInt(int64(ppm)))
				return v.Quo(v, big.NewInt(1_000_000))
			}
			if it.Tx.Value != "0" || it.Tx.To != e.cfg.Chain.Router {
				t.Errorf("%s: tx to %s value %q, want the router and 0", it.OrderType, it.Tx.To, it.Tx.Value)
			}
			if f.AmountIn != it.FillIn || pf.Cmp(leg(cell.ProtocolPpm)) != 0 || rf.Cmp(leg(cell.ReferralPpm)) != 0 || kf.Cmp(leg(cell.KeeperPpm)) != 0 {
				t.Errorf("%s: fill %+v, gross %s, cell %+v", it.OrderType, f, gross, cell)
			}
			// The first fill executes on the pools the listing was quoted
			// on; the later ones on pools the earlier fills moved.
			if (i == 0 && (f.KeeperFee != it.ExpectedKeeperFee || f.AmountOut != it.ExpectedAmountOut)) || out.Cmp(n(it.MinAmountOut)) < 0 {
				t.Errorf("%s: keeperFee %s listed %s; amountOut %s, listed minAmountOut %s (expected %s)", it.OrderType, f.KeeperFee, it.ExpectedKeeperFee, out, it.MinAmountOut, it.ExpectedAmountOut)
			}
			sumOut.Add(sumOut, out)
			sumVault.Add(sumVault, pf).Add(sumVault, rf)
			sumKeeper.Add(sumKeeper, kf)
		}
		after := bal{e.wethBalance(e.maker.Address), e.wethBalance(vault), e.wethBalance(k.Address)}
		if new(big.Int).Sub(after.maker, before.maker).Cmp(sumOut) != 0 || new(big.Int).Sub(after.vault, before.vault).Cmp(sumVault) != 0 ||
			new(big.Int).Sub(after.keeper, before.keeper).Cmp(sumKeeper) != 0 {
			t.Errorf("balance changes differ from the fills: maker %s/%s vault %s/%s keeper %s/%s",
				new(big.Int).Sub(after.maker, before.maker), sumOut, new(big.Int).Sub(after.vault, before.vault), sumVault,
				new(big.Int).Sub(after.keeper, before.keeper), sumKeeper)
		}
	}
	check(len(orders))
	e.moveWETH(3270_00000000) // the trailing order's 5 % trail fires
	check(1)
	if got := e.order(tr)["status"]; got != "filled" {
		t.Fatalf("trailing %v", got)
	}
}
