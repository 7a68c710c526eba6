package keeper_test

import (
	"encoding/json"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/keeper"
	"github.com/orderengine/orderengine/orders"
)

// diagOf reads order h's diagnostics once they are as of the chain's head
// (the pairs evaluated it), without mining.
func (e *e2e) diagOf(h common.Hash) orders.Diagnostics {
	e.t.Helper()
	head, err := e.dev.Client().BlockNumber(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := e.srv.Do("GET", "/v1/orders/"+h.Hex(), nil, map[string]string{"X-API-Key": e.srv.APIKey})
		var body struct {
			Diagnostics *orders.Diagnostics `json:"diagnostics"`
		}
		if r.Status != 200 || json.Unmarshal(r.Body, &body) != nil {
			e.t.Fatalf("GET order: %d %s", r.Status, r.Body)
		}
		if d := body.Diagnostics; d != nil && d.Block.Number >= head {
			return *d
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("no diagnostics as of block %d: %s", head, r.Body)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sendUnchecked sends a transaction without estimating its gas (so one that
// reverts is mined, as a keeper that does not simulate would have it) and
// mines a block.
func (e *e2e) sendUnchecked(key []byte, to common.Address, data []byte) common.Hash {
	e.t.Helper()
	k, err := crypto.ToECDSA(key)
	if err != nil {
		e.t.Fatal(err)
	}
	c := e.dev.Client()
	opts := bind.NewKeyedTransactor(k, new(big.Int).SetUint64(e.dev.ChainID()))
	opts.Context, opts.GasLimit = e.ctx, 2_000_000
	tx, err := bind.NewBoundContract(to, servicerouter.NewServiceRouter().GetABI(), c, c, c).RawTransact(opts, data)
	if err != nil {
		e.t.Fatal(err)
	}
	e.dev.Commit()
	return tx.Hash()
}

func waiting(d orders.Diagnostics, want ...string) bool { return slices.Equal(d.WaitingFor, want) }

// GET /v1/orders/{hash} through the real server answers why an open order
// waits: a stop-loss far from its price (and the fill a keeper sent
// anyway, reverted on chain with the router's error), a limit order whose
// maker's allowance is short, one whose deadline comes soon and that only
// waits for a keeper, a DCA order whose next leg is not due, and a
// trailing order reserved for a designated keeper. Closed orders have none.
func TestOrderDiagnostics(t *testing.T) {
	e := newE2E(t, false)
	e.moveWETH(3000_00000000)
	router := common.HexToAddress(e.cfg.Chain.Router)
	keeperAcct := e.dev.Accounts().Keeper

	// DCA: the first leg executes (a keeper step), the next is an hour away.
	dca := e.submit("dca", 30_000_000, 0, chain.Traits{Nonce: 41, SlippagePpm: 50_000, KindParamPpm: 100_000,
		IntervalSeconds: 3600, TotalExecutions: 3, Flags: chain.FlagDCA},
		map[string]any{"intervalSeconds": "3600", "totalExecutions": "3", "totalAmountIn": "30000000", "flexibilityPpm": 100_000, "shortCircuit": false})
	e.mine()
	if d := e.diagOf(dca); !waiting(d, orders.WaitKeeper) || !d.Executable || !d.Condition.Met || d.Condition.Kind != "dca_schedule" {
		t.Fatalf("a DCA order whose first leg is due: %+v", d)
	}
	runner := keeper.NewRunner(e.dev.Client(), keeperAcct.Key, keeper.HTTPSource(e.srv.URL, e.srv.APIKey, nil), keeper.RunnerOptions{})
	if sent, err := runner.Step(e.ctx); err != nil || len(sent) != 1 {
		t.Fatalf("keeper sent %d (%v)", len(sent), err)
	}
	e.mine()
	e.waitFor("the first leg", func() bool { return e.order(dca)["executions"] == float64(1) })
	d := e.diagOf(dca)
	c := d.Condition
	if !waiting(d, orders.WaitDCALeg) || d.Executable || c.Met || *c.LegsExecuted != 1 || *c.TotalLegs != 3 || *c.NextLegAmountIn != "10000000" ||
		c.NextLegDueAt.Sub(d.Block.Time) < 3500*time.Second || c.NextLegDueAt.Sub(d.Block.Time) > 3600*time.Second {
		t.Fatalf("a DCA order after its first leg: %+v, condition %+v", d, c)
	}

	// Price far: a stop 5 % under the market. A keeper that does not
	// simulate sends its fill anyway: it reverts on chain.
	stop := e.submit("stop_loss", 100_000_000, usdcInWeth(3150), chain.Traits{Nonce: 42, SlippagePpm: 50_000, Flags: chain.FlagStopLoss}, nil)
	e.mine()
	d = e.diagOf(stop)
	c = d.Condition
	if !waiting(d, orders.WaitTrigger) || d.Executable || c.Kind != "price_at_or_below" || c.Met || c.OraclePrice == nil ||
		*c.TriggerPrice != new(big.Int).SetUint64(usdcInWeth(3150)).String() || *c.DistancePpm < 40_000 || *c.DistancePpm > 55_000 ||
		d.Funding == nil || !d.Funding.Covered || d.Funding.Needed != "100000000" || d.LastFailedFill != nil {
		t.Fatalf("a stop far from its price: %+v, condition %+v", d, c)
	}
	rec, _, err := e.sys().Orders.Load(stop)
	if err != nil {
		t.Fatal(err)
	}
	o := rec.Order
	so := servicerouter.Order{Salt: o.Salt.ToBig(), Maker: o.Maker, Receiver: o.Receiver, TokenIn: o.TokenIn, TokenOut: o.TokenOut,
		AmountIn: o.AmountIn.ToBig(), TriggerPrice: o.TriggerPrice.ToBig(), TriggerAmountOut: o.TriggerAmountOut.ToBig(),
		MakerTraits: o.MakerTraits.ToBig(), Referrer: o.Referrer, ReferralFeePpm: o.ReferralFeePpm}
	tx := e.sendUnchecked(crypto.FromECDSA(keeperAcct.Key), router, servicerouter.NewServiceRouter().PackFillOrder(so, rec.Signature, o.AmountIn.ToBig(), nil, big.NewInt(1)))
	e.waitFor("the reverted fill recorded", func() bool { return e.diagOf(stop).LastFailedFill != nil })
	if f := e.diagOf(stop).LastFailedFill; f.TxHash != tx.Hex() || f.Keeper != keeperAcct.Address.Hex() || f.RevertName == nil || *f.RevertName != "TriggerNotReached" {
		t.Fatalf("last failed fill %+v (revert %v), want %s by the keeper, TriggerNotReached", f, f.RevertName, tx.Hex())
	}

	// Allowance short: another maker holds USDC but approved 1 unit.
	maker2 := e.dev.Accounts().Makers[1]
	usdc := e.tok("USDC")
	fh, err := e.dev.Faucet(e.ctx, maker2.Address, usdc, big.NewInt(1_000_000_000))
	if err != nil {
		t.Fatal(err)
	}
	e.mine(fh)
	e.mine(e.send(maker2.Key, usdc, testtoken.NewTestToken().PackApprove(router, big.NewInt(1))))
	short := e.submitAs(maker2, "limit", 5_000_000, usdcInWeth(4000), chain.Traits{Nonce: 43, SlippagePpm: 50_000}, nil)
	e.mine()
	d = e.diagOf(short)
	if !waiting(d, orders.WaitAllowance) || !d.Condition.Met || d.Condition.Kind != "price_at_or_above" || d.Funding == nil ||
		d.Funding.Covered || d.Funding.Allowance != "1" || d.Funding.Needed != "5000000" || d.Executable {
		t.Fatalf("a limit order short of allowance: %+v, funding %+v", d, d.Funding)
	}

	// Deadline soon, nothing else in the way: waits for a keeper.
	head, err := e.dev.Client().HeaderByNumber(e.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	soon := e.submit("limit", 4_000_000, usdcInWeth(4000), chain.Traits{Nonce: 44, Deadline: head.Time + 120, SlippagePpm: 50_000}, nil)
	e.mine() // decided at the next block (an order accepted after a block is not listed as of that block)
	d = e.diagOf(soon)
	if !waiting(d, orders.WaitKeeper) || d.Deadline == nil || d.Deadline.SecondsLeft <= 0 || d.Deadline.SecondsLeft > 120 ||
		d.Deadline.At.Unix() != int64(head.Time+120) || !d.Executable {
		t.Fatalf("a limit order due to expire soon: %+v, deadline %+v", d, d.Deadline)
	}
	// Cached for the block: the same answer until the next one. (The
	// times are reported, not asserted.)
	key := map[string]string{"X-API-Key": e.srv.APIKey}
	e.mine()
	head, err = e.dev.Client().HeaderByNumber(e.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for e.sys().Pairs.LastTick().Block.Number < head.Number.Uint64() {
		time.Sleep(time.Millisecond) // the block evaluated, the order not read at it yet
	}
	start := time.Now()
	first := e.srv.Raw(e.srv.URL, "GET", "/v1/orders/"+soon.Hex(), nil, key).Body
	firstTook := time.Since(start)
	start = time.Now()
	for range 100 {
		if again := e.srv.Raw(e.srv.URL, "GET", "/v1/orders/"+soon.Hex(), nil, key).Body; string(first) != string(again) {
			t.Fatalf("two reads in one block differ:\n%s\n%s", first, again)
		}
	}
	t.Logf("GET /v1/orders/{hash} with diagnostics: %v the first read at a block (computed), %v per read after (cached)", firstTook, time.Since(start)/100)

	// Designated keeper: a trailing order reserved for the dev keeper.
	trail := e.submit("trailing", 20_000_000, 0, chain.Traits{Nonce: 45, SlippagePpm: 50_000, KindParamPpm: 50_000, Flags: chain.FlagTrailing,
		AllowedSender: chain.SenderLow80(keeperAcct.Address)}, map[string]any{"trailPpm": 50_000, "designatedKeeper": keeperAcct.Address.Hex()})
	e.mine()
	d = e.diagOf(trail)
	c = d.Condition
	if d.DesignatedKeeper == nil || d.DesignatedKeeper.Address == nil || *d.DesignatedKeeper.Address != keeperAcct.Address.Hex() ||
		c.Kind != "trailing" || c.Met || *c.TrailPpm != 50_000 || c.Peak == nil || c.FirePrice == nil || !waiting(d, orders.WaitTrigger) {
		t.Fatalf("a trailing order for a designated keeper: %+v, condition %+v, keeper %+v", d, c, d.DesignatedKeeper)
	}
	peak, _ := new(big.Int).SetString(*c.Peak, 10)
	fire, _ := new(big.Int).SetString(*c.FirePrice, 10)
	if want := new(big.Int).Quo(new(big.Int).Mul(peak, big.NewInt(950_000)), big.NewInt(1_000_000)); fire.Cmp(want) != 0 || *c.DistancePpm < 45_000 || *c.DistancePpm > 55_000 {
		t.Fatalf("trailing peak %s fire %s distance %d", peak, fire, *c.DistancePpm)
	}

	// A closed order has no diagnostics.
	e.mine(e.send(e.maker.Key, router, servicerouter.NewServiceRouter().PackInvalidateNonce(big.NewInt(44))))
	e.waitFor("the cancel", func() bool { return e.order(soon)["status"] == "cancelled" })
	if _, ok := e.order(soon)["diagnostics"]; ok {
		t.Fatal("a cancelled order carries diagnostics")
	}
}
