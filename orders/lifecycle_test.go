package orders_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/persistence"
)

func TestLifecycleTransitions(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	reg := e.svc.Registry()
	now := e.clk.Now()
	hook := e.receiver()

	// limit: two fills, the second completes it.
	lim := e.submit(defaultSpec("limit", newKey(t)))
	fill := persistence.OrderFill{TxHash: "0x" + strings.Repeat("aa", 32), BlockNumber: 7, LogIndex: 1, AmountIn: "400", AmountOut: "800",
		ProtocolFee: "1", ReferralFee: "1", KeeperFee: "1", Keeper: tokC.Hex(), Timestamp: now.Unix()}
	res, err := reg.RecordFill(ctx, lim, order.RecordFillRequest{Fill: fill, FilledAmountIn: "400", Executions: 1, At: now})
	if err != nil || res.Err != nil || !res.Changed || res.Record.Status != "active" || res.Record.FilledAmountOut != "800" {
		t.Fatalf("first fill: %+v %v", res, err)
	}
	// The same fill again changes nothing.
	if res, _ = reg.RecordFill(ctx, lim, order.RecordFillRequest{Fill: fill, FilledAmountIn: "400", Executions: 1, At: now}); res.Changed {
		t.Fatal("repeated fill changed the order")
	}
	fill2 := fill
	fill2.LogIndex, fill2.AmountIn, fill2.AmountOut = 2, "600", "1200"
	res, _ = reg.RecordFill(ctx, lim, order.RecordFillRequest{Fill: fill2, FilledAmountIn: "1000", Executions: 2, Complete: true, At: now})
	if res.Record.Status != "filled" || res.Record.FilledAmountOut != "2000" || res.Record.Executions != 2 {
		t.Fatalf("second fill: %+v", res.Record)
	}
	r := e.srv.Get("/v1/orders/" + lim.Hex() + "/fills")
	var fills struct {
		Fills []persistence.OrderFill `json:"fills"`
	}
	if err := json.Unmarshal(r.Body, &fills); err != nil || r.Status != 200 || len(fills.Fills) != 2 || fills.Fills[1].AmountOut != "1200" {
		t.Fatalf("fills: %d %s", r.Status, r.Body)
	}
	// stop_loss: trigger once, then fail with a revert name.
	stop := e.submit(defaultSpec("stop_loss", newKey(t)))
	if res, _ = reg.Trigger(ctx, stop, "1499000000", now); !res.Changed || res.Record.TriggeredAt == nil {
		t.Fatalf("trigger: %+v", res)
	}
	if res, _ = reg.Trigger(ctx, stop, "1498000000", now); res.Changed {
		t.Fatal("second trigger changed the order")
	}
	if res, _ = reg.Fail(ctx, stop, "slippage exceeded in simulation", "SlippageExceeded", now); res.Record.Status != "failed" || res.Record.RevertName != "SlippageExceeded" {
		t.Fatalf("fail: %+v", res.Record)
	}
	if res, _ = reg.Expire(ctx, stop, now); res.Changed {
		t.Fatal("a failed order expired")
	}
	// dca: stall then complete; expire a take_profit; cancel on-chain a trailing one.
	dca := e.submit(defaultSpec("dca", newKey(t)))
	if res, _ = reg.Stall(ctx, dca, true, now); !res.Changed || !res.Record.Stalled {
		t.Fatalf("stall: %+v", res)
	}
	res, _ = reg.RecordFill(ctx, dca, order.RecordFillRequest{Fill: fill, FilledAmountIn: "1000000000000000000", Executions: 4, Complete: true, At: now})
	if res.Record.Status != "filled" {
		t.Fatalf("dca complete: %+v", res.Record)
	}
	tp := e.submit(defaultSpec("take_profit", newKey(t)))
	if res, _ = reg.Expire(ctx, tp, now); res.Record.Status != "expired" {
		t.Fatalf("expire: %+v", res.Record)
	}
	tr := e.submit(defaultSpec("trailing", newKey(t)))
	if res, _ = reg.CancelOnChain(ctx, tr, "0x"+strings.Repeat("bb", 32), now); res.Record.Status != "cancelled" {
		t.Fatalf("on-chain cancel: %+v", res.Record)
	}
	// Every transition that produces a webhook delivered it (order is not
	// guaranteed, so each is looked up).
	for _, ev := range []struct {
		trigger string
		hash    [32]byte
	}{{"order.filled", lim}, {"stop.triggered", stop}, {"order.failed", stop}, {"dca.stalled", dca},
		{"dca.completed", dca}, {"order.expired", tp}, {"order.cancelled", tr}} {
		waitFor(t, func() bool { return hook.has(ev.trigger, ev.hash) })
	}
	waitFor(t, func() bool { return hook.count() == 8 })
	if _, err := reg.Activate(ctx, [32]byte{1}, now); err != nil {
		t.Fatal(err)
	} else if res, _ := reg.Activate(ctx, [32]byte{1}, now); res.Err == nil {
		t.Fatal("activating an unknown order succeeded")
	}
	// Open counts follow the transitions: every order above is closed.
	waitFor(t, func() bool { return len(e.bookPrices(tokA.Hex()+"-"+tokB.Hex())) == 0 })
	e.consistent()
}
