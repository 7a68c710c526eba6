package persistence

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
)

// Orders reads and writes order records, their indexes, fills and referral
// bindings. Writes come only from the order actors (one actor per hash
// serialises the writes of an order); reads may come from anywhere. It is
// safe for concurrent use.
type Orders struct {
	store  *Store
	outbox *Outbox

	// bindings caches every referral binding (r/ rows), loaded on first
	// use: the submit path reads it twice per order, and only Commit
	// writes it, so the cache is exact as long as one Orders per store
	// writes bindings (the order service's).
	bindMu   sync.RWMutex
	bindings map[common.Address]common.Address

	// stored holds the hashes of stored orders (orders_filter.go); it
	// answers "maybe" for everything until LoadHashFilter.
	stored hashSet
}

// NewOrders returns the order records of store. outbox receives the events
// of transitions; it may be nil only if no transition carries events.
func NewOrders(store *Store, outbox *Outbox) *Orders {
	return &Orders{store: store, outbox: outbox}
}

// ErrNoOutbox is returned by Commit for a change with events when the
// Orders has no outbox.
var ErrNoOutbox = errors.New("persistence: order change carries events but no outbox is configured")

// Change is one durable transition of an order: the new record, and what
// must be written with it atomically.
type Change struct {
	// Record is the order's new state.
	Record *OrderRecord
	// PrevStatus is the status the stored record had ("" for a new order).
	PrevStatus string
	// Fills to add (keyed by block and log index, so re-adding one is
	// idempotent).
	Fills []OrderFill
	// Events to append to the outbox of Record.AccountID.
	Events []OutboxEvent
	// BindReferrer, when set, binds the maker to this referrer.
	BindReferrer *common.Address
	// Ledger entries to add (orders_ledger.go): the chain logs whose
	// events this change emits, how the order was cancelled.
	Ledger []LedgerEntry
}

// Commit writes c in one batch with Sync and returns the record's encoding.
// Nothing is written when it fails. A change without events (a new order)
// goes through the store's group committer (group_commit.go): the same
// single atomic batch, shared with the other changes of its round.
func (o *Orders) Commit(c Change) ([]byte, error) {
	if err := o.store.enter(); err != nil {
		return nil, err
	}
	defer o.store.exit()
	rec := c.Record
	hash, maker, err := orderRecordIDs(rec)
	if err != nil {
		return nil, err
	}
	val, err := appendOrderJSON(make([]byte, 0, 1024), rec)
	if err != nil {
		return nil, fmt.Errorf("persistence: encode order: %w", err)
	}
	if c.PrevStatus == "" {
		o.stored.add(hash)
	}
	if len(c.Events) == 0 {
		ops := make(opList, 0, 8)
		if err := o.writeChange(&ops, c, hash, maker, val); err != nil {
			return nil, err
		}
		if err := o.store.group.Write(ops); err != nil {
			return nil, fmt.Errorf("persistence: commit order: %w", err)
		}
		o.cacheBinding(maker, c.BindReferrer)
		return val, nil
	}
	if o.outbox == nil {
		return nil, ErrNoOutbox
	}
	b := o.store.db.NewBatch()
	defer b.Close()
	if err := o.writeChange(b, c, hash, maker, val); err != nil {
		return nil, err
	}
	refs := make([]OutboxRef, 0, len(c.Events))
	for _, ev := range c.Events {
		ref, err := o.outbox.Append(b, rec.AccountID, ev)
		if err != nil {
			o.outbox.Done(refs...)
			return nil, err
		}
		refs = append(refs, ref)
	}
	if err := o.outbox.Commit(b, refs...); err != nil {
		return nil, err
	}
	o.cacheBinding(maker, c.BindReferrer)
	return val, nil
}

// writer is where a change's keys go: a Pebble batch, or the op list of
// the group committer.
type writer interface {
	Set(key, value []byte, _ *pebble.WriteOptions) error
	Delete(key []byte, _ *pebble.WriteOptions) error
}

// opList collects a change's writes for the group committer. The keys and
// values must not change until the write returns.
type opList []groupOp

func (l *opList) Set(key, value []byte, _ *pebble.WriteOptions) error {
	*l = append(*l, groupOp{key: key, value: value})
	return nil
}

func (l *opList) Delete(key []byte, _ *pebble.WriteOptions) error {
	*l = append(*l, groupOp{key: key, del: true})
	return nil
}

// writeChange writes c's record (encoded as val), index moves, fills,
// ledger entries and referral binding to w.
func (o *Orders) writeChange(w writer, c Change, hash common.Hash, maker common.Address, val []byte) error {
	rec := c.Record
	if err := w.Set(OrderKey(hash), val, nil); err != nil {
		return err
	}
	if err := moveIndexes(w, rec, hash, maker, c.PrevStatus); err != nil {
		return err
	}
	for i := range c.Fills {
		fv, err := json.Marshal(&c.Fills[i])
		if err != nil {
			return fmt.Errorf("persistence: encode fill: %w", err)
		}
		if err := w.Set(orderFillKey(hash, &c.Fills[i]), fv, nil); err != nil {
			return err
		}
	}
	for _, e := range c.Ledger {
		if err := w.Set(orderLedgerKey(hash, e), []byte{e.Kind}, nil); err != nil {
			return err
		}
	}
	if c.BindReferrer != nil {
		if err := w.Set(refereeKey(maker), c.BindReferrer[:], nil); err != nil {
			return err
		}
	}
	return nil
}

// moveIndexes writes rec's four index keys, deleting prev's when the
// status changed.
func moveIndexes(b writer, rec *OrderRecord, hash common.Hash, maker common.Address, prev string) error {
	if prev == rec.Status {
		return nil
	}
	if prev != "" {
		old, err := orderIndexKeysOf(rec, hash, maker, prev)
		if err != nil {
			return err
		}
		for _, k := range old {
			if err := b.Delete(k, nil); err != nil {
				return err
			}
		}
	}
	keys, err := orderIndexKeysOf(rec, hash, maker, rec.Status)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := b.Set(k, nil, nil); err != nil {
			return err
		}
	}
	return nil
}

// Raw returns the stored JSON of the order with hash; ok is false when
// there is none.
func (o *Orders) Raw(hash common.Hash) (val []byte, ok bool, err error) {
	return o.store.get(OrderKey(hash))
}

// Load returns the decoded record of the order with hash.
func (o *Orders) Load(hash common.Hash) (*OrderRecord, bool, error) {
	val, ok, err := o.Raw(hash)
	if err != nil || !ok {
		return nil, ok, err
	}
	var rec OrderRecord
	if err := DecodeOrderRecord(val, &rec); err != nil {
		return nil, false, fmt.Errorf("persistence: decode order %s: %w", hash.Hex(), err)
	}
	return &rec, true, nil
}

// ListFilter selects orders for List. Zero fields do not filter.
type ListFilter struct {
	Maker  *common.Address
	Status string
	Type   string
	Limit  int
	// After is a cursor from ParseCursor: the page starts after it.
	After []byte
}

// List returns the stored JSON of up to f.Limit orders matching f, newest
// first, and the cursor of the next page ("" at the end). Without a status
// filter it merges the six status ranges of the same mask.
func (o *Orders) List(f ListFilter) (records [][]byte, next string, err error) {
	mask := byte(IndexStatus)
	var maker common.Address
	var tc byte
	statuses := orderStatuses[:]
	if f.Maker != nil {
		mask |= IndexMaker
		maker = *f.Maker
	}
	if f.Status != "" {
		if OrderStatusCode(f.Status) == 0 {
			return nil, "", fmt.Errorf("persistence: unknown status %q", f.Status)
		}
		statuses = []string{f.Status}
	}
	if f.Type != "" {
		mask |= IndexType
		if tc = OrderTypeCode(f.Type); tc == 0 {
			return nil, "", fmt.Errorf("persistence: unknown order type %q", f.Type)
		}
	}
	// One snapshot for the ranges and the records: an order whose status
	// changes meanwhile is listed once, as the snapshot has it.
	snap := o.store.db.NewSnapshot()
	ranges := make([]*indexRange, 0, len(statuses))
	defer func() {
		for _, r := range ranges {
			_ = r.it.Close()
		}
		_ = snap.Close()
	}()
	for _, st := range statuses {
		r, err := openRange(snap, orderIndexPrefix(mask, maker, OrderStatusCode(st), tc), f.After)
		if err != nil {
			return nil, "", err
		}
		ranges = append(ranges, r)
	}
	var last []byte
	for {
		// The next entry is the smallest current suffix over the ranges.
		var best *indexRange
		for _, r := range ranges {
			if r.ok && (best == nil || bytes.Compare(r.suffix(), best.suffix()) < 0) {
				best = r
			}
		}
		if best == nil {
			break
		}
		if len(records) == f.Limit {
			return records, orderCursorHex(last), nil
		}
		suffix := best.suffix()
		if len(suffix) != 40 {
			return nil, "", fmt.Errorf("persistence: malformed index key %x", best.it.Key())
		}
		val, ok, err := readerGet(snap, OrderKey(common.BytesToHash(suffix[8:])))
		if err != nil {
			return nil, "", err
		}
		if !ok {
			return nil, "", fmt.Errorf("persistence: index entry %x has no order", best.it.Key())
		}
		records = append(records, val)
		last = append(last[:0], suffix...)
		best.ok = best.it.Next()
	}
	for _, r := range ranges {
		if err := r.it.Error(); err != nil {
			return nil, "", err
		}
	}
	return records, "", nil
}

// indexRange is one index prefix's iterator, positioned after a cursor.
type indexRange struct {
	prefix []byte
	it     *pebble.Iterator
	ok     bool
}

func (r *indexRange) suffix() []byte { return r.it.Key()[len(r.prefix):] }

func openRange(r pebble.Reader, p, after []byte) (*indexRange, error) {
	lower := p
	if after != nil {
		lower = append(append(bytes.Clone(p), after...), 0)
	}
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: prefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: list: %w", err)
	}
	return &indexRange{prefix: p, it: it, ok: it.First()}, nil
}

func orderCursorHex(suffix []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(suffix))
	for _, c := range suffix {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

// Fills returns the stored fills of the order with hash, in chain order.
func (o *Orders) Fills(hash common.Hash) ([]OrderFill, error) {
	p := orderFillPrefix(hash)
	it, err := o.store.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: fills: %w", err)
	}
	defer it.Close()
	out := []OrderFill{}
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			return nil, err
		}
		var f OrderFill
		if err := json.Unmarshal(v, &f); err != nil {
			return nil, fmt.Errorf("persistence: decode fill: %w", err)
		}
		out = append(out, f)
	}
	return out, it.Error()
}

// OpenOrders calls fn with every pending and active order (the start-up
// rebuild of orderbooks and per-maker open counts, the trigger engine's
// first tick), in order hash order. fn is called from the calling
// goroutine, one record at a time.
//
// Reading an order is a point read (most of a restart's time: bench
// restart) and a decode (≈ 1 µs, DecodeOrderRecord). The open hashes are
// read from the status index first (32 bytes each) and sorted, so the
// records are read in key order: where most orders are open, consecutive
// reads find their block in the cache (200,000 open orders: ≈ 5 µs per read
// against ≈ 8 µs in index order); where few are, each is a point read as
// before. The records are loaded a chunk at a time by GOMAXPROCS
// goroutines before fn sees them. (One iterator per goroutine seeking
// through sorted hashes was slower than point reads.)
func (o *Orders) OpenOrders(fn func(*OrderRecord) error) error {
	var hashes []common.Hash
	for _, status := range []string{StatusPending, StatusActive} {
		p := orderIndexPrefix(IndexStatus, common.Address{}, OrderStatusCode(status), 0)
		it, err := o.store.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixUpperBound(p)})
		if err != nil {
			return fmt.Errorf("persistence: open orders: %w", err)
		}
		for ok := it.First(); ok; ok = it.Next() {
			hashes = append(hashes, common.BytesToHash(it.Key()[len(p)+8:]))
		}
		if err := it.Close(); err != nil {
			return err
		}
	}
	slices.SortFunc(hashes, func(a, b common.Hash) int { return bytes.Compare(a[:], b[:]) })
	const chunk = 1024
	recs := make([]*OrderRecord, min(chunk, len(hashes)))
	for start := 0; start < len(hashes); start += chunk {
		part := hashes[start:min(start+chunk, len(hashes))]
		if err := o.loadAll(part, recs[:len(part)]); err != nil {
			return err
		}
		for i, rec := range recs[:len(part)] {
			recs[i] = nil
			if err := fn(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// loadAll loads the order of each hash into the same place of into, from
// GOMAXPROCS goroutines. An index entry without its order is an error.
func (o *Orders) loadAll(hashes []common.Hash, into []*OrderRecord) error {
	errs := make([]error, len(hashes))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(hashes)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(hashes); i = int(next.Add(1) - 1) {
				rec, found, err := o.Load(hashes[i])
				if err == nil && !found {
					err = fmt.Errorf("persistence: the open-order index names %s, which has no order", hashes[i].Hex())
				}
				into[i], errs[i] = rec, err
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// BoundReferrer implements routing.ReferralBindings: the referrer wallet
// was bound to by its first accepted order naming a non-vault referrer.
func (o *Orders) BoundReferrer(_ context.Context, wallet common.Address) (common.Address, bool, error) {
	if err := o.loadBindings(); err != nil {
		return common.Address{}, false, err
	}
	o.bindMu.RLock()
	ref, ok := o.bindings[wallet]
	o.bindMu.RUnlock()
	return ref, ok, nil
}

// loadBindings reads every r/ row once.
func (o *Orders) loadBindings() error {
	o.bindMu.RLock()
	loaded := o.bindings != nil
	o.bindMu.RUnlock()
	if loaded {
		return nil
	}
	o.bindMu.Lock()
	defer o.bindMu.Unlock()
	if o.bindings != nil {
		return nil
	}
	m := make(map[common.Address]common.Address)
	var bad error
	err := ordersScan(o.store.db, []byte(ordPrefixReferee), func(k, v []byte) {
		if len(k) != len(ordPrefixReferee)+20 || len(v) != 20 {
			bad = fmt.Errorf("persistence: corrupt referral binding %x", k)
			return
		}
		m[common.BytesToAddress(k[len(ordPrefixReferee):])] = common.BytesToAddress(v)
	})
	if err != nil {
		return err
	}
	if bad != nil {
		return bad
	}
	o.bindings = m
	return nil
}

func (o *Orders) cacheBinding(maker common.Address, ref *common.Address) {
	if ref == nil || o.loadBindings() != nil {
		return
	}
	o.bindMu.Lock()
	o.bindings[maker] = *ref
	o.bindMu.Unlock()
}
