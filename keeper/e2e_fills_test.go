package keeper_test

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/keeper"
)

// GET /v1/orders/{hash}/fills against the chain (contract.md section 3):
// the fill of a limit order executed by the reference keeper over the
// public keeper list carries the transaction, its block and time, the
// keeper, and amounts that are the balance changes: amountOut is what the
// receiver got, protocolFee + referralFee what the fee vault got (it is
// the order's referrer here), keeperFee what the keeper got; each fee leg
// is floor(gross × ppm / 1e6) of the limit × major cell, gross being the
// sum of the four.
func TestE2EFillAmountsAndFeesAreTheBalanceChanges(t *testing.T) {
	e := newE2E(t, false)
	e.moveWETH(3000_00000000)
	h := e.submit("limit", 50_000_000, usdcInWeth(4000), chain.Traits{Nonce: 31, SlippagePpm: 50_000}, nil)
	e.waitFor("the limit order to be listed", func() bool {
		r := e.srv.Do("GET", "/v1/keeper/executable", nil, map[string]string{"X-API-Key": e.srv.APIKey})
		var list keeper.ExecutableList
		return r.Status == 200 && json.Unmarshal(r.Body, &list) == nil && len(list.Orders) == 1
	})
	keeperAddr := e.dev.Accounts().Keeper.Address
	vault := common.HexToAddress(e.cfg.Chain.FeeVault)
	who := []common.Address{e.maker.Address, vault, keeperAddr}
	before := make([]*big.Int, len(who))
	for i, a := range who {
		before[i] = e.wethBalance(a)
	}
	runner := keeper.NewRunner(e.dev.Client(), e.dev.Accounts().Keeper.Key, keeper.HTTPSource(e.srv.URL, e.srv.APIKey, nil), keeper.RunnerOptions{})
	sent, err := runner.Step(e.ctx)
	if err != nil || len(sent) != 1 {
		t.Fatalf("keeper sent %d (%v)", len(sent), err)
	}
	e.mine(sent[0].Hash())
	e.waitFor("the fill", func() bool { return e.order(h)["status"] == "filled" })
	gain := make([]*big.Int, len(who))
	for i, a := range who {
		gain[i] = new(big.Int).Sub(e.wethBalance(a), before[i])
	}

	r := e.srv.Do("GET", "/v1/orders/"+h.Hex()+"/fills", nil, map[string]string{"X-API-Key": e.srv.APIKey})
	var body struct {
		Fills []struct {
			TxHash      string `json:"txHash"`
			BlockNumber uint64 `json:"blockNumber"`
			AmountIn    string `json:"amountIn"`
			AmountOut   string `json:"amountOut"`
			ProtocolFee string `json:"protocolFee"`
			ReferralFee string `json:"referralFee"`
			KeeperFee   string `json:"keeperFee"`
			Keeper      string `json:"keeper"`
			Timestamp   uint64 `json:"timestamp"`
		} `json:"fills"`
	}
	if r.Status != 200 || json.Unmarshal(r.Body, &body) != nil || len(body.Fills) != 1 {
		t.Fatalf("fills: %d %s", r.Status, r.Body)
	}
	f := body.Fills[0]
	rc, err := e.dev.Client().TransactionReceipt(e.ctx, sent[0].Hash())
	if err != nil {
		t.Fatal(err)
	}
	hdr, err := e.dev.Client().HeaderByNumber(e.ctx, rc.BlockNumber)
	if err != nil {
		t.Fatal(err)
	}
	if f.TxHash != sent[0].Hash().Hex() || f.BlockNumber != rc.BlockNumber.Uint64() || f.Timestamp != hdr.Time ||
		f.Keeper != keeperAddr.Hex() || f.AmountIn != "50000000" {
		t.Fatalf("fill %+v, receipt block %d time %d", f, rc.BlockNumber, hdr.Time)
	}
	num := func(s string) *big.Int {
		v, ok := new(big.Int).SetString(s, 10)
		if !ok {
			t.Fatalf("amount %q", s)
		}
		return v
	}
	out, protocol, referral, keeperFee := num(f.AmountOut), num(f.ProtocolFee), num(f.ReferralFee), num(f.KeeperFee)
	if out.Cmp(gain[0]) != 0 || new(big.Int).Add(protocol, referral).Cmp(gain[1]) != 0 || keeperFee.Cmp(gain[2]) != 0 {
		t.Fatalf("fill out %s, fees %s/%s/%s; balance changes: receiver %s, vault %s, keeper %s", out, protocol, referral, keeperFee, gain[0], gain[1], gain[2])
	}
	if got := e.order(h)["filledAmountOut"]; got != f.AmountOut {
		t.Fatalf("order filledAmountOut %v, fill %s", got, f.AmountOut)
	}
	cell := e.cfg.Routing.FeePolicy[config.KindLimit][config.ClassMajor]
	gross := new(big.Int).Add(out, protocol)
	gross.Add(gross, referral).Add(gross, keeperFee)
	leg := func(ppm uint32) *big.Int {
		v := new(big.Int).Mul(gross, big.NewInt(int64(ppm)))
		return v.Quo(v, big.NewInt(1_000_000))
	}
	if protocol.Cmp(leg(cell.ProtocolPpm)) != 0 || referral.Cmp(leg(cell.ReferralPpm)) != 0 || keeperFee.Cmp(leg(cell.KeeperPpm)) != 0 ||
		protocol.Sign() == 0 || referral.Sign() == 0 || keeperFee.Sign() == 0 {
		t.Fatalf("fees %s/%s/%s of gross %s, want %s/%s/%s (cell %+v)", protocol, referral, keeperFee, gross,
			leg(cell.ProtocolPpm), leg(cell.ReferralPpm), leg(cell.KeeperPpm), cell)
	}
}
