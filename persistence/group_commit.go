package persistence

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"sync"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
)

// groupCommitter makes many small writes durable together: each caller
// hands its keys and values to Write and waits; one goroutine takes
// everything queued, writes it as one batch with its keys sorted, and
// applies it with Sync without waiting for the fsync; a second goroutine
// waits for each batch's fsync and answers its callers. So the next batch
// is built and applied while the previous one's fsync runs.
//
// Why not one Pebble batch per caller (Pebble groups their fsyncs too):
// a new order's five keys cost ~12 µs of memtable inserts, most of it
// cache misses walking the skiplist from its head. Sorted, the keys of a
// round land next to each other (the index keys of new orders all end
// their ranges, being time-ordered), and Pebble's inserter starts each
// search from the previous key's splice. One batch per round also skips
// the commit pipeline's per-batch work. docs/performance.md, "Orders",
// has the measurements.
//
// How much a round holds depends on the load: at 64 connections of the
// submit benchmark the apply goroutine keeps up and a round averages 1.5
// writes (Pebble's WAL writer still groups ≈ 20 of them per fsync); bursts
// make bigger rounds. Applying a round only after the previous round's
// fsync (bigger rounds) measured slower (docs/performance.md, "Orders").
//
// A write is durable when Write returns nil; when the batch fails, every
// write of it gets the error and none is durable (one batch, one WAL
// record). Writes of the same key in one round keep their order.
//
// A write may carry a precondition (WriteIf): the committer goroutine
// evaluates it, in queue order, before the write joins the round, against
// the store as the previous rounds left it and what the round itself has
// accepted so far (GroupRound). A write whose precondition fails is
// answered with that error and writes nothing; this is how the order
// journal's version check (persistence/orderstore) is atomic with the
// write.
type groupCommitter struct {
	db    *pebble.DB
	watch *walWatch

	mu     sync.Mutex
	queue  []*groupWrite
	closed bool
	wake   chan struct{} // one token: the queue is not empty, or closed

	applied chan appliedRound
	done    chan struct{} // closed when both goroutines have ended
}

// groupWrite is one caller's writes and their precondition (nil: none).
type groupWrite struct {
	ops   []groupOp
	check func(*GroupRound) error
	done  chan error
}

// GroupRound is what a precondition of WriteGroup sees: the store after
// the previous rounds (applied, possibly not yet synced: a failed sync
// fails the store, walwatch.go) and the versions of records that the
// writes accepted earlier in this round set (the order journal's: two
// appends of one order in a round see each other).
type GroupRound struct {
	db       *pebble.DB
	versions map[common.Hash]uint64
}

// Get reads key from the store as the previous rounds left it; ok is
// false when absent.
func (r *GroupRound) Get(key []byte) (value []byte, ok bool, err error) { return ReaderGet(r.db, key) }

// Version returns the version that a write accepted earlier in this round
// set for the record with hash h (seen false: none did).
func (r *GroupRound) Version(h common.Hash) (version uint64, seen bool) {
	version, seen = r.versions[h]
	return version, seen
}

// SetVersion records that the write being checked sets the record with
// hash h to version, for the preconditions after it in this round.
func (r *GroupRound) SetVersion(h common.Hash, version uint64) { r.versions[h] = version }

// groupOp sets key to value, or deletes key.
type groupOp struct {
	key, value []byte
	del        bool
}

// Writer is where the keys of a write go: a Pebble batch, or GroupOps for
// WriteGroup.
type Writer interface {
	Set(key, value []byte, _ *pebble.WriteOptions) error
	Delete(key []byte, _ *pebble.WriteOptions) error
}

// GroupOps collects the sets and deletes of one WriteGroup, in order. The
// keys and values must not change until the write returns.
type GroupOps []groupOp

// Set implements Writer.
func (l *GroupOps) Set(key, value []byte, _ *pebble.WriteOptions) error {
	*l = append(*l, groupOp{key: key, value: value})
	return nil
}

// Delete implements Writer.
func (l *GroupOps) Delete(key []byte, _ *pebble.WriteOptions) error {
	*l = append(*l, groupOp{key: key, del: true})
	return nil
}

// WriteGroup makes ops durable, atomically, in a round of the group
// committer once check (nil: none) passes, run by the committer's
// goroutine in queue order; it returns check's error, with nothing
// written, when it does not, and ErrStoreClosed once the store is closed.
// A caller that reads the store to build ops holds Enter meanwhile.
func (s *Store) WriteGroup(ops GroupOps, check func(*GroupRound) error) error {
	return s.group.WriteIf(ops, check)
}

type appliedRound struct {
	b      *pebble.Batch
	writes []*groupWrite
	err    error
}

// ErrStoreClosed answers the writes that come once Close has begun:
// nothing was written.
var ErrStoreClosed = errors.New("persistence: store is closed")

func newGroupCommitter(db *pebble.DB, watch *walWatch) *groupCommitter {
	g := &groupCommitter{db: db, watch: watch, wake: make(chan struct{}, 1), applied: make(chan appliedRound, 64), done: make(chan struct{})}
	go g.run()
	return g
}

// Write makes ops durable, atomically, and returns nil once they are.
func (g *groupCommitter) Write(ops []groupOp) error { return g.WriteIf(ops, nil) }

// WriteIf is Write once check (run by the committer goroutine) passes; it
// returns check's error, with nothing written, when it does not.
func (g *groupCommitter) WriteIf(ops []groupOp, check func(*GroupRound) error) error {
	w := writePool.Get().(*groupWrite)
	w.ops, w.check = ops, check
	defer func() {
		w.ops, w.check = nil, nil
		writePool.Put(w)
	}()
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return ErrStoreClosed
	}
	g.queue = append(g.queue, w)
	first := len(g.queue) == 1
	g.mu.Unlock()
	if first {
		select {
		case g.wake <- struct{}{}:
		default:
		}
	}
	return <-w.done
}

// writePool recycles groupWrites with their channel: a write is answered
// once, and neither goroutine touches it after the answer.
var writePool = sync.Pool{New: func() any { return &groupWrite{done: make(chan error, 1)} }}

// close answers the queued writes, stops both goroutines and waits for
// them. Writes after it get ErrStoreClosed.
func (g *groupCommitter) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	select {
	case g.wake <- struct{}{}:
	default:
	}
	<-g.done
}

// run builds and applies a batch per round; the syncer goroutine answers.
func (g *groupCommitter) run() {
	syncerDone := make(chan struct{})
	go g.syncer(syncerDone)
	var ops []sortedOp
	for range g.wake {
		g.mu.Lock()
		writes := g.queue
		g.queue = nil
		closed := g.closed
		g.mu.Unlock()
		writes = g.admit(writes)
		if len(writes) > 0 {
			var r appliedRound
			r.writes = writes
			r.b, ops, r.err = g.apply(writes, ops[:0])
			g.applied <- r
		}
		if closed {
			break
		}
	}
	close(g.applied)
	<-syncerDone
	close(g.done)
}

// admit evaluates the preconditions of a round's writes in queue order,
// answers those that fail, and returns the rest. Once the store has failed
// every write is kept: apply answers them all with the failure.
func (g *groupCommitter) admit(writes []*groupWrite) []*groupWrite {
	if g.watch.Err() != nil {
		return writes
	}
	var round *GroupRound
	kept := writes[:0]
	for _, w := range writes {
		if w.check != nil {
			if round == nil {
				round = &GroupRound{db: g.db, versions: make(map[common.Hash]uint64)}
			}
			if err := w.check(round); err != nil {
				w.done <- err
				continue
			}
		}
		kept = append(kept, w)
	}
	return kept
}

// sortedOp is an op with its place in the round, so equal keys keep
// their order.
type sortedOp struct {
	op  *groupOp
	seq int
}

// apply writes the round's ops, sorted by key, to one batch and applies it
// with Sync without waiting for the fsync. Nothing is applied once the
// store has failed (walwatch.go).
func (g *groupCommitter) apply(writes []*groupWrite, ops []sortedOp) (*pebble.Batch, []sortedOp, error) {
	if err := g.watch.Err(); err != nil {
		return g.db.NewBatch(), ops, err
	}
	for _, w := range writes {
		for i := range w.ops {
			ops = append(ops, sortedOp{op: &w.ops[i], seq: len(ops)})
		}
	}
	slices.SortFunc(ops, func(a, b sortedOp) int {
		if c := bytes.Compare(a.op.key, b.op.key); c != 0 {
			return c
		}
		return a.seq - b.seq
	})
	kv := 0
	for _, o := range ops {
		kv += len(o.op.key) + len(o.op.value)
	}
	b := g.db.NewBatchWithSize(BatchBytes(len(ops), kv))
	for _, o := range ops {
		var err error
		if o.op.del {
			err = b.Delete(o.op.key, nil)
		} else {
			err = b.Set(o.op.key, o.op.value, nil)
		}
		if err != nil {
			return b, ops, err
		}
	}
	return b, ops, g.db.ApplyNoSyncWait(b, pebble.Sync)
}

// BatchBytes is the size of a Pebble batch of n entries whose keys and
// values total kv bytes: the batch header, and per entry its kind and two
// length varints at most. A batch made with this size
// (pebble.DB.NewBatchWithSize) is built without growing its buffer, which
// starts at 1 KiB and doubles: four or five times for a webhook shard's
// batch under load, or a burst's round of new orders.
func BatchBytes(n, kv int) int { return batchHeader + n*(1+2*binary.MaxVarintLen32) + kv }

// batchHeader is the size of a Pebble batch's header (sequence number and
// count).
const batchHeader = 12

// syncer waits for each applied batch's fsync and answers its writes.
func (g *groupCommitter) syncer(done chan struct{}) {
	defer close(done)
	for r := range g.applied {
		err := r.err
		if err == nil {
			err = r.b.SyncWait()
		}
		_ = r.b.Close()
		for _, w := range r.writes {
			w.done <- err
		}
	}
}
