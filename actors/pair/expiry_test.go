package pair

import (
	"errors"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/contracts"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// eventsOf returns the outbox triggers of order h (every order's for the
// zero hash), in outbox order.
func (e *env) eventsOf(h common.Hash) []string {
	e.T.Helper()
	entries, err := e.outbox.Scan("acc", 0, 100)
	if err != nil {
		e.T.Fatal(err)
	}
	var out []string
	for _, en := range entries {
		if h == (common.Hash{}) || common.HexToHash(en.Event.Data.OrderHash) == h {
			out = append(out, en.Event.Trigger)
		}
	}
	return out
}

// simulateFill runs fillOrder of the whole order from the keeper at the
// head block (eth_call executes with the head's timestamp) and returns the
// router's custom error name ("" when it would succeed).
func (e *env) simulateFill(o servicerouter.Order, sig []byte) string {
	e.T.Helper()
	_, err := e.Client.CallContract(e.Ctx, ethereum.CallMsg{From: e.Keeper.Addr, To: &e.D.Router,
		Data: e.FillData(o, sig, o.AmountIn.Int64())}, nil)
	if err == nil {
		return ""
	}
	var de rpc.DataError
	if !errors.As(err, &de) {
		e.T.Fatalf("simulation: %v", err)
	}
	s, _ := de.ErrorData().(string)
	data, _ := hexutil.Decode(s)
	for name, x := range e.Router.GetABI().Errors {
		if len(data) >= 4 && string(x.ID[:4]) == string(data[:4]) {
			return name
		}
	}
	e.T.Fatalf("simulation reverted without a router error: %v", err)
	return ""
}

// The deadline is the last second an order may execute (contract.md
// section 2, docs/protocol.md: block.timestamp ≤ deadline): at a block
// whose time is the deadline the order is open and listed, and the router
// agrees; at the next block it is expired with order.expired, and the
// router refuses it with OrderExpired.
func TestExpiryAtTheDeadline(t *testing.T) {
	e := newEnv(t)
	deadline := e.Now() + 100
	o, sig, h := e.SignOrder(1_000_000, 1, chain.Traits{Nonce: 51, Deadline: deadline, SlippagePpm: 10_000})
	e.submit(o, sig, h, time.Now())
	e.tick()
	if err := contracts.AdjustTime(e.Sim, time.Duration(deadline-e.Now())*time.Second); err != nil {
		t.Fatal(err)
	}
	if now := e.Now(); now != deadline {
		t.Fatalf("head time %d, want the deadline %d", now, deadline)
	}
	if find(e.tick(), h) == nil {
		t.Fatal("order not executable at a block whose time is its deadline")
	}
	if rec := e.record(h); rec.Status != orderstore.StatusPending {
		t.Fatalf("status at the deadline: %s", rec.Status)
	}
	if name := e.simulateFill(o, sig); name != "" {
		t.Fatalf("router refuses the fill at the deadline: %s", name)
	}
	e.Sim.Commit()
	if now := e.Now(); now <= deadline {
		t.Fatalf("head time %d not past the deadline %d", now, deadline)
	}
	if find(e.tick(), h) != nil {
		t.Fatal("order executable one second after its deadline")
	}
	if rec := e.record(h); rec.Status != orderstore.StatusExpired {
		t.Fatalf("status after the deadline: %s", rec.Status)
	}
	if name := e.simulateFill(o, sig); name != "OrderExpired" {
		t.Fatalf("router after the deadline: %q, want OrderExpired", name)
	}
	if got := e.eventsOf(h); len(got) != 1 || got[0] != persistence.TriggerOrderExpired {
		t.Fatalf("events %v", got)
	}
}

// The pairs' tick runs on its own goroutine, after the indexer's commit
// and independently of the projection into the order records (which may
// lag, for instance during a backfill). An order that the chain filled,
// cancelled or whose nonce it invalidated before the deadline, in a block
// the indexer applied, must end filled or cancelled, not expired, even
// when the engine evaluates a block past the deadline before the
// projector has recorded that outcome. An order with no chain outcome
// expires in the same tick.
func TestChainOutcomeBeforeTheDeadlineWinsOverExpiry(t *testing.T) {
	e := newEnv(t)
	deadline := e.Now() + 100
	sign := func(amount int64, nonce uint64) (servicerouter.Order, []byte, common.Hash) {
		o, sig, h := e.SignOrder(amount, 1, chain.Traits{Nonce: nonce, Deadline: deadline, SlippagePpm: 10_000})
		e.submit(o, sig, h, time.Now())
		return o, sig, h
	}
	of, sigf, filled := sign(1_000_000, 61)
	oc, _, cancelled := sign(2_000_000, 62)
	_, _, invalidated := sign(3_000_000, 63)
	_, _, idle := sign(4_000_000, 64)
	e.tick() // the engine holds the four open orders

	e.MustSend(e.Keeper, e.D.Router, e.FillData(of, sigf, 1_000_000))
	e.MustSend(e.Maker, e.D.Router, e.Router.PackCancel(oc))
	e.MustSend(e.Maker, e.D.Router, e.Router.PackInvalidateNonce(big.NewInt(63)))
	if e.Now() > deadline {
		t.Fatal("the chain outcomes were mined after the deadline")
	}
	if err := contracts.AdjustTime(e.Sim, 200*time.Second); err != nil {
		t.Fatal(err)
	}
	// The indexer applies the blocks; the engine evaluates the head (past
	// the deadline) before the projector has run.
	e.evaluate(false)
	e.tick() // the projection catches up

	e.expectOutcomes([]outcome{
		{"filled", filled, orderstore.StatusFilled, []string{persistence.TriggerOrderFilled}},
		{"cancelled", cancelled, orderstore.StatusCancelled, []string{persistence.TriggerOrderCancelled}},
		{"nonce invalidated", invalidated, orderstore.StatusCancelled, []string{persistence.TriggerOrderCancelled}},
		{"no chain outcome", idle, orderstore.StatusExpired, []string{persistence.TriggerOrderExpired}},
	})
	if rec := e.record(filled); rec.FilledIn.Dec() != "1000000" || rec.Executions != 1 {
		t.Errorf("filled order's totals: %s / %d", rec.FilledIn.Dec(), rec.Executions)
	}
}

// The same race for the engine's other transitions: stop-losses
// cancelled on-chain (or whose nonce the maker invalidated) and a dca
// cancelled on-chain, in blocks the indexer applied, whose trigger
// condition is met (or whose leg is overdue) at a later block that the
// engine evaluates before the projector has recorded the cancel, are
// cancelled with order.cancelled alone: no stop.triggered (nor
// triggeredAt), no dca.stalled. A live stop and a live dca in the same
// tick trigger and stall.
func TestChainCancelWinsOverTriggerAndStall(t *testing.T) {
	e := newEnv(t)
	e.SetPrice("WETH", 3000_00000000)
	e.SetPrice("USDC", 1_00000000)
	trigger := usdcInWeth(3500) // fires once WETH is above $3500
	stop := func(amount int64, nonce uint64) (servicerouter.Order, common.Hash) {
		o, sig, h := e.SignOrder(amount, trigger.Uint64(), chain.Traits{Nonce: nonce, SlippagePpm: 300_000, Flags: chain.FlagStopLoss})
		e.submit(o, sig, h, time.Now())
		return o, h
	}
	dca := func(amount int64, nonce uint64) (servicerouter.Order, common.Hash) {
		o, sig, h := e.SignOrder(amount, 0, chain.Traits{Nonce: nonce, SlippagePpm: 300_000, KindParamPpm: 100_000,
			IntervalSeconds: 3600, TotalExecutions: 3, Flags: chain.FlagDCA})
		e.submit(o, sig, h, time.Unix(int64(e.Now()), 0))
		return o, h
	}
	oc, cancelled := stop(100_000_000, 65)
	_, invalidated := stop(200_000_000, 66)
	_, live := stop(300_000_000, 67)
	od, dcaCancelled := dca(3_000_000, 68)
	_, dcaLive := dca(6_000_000, 69)
	e.tick()
	e.MustSend(e.Maker, e.D.Router, e.Router.PackCancel(oc))
	e.MustSend(e.Maker, e.D.Router, e.Router.PackInvalidateNonce(big.NewInt(66)))
	e.MustSend(e.Maker, e.D.Router, e.Router.PackCancel(od))
	if err := contracts.AdjustTime(e.Sim, 400*time.Second); err != nil { // past the dca's 360 s of flexibility
		t.Fatal(err)
	}
	e.SetPrice("WETH", 4000_00000000)
	e.evaluate(false) // before the projection
	e.tick()
	e.expectOutcomes([]outcome{
		{"cancelled stop", cancelled, orderstore.StatusCancelled, []string{persistence.TriggerOrderCancelled}},
		{"nonce invalidated stop", invalidated, orderstore.StatusCancelled, []string{persistence.TriggerOrderCancelled}},
		{"live stop", live, orderstore.StatusPending, []string{persistence.TriggerStopTriggered}},
		{"cancelled dca", dcaCancelled, orderstore.StatusCancelled, []string{persistence.TriggerOrderCancelled}},
		{"live dca", dcaLive, orderstore.StatusPending, []string{persistence.TriggerDCAStalled}},
	})
}

// outcome is the status and the events an order must end with.
type outcome struct {
	name   string
	h      common.Hash
	status orderstore.Status
	events []string
}

// expectOutcomes checks each order's status and events (the first one and
// their number); a cancelled order must carry no triggeredAt and no stalled
// flag.
func (e *env) expectOutcomes(want []outcome) {
	e.T.Helper()
	for _, c := range want {
		rec := e.record(c.h)
		got := e.eventsOf(c.h)
		if rec.Status != c.status || len(got) != len(c.events) || (len(got) > 0 && got[0] != c.events[0]) ||
			(c.status == orderstore.StatusCancelled && (!rec.TriggeredAt.IsZero() || rec.Stalled)) {
			e.T.Errorf("%s: status %s, triggeredAt %v, stalled %v, events %v; want %s, %v",
				c.name, rec.Status, rec.TriggeredAt, rec.Stalled, got, c.status, c.events)
		}
	}
}

// Drive gates the decided transitions: a pair that does not drive (a
// standby in a cluster) decides an expiry at every block without sending
// it, and sends it at the first block after it drives.
func TestExpirySentOnlyWhileDriving(t *testing.T) {
	e := newEnv(t)
	var driving atomic.Bool
	e.trig.opts.Drive = driving.Load
	deadline := e.Now() + 100
	o, sig, h := e.SignOrder(1_000_000, 1, chain.Traits{Nonce: 52, Deadline: deadline, SlippagePpm: 10_000})
	e.submit(o, sig, h, time.Now())
	e.tick()
	if err := contracts.AdjustTime(e.Sim, time.Duration(deadline+1-e.Now())*time.Second); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if find(e.tick(), h) != nil {
			t.Fatal("order executable after its deadline")
		}
		if rec := e.record(h); rec.Status != orderstore.StatusPending || len(e.eventsOf(h)) != 0 {
			t.Fatalf("expired while not driving: %s, events %v", rec.Status, e.eventsOf(h))
		}
	}
	driving.Store(true)
	e.tick()
	if rec := e.record(h); rec.Status != orderstore.StatusExpired {
		t.Fatalf("status once driving: %s", rec.Status)
	}
	if got := e.eventsOf(h); len(got) != 1 || got[0] != persistence.TriggerOrderExpired {
		t.Fatalf("events %v", got)
	}
}
