package persistence

import (
	"encoding/binary"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// migrate brings a store written by an older binary to SchemaVersion, in
// one synced batch per step, before anything else reads it.
//
//	1 → 2: the list indexes without a status (masks 0, maker, type,
//	       maker+type) are dropped: lists merge the status ranges instead
//	       (orders.go). Their keys are deleted.
func (s *Store) migrate(from uint32) error {
	for v := from; v < SchemaVersion; v++ {
		b := s.db.NewBatch()
		switch v {
		case 1:
			for _, mask := range []byte{0, IndexMaker, IndexType, IndexMaker | IndexType} {
				p := append([]byte(ordPrefixIndex), mask)
				if err := b.DeleteRange(p, prefixUpperBound(p), nil); err != nil {
					_ = b.Close()
					return err
				}
			}
		default:
			_ = b.Close()
			return fmt.Errorf("persistence: no migration from schema version %d", v)
		}
		var buf [4]byte
		binary.BigEndian.PutUint32(buf[:], v+1)
		if err := b.Set(schemaKey(), buf[:], nil); err != nil {
			_ = b.Close()
			return err
		}
		if err := b.Commit(pebble.Sync); err != nil {
			_ = b.Close()
			return fmt.Errorf("persistence: migrate schema %d to %d: %w", v, v+1, err)
		}
		_ = b.Close()
		s.log.Info("store migrated", "from", v, "to", v+1)
	}
	return nil
}
