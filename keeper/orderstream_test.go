package keeper_test

import (
	"bytes"
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/internal/sse"
	"github.com/orderengine/orderengine/keeper"
)

// The order stream through the real server: an account's events (a stop
// triggered and filled, an on-chain cancel, an expiry) arrive as its
// webhook endpoint receives them, the same trigger, id and body byte for
// byte; a reconnection with Last-Event-ID gets exactly the events after
// that one, and an id the log does not hold replays what it holds.
func TestOrderStreamCarriesTheWebhookDeliveries(t *testing.T) {
	e := newE2E(t, false)
	rc := e.receiver()
	e.moveWETH(3000_00000000)
	stream := openStream(t, e.srv.URL, "/v1/orders/stream", e.srv.APIKey, "")

	h, err := e.dev.Client().HeaderByNumber(e.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	stop := e.submit("stop_loss", 100_000_000, usdcInWeth(3150), chain.Traits{Nonce: 31, SlippagePpm: 50_000, Flags: chain.FlagStopLoss}, nil)
	exp := e.submit("limit", 1_000_000, usdcInWeth(2000), chain.Traits{Nonce: 32, Deadline: max(h.Time, uint64(time.Now().Unix())) + 600, SlippagePpm: 50_000}, nil)
	inv := e.submit("limit", 2_000_000, usdcInWeth(2000), chain.Traits{Nonce: 33, SlippagePpm: 50_000}, nil)
	e.moveWETH(3270_00000000)
	e.waitFor("the stop listed", func() bool { return len(e.executable(e.dev.Accounts().Keeper.Address).Orders) == 1 })
	runner := keeper.NewRunner(e.dev.Client(), e.dev.Accounts().Keeper.Key, keeper.HTTPSource(e.srv.URL, e.srv.APIKey, nil), keeper.RunnerOptions{})
	if sent, err := runner.Step(e.ctx); err != nil || len(sent) != 1 {
		t.Fatalf("keeper sent %d (%v)", len(sent), err)
	}
	e.mine(e.send(e.maker.Key, common.HexToAddress(e.cfg.Chain.Router), servicerouter.NewServiceRouter().PackInvalidateNonce(big.NewInt(33))))
	e.adjustTime(1200 * time.Second)
	e.expect(rc, stop, "stop.triggered", "order.filled")
	e.expect(rc, inv, "order.cancelled")
	e.expect(rc, exp, "order.expired")

	want := map[string][]byte{} // event id → the delivery's body
	rc.mu.Lock()
	for _, ds := range rc.deliveries {
		for _, d := range ds {
			want[d.header.Get("X-Service-Delivery")] = d.body
		}
	}
	rc.mu.Unlock()
	if len(want) != 4 {
		t.Fatalf("%d deliveries, want 4", len(want))
	}
	var got []sse.Event
	for len(got) < len(want) {
		got = append(got, stream.next())
	}
	for _, ev := range got {
		e.srv.CheckEvent("/v1/orders/stream", ev)
		body, ok := want[ev.ID]
		if !ok {
			t.Fatalf("streamed event %s %s has no webhook delivery", ev.Name, ev.ID)
		}
		var head struct{ ID, Trigger string }
		if err := json.Unmarshal(ev.Data, &head); err != nil || head.ID != ev.ID || head.Trigger != ev.Name || !bytes.Equal(ev.Data, body) {
			t.Fatalf("streamed %s %s: %s\nthe webhook delivery: %s", ev.Name, ev.ID, ev.Data, body)
		}
	}

	// Resume after the first event: exactly the others, in order.
	stream.close()
	resumed := openStream(t, e.srv.URL, "/v1/orders/stream", e.srv.APIKey, got[0].ID)
	for _, w := range got[1:] {
		if ev := resumed.next(); ev.ID != w.ID || !bytes.Equal(ev.Data, w.Data) {
			t.Fatalf("resumed with %s %s, want %s %s", ev.Name, ev.ID, w.Name, w.ID)
		}
	}
	// An id the log does not hold: every event it holds.
	all := openStream(t, e.srv.URL, "/v1/orders/stream", e.srv.APIKey, "evt_notHeldHere0000000000")
	for _, w := range got {
		if ev := all.next(); ev.ID != w.ID {
			t.Fatalf("replayed %s, want %s", ev.ID, w.ID)
		}
	}
	if _, status, body := tryStream(t, e.srv.URL, "/v1/orders/stream", e.srv.APIKey, "12-0000000000000000"); status != 400 {
		t.Fatalf("a keeper stream id on the order stream: %d %s", status, body)
	}
}
