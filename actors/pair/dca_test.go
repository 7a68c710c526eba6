package pair

import (
	"math/big"
	"testing"
	"time"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/contracts"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// A SHORT_CIRCUIT dca that falls behind catches up in one execution
// (docs/protocol.md "DCA legs"): two intervals after its first leg the
// engine offers the two remaining legs at once, the router accepts them,
// and the order is filled after two executions of its three legs. The
// second leg, an interval late (past its 10 % flexibility), first made the
// order stalled (dca.stalled, cleared by the execution without an event).
// Legs emit nothing; dca.completed carries the order's totals, the
// router's execution count (2, as the record's executions) and the legs
// planned (3).
func TestDCAShortCircuitCompletes(t *testing.T) {
	e := newEnv(t)
	e.SetPrice("WETH", 3000_00000000)
	o, sig, h := e.SignOrder(3_000_000, 0, chain.Traits{Nonce: 41, SlippagePpm: 300_000, KindParamPpm: 100_000,
		IntervalSeconds: 3600, TotalExecutions: 3, Flags: chain.FlagDCA | chain.FlagShortCircuit})
	e.submit(o, sig, h, time.Unix(int64(e.Now()), 0))
	x := find(e.tick(), h)
	if x == nil || x.FillIn.String() != "1000000" {
		t.Fatalf("first leg: %+v", x)
	}
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 1_000_000))
	if find(e.tick(), h) != nil {
		t.Fatal("a leg due right after the first")
	}
	if err := contracts.AdjustTime(e.Sim, 2*3600*time.Second); err != nil {
		t.Fatal(err)
	}
	e.SetPrice("WETH", 3000_00000000) // a fresh oracle round after the jump
	x = find(e.tick(), h)
	if x == nil || x.FillIn.String() != "2000000" {
		t.Fatalf("catch-up execution: %+v, want both remaining legs", x)
	}
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, x.FillIn.Int64()))
	if find(e.tick(), h) != nil {
		t.Fatal("completed dca still executable")
	}
	rec := e.record(h)
	if rec.Status != orderstore.StatusFilled || rec.FilledIn.Dec() != "3000000" || rec.Executions != 2 {
		t.Fatalf("after the catch-up: %+v", rec)
	}
	if rec.Stalled {
		t.Fatal("stalled flag kept after the catch-up")
	}
	entries, err := e.outbox.Scan("acc", 0, 100)
	if err != nil || len(entries) != 2 || entries[0].Event.Trigger != persistence.TriggerDCAStalled ||
		entries[1].Event.Trigger != persistence.TriggerDCACompleted {
		t.Fatalf("outbox %+v %v, want dca.stalled then dca.completed", entries, err)
	}
	if d := entries[0].Event.Data; d.Executions != "1" || d.TotalExecutions != "3" || d.AmountIn != "1000000" {
		t.Fatalf("dca.stalled data %+v", d)
	}
	d := entries[1].Event.Data
	fills, _ := e.ix.Chain().Fills(h)
	out := new(big.Int)
	for _, f := range fills {
		out.Add(out, f.AmountOut.ToBig())
	}
	if len(fills) != 2 || d.AmountIn != "3000000" || d.AmountOut != out.String() || d.AmountOut != rec.FilledOut.Dec() ||
		d.Executions != "2" || d.TotalExecutions != "3" || d.TxHash != fills[1].TxHash.Hex() || d.OrderType != "dca" {
		t.Fatalf("dca.completed data %+v, fills %+v", d, fills)
	}
}
