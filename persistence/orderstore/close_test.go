package orderstore

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

// TestCommitsRacingCloseAreRefusedNotPanicking: order changes with events
// (the order actors' path, which may still run when the store closes at
// shutdown) committed concurrently with Close either succeed, and are
// durable, or get the store-closed error; none reaches the closed Pebble,
// which panics.
func TestCommitsRacingCloseAreRefusedNotPanicking(t *testing.T) {
	dir := t.TempDir()
	s := persistencetest.Open(t, dir)
	ob := persistence.NewOutbox(s, nil, nil)
	o := New(s, ob)
	const writers, each = 8, 400
	var (
		mu    sync.Mutex
		acked []common.Hash
		wg    sync.WaitGroup
	)
	started := make(chan struct{}, writers*each)
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				rec := testRecord(w*each+i, StatusPending)
				rec.AccountID = "acc_close"
				var events []persistence.OutboxEvent
				if i%2 == 0 {
					events = []persistence.OutboxEvent{{Trigger: persistence.TriggerOrderCancelled}}
				}
				err := o.AppendOrder(context.Background(), &Transition{Record: rec, Events: events})
				if err != nil {
					if !errors.Is(err, persistence.ErrStoreClosed) {
						errs <- err
					}
					return
				}
				mu.Lock()
				acked = append(acked, rec.Hash)
				mu.Unlock()
				started <- struct{}{}
			}
		})
	}
	for range writers * 10 { // close in the middle of the writes
		<-started
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("commit racing Close: %v", err)
	}
	s = persistencetest.Open(t, dir)
	defer s.Close()
	o = New(s, nil)
	for _, h := range acked {
		if _, ok, err := o.Load(h); err != nil || !ok {
			t.Fatalf("order %s committed before Close is gone after reopening (%v)", h.Hex(), err)
		}
	}
	if len(acked) == writers*each {
		t.Fatal("every commit succeeded: Close did not race them")
	}
}
