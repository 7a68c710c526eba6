package chainsync

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// stepIndexer is an indexer over e's store that applies or rewinds ONE
// block per Step, so a test sees the order records between the rewind of
// the old branch and the application of the new one.
func stepIndexer(t *testing.T, e *projEnv) *Indexer {
	t.Helper()
	ix, err := New(e.Client, e.store, nil, Options{
		Router: e.D.Router, StartBlock: e.D.Block, MaxBlocksPerStep: 1, Observers: []Observer{e.proj},
	})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// step runs one Step and the projection after it; it returns how many
// blocks the Step applied or rewound.
func (e *projEnv) step(ix *Indexer) int {
	e.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := ix.Step(ctx)
	if err != nil {
		e.T.Fatal(err)
	}
	if err := e.proj.CatchUp(ctx); err != nil {
		e.T.Fatal(err)
	}
	return n
}

// syncAll indexes and projects up to the head.
func (e *projEnv) syncAll(ix *Indexer) {
	e.T.Helper()
	for e.step(ix) > 0 {
	}
}

// consistent asserts that every order has exactly the index keys of its
// status and every fill row an order.
func (e *projEnv) consistent() {
	e.T.Helper()
	res, err := e.orders.CheckOrders()
	if err != nil || len(res.Problems) != 0 {
		e.T.Fatalf("order key space: %v %v", err, res.Problems)
	}
}

// listed reports whether h is in the status list of its maker.
func (e *projEnv) listed(h common.Hash, maker common.Address, status orderstore.Status) bool {
	e.T.Helper()
	recs, _, err := e.orders.List(orderstore.ListFilter{Maker: &maker, Status: status, Limit: 100})
	if err != nil {
		e.T.Fatal(err)
	}
	for _, rec := range recs {
		if rec.Hash == h {
			return true
		}
	}
	return false
}

// count returns how many outbox events of trigger name order h.
func count(events []string, trigger string, h common.Hash) int {
	n := 0
	for _, ev := range events {
		if ev == trigger+" "+h.Hex()[:10] {
			n++
		}
	}
	return n
}

// forkDrop replaces everything after parent with a longer branch (the node
// re-includes the orphaned transactions in the branch's first block).
func (e *projEnv) forkDrop(parent *types.Header, orphanedTip uint64) {
	e.T.Helper()
	if err := e.Sim.Fork(parent.Hash()); err != nil {
		e.T.Fatal(err)
	}
	for e.Head().Number.Uint64() <= orphanedTip {
		e.Sim.Commit()
	}
}

// A fill that the projector applied to the order record is rolled back
// when a reorg removes its block (the record's totals, status, fill list
// and index entries are the pre-fill ones), and applied again, once and
// without a second order.filled, when the new branch re-mines it.
func TestReorgRollsBackProjectedFill(t *testing.T) {
	e := newProjEnv(t)
	ix := stepIndexer(t, e)
	o, sig, h := e.LimitOrder(1_000_000_000, 31)
	e.submit(o, sig, h)
	e.syncAll(ix)
	parent := e.Head()
	fill := e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 1_000_000_000))
	fillBlock := e.Head()
	e.syncAll(ix)
	rec, _, _ := e.orders.Load(h)
	if rec.Status != orderstore.StatusFilled || rec.FilledIn.Dec() != "1000000000" || rec.Executions != 1 {
		t.Fatalf("after the fill: %+v", rec)
	}
	firstOut := rec.FilledOut.Dec()
	if got := e.events(); count(got, "order.filled", h) != 1 {
		t.Fatalf("outbox %v", got)
	}

	e.forkDrop(parent, fillBlock.Number.Uint64())
	if n := e.step(ix); n != 1 {
		t.Fatalf("first step after the fork did %d blocks, want the one rewind", n)
	}
	if cur, _, _ := ix.Chain().Cursor(); cur.Hash != parent.Hash() {
		t.Fatalf("cursor after the rewind %+v, want the fork parent %s", cur, parent.Hash())
	}
	rec, _, _ = e.orders.Load(h)
	if rec.Status != orderstore.StatusPending || rec.FilledIn.Dec() != "0" || rec.FilledOut.Dec() != "0" || rec.Executions != 0 {
		t.Fatalf("after the rewind: %+v, want the pre-fill record", rec)
	}
	if fills, err := e.ix.Chain().Fills(h); err != nil || len(fills) != 0 {
		t.Fatalf("fills after the rewind: %+v %v", fills, err)
	}
	maker := rec.Order.Maker
	if !e.listed(h, maker, orderstore.StatusPending) || e.listed(h, maker, orderstore.StatusFilled) {
		t.Fatal("status index entries did not move back to pending")
	}
	e.consistent()
	if proj, _ := ix.Chain().Projected(); proj != parent.Number.Uint64() {
		t.Fatalf("projection cursor %d, want %d", proj, parent.Number.Uint64())
	}

	// The new branch re-mines the same transaction.
	e.syncAll(ix)
	r, err := e.Client.TransactionReceipt(e.Ctx, fill.TxHash)
	if err != nil || r.BlockHash == fillBlock.Hash() {
		t.Fatalf("the node did not re-include the fill on the new branch: %+v %v", r, err)
	}
	co := checkOrder(t, e.Env, ix, h, 1)
	rec, _, _ = e.orders.Load(h)
	if rec.Status != orderstore.StatusFilled || rec.FilledIn.Dec() != "1000000000" || rec.Executions != 1 ||
		rec.FilledOut.Dec() != co.FilledAmountOut.Dec() || rec.FilledOut.Dec() != firstOut {
		t.Fatalf("after the re-mined fill: %+v (chain %+v, first %s)", rec, co, firstOut)
	}
	fills, err := e.ix.Chain().Fills(h)
	if err != nil || len(fills) != 1 || fills[0].TxHash != fill.TxHash || fills[0].BlockNumber != r.BlockNumber.Uint64() ||
		fills[0].AmountOut.Dec() != rec.FilledOut.Dec() || fills[0].AmountIn.Dec() != "1000000000" {
		t.Fatalf("fills after the re-mined fill: %+v %v (receipt block %d)", fills, err, r.BlockNumber)
	}
	if got := e.events(); count(got, "order.filled", h) != 1 || len(got) != 1 {
		t.Fatalf("outbox %v, want exactly one order.filled", got)
	}
	e.consistent()
}

// An on-chain cancel and a nonce invalidation that the projector applied
// are rolled back with their block (the orders are open again, a partially
// filled one keeps its earlier fill and stays active), and the re-mined
// transactions cancel them again without a second order.cancelled.
func TestReorgRollsBackProjectedCancels(t *testing.T) {
	e := newProjEnv(t)
	ix := stepIndexer(t, e)
	o1, sig1, h1 := e.LimitOrder(500_000_000, 41)
	o2, sig2, h2 := e.LimitOrder(300_000_000, 42)
	e.submit(o1, sig1, h1)
	e.submit(o2, sig2, h2)
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o1, sig1, 100_000_000))
	e.syncAll(ix)
	parent := e.Head()
	// One sender, so the re-mined block keeps their order.
	if _, err := e.Send(e.Maker, e.D.Router, e.Router.PackCancel(o1)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Send(e.Maker, e.D.Router, e.Router.PackInvalidateNonce(big.NewInt(42))); err != nil {
		t.Fatal(err)
	}
	e.Sim.Commit()
	cancelBlock := e.Head()
	e.syncAll(ix)
	for _, h := range []common.Hash{h1, h2} {
		if rec, _, _ := e.orders.Load(h); rec.Status != orderstore.StatusCancelled {
			t.Fatalf("%s after the cancels: %s", h, rec.Status)
		}
	}

	e.forkDrop(parent, cancelBlock.Number.Uint64())
	if n := e.step(ix); n != 1 {
		t.Fatalf("first step after the fork did %d blocks, want the one rewind", n)
	}
	r1, _, _ := e.orders.Load(h1)
	r2, _, _ := e.orders.Load(h2)
	if r1.Status != orderstore.StatusActive || r1.FilledIn.Dec() != "100000000" || r1.Executions != 1 || r2.Status != orderstore.StatusPending {
		t.Fatalf("after the rewind: %s %s/%d, %s", r1.Status, r1.FilledIn.Dec(), r1.Executions, r2.Status)
	}
	e.consistent()
	// An off-chain cancel is final: Resync with no chain cancel keeps it.
	o3, sig3, h3 := e.LimitOrder(200_000_000, 43)
	e.submit(o3, sig3, h3)
	if err := e.registry.Cancel(context.Background(), h3); err != nil {
		t.Fatal(err)
	}
	if res, err := e.registry.Resync(context.Background(), h3, chainstore.View{}, time.Now()); err != nil || res.Err != nil || res.Changed || res.Record.Status != orderstore.StatusCancelled {
		t.Fatalf("resync of an off-chain cancel: %+v %v", res, err)
	}

	e.syncAll(ix)
	for _, h := range []common.Hash{h1, h2} {
		if rec, _, _ := e.orders.Load(h); rec.Status != orderstore.StatusCancelled {
			t.Fatalf("%s after the re-mined cancels: %s", h, rec.Status)
		}
	}
	got := e.events()
	if count(got, "order.cancelled", h1) != 1 || count(got, "order.cancelled", h2) != 1 || count(got, "order.filled", h1) != 1 || len(got) != 4 {
		t.Fatalf("outbox %v, want one order.filled and one order.cancelled each (and the off-chain one)", got)
	}
	e.consistent()
}

// An on-chain arm (the router's activate) moves a pending order to active
// without an event, after which the off-chain cancel answers
// NOT_CANCELLABLE. A reorg that removes the arm's block moves the order
// back to pending (Resync, no event), and the re-mined activation makes it
// active again, still without an event.
func TestReorgRollsBackProjectedActivation(t *testing.T) {
	e := newProjEnv(t)
	ix := stepIndexer(t, e)
	o, sig, h := e.LimitOrder(1_000_000_000, 81)
	e.submit(o, sig, h)
	e.syncAll(ix)
	parent := e.Head()
	arm := e.MustSend(e.Keeper, e.D.Router, e.Router.PackActivate(o, sig))
	armBlock := e.Head()
	e.syncAll(ix)
	rec, _, _ := e.orders.Load(h)
	if rec.Status != orderstore.StatusActive || rec.FilledIn.Dec() != "0" || rec.Executions != 0 {
		t.Fatalf("after the arm: %+v", rec)
	}
	if err := e.registry.Cancel(context.Background(), h); orderengine.AsError(err).Code != orderengine.CodeNotCancellable {
		t.Fatalf("off-chain cancel of an active order: %v", err)
	}
	maker := rec.Order.Maker

	e.forkDrop(parent, armBlock.Number.Uint64())
	if n := e.step(ix); n != 1 {
		t.Fatalf("first step after the fork did %d blocks, want the one rewind", n)
	}
	if rec, _, _ = e.orders.Load(h); rec.Status != orderstore.StatusPending {
		t.Fatalf("after the rewind: %s, want pending", rec.Status)
	}
	if !e.listed(h, maker, orderstore.StatusPending) || e.listed(h, maker, orderstore.StatusActive) {
		t.Fatal("status index entries did not move back to pending")
	}
	e.consistent()

	e.syncAll(ix)
	if r, err := e.Client.TransactionReceipt(e.Ctx, arm.TxHash); err != nil || r.BlockHash == armBlock.Hash() {
		t.Fatalf("the node did not re-include the arm on the new branch: %+v %v", r, err)
	}
	if rec, _, _ = e.orders.Load(h); rec.Status != orderstore.StatusActive {
		t.Fatalf("after the re-mined arm: %s", rec.Status)
	}
	if got := e.events(); len(got) != 0 {
		t.Fatalf("outbox %v, want no event for activations", got)
	}
	e.consistent()
}
