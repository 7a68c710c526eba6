package orderstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
)

// Store reads and writes the order records of a persistence.Store, their
// indexes, ledgers and referral bindings, and is that store's Journal
// (journal.go): every write is an AppendOrder from the order's actor.
// Reads may come from anywhere. It is safe for concurrent use.
type Store struct {
	store  *persistence.Store
	outbox *persistence.Outbox
	// wallets finds the account a maker is linked to (nil: none is).
	wallets WalletAccounts

	// stored holds the hashes of stored orders (filter.go); it
	// answers "maybe" for everything until LoadHashFilter.
	stored persistence.HashSet
}

// New returns the order records of store. outbox receives the events
// of transitions; it may be nil only if no transition carries events.
func New(store *persistence.Store, outbox *persistence.Outbox, opts ...Option) *Store {
	o := &Store{store: store, outbox: outbox}
	for _, opt := range opts {
		opt(o)
	}
	return o
}

// Option configures New.
type Option func(*Store)

// WalletAccounts answers which account a wallet is linked to
// (accountstore.Accounts.AccountOfWallet).
type WalletAccounts interface {
	AccountOfWallet(w common.Address) (accountID string, ok bool, err error)
}

// WithLinkedWallets sends the events of an order to the outbox of the
// account its maker is linked to as well, when that is not the account
// whose key submitted it: an account's webhooks receive the events of its
// linked wallets' orders whoever submitted them (contract.md section 10).
// The link is read when the event is written.
func WithLinkedWallets(w WalletAccounts) Option { return func(o *Store) { o.wallets = w } }

// linkedAccount returns the account whose outbox receives the events of
// a transition of rec besides its submitter's: its maker's linked
// account when that is another ("" otherwise).
func (o *Store) linkedAccount(rec *Record) (string, error) {
	if o.wallets == nil {
		return "", nil
	}
	linked, ok, err := o.wallets.AccountOfWallet(rec.Order.Maker)
	if err != nil {
		return "", fmt.Errorf("persistence: the account of maker %s: %w", rec.Order.Maker.Hex(), err)
	}
	if !ok || linked == rec.AccountID {
		return "", nil
	}
	return linked, nil
}

// ErrNoOutbox is returned by AppendOrder for a transition with events when
// the Store has no outbox.
var ErrNoOutbox = errors.New("persistence: order transition carries events but no outbox is configured")

// AppendOrder implements Journal: one batch through the group
// committer, whose goroutine checks the stored version first.
func (o *Store) AppendOrder(_ context.Context, t *Transition) error {
	done, err := o.store.Enter()
	if err != nil {
		return err
	}
	defer done()
	rec := t.Record
	if err := rec.check(); err != nil {
		return err
	}
	if rec.Version != t.Expect+1 {
		return fmt.Errorf("persistence: order %s: version %d does not follow %d", rec.Hash.Hex(), rec.Version, t.Expect)
	}
	if len(t.Events) > 0 && o.outbox == nil {
		return ErrNoOutbox
	}
	ops := make(persistence.GroupOps, 0, 10+2*len(t.Events)+len(t.Ledger))
	val := appendOrder(make([]byte, 0, 384), rec)
	if err := o.writeTransition(&ops, t, val); err != nil {
		return err
	}
	var staged, linked *persistence.StagedEvents
	if len(t.Events) > 0 {
		other, err := o.linkedAccount(rec)
		if err != nil {
			return err
		}
		if staged, linked, err = o.outbox.Stage(&ops, rec.AccountID, other, t.Events); err != nil {
			return err
		}
	}
	err = o.store.WriteGroup(ops, o.versionCheck(rec.Hash, t.Expect, rec.Version))
	o.outbox.Settle(staged, err == nil)
	o.outbox.Settle(linked, err == nil)
	switch {
	case errors.Is(err, ErrVersionConflict), errors.Is(err, persistence.ErrStoreClosed):
		return err
	case err != nil:
		return fmt.Errorf("%w: commit order %s: %w", persistence.ErrOutcomeUnknown, rec.Hash.Hex(), err)
	}
	return nil
}

// versionCheck is the precondition the group committer evaluates for an
// append of order h from version expect to next: the version the round
// has already written for h, else the stored one (a new order's hash is
// known absent without a read when the hash filter says so, and is added
// to the filter here, in the committer's one goroutine, so two creates of
// one hash can never both pass).
func (o *Store) versionCheck(h common.Hash, expect, next uint64) func(*persistence.GroupRound) error {
	key := Key(h)
	return func(r *persistence.GroupRound) error {
		cur, seen := r.Version(h)
		if !seen {
			if expect == 0 && !o.stored.MayContain(h) {
				cur = 0
			} else {
				v, ok, err := r.Get(key)
				if err != nil {
					return err
				}
				if ok {
					if cur, err = orderVersion(v); err != nil {
						return err
					}
				}
			}
		}
		if cur != expect {
			return ErrVersionConflict
		}
		if expect == 0 {
			o.stored.Add(h)
		}
		r.SetVersion(h, next)
		return nil
	}
}

// writeTransition writes t's record (encoded as val), index moves, ledger
// entries and referral binding to w.
func (o *Store) writeTransition(w persistence.Writer, t *Transition, val []byte) error {
	rec := t.Record
	if err := w.Set(Key(rec.Hash), val, nil); err != nil {
		return err
	}
	if err := moveIndexes(w, rec, t.Prev); err != nil {
		return err
	}
	for _, e := range t.Ledger {
		if err := w.Set(orderLedgerKey(rec.Hash, e), []byte{e.Kind}, nil); err != nil {
			return err
		}
	}
	if t.Bind != nil {
		if err := w.Set(refereeKey(rec.Order.Maker), t.Bind[:], nil); err != nil {
			return err
		}
		if err := w.Set(refereeIndexKey(*t.Bind, rec.Order.Maker), encodeRefereeBinding(rec.CreatedAt, rec.Hash), nil); err != nil {
			return err
		}
	}
	return nil
}

// moveIndexes writes rec's four index keys, deleting prev's when the
// status changed.
func moveIndexes(b persistence.Writer, rec *Record, prev Status) error {
	if prev == rec.Status {
		return nil
	}
	if prev != 0 {
		for _, k := range orderIndexKeys(rec, prev) {
			if err := b.Delete(k, nil); err != nil {
				return err
			}
		}
	}
	for _, k := range orderIndexKeys(rec, rec.Status) {
		if err := b.Set(k, nil, nil); err != nil {
			return err
		}
	}
	return nil
}

// LoadOrder implements Journal: the stored record of the order with
// hash.
func (o *Store) LoadOrder(hash common.Hash) (*Record, bool, error) { return o.Load(hash) }

// Load returns the decoded record of the order with hash.
func (o *Store) Load(hash common.Hash) (*Record, bool, error) {
	val, ok, err := o.store.Get(Key(hash))
	if err != nil || !ok {
		return nil, ok, err
	}
	var rec Record
	if err := decodeOrder(val, &rec); err != nil {
		return nil, false, fmt.Errorf("persistence: decode order %s: %w", hash.Hex(), err)
	}
	return &rec, true, nil
}

// Exists reports whether an order with hash is stored (a point read,
// nothing decoded).
func (o *Store) Exists(hash common.Hash) (bool, error) {
	if !o.stored.MayContain(hash) {
		return false, nil
	}
	_, ok, err := o.store.Get(Key(hash))
	return ok, err
}

// ListFilter selects orders for List. Zero fields do not filter.
type ListFilter struct {
	Maker  *common.Address
	Status Status
	Class  chain.Class
	Limit  int
	// After is a cursor from ParseCursor: the page starts after it.
	After []byte
}

// List returns up to f.Limit orders matching f, newest first, and the
// cursor of the next page ("" at the end). Without a status filter it
// merges the six status ranges of the same mask.
func (o *Store) List(f ListFilter) (records []*Record, next string, err error) {
	mask := byte(IndexStatus)
	var maker common.Address
	statuses := Statuses[:]
	if f.Maker != nil {
		mask |= IndexMaker
		maker = *f.Maker
	}
	if f.Status != 0 {
		if f.Status.String() == "" {
			return nil, "", fmt.Errorf("persistence: unknown status %d", f.Status)
		}
		statuses = []Status{f.Status}
	}
	if f.Class != 0 {
		mask |= IndexType
	}
	// One snapshot for the ranges and the records: an order whose status
	// changes meanwhile is listed once, as the snapshot has it.
	snap := o.store.DB().NewSnapshot()
	ranges := make([]*indexRange, 0, len(statuses))
	defer func() {
		for _, r := range ranges {
			_ = r.it.Close()
		}
		_ = snap.Close()
	}()
	for _, st := range statuses {
		r, err := openRange(snap, orderIndexPrefix(mask, maker, st, f.Class), f.After)
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
		h := common.BytesToHash(suffix[8:])
		val, ok, err := persistence.ReaderGet(snap, Key(h))
		if err != nil {
			return nil, "", err
		}
		if !ok {
			return nil, "", fmt.Errorf("persistence: index entry %x has no order", best.it.Key())
		}
		rec := new(Record)
		if err := decodeOrder(val, rec); err != nil {
			return nil, "", fmt.Errorf("persistence: decode order %s: %w", h.Hex(), err)
		}
		records = append(records, rec)
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
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: persistence.PrefixUpperBound(p)})
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

// OpenOrders calls fn with every pending and active order (at start the
// engine replays them into the pair and maker actors), in order hash order. fn is called from the calling
// goroutine, one record at a time.
//
// Reading an order is a point read (most of a restart's time: bench
// restart) and a decode (decodeOrder). The open hashes are
// read from the status index first (32 bytes each) and sorted, so the
// records are read in key order: where most orders are open, consecutive
// reads find their block in the cache (200,000 open orders: ≈ 5 µs per read
// against ≈ 8 µs in index order); where few are, each is a point read as
// before. The records are loaded a chunk at a time by GOMAXPROCS
// goroutines before fn sees them. (One iterator per goroutine seeking
// through sorted hashes was slower than point reads.)
func (o *Store) OpenOrders(fn func(*Record) error) error {
	var hashes []common.Hash
	for _, status := range []Status{StatusPending, StatusActive} {
		p := orderIndexPrefix(IndexStatus, common.Address{}, status, 0)
		it, err := o.store.DB().NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: persistence.PrefixUpperBound(p)})
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
	recs := make([]*Record, min(chunk, len(hashes)))
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
func (o *Store) loadAll(hashes []common.Hash, into []*Record) error {
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

// Binding returns the referrer maker is bound to (r/<maker>; found false:
// unbound). The maker actors read it once per activation.
func (o *Store) Binding(maker common.Address) (referrer common.Address, found bool, err error) {
	v, ok, err := o.store.Get(refereeKey(maker))
	if err != nil || !ok {
		return referrer, false, err
	}
	if len(v) != 20 {
		return referrer, false, fmt.Errorf("persistence: corrupt referral binding of %s", maker.Hex())
	}
	return common.BytesToAddress(v), true, nil
}
