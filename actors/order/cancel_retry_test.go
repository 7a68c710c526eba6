package order

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// TestCancelDeliveredAgainSucceeds: a cancel request delivered a second
// time (a cluster's placement repeats an attempt whose owner died after
// it recorded the cancel) answers success, and from a passivated actor
// that reloads the ledger too; another cancel request of the cancelled
// order is NOT_CANCELLABLE, and the order is cancelled once.
func TestCancelDeliveredAgainSucceeds(t *testing.T) {
	r, changes := openTestRegistry(t, false)
	ctx := context.Background()
	rec := testRecord(0)
	if err := r.Create(ctx, rec, nil); err != nil {
		t.Fatal(err)
	}
	cancel := func(id common.Hash) error {
		res, err := r.request(ctx, rec.Hash, &CancelRequest{ID: id})
		if err != nil {
			return err
		}
		return res.Err
	}
	id := common.HexToHash("0x01")
	if err := cancel(id); err != nil {
		t.Fatalf("first delivery: %v", err)
	}
	if err := cancel(id); err != nil {
		t.Fatalf("the same request delivered again: %v", err)
	}
	if _, err := r.Passivate(ctx, rec.Hash); err != nil {
		t.Fatal(err)
	}
	if err := cancel(id); err != nil {
		t.Fatalf("the same request delivered to a reloaded actor: %v", err)
	}
	for _, other := range []common.Hash{common.HexToHash("0x02"), {}} {
		if err := cancel(other); orderengine.AsError(err).Code != orderengine.CodeNotCancellable {
			t.Fatalf("another cancel request %s: %v, want NOT_CANCELLABLE", other.Hex(), err)
		}
	}
	got, ok, err := r.opts.Journal.LoadOrder(rec.Hash)
	if err != nil || !ok || got.Status != orderstore.StatusCancelled || got.Version != 2 {
		t.Fatalf("stored %+v %v %v: want cancelled at version 2", got, ok, err)
	}
	if n, ok := changes.Load(rec.Hash.Hex() + " pending>cancelled"); !ok || n.(interface{ Load() int32 }).Load() != 1 {
		t.Fatal("the cancel did not reach the change feed exactly once")
	}
}
