package orders_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/holiman/uint256"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

func TestLifecycleTransitions(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	reg := e.svc().Registry()
	now := e.clk.Now()
	hook := e.receiver()

	// limit: two fills, the second completes it.
	lim := e.submit(defaultSpec("limit", newKey(t)))
	res, err := e.chainFillOf(lim, testFill(7, 1, "400", "800", "400", 1, now))
	if err != nil || res.Err != nil || !res.Changed || res.Record.Status != orderstore.StatusActive || res.Record.FilledOut.Dec() != "800" {
		t.Fatalf("first fill: %+v %v", res, err)
	}
	// The same facts again change nothing.
	if res, _ = e.observe(lim, now); res.Changed {
		t.Fatal("repeated fill changed the order")
	}
	res, _ = e.chainFillOf(lim, testFill(8, 2, "600", "1200", "1000000000000000000", 2, now))
	if res.Record.Status != orderstore.StatusFilled || res.Record.FilledOut.Dec() != "2000" || res.Record.Executions != 2 {
		t.Fatalf("second fill: %+v", res.Record)
	}
	r := e.srv.Get("/v1/orders/" + lim.Hex() + "/fills")
	var fills struct {
		Fills []struct {
			AmountOut string `json:"amountOut"`
		} `json:"fills"`
	}
	if err := json.Unmarshal(r.Body, &fills); err != nil || r.Status != 200 || len(fills.Fills) != 2 || fills.Fills[1].AmountOut != "1200" {
		t.Fatalf("fills: %d %s", r.Status, r.Body)
	}
	// stop_loss: trigger once, then fail with a revert name.
	stop := e.submit(defaultSpec("stop_loss", newKey(t)))
	if res, _ = reg.Trigger(ctx, stop, uint256.NewInt(1499000000), chainstore.View{}, now); !res.Changed || res.Record.TriggeredAt.IsZero() {
		t.Fatalf("trigger: %+v", res)
	}
	if res, _ = reg.Trigger(ctx, stop, uint256.NewInt(1498000000), chainstore.View{}, now); res.Changed {
		t.Fatal("second trigger changed the order")
	}
	if res, _ = reg.Fail(ctx, stop, "slippage exceeded in simulation", "SlippageExceeded", now); res.Record.Status != orderstore.StatusFailed || res.Record.RevertName != "SlippageExceeded" {
		t.Fatalf("fail: %+v", res.Record)
	}
	if res, _ = reg.Expire(ctx, stop, chainstore.View{}, now); res.Changed {
		t.Fatal("a failed order expired")
	}
	// dca: stall then complete; expire a take_profit; cancel on-chain a trailing one.
	dca := e.submit(defaultSpec("dca", newKey(t)))
	if res, _ = reg.Stall(ctx, dca, true, chainstore.View{}, now); !res.Changed || !res.Record.Stalled {
		t.Fatalf("stall: %+v", res)
	}
	res, _ = e.chainFillOf(dca, testFill(9, 0, "1000000000000000000", "800", "1000000000000000000", 4, now))
	if res.Record.Status != orderstore.StatusFilled {
		t.Fatalf("dca complete: %+v", res.Record)
	}
	tp := e.submit(defaultSpec("take_profit", newKey(t)))
	if res, _ = reg.Expire(ctx, tp, chainstore.View{}, now); res.Record.Status != orderstore.StatusExpired {
		t.Fatalf("expire: %+v", res.Record)
	}
	tr := e.submit(defaultSpec("trailing", newKey(t)))
	if res, _ = e.chainCancel(tr, hashOf("bb"), now); res.Record.Status != orderstore.StatusCancelled {
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
	if res, err := reg.Observe(ctx, [32]byte{1}, order.ChainObserved{At: now}); err != nil {
		t.Fatal(err)
	} else if res.Err == nil {
		t.Fatal("observing an unknown order succeeded")
	}
	// Open counts follow the transitions: every order above is closed.
	waitFor(t, func() bool { return len(e.bookPrices(tokA.Hex()+"-"+tokB.Hex())) == 0 })
	e.consistent()
}
