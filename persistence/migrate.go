package persistence

import (
	"encoding/binary"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// migrate brings a store written by an older binary to SchemaVersion, one
// step at a time, before anything else reads it. A step's last synced
// batch sets the new schema version; a step interrupted by a crash runs
// again at the next start and must therefore be idempotent.
//
//	1 → 2: the list indexes without a status (masks 0, maker, type,
//	       maker+type) are dropped: lists merge the status ranges instead
//	       (orders.go). Their keys are deleted.
//	2 → 3: order records (o/) move from the API's JSON to the record
//	       codec (order_codec.go), at journal version 1. Records already
//	       in codec 1 (a step interrupted earlier) are left alone.
//	3 → 4: the platform records are built from what the store holds:
//	       q/ from the referral bindings r/ (Orders.BuildReferees), p/
//	       from the swap and order records (chainstore.Migrations, given
//	       in Options).
//	4 → 5: webhook records move to the layout of webhookstore:
//	       endpoints by id with an account index; deliveries by event and
//	       endpoint in codec 1, without their body, which is stored once
//	       per event (webhookstore.Migrations, given in Options). Old rows
//	       are deleted in the batch that writes their replacement.
func (s *Store) migrate(from uint32) error {
	for v := from; v < SchemaVersion; v++ {
		b := s.db.NewBatch()
		switch v {
		case 3, 4:
			m, ok := s.migrations[v]
			if !ok {
				_ = b.Close()
				return fmt.Errorf("persistence: the store has schema version %d; its migration to %d (%s) was not given to Open", v, v+1, domainSteps[v])
			}
			n, err := m.Run(s)
			if err != nil {
				_ = b.Close()
				return err
			}
			s.log.Info("store records migrated", "step", m.Name, "count", n)
		case 2:
			n, err := s.migrateOrderCodec()
			if err != nil {
				_ = b.Close()
				return err
			}
			s.log.Info("order records re-encoded", "count", n)
		case 1:
			for _, mask := range []byte{0, IndexMaker, IndexType, IndexMaker | IndexType} {
				p := append([]byte(ordPrefixIndex), mask)
				if err := b.DeleteRange(p, PrefixUpperBound(p), nil); err != nil {
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

// domainSteps name the records of the steps that domain stores give in
// Options.Migrations, by the version they migrate from.
var domainSteps = map[uint32]string{
	3: "the platform records, persistence/chainstore",
	4: "the webhook records, persistence/webhookstore",
}

// migrateOrderCodec re-encodes every legacy JSON order record with codec 1,
// in synced batches of a few thousand, and returns how many it rewrote.
func (s *Store) migrateOrderCodec() (int, error) {
	const chunk = 4096
	n := 0
	var after []byte
	for {
		lower := []byte(ordPrefixOrder)
		if after != nil {
			lower = append(after, 0)
		}
		it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: PrefixUpperBound([]byte(ordPrefixOrder))})
		if err != nil {
			return n, err
		}
		b := s.db.NewBatch()
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
