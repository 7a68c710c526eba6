package orderstore

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
)

// Applying a replicated order journal. In a cluster the order transitions
// are messages of replicated logs (cluster/natsjs); every node applies every
// message, in log order, to its own store with the same writes as a local
// AppendOrder (record, index moves, ledger entries, binding, outbox events),
// and stores how far it got in the same batch (j/<log>), so a restart
// resumes exactly after the last message applied.
//
// A transition whose version the store already holds (or a later one) is
// skipped, so applying a message twice changes nothing. The index moves
// start from the stored record's status, whatever the message's Prev says:
// the indexes always match the record.
//
// The batch is committed without waiting for the fsync: the replicated log
// is the durable copy, and Pebble's write-ahead log keeps a prefix of what
// was applied, with its position, after any crash.

// AppliedChange is one transition an ApplyBatch wrote: what the engine's
// change feed is told (the previous status here, 0 for a new order).
type AppliedChange struct {
	Prev   Status
	Record *Record
	Bind   *common.Address
}

// ApplyBatch is one batch of transitions applied from a replicated log. It
// is used by one goroutine: Add the messages in log order, then Commit with
// the position of the last one, then Close.
//
// The batch is a plain (unindexed) Pebble batch: what an Add must know of
// an order the same batch already wrote (its status and version) is kept
// beside it, and every other order is read from the store. A new order
// (version 1) whose hash the store's hash filter has never seen is not
// read at all: the filter has no false negatives once loaded, so most
// creates cost no read.
type ApplyBatch struct {
	o       *Store
	log     string
	b       *pebble.Batch
	written map[common.Hash]appliedHead
	staged  []*persistence.StagedEvents
	changes []AppliedChange
}

// appliedHead is what an ApplyBatch knows of an order it wrote.
type appliedHead struct {
	status  Status
	version uint64
}

// BeginApply starts a batch of replicated transitions of log.
func (o *Store) BeginApply(log string) *ApplyBatch {
	return &ApplyBatch{o: o, log: log, b: o.store.DB().NewBatch()}
}

// Add writes t, the log's message seq, to the batch unless the store (or
// the batch) already holds its version or a later one; applied reports
// which. A transition that closes the order (a terminal status) is also
// entered in the log's closed orders (d/, Closed), with seq: its
// subject's last message, which the compaction of the log removes once
// every node applied it and its retention passed.
func (a *ApplyBatch) Add(t *Transition, seq uint64) (applied bool, err error) {
	rec := t.Record
	if err := rec.check(); err != nil {
		return false, err
	}
	if len(t.Events) > 0 && a.o.outbox == nil {
		return false, ErrNoOutbox
	}
	prev, version, found, err := a.stored(rec.Hash, rec.Version)
	if err != nil {
		return false, err
	}
	if found && version >= rec.Version {
		return false, nil
	}
	if !found {
		a.o.stored.Add(rec.Hash)
	}
	if a.written == nil {
		a.written = make(map[common.Hash]appliedHead)
	}
	a.written[rec.Hash] = appliedHead{status: rec.Status, version: rec.Version}
	w := *t
	w.Prev = prev
	if err := a.o.writeTransition(a.b, &w, appendOrder(make([]byte, 0, 384), rec)); err != nil {
		return false, fmt.Errorf("persistence: apply order %s: %w", rec.Hash.Hex(), err)
	}
	if rec.Status.Terminal() && !prev.Terminal() {
		if err := a.b.Set(closedKey(a.log, rec.UpdatedAt, rec.Hash), binary.BigEndian.AppendUint64(nil, seq), nil); err != nil {
			return false, fmt.Errorf("persistence: apply order %s: %w", rec.Hash.Hex(), err)
		}
	}
	if len(t.Events) > 0 {
		other, err := a.o.linkedAccount(rec) // the maker's linked account too, as AppendOrder
		if err != nil {
			return false, err
		}
		first, second, err := a.o.outbox.Stage(a.b, rec.AccountID, other, t.Events)
		if err != nil {
			return false, err
		}
		a.staged = append(a.staged, first)
		if second != nil {
			a.staged = append(a.staged, second)
		}
	}
	a.changes = append(a.changes, AppliedChange{Prev: prev, Record: rec, Bind: t.Bind})
	return true, nil
}

// stored returns the status and version of the order h as the batch sees
// it (found false: no record). version is the version being applied: a
// new order (1) that the hash filter proves absent is not read.
func (a *ApplyBatch) stored(h common.Hash, version uint64) (Status, uint64, bool, error) {
	if w, ok := a.written[h]; ok {
		return w.status, w.version, true, nil
	}
	if version == 1 && !a.o.stored.MayContain(h) {
		return 0, 0, false, nil
	}
	v, closer, err := a.o.store.DB().Get(Key(h))
	if err == pebble.ErrNotFound {
		return 0, 0, false, nil
	}
	if err != nil {
		return 0, 0, false, fmt.Errorf("persistence: apply: %w", err)
	}
	defer closer.Close()
	status, stored, err := orderHead(v)
	if err != nil {
		return 0, 0, false, fmt.Errorf("persistence: apply: decode order %s: %w", h.Hex(), err)
	}
	return status, stored, true, nil
}

// Commit writes the batch with the log's position seq and returns the
// changes applied, in order, for the change feed. Events staged are
// settled either way.
func (a *ApplyBatch) Commit(seq uint64) ([]AppliedChange, error) {
	log := a.log
	err := a.b.Set(orderLogKey(log), binary.BigEndian.AppendUint64(nil, seq), nil)
	if err == nil {
		err = a.o.store.Commit(a.b, pebble.NoSync)
	}
	for _, st := range a.staged {
		a.o.outbox.Settle(st, err == nil)
	}
	a.staged = nil
	if err != nil {
		return nil, fmt.Errorf("persistence: apply %s up to %d: %w", log, seq, err)
	}
	return a.changes, nil
}

// Close releases the batch. Events staged and not committed are settled as
// not durable.
func (a *ApplyBatch) Close() {
	for _, st := range a.staged {
		a.o.outbox.Settle(st, false)
	}
	a.staged = nil
	_ = a.b.Close()
}

// LogPosition returns the last message of the replicated order log applied
// to this store (0: none).
func (o *Store) LogPosition(log string) (uint64, error) {
	return o.store.Position(orderLogKey(log))
}

func orderLogKey(log string) []byte { return []byte(persistence.PrefixOrderLog + log) }

// closedKey is the key of order h, closed at t, in log's closed orders.
func closedKey(log string, t time.Time, h common.Hash) []byte {
	k := make([]byte, 0, len(persistence.PrefixClosed)+len(log)+1+8+len(h))
	k = append(k, persistence.PrefixClosed...)
	k = append(k, log...)
	k = append(k, '/')
	k = binary.BigEndian.AppendUint64(k, uint64(t.UnixNano()))
	return append(k, h[:]...)
}

// ClosedOrder is an order closed in a replicated log: when, and the log's
// message that closed it (its subject's last).
type ClosedOrder struct {
	Hash     common.Hash
	ClosedAt time.Time
	Seq      uint64
}

// Closed calls fn with the orders of log closed before before, oldest
// first, until fn returns false or limit were read. They stay listed until
// DropClosed.
func (o *Store) Closed(log string, before time.Time, limit int, fn func(ClosedOrder) bool) error {
	lower := []byte(persistence.PrefixClosed + log + "/")
	upper := binary.BigEndian.AppendUint64(append([]byte(nil), lower...), uint64(before.UnixNano()))
	it, err := o.store.DB().NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return fmt.Errorf("persistence: closed orders of %s: %w", log, err)
	}
	defer it.Close()
	n := 0
	for it.First(); it.Valid() && n < limit; it.Next() {
		k := it.Key()[len(lower):]
		v, err := it.ValueAndErr()
		if err != nil {
			return fmt.Errorf("persistence: closed orders of %s: %w", log, err)
		}
		if len(k) != 8+common.HashLength || len(v) != 8 {
			return fmt.Errorf("persistence: closed orders of %s: a malformed entry", log)
		}
		c := ClosedOrder{ClosedAt: time.Unix(0, int64(binary.BigEndian.Uint64(k))), Hash: common.BytesToHash(k[8:]),
			Seq: binary.BigEndian.Uint64(v)}
		n++
		if !fn(c) {
			break
		}
	}
	return it.Error()
}

// DropClosed removes orders from log's closed orders (their subjects are
// gone from the log).
func (o *Store) DropClosed(log string, closed []ClosedOrder) error {
	if len(closed) == 0 {
		return nil
	}
	b := o.store.DB().NewBatch()
	defer b.Close()
	for _, c := range closed {
		if err := b.Delete(closedKey(log, c.ClosedAt, c.Hash), nil); err != nil {
			return err
		}
	}
	return o.store.Commit(b, pebble.NoSync)
}
