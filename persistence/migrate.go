package persistence

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// migrate brings a store written by an older binary to SchemaVersion, one
// step at a time, before anything else reads it. The steps are the domain
// stores', given to OpenWith in Options.Migrations; once a step returns,
// a synced batch sets the new schema version. A step interrupted by a
// crash runs again at the next start and must therefore be idempotent.
//
//	1 → 2: the list indexes without a status (masks 0, maker, type,
//	       maker+type) are dropped: lists merge the status ranges instead.
//	       Their keys are deleted (orderstore.Migrations).
//	2 → 3: order records (o/) move from the API's JSON to the record
//	       codec, at journal version 1. Records already in codec 1 (a
//	       step interrupted earlier) are left alone
//	       (orderstore.Migrations).
//	3 → 4: the platform records are built from what the store holds:
//	       q/ from the referral bindings r/, p/ from the swap and order
//	       records (chainstore.Migrations).
//	4 → 5: webhook records move to the layout of webhookstore:
//	       endpoints by id with an account index; deliveries by event and
//	       endpoint in codec 1, without their body, which is stored once
//	       per event (webhookstore.Migrations). Old rows are deleted in
//	       the batch that writes their replacement.
//	5 → 6: the event outbox becomes a cursor over the event log
//	       (outbox.go, this package's own step: outboxToCursors).
func (s *Store) migrate(from uint32) error {
	for v := from; v < SchemaVersion; v++ {
		m, ok := coreSteps[v]
		if !ok {
			m, ok = s.migrations[v]
		}
		if !ok {
			if records, known := domainSteps[v]; known {
				return fmt.Errorf("persistence: the store has schema version %d; its migration to %d (%s) was not given to Open", v, v+1, records)
			}
			return fmt.Errorf("persistence: no migration from schema version %d", v)
		}
		n, err := m.Run(s)
		if err != nil {
			return err
		}
		s.log.Info("store records migrated", "step", m.Name, "count", n)
		var buf [4]byte
		binary.BigEndian.PutUint32(buf[:], v+1)
		if err := s.db.Set(schemaKey(), buf[:], pebble.Sync); err != nil {
			return fmt.Errorf("persistence: migrate schema %d to %d: %w", v, v+1, err)
		}
		s.log.Info("store migrated", "from", v, "to", v+1)
	}
	return nil
}

// RewritePrefix is the loop of a schema step that rewrites records in
// place: it passes every record under prefix to fn, in key order, a chunk
// of records at a time, and commits each chunk's writes as one synced
// batch. fn adds to b what replaces the record at key (value is valid
// only during the call) and reports whether it rewrote it; it leaves
// alone a record already in its new form, so that a step a crash
// interrupted runs again to the same result. RewritePrefix returns how
// many records fn rewrote; at fn's first error, returned as it is, it
// stops with the chunks before committed and that chunk not.
func (s *Store) RewritePrefix(prefix []byte, chunk int, fn func(b *pebble.Batch, key, value []byte) (rewritten bool, err error)) (int, error) {
	n := 0
	var after []byte
	for {
		lower := prefix
		if after != nil {
			lower = append(bytes.Clone(after), 0)
		}
		it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: PrefixUpperBound(prefix)})
		if err != nil {
			return n, err
		}
		b := s.db.NewBatch()
		rows := 0
		for ok := it.First(); ok && rows < chunk; ok = it.Next() {
			after = append(after[:0], it.Key()...)
			rows++
			v, err := it.ValueAndErr()
			var rewritten bool
			if err == nil {
				rewritten, err = fn(b, it.Key(), v)
			}
			if err != nil {
				_ = it.Close()
				_ = b.Close()
				return n, err
			}
			if rewritten {
				n++
			}
		}
		if err := it.Close(); err != nil {
			_ = b.Close()
			return n, err
		}
		if err := b.Commit(pebble.Sync); err != nil {
			_ = b.Close()
			return n, fmt.Errorf("persistence: rewrite the records under %q: %w", prefix, err)
		}
		_ = b.Close()
		if rows < chunk {
			return n, nil
		}
	}
}

// domainSteps name the records of the steps that the domain stores give
// in Options.Migrations, by the version they migrate from.
var domainSteps = map[uint32]string{
	1: "the order records, persistence/orderstore",
	2: "the order records, persistence/orderstore",
	3: "the platform records, persistence/chainstore",
	4: "the webhook records, persistence/webhookstore",
}

// coreSteps are the schema steps of this package's own records, by the
// version they migrate from.
var coreSteps = map[uint32]Migration{
	5: {From: 5, Name: "the event outbox becomes a cursor over the event log", Run: outboxToCursors},
}

// outboxToCursors replaces the outbox rows of schema 5 (e/<accountID>/<seq>,
// the event's JSON, deleted once handed on) with one cursor per account
// (e/<accountID>): at the account's lowest row left, or, when none is
// left, after its highest logged event. A row whose log row is gone (the
// log's window passed it) is logged again, so no event waiting for the
// fan-out is lost. Each account's rows, log rows and cursor are one synced
// batch; an account that already has a cursor keeps it, so a run a crash
// interrupted runs again to the same result.
func outboxToCursors(s *Store) (int, error) {
	p := []byte(PrefixOutbox)
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: PrefixUpperBound(p)})
	if err != nil {
		return 0, err
	}
	type row struct {
		seq   uint64
		value []byte
	}
	pending := map[string][]row{}
	for ok := it.First(); ok; ok = it.Next() {
		acct, seq, isRow := splitSeqKey(PrefixOutbox, it.Key())
		if !isRow {
			continue // a cursor
		}
		v, err := it.ValueAndErr()
		if err != nil {
			_ = it.Close()
			return 0, err
		}
		pending[acct] = append(pending[acct], row{seq, bytes.Clone(v)})
	}
	if err := it.Close(); err != nil {
		return 0, err
	}
	n := 0
	stamp := binary.BigEndian.AppendUint64(nil, uint64(time.Now().UnixNano()))
	for acct, rows := range pending {
		err := func() error {
			b := s.db.NewBatch()
			defer b.Close()
			for _, r := range rows {
				_, logged, err := s.Get(eventLogKey(acct, r.seq))
				if err != nil {
					return err
				}
				if !logged {
					if err := b.Set(eventLogKey(acct, r.seq), append(bytes.Clone(stamp), r.value...), nil); err != nil {
						return err
					}
				}
				if err := b.Delete(outboxRowKey(acct, r.seq), nil); err != nil {
					return err
				}
			}
			if err := b.Set(OutboxCursorKey(acct), OutboxCursorValue(rows[0].seq), nil); err != nil {
				return err
			}
			return b.Commit(pebble.Sync)
		}()
		if err != nil {
			return n, fmt.Errorf("persistence: outbox rows of %s to a cursor: %w", acct, err)
		}
		n += len(rows)
	}
	// The accounts without rows left had every logged event handed on.
	b := s.db.NewBatch()
	defer b.Close()
	err = lastLogged(s.db, func(acct string, last uint64) error {
		_, has, err := s.Get(OutboxCursorKey(acct))
		if err != nil || has {
			return err
		}
		return b.Set(OutboxCursorKey(acct), OutboxCursorValue(last+1), nil)
	})
	if err != nil {
		return n, err
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return n, fmt.Errorf("persistence: outbox cursors: %w", err)
	}
	return n, nil
}

// outboxRowKey is the key of an outbox row of schema 5: e/<accountID>/<seq>.
func outboxRowKey(accountID string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte(PrefixOutbox+accountID+"/"), seq)
}
