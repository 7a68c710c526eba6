package trigger

import (
	"errors"
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
)

// eventsOf returns the outbox triggers of order h, in outbox order.
func (e *env) eventsOf(h common.Hash) []string {
	e.T.Helper()
	entries, err := e.outbox.Scan("acc", 0, 100)
	if err != nil {
		e.T.Fatal(err)
	}
	var out []string
	for _, en := range entries {
		if common.HexToHash(en.Event.Data.OrderHash) == h {
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
	if rec := e.record(h); rec.Status != persistence.StatusPending {
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
	if rec := e.record(h); rec.Status != persistence.StatusExpired {
		t.Fatalf("status after the deadline: %s", rec.Status)
	}
	if name := e.simulateFill(o, sig); name != "OrderExpired" {
		t.Fatalf("router after the deadline: %q, want OrderExpired", name)
	}
	if got := e.eventsOf(h); len(got) != 1 || got[0] != persistence.TriggerOrderExpired {
		t.Fatalf("events %v", got)
	}
}
