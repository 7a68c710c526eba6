package orderstore

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine/persistence"
)

// Migrations are the order records' schema steps, for
// persistence.Options.Migrations:
//
//	1 → 2: the list indexes without a status (masks 0, maker, type,
//	       maker+type) are dropped: lists merge the status ranges instead
//	       (keys.go). Their keys are deleted.
//	2 → 3: order records (o/) move from the API's JSON (legacy.go) to the
//	       record codec (codec.go), at journal version 1. Records already
//	       in codec 1 (a step interrupted earlier) are left alone.
var Migrations = []persistence.Migration{
	{From: 1, Name: "status-less order indexes dropped", Run: dropStatuslessIndexes},
	{From: 2, Name: "order records re-encoded", Run: migrateCodec},
}

// dropStatuslessIndexes deletes the index keys of the masks without a
// status, by range, in one synced batch; it returns 0 (a range deletion
// does not count its keys).
func dropStatuslessIndexes(s *persistence.Store) (int, error) {
	b := s.DB().NewBatch()
	defer b.Close()
	for _, mask := range []byte{0, IndexMaker, IndexType, IndexMaker | IndexType} {
		p := append([]byte(persistence.PrefixIndex), mask)
		if err := b.DeleteRange(p, persistence.PrefixUpperBound(p), nil); err != nil {
			return 0, err
		}
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return 0, fmt.Errorf("persistence: drop the status-less order indexes: %w", err)
	}
	return 0, nil
}

// migrateCodec re-encodes every legacy JSON order record with codec 1, in
// synced batches of a few thousand, and returns how many it rewrote.
func migrateCodec(s *persistence.Store) (int, error) {
	return s.RewritePrefix([]byte(persistence.PrefixOrder), 4096, func(b *pebble.Batch, key, v []byte) (bool, error) {
		if len(v) > 0 && v[0] == orderCodec1 {
			return false, nil
		}
		rec, err := decodeLegacyOrder(v)
		if err != nil {
			return false, fmt.Errorf("persistence: migrate order %x: %w", key, err)
		}
		return true, b.Set(key, appendOrder(nil, rec), nil)
	})
}
