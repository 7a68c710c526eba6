package persistence_test

import (
	"context"
	"errors"
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

// TestSharedConflictsGiveUp: a shared write that keeps conflicting gives
// up with SERVICE_UNAVAILABLE after its attempts.
func TestSharedConflictsGiveUp(t *testing.T) {
	s, log := persistencetest.SharedStore(t)
	var apiErr *orderengine.Error
	stale := 0
	err := s.UpdateShared(context.Background(), "accounts", func(tx *persistence.SharedTx) error {
		stale++
		log.Rev++
		return tx.Commit(context.Background(), func(b *pebble.Batch) error {
			return b.Set([]byte(persistence.PrefixAccount+"acc_y"), []byte("{}"), nil)
		})
	})
	if !errors.As(err, &apiErr) || apiErr.Code != orderengine.CodeServiceUnavailable || stale != persistence.SharedAttempts {
		t.Fatalf("endless conflicts: %v after %d runs", err, stale)
	}
}
