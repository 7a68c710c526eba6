package chainstore

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
)

// The chain indexer's bookkeeping: cursor, recent blocks, applied logs and
// per-block undo records.
//
// Key layout (see persistence/keys.go), all under the c/ prefix:
//
//	c/cursor                                   Cursor, JSON: the last applied block
//	c/b/<number BE8>                           Block, JSON: an applied block (hash, parent)
//	c/u/<number BE8>                           undo record of that block (binary, below)
//	c/l/<blockHash 32><txHash 32><logIndex BE4> empty: the log was applied
//
// Atomicity: every write a block causes (fills, order state, swaps, volume,
// applied-log keys) goes through one Batch, and Batch.Commit adds
// the block record, its undo record and the new cursor to the same Pebble
// batch, committed with Sync. After a crash the store holds either the whole
// block or none of it, and the cursor says which.
//
// Undo: Batch records, for every key it sets or deletes, the value the
// key had before the block (or that it was absent), once per key. Rewinding a
// block restores those values, deletes the block and undo records and moves
// the cursor to the parent, in one batch. Undo records are kept for the
// RecentBlocks most recent blocks; a reorg deeper than that is an error the
// operator must resolve (the confirmation depth exists so it never happens).
//
// Undo record format (THIS IS THE ON-DISK FORMAT; DO NOT CHANGE without a
// version byte bump): a version byte 1, then per entry: uvarint key length,
// key, one byte 0 (absent before) or 1 (present), and when present uvarint
// value length and value.

// Cursor is the last block the indexer applied.
type Cursor struct {
	Number uint64      `json:"number"`
	Hash   common.Hash `json:"hash"`
}

// Block is an applied block as the indexer remembers it.
type Block struct {
	Number uint64      `json:"number"`
	Hash   common.Hash `json:"hash"`
	Parent common.Hash `json:"parent"`
	Time   uint64      `json:"time"`
	// Touched lists the orders the block changed, so that a rewind can tell
	// their actors to reload.
	Touched []common.Hash `json:"touched,omitempty"`
	// Nonces lists the nonce invalidations of the block (their orders are
	// found by the order layer).
	Nonces []Nonce `json:"nonces,omitempty"`
}

const undoVersion = 1

const (
	chainCursorKey   = persistence.PrefixChain + "cursor"
	chainProjKey     = persistence.PrefixChain + "projected"
	chainBlockPrefix = persistence.PrefixChain + "b/"
	chainUndoPrefix  = persistence.PrefixChain + "u/"
	chainLogPrefix   = persistence.PrefixChain + "l/"
)

func chainNumKey(prefix string, n uint64) []byte {
	k := make([]byte, len(prefix)+8)
	copy(k, prefix)
	binary.BigEndian.PutUint64(k[len(prefix):], n)
	return k
}

func chainLogKey(block, tx common.Hash, index uint) []byte {
	k := make([]byte, 0, len(chainLogPrefix)+68)
	k = append(k, chainLogPrefix...)
	k = append(k, block[:]...)
	k = append(k, tx[:]...)
	return binary.BigEndian.AppendUint32(k, uint32(index))
}

// Chain is the chain records of one store: the indexer writes them
// through Begin, everything else reads them. There is one Chain per store
// (New), so that its record filters see every write.
type Chain struct {
	store *persistence.Store
	seen  *filters
}

// attachKey is the key of a store's Chain in persistence.Store.Attach.
type attachKey struct{}

// New returns the chain records of store: the same Chain at every call
// over one store, made at the first, which loads the record filters
// (filter.go) from what the store holds.
func New(store *persistence.Store) (*Chain, error) {
	v, err := store.Attach(attachKey{}, func() (any, error) {
		seen, err := loadFilters(store.DB())
		if err != nil {
			return nil, err
		}
		return &Chain{store: store, seen: seen}, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Chain), nil
}

// Store returns the underlying store.
func (c *Chain) Store() *persistence.Store { return c.store }

// Cursor returns the last applied block; ok is false before the first block.
func (c *Chain) Cursor() (Cursor, bool, error) {
	var cur Cursor
	v, ok, err := c.store.Get([]byte(chainCursorKey))
	if err != nil || !ok {
		return cur, ok, err
	}
	if err := json.Unmarshal(v, &cur); err != nil {
		return cur, false, fmt.Errorf("persistence: decode chain cursor: %w", err)
	}
	return cur, true, nil
}

// Block returns the applied block at number, if it is still remembered.
func (c *Chain) Block(number uint64) (Block, bool, error) {
	var b Block
	v, ok, err := c.store.Get(chainNumKey(chainBlockPrefix, number))
	if err != nil || !ok {
		return b, ok, err
	}
	if err := json.Unmarshal(v, &b); err != nil {
		return b, false, fmt.Errorf("persistence: decode chain block: %w", err)
	}
	return b, true, nil
}

// LogApplied reports whether the log (block hash, tx hash, index) was
// applied and is still within the remembered window.
func (c *Chain) LogApplied(block, tx common.Hash, index uint) (bool, error) {
	_, ok, err := c.store.Get(chainLogKey(block, tx, index))
	return ok, err
}

// Begin starts the batch of one block. Every write of the block must go
// through it; Commit makes it durable together with the cursor.
func (c *Chain) Begin(blk Block) *Batch {
	return &Batch{
		chain: c,
		blk:   blk,
		b:     c.store.DB().NewIndexedBatch(),
		seen:  make(map[string]struct{}),
		undo:  []byte{undoVersion},
	}
}

// Batch is the write set of one block with automatic undo capture.
type Batch struct {
	chain *Chain
	blk   Block
	b     *pebble.Batch
	seen  map[string]struct{}
	undo  []byte
	after []func()
}

// Block returns the block this batch applies.
func (cb *Batch) Block() Block { return cb.blk }

// Touch records that the block changed order h (kept with the block record).
func (cb *Batch) Touch(h common.Hash) {
	for _, t := range cb.blk.Touched {
		if t == h {
			return
		}
	}
	cb.blk.Touched = append(cb.blk.Touched, h)
}

// Get reads key as the batch sees it (its own writes over the store).
func (cb *Batch) Get(key []byte) ([]byte, bool, error) {
	v, closer, err := cb.b.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("persistence: chain batch get: %w", err)
	}
	out := bytes.Clone(v)
	return out, true, closer.Close()
}

// capture records key's value before the block, once per key.
func (cb *Batch) capture(key []byte) error {
	if _, done := cb.seen[string(key)]; done {
		return nil
	}
	prev, ok, err := cb.Get(key)
	if err != nil {
		return err
	}
	cb.captured(key, prev, ok)
	return nil
}

// captured records prev (ok false: absent) as key's value before the block,
// when key was not captured yet. Callers that just read key use it to save
// a second read.
func (cb *Batch) captured(key, prev []byte, ok bool) {
	if _, done := cb.seen[string(key)]; done {
		return
	}
	cb.seen[string(key)] = struct{}{}
	cb.undo = binary.AppendUvarint(cb.undo, uint64(len(key)))
	cb.undo = append(cb.undo, key...)
	if !ok {
		cb.undo = append(cb.undo, 0)
		return
	}
	cb.undo = append(cb.undo, 1)
	cb.undo = binary.AppendUvarint(cb.undo, uint64(len(prev)))
	cb.undo = append(cb.undo, prev...)
}

// setNew writes a key that cannot exist before this block (its key holds
// the block's number or hash and a log index: a block at that height was
// either never applied or rewound, which removed the key). Its undo entry
// is "absent" without a read.
func (cb *Batch) setNew(key, value []byte) error {
	cb.captured(key, nil, false)
	return cb.b.Set(key, value, nil)
}

// Set writes key, remembering its previous value for a rewind.
func (cb *Batch) Set(key, value []byte) error {
	if err := cb.capture(key); err != nil {
		return err
	}
	return cb.b.Set(key, value, nil)
}

// Delete removes key, remembering its previous value for a rewind.
func (cb *Batch) Delete(key []byte) error {
	if err := cb.capture(key); err != nil {
		return err
	}
	return cb.b.Delete(key, nil)
}

// MarkLog records that the log was applied in this block. It reports false
// when the log was already applied in this batch (the caller must then skip
// it). Whether the block itself was applied before is checked once, by
// Begin's caller, with BlockApplied: the keys of one block are then new, so
// no per-log read of the store is needed.
func (cb *Batch) MarkLog(tx common.Hash, index uint) (bool, error) {
	k := chainLogKey(cb.blk.Hash, tx, index)
	if _, dup := cb.seen[string(k)]; dup {
		return false, nil
	}
	return true, cb.setNew(k, nil)
}

// BlockApplied reports whether any log of the block with this hash is
// recorded as applied (a block must never be applied twice).
func (c *Chain) BlockApplied(hash common.Hash) (bool, error) {
	lo := append([]byte(chainLogPrefix), hash[:]...)
	it, err := c.store.DB().NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: persistence.PrefixUpperBound(lo)})
	if err != nil {
		return false, fmt.Errorf("persistence: block applied: %w", err)
	}
	found := it.First()
	if err := it.Close(); err != nil {
		return false, fmt.Errorf("persistence: block applied: %w", err)
	}
	return found, nil
}

// Raw returns the underlying batch for writes that are NOT undone by a
// rewind (the event outbox: an event may already have been delivered).
func (cb *Batch) Raw() *pebble.Batch { return cb.b }

// After registers fn to run once the batch is committed or abandoned (for
// example Outbox.Done).
func (cb *Batch) After(fn func()) { cb.after = append(cb.after, fn) }

// Commit adds the block record, the undo record and the cursor, prunes the
// block that falls out of the keep window, and commits with Sync.
func (cb *Batch) Commit(keep uint64) error {
	defer cb.finish()
	n := cb.blk.Number
	bv, err := json.Marshal(cb.blk)
	if err != nil {
		return fmt.Errorf("persistence: encode chain block: %w", err)
	}
	cv, err := json.Marshal(Cursor{Number: n, Hash: cb.blk.Hash})
	if err != nil {
		return fmt.Errorf("persistence: encode chain cursor: %w", err)
	}
	sets := [][2][]byte{
		{chainNumKey(chainBlockPrefix, n), bv},
		{chainNumKey(chainUndoPrefix, n), cb.undo},
		{[]byte(chainCursorKey), cv},
	}
	for _, kv := range sets {
		if err := cb.b.Set(kv[0], kv[1], nil); err != nil {
			return fmt.Errorf("persistence: chain commit: %w", err)
		}
	}
	if keep > 0 && n >= keep {
		if err := cb.prune(n - keep); err != nil {
			return err
		}
	}
	if err := cb.chain.store.Commit(cb.b, pebble.Sync); err != nil {
		return fmt.Errorf("persistence: chain commit: %w", err)
	}
	return nil
}

// prune forgets block old: its block record, undo record and applied-log
// keys. Below the window the cursor alone proves a log was applied.
func (cb *Batch) prune(old uint64) error {
	ob, ok, err := cb.chain.Block(old)
	if err != nil || !ok {
		return err
	}
	lo := append([]byte(chainLogPrefix), ob.Hash[:]...)
	if err := cb.b.DeleteRange(lo, persistence.PrefixUpperBound(lo), nil); err != nil {
		return fmt.Errorf("persistence: chain prune: %w", err)
	}
	if err := cb.b.Delete(chainNumKey(chainBlockPrefix, old), nil); err != nil {
		return fmt.Errorf("persistence: chain prune: %w", err)
	}
	return cb.b.Delete(chainNumKey(chainUndoPrefix, old), nil)
}

// Abort abandons the batch.
func (cb *Batch) Abort() { cb.finish() }

func (cb *Batch) finish() {
	if cb.b == nil {
		return
	}
	_ = cb.b.Close()
	cb.b = nil
	for _, fn := range cb.after {
		fn()
	}
	cb.after = nil
}

// Rewind undoes the block at the cursor: it restores every key the block
// changed, forgets the block and moves the cursor to its parent, in one
// synced batch. It returns the new cursor and the block it undid.
func (c *Chain) Rewind() (Cursor, Block, error) {
	cur, ok, err := c.Cursor()
	if err != nil {
		return cur, Block{}, err
	}
	if !ok {
		return cur, Block{}, fmt.Errorf("persistence: rewind without a cursor")
	}
	undo, ok, err := c.store.Get(chainNumKey(chainUndoPrefix, cur.Number))
	if err != nil {
		return cur, Block{}, err
	}
	if !ok {
		return cur, Block{}, fmt.Errorf("persistence: rewind block %d: no undo record (reorg deeper than the remembered window)", cur.Number)
	}
	blk, ok, err := c.Block(cur.Number)
	if err != nil || !ok {
		return cur, Block{}, fmt.Errorf("persistence: rewind block %d: block record missing: %v", cur.Number, err)
	}
	b := c.store.DB().NewBatch()
	defer b.Close()
	if err := applyUndo(b, undo); err != nil {
		return cur, Block{}, fmt.Errorf("persistence: rewind block %d: %w", cur.Number, err)
	}
	next := Cursor{Number: cur.Number - 1, Hash: blk.Parent}
	cv, err := json.Marshal(next)
	if err != nil {
		return cur, Block{}, err
	}
	_ = b.Delete(chainNumKey(chainBlockPrefix, cur.Number), nil)
	_ = b.Delete(chainNumKey(chainUndoPrefix, cur.Number), nil)
	if err := b.Set([]byte(chainCursorKey), cv, nil); err != nil {
		return cur, Block{}, err
	}
	if err := c.store.Commit(b, pebble.Sync); err != nil {
		return cur, Block{}, fmt.Errorf("persistence: rewind commit: %w", err)
	}
	return next, blk, nil
}

// SetCursor writes the starting cursor (the block before the first one to
// index) when none exists yet, with its block record so a reorg right at the
// start is detected.
func (c *Chain) SetCursor(blk Block) error {
	b := c.store.DB().NewBatch()
	defer b.Close()
	bv, err := json.Marshal(blk)
	if err != nil {
		return err
	}
	cv, err := json.Marshal(Cursor{Number: blk.Number, Hash: blk.Hash})
	if err != nil {
		return err
	}
	_ = b.Set(chainNumKey(chainBlockPrefix, blk.Number), bv, nil)
	_ = b.Set([]byte(chainCursorKey), cv, nil)
	if err := c.store.Commit(b, pebble.Sync); err != nil {
		return fmt.Errorf("persistence: set chain cursor: %w", err)
	}
	return nil
}

// applyUndo decodes an undo record into restoring writes on b.
func applyUndo(b *pebble.Batch, undo []byte) error {
	return walkUndo(undo, func(key, val []byte, present bool) error {
		if !present {
			return b.Delete(key, nil)
		}
		return b.Set(key, val, nil)
	})
}

// walkUndo calls fn with every entry of an undo record, in order: the key,
// and its value before the block when present.
func walkUndo(undo []byte, fn func(key, val []byte, present bool) error) error {
	if len(undo) == 0 || undo[0] != undoVersion {
		return fmt.Errorf("unknown undo record version")
	}
	p := undo[1:]
	next := func() ([]byte, error) {
		n, w := binary.Uvarint(p)
		if w <= 0 || uint64(len(p)-w) < n {
			return nil, fmt.Errorf("corrupt undo record")
		}
		v := p[w : w+int(n)]
		p = p[w+int(n):]
		return v, nil
	}
	for len(p) > 0 {
		key, err := next()
		if err != nil {
			return err
		}
		if len(p) == 0 {
			return fmt.Errorf("corrupt undo record")
		}
		present := p[0]
		p = p[1:]
		var val []byte
		if present != 0 {
			if val, err = next(); err != nil {
				return err
			}
		}
		if err := fn(key, val, present != 0); err != nil {
			return err
		}
	}
	return nil
}

// Projected returns the last block whose effects the order layer has
// acknowledged (0 when none); see docs/lifecycle.md.
func (c *Chain) Projected() (uint64, error) {
	v, ok, err := c.store.Get([]byte(chainProjKey))
	if err != nil || !ok {
		return 0, err
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("persistence: corrupt projection cursor")
	}
	return binary.BigEndian.Uint64(v), nil
}

// SetProjected records that the order layer has acknowledged every block up
// to number.
func (c *Chain) SetProjected(number uint64) error {
	b := c.store.DB().NewBatch()
	defer b.Close()
	_ = b.Set([]byte(chainProjKey), binary.BigEndian.AppendUint64(nil, number), nil)
	if err := c.store.Commit(b, pebble.Sync); err != nil {
		return fmt.Errorf("persistence: set projection cursor: %w", err)
	}
	return nil
}

// Blocks calls fn with every remembered applied block from number on, in
// order.
func (c *Chain) Blocks(from uint64, fn func(Block) error) error {
	it, err := c.store.DB().NewIter(&pebble.IterOptions{
		LowerBound: chainNumKey(chainBlockPrefix, from),
		UpperBound: persistence.PrefixUpperBound([]byte(chainBlockPrefix)),
	})
	if err != nil {
		return fmt.Errorf("persistence: blocks: %w", err)
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			return err
		}
		var b Block
		if err := json.Unmarshal(v, &b); err != nil {
			return fmt.Errorf("persistence: decode chain block: %w", err)
		}
		if err := fn(b); err != nil {
			return err
		}
	}
	return it.Error()
}
