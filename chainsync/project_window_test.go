package chainsync

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence/orderstore"
)

// The indexer and the projector run on their own goroutines, and the
// indexer prunes the block records (c/b/) older than recentBlocks in the
// commit of each new block. When the projector falls further behind than
// that (a backfill after downtime applies up to maxBlocksPerStep blocks in
// one step; a crash between the indexer's commit and the projection
// followed by a long outage), the records of the blocks it has not
// projected are gone: their fills, activations, cancels and nonce
// invalidations must still reach the order records, exactly once.
func TestProjectorCatchesUpPastThePrunedWindow(t *testing.T) {
	e := newProjEnv(t)
	const window = 8 // lifecycle.recentBlocks (256 by default)
	ix, err := New(e.Client, e.store, nil, Options{Router: e.D.Router, StartBlock: e.D.Block, RecentBlocks: window,
		Observers: []Observer{e.proj}})
	if err != nil {
		t.Fatal(err)
	}
	partial, sigP, hPartial := e.LimitOrder(1_000_000_000, 71)
	full, sigF, hFull := e.LimitOrder(2_000_000_000, 72)
	cancel, sigC, hCancel := e.LimitOrder(3_000_000_000, 73)
	inv, sigI, hInv := e.LimitOrder(4_000_000_000, 74)
	armed, sigA, hArmed := e.LimitOrder(5_000_000_000, 75)
	e.submit(partial, sigP, hPartial)
	e.submit(full, sigF, hFull)
	e.submit(cancel, sigC, hCancel)
	e.submit(inv, sigI, hInv)
	e.submit(armed, sigA, hArmed)
	ctx := context.Background()
	sync1(t, ix)
	if err := e.proj.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	projected, _ := ix.Chain().Projected()

	// The chain moves on while the projector does not run.
	r1 := e.MustSend(e.Keeper, e.D.Router, e.FillData(partial, sigP, 400_000_000))
	r2 := e.MustSend(e.Keeper, e.D.Router, e.FillData(full, sigF, 2_000_000_000))
	rc := e.MustSend(e.Maker, e.D.Router, e.Router.PackCancel(cancel))
	ri := e.MustSend(e.Maker, e.D.Router, e.Router.PackInvalidateNonce(big.NewInt(74)))
	e.MustSend(e.Keeper, e.D.Router, e.Router.PackActivate(armed, sigA))
	for range 2 * window {
		e.Sim.Commit()
	}
	sync1(t, ix)
	if _, kept, _ := ix.Chain().Block(r1.BlockNumber.Uint64()); kept {
		t.Fatal("the fill's block is still remembered: the test does not reach past the window")
	}
	if p, _ := ix.Chain().Projected(); p != projected {
		t.Fatalf("projection cursor moved to %d without the projector", p)
	}

	// A restart: a fresh projector catches up (twice: idempotent).
	fresh := NewProjector(ix.Chain(), e.orders, e.registry, ProjectorOptions{})
	for range 2 {
		if err := fresh.CatchUp(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if p, _ := ix.Chain().Projected(); p != e.Head().Number.Uint64() {
		t.Fatalf("projection cursor %d, head %d", p, e.Head().Number)
	}
	for _, c := range []struct {
		name     string
		h        common.Hash
		status   orderstore.Status
		filledIn string
		execs    uint32
	}{
		{"partly filled", hPartial, orderstore.StatusActive, "400000000", 1},
		{"filled", hFull, orderstore.StatusFilled, "2000000000", 1},
		{"cancelled on-chain", hCancel, orderstore.StatusCancelled, "0", 0},
		{"nonce invalidated", hInv, orderstore.StatusCancelled, "0", 0},
		{"activated on-chain", hArmed, orderstore.StatusActive, "0", 0},
	} {
		rec, _, _ := e.orders.Load(c.h)
		if rec.Status != c.status || rec.FilledIn.Dec() != c.filledIn || rec.Executions != c.execs {
			t.Errorf("%s order: %s %s/%d, want %s %s/%d", c.name, rec.Status, rec.FilledIn.Dec(), rec.Executions,
				c.status, c.filledIn, c.execs)
		}
	}
	got := e.events()
	want := map[string]int{
		"order.filled " + hPartial.Hex()[:10]: 1, "order.filled " + hFull.Hex()[:10]: 1,
		"order.cancelled " + hCancel.Hex()[:10]: 1, "order.cancelled " + hInv.Hex()[:10]: 1,
	}
	seen := map[string]int{}
	for _, ev := range got {
		seen[ev]++
	}
	if len(got) != 4 || len(seen) != len(want) {
		t.Fatalf("outbox %v, want %v", got, want)
	}
	for k, n := range want {
		if seen[k] != n {
			t.Fatalf("outbox %v, want %v", got, want)
		}
	}
	// The on-chain cancels carry their transactions.
	entries, _ := e.outbox.Scan("acc", 0, 100)
	for _, en := range entries {
		h := common.HexToHash(en.Event.Data.OrderHash)
		switch {
		case h == hCancel && en.Event.Data.TxHash != rc.TxHash.Hex(), h == hInv && en.Event.Data.TxHash != ri.TxHash.Hex(),
			h == hFull && en.Event.Data.TxHash != r2.TxHash.Hex():
			t.Errorf("%s of %s: txHash %s", en.Event.Trigger, h.Hex()[:10], en.Event.Data.TxHash)
		}
	}
	e.consistent()
}
