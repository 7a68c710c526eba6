package keeper_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/contracts/bindings/smartwallet"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/keeper"
)

// A DCA whose legs cannot execute in time, with the in-process dev keeper
// running: the maker holds the USDC but has not approved the router, so
// every simulation of the first leg reverts for a reason that may clear
// (the order stays open, never failed). Once the chain's clock is past the
// leg's due time (acceptance) + intervalSeconds × flexibilityPpm / 1e6 the
// order is stalled and the registered endpoint receives exactly one
// dca.stalled. After the approval the keeper executes the leg and the flag
// clears without an event.
func TestE2EDCAStalledWebhook(t *testing.T) {
	e := newE2E(t, true)
	rc := e.receiver()
	maker := e.dev.Accounts().Makers[1]
	usdc := e.tok("USDC")
	fh, err := e.dev.Faucet(e.ctx, maker.Address, usdc, big.NewInt(1_000_000_000))
	if err != nil {
		t.Fatal(err)
	}
	e.mine(fh)
	e.moveWETH(3000_00000000)
	dca := e.submitAs(maker, "dca", 30_000_000, 0, chain.Traits{Nonce: 21, SlippagePpm: 50_000, KindParamPpm: 100_000,
		IntervalSeconds: 86400, TotalExecutions: 3, Flags: chain.FlagDCA},
		map[string]any{"intervalSeconds": "86400", "totalExecutions": "3", "totalAmountIn": "30000000", "flexibilityPpm": 100_000, "shortCircuit": false})

	// The first leg is due at once: wait until the engine has decided it at
	// a block after the submission (its stall decision for that block is
	// applied before the executable set is published).
	e.waitEvaluated(dca)
	if got := e.order(dca); got["status"] != "pending" || got["stalled"] != false || got["funded"] != false {
		t.Fatalf("unapproved dca inside its flexibility: %v", got)
	}
	// The keeper interface simulates the leg and leaves it off the list
	// without failing the order (an allowance may still come).
	if list := e.executable(e.dev.Accounts().Keeper.Address); len(list.Orders) != 0 {
		t.Fatalf("unapproved dca listed: %+v", list.Orders)
	}
	if got := e.order(dca)["status"]; got != "pending" {
		t.Fatalf("status after the keeper's simulation: %v", got)
	}

	// A day later the leg is 86400 s overdue, past its 8640 s of
	// flexibility (which the blocks mined so far, one second each, are far
	// from reaching).
	if err := e.dev.AdjustTime(86400 * time.Second); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the stall", func() bool { return e.order(dca)["stalled"] == true })
	rec := e.order(dca)
	if rec["status"] != "pending" || fmt.Sprint(rec["executions"]) != "0" {
		t.Fatalf("stalled dca %v", rec)
	}
	e.expect(rc, dca, "dca.stalled")
	data := e.only(rc, "dca.stalled", dca)
	want := map[string]any{
		"orderType": "dca", "pair": rec["pair"], "tokenIn": usdc.Hex(), "tokenOut": e.tok("WETH").Hex(),
		"amountIn": "0", "amountOut": "0", "orderHash": dca.Hex(), "executions": "0", "totalExecutions": "3",
	}
	checkData(t, "dca.stalled", data, want)

	// The maker approves: the keeper executes the overdue leg (after a
	// fresh oracle round) and the flag clears, with no further event.
	e.mine(e.send(maker.Key, usdc, testtoken.NewTestToken().PackApprove(common.HexToAddress(e.cfg.Chain.Router), big.NewInt(30_000_000))))
	e.moveWETH(3000_00000000)
	e.waitFor("the first leg after the approval", func() bool {
		got := e.order(dca)
		return fmt.Sprint(got["executions"]) == "1" && got["stalled"] == false
	})
	if got := e.order(dca); got["status"] != "active" || got["filledAmountIn"] != "10000000" {
		t.Fatalf("dca after its first leg: %v", got)
	}
	e.expect(rc, dca, "dca.stalled")
	e.only(rc, "dca.stalled", dca)
}

// A stop-loss whose signature stops verifying after submission: the maker's
// account delegates (EIP-7702) to a SmartWallet owned by another key, so
// the router, which asks a maker with code through EIP-1271, refuses the
// account's own ECDSA signature. When the stop fires, the keeper
// interface's simulation reverts with BadSignature and the order fails
// with reason and revertName; the endpoint receives stop.triggered and
// order.failed, and nothing executes.
func TestE2EOrderFailedWebhook(t *testing.T) {
	e := newE2E(t, true)
	rc := e.receiver()
	e.moveWETH(3000_00000000)
	h := e.submit("stop_loss", 100_000_000, usdcInWeth(3150), chain.Traits{Nonce: 22, SlippagePpm: 50_000, Flags: chain.FlagStopLoss}, nil)
	if got := e.order(h)["status"]; got != "pending" {
		t.Fatalf("status %v", got)
	}

	signer, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	wallet := e.deployWallet(crypto.PubkeyToAddress(signer.PublicKey))
	e.delegate(e.maker, wallet)
	code, err := e.dev.Client().CodeAt(e.ctx, e.maker.Address, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := append([]byte{0xef, 0x01, 0x00}, wallet[:]...); !bytes.Equal(code, want) {
		t.Fatalf("maker code %x, want the delegation %x", code, want)
	}

	before := e.wethBalance(e.maker.Address)
	e.moveWETH(3270_00000000) // the stop fires
	e.waitFor("the failure", func() bool { return e.order(h)["status"] == "failed" })
	rec := e.order(h)
	if rec["reason"] != "the signature no longer verifies" || rec["revertName"] != "BadSignature" ||
		rec["triggeredAt"] == nil || rec["filledAmountIn"] != "0" {
		t.Fatalf("failed order %v", rec)
	}
	if after := e.wethBalance(e.maker.Address); after.Cmp(before) != 0 {
		t.Fatalf("maker's WETH moved from %s to %s", before, after)
	}
	if list := e.executable(e.dev.Accounts().Keeper.Address); len(list.Orders) != 0 {
		t.Fatalf("failed order listed: %+v", list.Orders)
	}
	e.expect(rc, h, "stop.triggered", "order.failed")
	data := e.only(rc, "order.failed", h)
	checkData(t, "order.failed", data, map[string]any{
		"orderType": "stop_loss", "pair": rec["pair"], "tokenIn": e.tok("USDC").Hex(), "tokenOut": e.tok("WETH").Hex(),
		"amountIn": "100000000", "amountOut": "0", "orderHash": h.Hex(),
		"reason": "the signature no longer verifies", "revertName": "BadSignature",
	})
	e.only(rc, "stop.triggered", h)
}

// checkData compares an event's data object with want, key for key, and
// fails on any key that want does not list (a field that does not apply is
// omitted, docs/webhooks.md).
func checkData(t *testing.T, trigger string, data, want map[string]any) {
	t.Helper()
	for k, v := range want {
		if data[k] != v {
			t.Errorf("%s data.%s = %v, want %v (data %v)", trigger, k, data[k], v, data)
		}
	}
	for k := range data {
		if _, ok := want[k]; !ok {
			t.Errorf("%s data carries %s = %v, which does not apply", trigger, k, data[k])
		}
	}
}

// waitEvaluated mines until the pair actors have decided order h at a
// block at or after the current head (h is in its executable set then).
func (e *e2e) waitEvaluated(h common.Hash) {
	e.t.Helper()
	head, err := e.dev.Client().BlockNumber(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	e.waitFor("the pair actor's decision of "+h.Hex()[:10], func() bool {
		for _, x := range e.sys().Pairs.Executable("") {
			if x.Hash == h && x.Block >= head {
				return true
			}
		}
		return false
	})
}

// executable reads GET /v1/keeper/executable for a keeper address.
func (e *e2e) executable(k common.Address) keeper.ExecutableList {
	e.t.Helper()
	r := e.srv.Do("GET", "/v1/keeper/executable?keeper="+k.Hex(), nil, map[string]string{"X-API-Key": e.srv.APIKey})
	var list keeper.ExecutableList
	if r.Status != 200 || json.Unmarshal(r.Body, &list) != nil {
		e.t.Fatalf("keeper list: %d %s", r.Status, r.Body)
	}
	return list
}

// deployWallet deploys a SmartWallet owned by owner (sent by a third
// account, so the deployer's nonces stay the faucet's).
func (e *e2e) deployWallet(owner common.Address) common.Address {
	e.t.Helper()
	opts := bind.NewKeyedTransactor(e.dev.Accounts().Makers[2].Key, new(big.Int).SetUint64(e.dev.ChainID()))
	opts.Context, opts.GasLimit = e.ctx, 1_000_000
	addr, tx, err := bind.DeployContract(opts, common.FromHex(smartwallet.SmartWalletMetaData.Bin), e.dev.Client(),
		smartwallet.NewSmartWallet().PackConstructor(owner))
	if err != nil {
		e.t.Fatal(err)
	}
	e.mine(tx.Hash())
	return addr
}

// delegate makes account's code an EIP-7702 delegation to target: account
// signs the authorization, a third account sends the set-code transaction.
func (e *e2e) delegate(account devchain.Account, target common.Address) {
	e.t.Helper()
	c := e.dev.Client()
	chainID := uint256.NewInt(e.dev.ChainID())
	nonce, err := c.PendingNonceAt(e.ctx, account.Address)
	if err != nil {
		e.t.Fatal(err)
	}
	auth, err := types.SignSetCode(account.Key, types.SetCodeAuthorization{ChainID: *chainID, Address: target, Nonce: nonce})
	if err != nil {
		e.t.Fatal(err)
	}
	sender := e.dev.Accounts().Makers[2]
	senderNonce, err := c.PendingNonceAt(e.ctx, sender.Address)
	if err != nil {
		e.t.Fatal(err)
	}
	head, err := c.HeaderByNumber(e.ctx, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	tx, err := types.SignNewTx(sender.Key, types.LatestSignerForChainID(chainID.ToBig()), &types.SetCodeTx{
		ChainID: chainID, Nonce: senderNonce, GasTipCap: uint256.NewInt(1_000_000_000),
		GasFeeCap: uint256.MustFromBig(new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), big.NewInt(1_000_000_000))),
		Gas:       100_000, To: sender.Address, Value: new(uint256.Int), AuthList: []types.SetCodeAuthorization{auth},
	})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := c.SendTransaction(e.ctx, tx); err != nil {
		e.t.Fatal(err)
	}
	e.mine(tx.Hash())
}
