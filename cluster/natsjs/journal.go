package natsjs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Journal is the order journal (orderstore.Journal) on JetStream:
// one message per transition on the order's subject, published
// conditional on the subject's last sequence (the version the writer
// loaded), acknowledged once a quorum of replicas has it on disk, then
// applied to this node's store by the materialiser before AppendOrder
// returns. It is safe for concurrent use.
//
// The message id is the order hash, the new version and a random nonce of
// this append ("<hash>:<version>:<nonce>"): a retry of the append is
// deduplicated by JetStream, while another writer's append of the same
// version (two activations of one order during a topology change) gets
// its own id and is refused by the compare-and-set, instead of being
// acknowledged as a duplicate of the winner.
type Journal struct {
	n      *Node
	orders *orderstore.Store
	mat    *Materialiser
	now    func() time.Time
	seqs   seqCache
}

var _ orderstore.Journal = (*Journal)(nil)

// NewJournal returns the journal of node n, whose materialiser mat applies
// the streams to orders (this node's store). now stamps events without a
// time (nil: time.Now).
func NewJournal(n *Node, orders *orderstore.Store, mat *Materialiser, now func() time.Time) *Journal {
	if now == nil {
		now = time.Now
	}
	return &Journal{n: n, orders: orders, mat: mat, now: now, seqs: seqCache{max: seqCacheMax}}
}

// AppendOrder implements orderstore.Journal. It returns nil once the
// transition is durable on a quorum, after waiting (within the write's
// deadline) until this node's store has applied it (and told the feed), so
// that the node reads its own write; a durable transition not applied
// here in time is still a success (the node's reads of the order wait
// for it: Settle). ErrVersionConflict when the order's last message is not
// the version t.Expect (for a new order: any message exists); an error
// wrapping persistence.ErrUnavailable when nothing could be written for
// want of a quorum, with persistence.ErrOutcomeUnknown too when the write
// may have landed.
func (j *Journal) AppendOrder(ctx context.Context, t *orderstore.Transition) error {
	rec := t.Record
	if rec.Version != t.Expect+1 {
		return fmt.Errorf("natsjs: order %s: version %d does not follow %d", rec.Hash.Hex(), rec.Version, t.Expect)
	}
	if !j.mat.started() {
		return fmt.Errorf("%w: the node has not joined the cluster yet", persistence.ErrUnavailable)
	}
	ctx, cancel := j.n.writeContext(ctx)
	defer cancel()
	p := Partition(rec.Hash, j.n.OrderPartitions())
	stream, subj := orderStream(p), orderSubject(p, rec.Hash)
	expect, err := j.expectedSeq(ctx, stream, subj, rec.Hash, t.Expect)
	if err != nil {
		return err
	}
	data, err := orderstore.EncodeTransition(t, j.now())
	if err != nil {
		return err
	}
	id := hex.EncodeToString(rec.Hash[:]) + ":" + strconv.FormatUint(rec.Version, 10) + ":" + nonce()
	seq, err := j.n.publishCAS(ctx, stream, subj, id, expect, data)
	if errors.Is(err, errCASConflict) {
		j.seqs.drop(rec.Hash)
		return fmt.Errorf("%w: %v", orderstore.ErrVersionConflict, err)
	}
	if err != nil {
		return err
	}
	j.seqs.put(rec.Hash, rec.Version, seq)
	if err := j.mat.WaitApplied(ctx, p, seq); err != nil {
		j.n.log.Warn("natsjs: an order's transition is durable but not applied on this node in time; its reads here wait for it",
			"order", rec.Hash.Hex(), "version", rec.Version, "stream", stream, "seq", seq, "err", err)
	}
	return nil
}

// settleWait bounds Settle's wait for this node's store.
const settleWait = 2 * time.Second

// Settle makes this node's answer about order h as good as the quorum's:
// it reads the order's last transition from its stream's leader and, when
// there is one, waits (at most settleWait, or ctx's end) until this node's
// store has applied it. found is false when the stream holds no message
// of h (absent, the answer a read may give). Without a quorum, or when the
// leader cannot be read or the store does not catch up in time, the error
// wraps persistence.ErrUnavailable: the node cannot tell.
func (j *Journal) Settle(ctx context.Context, h common.Hash) (found bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, settleWait)
	defer cancel()
	p := Partition(h, j.n.OrderPartitions())
	_, seq, found, err := j.last(ctx, orderStream(p), orderSubject(p, h))
	if err != nil || !found {
		return false, err
	}
	if err := j.mat.WaitApplied(ctx, p, seq); err != nil {
		return true, fmt.Errorf("%w: order %s is at %s %d, not yet applied here: %v", persistence.ErrUnavailable, h.Hex(), orderStream(p), seq, err)
	}
	return true, nil
}

// expectedSeq returns the stream sequence of version expect of order h: 0
// for a new order; else from the cache of sequences this node published
// or loaded, or from the leader's last message of the subject. It returns
// ErrVersionConflict when that message is not version expect.
//
// A new order is also checked against this node's store: the compaction
// removes a closed order's subject from its stream (compact.go), after
// which a create conditional on "no message yet" would pass. The store
// holds every order the compaction removed: it removes only what every
// node applied, a retention window after the order closed, and a node
// whose store is behind it does not follow the streams (it starts from a
// peer's snapshot). So an order is either in this store or still in its
// stream, where the condition refuses it. The store's hash filter (no
// false negatives) spares the read for a hash it has never seen.
func (j *Journal) expectedSeq(ctx context.Context, stream, subj string, h common.Hash, expect uint64) (uint64, error) {
	if expect == 0 {
		if !j.orders.MayExist(h) {
			return 0, nil
		}
		if _, found, err := j.orders.Load(h); err != nil {
			return 0, err
		} else if found {
			return 0, fmt.Errorf("%w: order %s exists", orderstore.ErrVersionConflict, h.Hex())
		}
		return 0, nil
	}
	if seq, ok := j.seqs.get(h, expect); ok {
		return seq, nil
	}
	rec, seq, found, err := j.last(ctx, stream, subj)
	if err != nil {
		return 0, err
	}
	if !found {
		// A store restored from a backup holds its open orders, whose
		// subjects a restored cluster's streams do not hold yet: the
		// first transition is conditional on the subject being empty
		// (every node was restored from the same backup or started from
		// such a store's snapshot: ClaimRestore, Bootstrap).
		if stored, ok, err := j.orders.Load(h); err != nil {
			return 0, err
		} else if ok && stored.Version == expect && stored.Status.Open() {
			return 0, nil
		}
	}
	if !found || rec.Version != expect {
		return 0, fmt.Errorf("%w: order %s is not at version %d", orderstore.ErrVersionConflict, h.Hex(), expect)
	}
	return seq, nil
}

// last reads the order's last transition from its stream's leader and
// caches its sequence.
func (j *Journal) last(ctx context.Context, stream, subj string) (*orderstore.Record, uint64, bool, error) {
	m, found, err := j.n.leaderGet(ctx, stream, subj, 0)
	if err != nil {
		return nil, 0, false, fmt.Errorf("%w: read %s: %v", persistence.ErrUnavailable, subj, err)
	}
	if !found {
		return nil, 0, false, nil
	}
	t, err := orderstore.DecodeTransition(m.Data)
	if err != nil {
		return nil, 0, false, fmt.Errorf("natsjs: %s %d: %w", stream, m.Seq, err)
	}
	j.seqs.put(t.Record.Hash, t.Record.Version, m.Seq)
	return t.Record, m.Seq, true, nil
}

// LoadOrder implements orderstore.Journal: the order's last
// transition as its stream's leader has it (the truth, where this node's
// store may trail by the replication delay). An order the stream no
// longer holds is read from this node's store: the compaction removed it,
// closed, after every node applied it (expectedSeq), and a closed order
// takes no further transition.
func (j *Journal) LoadOrder(h common.Hash) (*orderstore.Record, bool, error) {
	ctx, cancel := j.n.writeContext(context.Background())
	defer cancel()
	p := Partition(h, j.n.OrderPartitions())
	rec, _, found, err := j.last(ctx, orderStream(p), orderSubject(p, h))
	if err != nil || found {
		return rec, found, err
	}
	return j.orders.Load(h)
}

// LoadLedger implements orderstore.Journal: the order's ledger from
// this node's store, once the store has applied the order's last
// transition (read from the leader).
func (j *Journal) LoadLedger(h common.Hash) ([]orderstore.LedgerEntry, error) {
	ctx, cancel := j.n.writeContext(context.Background())
	defer cancel()
	p := Partition(h, j.n.OrderPartitions())
	_, seq, found, err := j.last(ctx, orderStream(p), orderSubject(p, h))
	if err != nil {
		return nil, err
	}
	if found {
		if err := j.mat.WaitApplied(ctx, p, seq); err != nil {
			return nil, fmt.Errorf("%w: ledger of %s: %v", persistence.ErrUnavailable, h.Hex(), err)
		}
	}
	return j.orders.LoadLedger(h)
}

// MayExist implements orderstore.Journal. This node's hash filter
// knows only the orders its store has applied, and another node may have
// created h a moment ago, so absence cannot be proven without a read: it
// reports true, and the order's actor reads (LoadOrder).
func (j *Journal) MayExist(common.Hash) bool { return true }

// nonce returns 8 random bytes in hex.
func nonce() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// seqCache maps an order hash to the version and stream sequence of its
// last transition this node published or read. It is bounded: past max
// entries it starts a new generation and keeps the previous one for
// lookups, so it holds between max and 2×max entries.
type seqCache struct {
	mu        sync.Mutex
	max       int
	cur, prev map[common.Hash]seqEntry
}

type seqEntry struct{ version, seq uint64 }

// seqCacheMax bounds a generation of the sequence cache (≈ 50 bytes each).
const seqCacheMax = 100_000

func (c *seqCache) get(h common.Hash, version uint64) (uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.cur[h]
	if !ok {
		e, ok = c.prev[h]
	}
	if !ok || e.version != version {
		return 0, false
	}
	return e.seq, true
}

func (c *seqCache) put(h common.Hash, version, seq uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur == nil || len(c.cur) >= c.max {
		c.prev, c.cur = c.cur, make(map[common.Hash]seqEntry)
	}
	if e, ok := c.cur[h]; ok && e.version > version {
		return
	}
	c.cur[h] = seqEntry{version: version, seq: seq}
}

func (c *seqCache) drop(h common.Hash) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.cur, h)
	delete(c.prev, h)
}
