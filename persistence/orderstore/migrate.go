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
	const chunk = 4096
	db := s.DB()
	n := 0
	var after []byte
	for {
		lower := []byte(persistence.PrefixOrder)
		if after != nil {
			lower = append(after, 0)
		}
		it, err := db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: persistence.PrefixUpperBound([]byte(persistence.PrefixOrder))})
		if err != nil {
			return n, err
		}
		b := db.NewBatch()
		rows := 0
		for ok := it.First(); ok && rows < chunk; ok = it.Next() {
			after = append(after[:0], it.Key()...)
			rows++
			v, err := it.ValueAndErr()
			if err != nil {
				_ = it.Close()
				_ = b.Close()
				return n, err
			}
			if len(v) > 0 && v[0] == orderCodec1 {
				continue
			}
			rec, err := decodeLegacyOrder(v)
			if err != nil {
				_ = it.Close()
				_ = b.Close()
				return n, fmt.Errorf("persistence: migrate order %x: %w", it.Key(), err)
			}
			if err := b.Set(it.Key(), appendOrder(nil, rec), nil); err != nil {
				_ = it.Close()
				_ = b.Close()
				return n, err
			}
			n++
		}
		if err := it.Close(); err != nil {
			_ = b.Close()
			return n, err
		}
		if err := b.Commit(pebble.Sync); err != nil {
			_ = b.Close()
			return n, fmt.Errorf("persistence: migrate order records: %w", err)
		}
		_ = b.Close()
		if rows < chunk {
			return n, nil
		}
	}
}
