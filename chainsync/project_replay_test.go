package chainsync

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// sendOne sends the maker's transactions in one block, in order (one
// sender: its nonces keep their order), and requires each to succeed.
func (e *projEnv) sendOne(txs ...[]byte) []*types.Receipt {
	e.T.Helper()
	var hashes []common.Hash
	for _, data := range txs {
		tx, err := e.Send(e.Maker, e.D.Router, data)
		if err != nil {
			e.T.Fatal(err)
		}
		hashes = append(hashes, tx.Hash())
	}
	e.Sim.Commit()
	var out []*types.Receipt
	for _, h := range hashes {
		r, err := e.Client.TransactionReceipt(e.Ctx, h)
		if err != nil || r.Status != types.ReceiptStatusSuccessful {
			e.T.Fatalf("transaction %s: %+v %v", h, r, err)
		}
		out = append(out, r)
	}
	if out[0].BlockNumber.Cmp(out[len(out)-1].BlockNumber) != 0 {
		e.T.Fatal("the transactions landed in different blocks")
	}
	return out
}

// outboxOf returns the outbox events of order h, in outbox order.
func (e *projEnv) outboxOf(h common.Hash) []persistence.OutboxEvent {
	e.T.Helper()
	entries, err := e.outbox.Scan("acc", 0, 100)
	if err != nil {
		e.T.Fatal(err)
	}
	var out []persistence.OutboxEvent
	for _, en := range entries {
		if common.HexToHash(en.Event.Data.OrderHash) == h {
			out = append(out, en.Event)
		}
	}
	return out
}

// A fill and an on-chain cancel of the same order in one block (the router
// lets the maker cancel an order whatever its fills): a partly filled
// order ends cancelled with order.filled (this fill's amounts and
// transaction) then order.cancelled (the cancel's transaction, the totals
// so far); a completely filled one stays filled with order.filled alone.
// Projecting the same blocks again after a crash (the projection cursor
// not yet written) changes neither record nor outbox.
func TestFillAndCancelInOneBlockAndReplay(t *testing.T) {
	e := newProjEnv(t)
	op, sigP, hPart := e.LimitOrder(500_000_000, 91)
	of, sigF, hFull := e.LimitOrder(700_000_000, 92)
	e.submit(op, sigP, hPart)
	e.submit(of, sigF, hFull)
	e.sync()
	before, _ := e.ix.Chain().Projected()

	part := e.sendOne(e.FillData(op, sigP, 200_000_000), e.Router.PackCancel(op))
	full := e.sendOne(e.FillData(of, sigF, 700_000_000), e.Router.PackCancel(of))
	e.sync()

	rp, _, _ := e.orders.Load(hPart)
	rf, _, _ := e.orders.Load(hFull)
	if rp.Status != orderstore.StatusCancelled || rp.FilledIn.Dec() != "200000000" || rp.Executions != 1 {
		t.Fatalf("partly filled and cancelled: %+v", rp)
	}
	if rf.Status != orderstore.StatusFilled || rf.FilledIn.Dec() != "700000000" || rf.Executions != 1 {
		t.Fatalf("filled and cancelled: %+v", rf)
	}
	fills, _ := e.ix.Chain().Fills(hPart)
	if len(fills) != 1 || fills[0].AmountIn.Dec() != "200000000" || fills[0].AmountOut.Dec() != rp.FilledOut.Dec() || fills[0].TxHash != part[0].TxHash {
		t.Fatalf("fills %+v, record %+v", fills, rp)
	}
	evs := e.outboxOf(hPart)
	if len(evs) != 2 || evs[0].Trigger != persistence.TriggerOrderFilled || evs[1].Trigger != persistence.TriggerOrderCancelled {
		t.Fatalf("events of the partly filled order: %+v", evs)
	}
	if d := evs[0].Data; d.AmountIn != "200000000" || d.AmountOut != fills[0].AmountOut.Dec() || d.TxHash != part[0].TxHash.Hex() {
		t.Fatalf("order.filled data %+v", d)
	}
	if d := evs[1].Data; d.AmountIn != "500000000" || d.AmountOut != rp.FilledOut.Dec() || d.TxHash != part[1].TxHash.Hex() {
		t.Fatalf("order.cancelled data %+v", d)
	}
	evs = e.outboxOf(hFull)
	if len(evs) != 1 || evs[0].Trigger != persistence.TriggerOrderFilled || evs[0].Data.TxHash != full[0].TxHash.Hex() ||
		evs[0].Data.AmountIn != "700000000" || evs[0].Data.AmountOut != rf.FilledOut.Dec() {
		t.Fatalf("events of the filled order: %+v", evs)
	}

	// The replay.
	snapshot := func() string {
		a, _, _ := e.orders.Load(hPart)
		b, _, _ := e.orders.Load(hFull)
		all, _ := json.Marshal(e.events())
		return fmt.Sprintf("%+v %+v %s", a, b, all)
	}
	was := snapshot()
	if err := e.ix.Chain().SetProjected(before); err != nil {
		t.Fatal(err)
	}
	if err := NewProjector(e.ix.Chain(), e.orders, e.registry, ProjectorOptions{}).CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	if now := snapshot(); now != was {
		t.Fatalf("replayed projection changed the records or the outbox:\n%s\n%s", was, now)
	}
	e.consistent()
}

// An off-chain cancel (DELETE /v1/orders/{hash}) only takes the order out
// of this service: the router does not know of it, so a keeper that kept
// the signed order can still execute it. The fill is the chain's truth and
// is recorded (totals, fill row, order.filled); the status stays
// cancelled, which is final (docs/orders.md, "Cancelling").
func TestFillAfterOffChainCancel(t *testing.T) {
	e := newProjEnv(t)
	o, sig, h := e.LimitOrder(1_000_000_000, 93)
	e.submit(o, sig, h)
	if err := e.registry.Cancel(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	r := e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 1_000_000_000))
	e.sync()
	rec, _, _ := e.orders.Load(h)
	if rec.Status != orderstore.StatusCancelled || rec.FilledIn.Dec() != "1000000000" || rec.Executions != 1 {
		t.Fatalf("after the fill: %+v", rec)
	}
	if fills, _ := e.ix.Chain().Fills(h); len(fills) != 1 || fills[0].TxHash != r.TxHash || fills[0].AmountOut.Dec() != rec.FilledOut.Dec() {
		t.Fatalf("fills %+v", fills)
	}
	evs := e.outboxOf(h)
	if len(evs) != 2 || evs[0].Trigger != persistence.TriggerOrderCancelled || evs[0].Data.TxHash != "" ||
		evs[1].Trigger != persistence.TriggerOrderFilled || evs[1].Data.TxHash != r.TxHash.Hex() {
		t.Fatalf("events %+v", evs)
	}
	e.consistent()
}
