package persistence

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// migratePlatform is the step from schema 3 to 4: it builds the platform
// records (platform.go) of what the store already holds.
//
//   - q/: one referee binding per r/ binding, dated by the maker's oldest
//     order naming the referrer (zero time and hash when the store no
//     longer holds such an order).
//   - p/: an accrual per referral leg paid and the referees' filled
//     volume, from the swap records (s/, every router swap and order fill
//     in chain order, never pruned) and the order records (o/, for a
//     fill's referrer, maker and tokens). Fills of orders this store does
//     not hold are skipped, as the indexer's sink skips them.
//
// The p/ keys are chain-derived and undone with their block on a rewind:
// for a block whose undo record is still kept (the recent blocks), the
// step appends what each key held before the block to that record, as the
// block's batch would have. Every write is a Set of a value computed from
// unchanged inputs (the volume sums are recomputed from zero), so a step
// interrupted by a crash runs again to the same result.
func (s *Store) migratePlatform() (referees, accruals int, err error) {
	if referees, err = s.migrateReferees(); err != nil {
		return 0, 0, err
	}
	accruals, err = s.migrateAccruals()
	return referees, accruals, err
}

func (s *Store) migrateReferees() (int, error) {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte(ordPrefixReferee), UpperBound: PrefixUpperBound([]byte(ordPrefixReferee))})
	if err != nil {
		return 0, err
	}
	defer func() { _ = it.Close() }()
	b := s.db.NewBatch()
	defer func() { _ = b.Close() }()
	n := 0
	for it.First(); it.Valid(); it.Next() {
		v, err := it.ValueAndErr()
		if err != nil || len(v) != 20 {
			return n, fmt.Errorf("persistence: migrate referral binding %x: %v", it.Key(), err)
		}
		maker := common.BytesToAddress(it.Key()[len(ordPrefixReferee):])
		referrer := common.BytesToAddress(v)
		at, hash, err := s.bindingOrder(maker, referrer)
		if err != nil {
			return n, err
		}
		val := encodeRefereeBinding(at, hash)
		if at.IsZero() {
			val = make([]byte, 40)
		}
		if err := b.Set(refereeIndexKey(referrer, maker), val, nil); err != nil {
			return n, err
		}
		n++
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return n, fmt.Errorf("persistence: migrate referees: %w", err)
	}
	return n, nil
}

// bindingOrder returns the creation time and hash of maker's oldest order
// naming referrer (zero when none is stored).
func (s *Store) bindingOrder(maker, referrer common.Address) (time.Time, common.Hash, error) {
	var at time.Time
	var hash common.Hash
	for _, st := range Statuses {
		prefix := orderIndexPrefix(IndexStatus|IndexMaker, maker, st, 0)
		it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: PrefixUpperBound(prefix)})
		if err != nil {
			return at, hash, err
		}
		for it.First(); it.Valid(); it.Next() {
			h := common.BytesToHash(it.Key()[len(prefix)+8:])
			v, ok, err := s.Get(OrderKey(h))
			if err != nil {
				_ = it.Close()
				return at, hash, err
			}
			var rec OrderRecord
			if !ok || decodeOrder(v, &rec) != nil || rec.Order.Referrer != referrer {
				continue
			}
			if at.IsZero() || rec.CreatedAt.Before(at) {
				at, hash = rec.CreatedAt, rec.Hash
			}
		}
		if err := it.Close(); err != nil {
			return at, hash, err
		}
	}
	return at, hash, nil
}

// platformBackfill accumulates the p/ writes of one block.
type platformBackfill struct {
	s      *Store
	block  uint64
	writes map[string][]byte // key → value after the block
	order  []string
	before map[string][]byte // key → value before the block (nil: absent)
	volume map[string]*uint256.Int
}

func (s *Store) migrateAccruals() (int, error) {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixSwap), UpperBound: PrefixUpperBound([]byte(prefixSwap))})
	if err != nil {
		return 0, err
	}
	defer func() { _ = it.Close() }()
	bf := &platformBackfill{s: s, volume: map[string]*uint256.Int{}}
	bf.reset(0)
	n := 0
	for it.First(); it.Valid(); it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			return n, err
		}
		var r SwapRecord
		if err := json.Unmarshal(v, &r); err != nil {
			return n, fmt.Errorf("persistence: migrate swap record %x: %w", it.Key(), err)
		}
		if r.BlockNumber != bf.block {
			if err := bf.flush(); err != nil {
				return n, err
			}
			bf.reset(r.BlockNumber)
		}
		added, err := bf.add(&r)
		if err != nil {
			return n, err
		}
		n += added
	}
	return n, bf.flush()
}

func (bf *platformBackfill) reset(block uint64) {
	bf.block, bf.writes, bf.order, bf.before = block, map[string][]byte{}, nil, map[string][]byte{}
}

// add records the accrual and volume of one swap record; it returns the
// number of accruals (0 or 1).
func (bf *platformBackfill) add(r *SwapRecord) (int, error) {
	fee, err := uint256.FromDecimal(r.ReferralFee)
	if err != nil {
		return 0, fmt.Errorf("persistence: migrate swap record %d/%d: referralFee %q", r.BlockNumber, r.LogIndex, r.ReferralFee)
	}
	a := &Accrual{Timestamp: uint64(r.Timestamp), BlockNumber: r.BlockNumber, LogIndex: r.LogIndex,
		TxHash: common.HexToHash(r.TxHash), Amount: *fee}
	switch r.Kind {
	case "swap":
		a.Referrer, a.Token = common.HexToAddress(r.Referrer), common.HexToAddress(r.TokenOut)
	case "fill":
		h := common.HexToHash(r.OrderHash)
		v, ok, err := bf.s.Get(OrderKey(h))
		if err != nil || !ok {
			return 0, err
		}
		var rec OrderRecord
		if err := decodeOrder(v, &rec); err != nil {
			return 0, fmt.Errorf("persistence: migrate fill of %s: %w", h.Hex(), err)
		}
		a.Referrer, a.Token, a.OrderHash = rec.Order.Referrer, rec.Order.TokenOut, &h
		bound, ok, err := bf.s.Get(refereeKey(rec.Order.Maker))
		if err != nil {
			return 0, err
		}
		if ok && common.BytesToAddress(bound) == rec.Order.Referrer {
			in, err := uint256.FromDecimal(r.AmountIn)
			if err != nil {
				return 0, fmt.Errorf("persistence: migrate fill of %s: amountIn %q", h.Hex(), r.AmountIn)
			}
			k := string(refVolumeKey(rec.Order.Referrer, rec.Order.Maker, rec.Order.TokenIn))
			sum := bf.volume[k]
			if sum == nil {
				sum = new(uint256.Int)
				bf.volume[k] = sum
			}
			bf.set(k, nil, true)
			sum.Add(sum, in)
			b := sum.Bytes32()
			bf.writes[k] = b[:]
		}
	default:
		return 0, nil
	}
	if a.Amount.IsZero() {
		return 0, nil
	}
	k := string(accrualKey(a))
	bf.set(k, encodeAccrual(a), false)
	return 1, nil
}

// set records key's write; an aggregate's value before the block is the
// value the backfill had written for it so far (absent when none).
func (bf *platformBackfill) set(k string, v []byte, aggregate bool) {
	if _, seen := bf.before[k]; !seen {
		var prev []byte
		if aggregate {
			if sum := bf.volume[k]; sum != nil && !sum.IsZero() {
				b := sum.Bytes32()
				prev = b[:]
			}
		}
		bf.before[k] = prev
		bf.order = append(bf.order, k)
	}
	if v != nil {
		bf.writes[k] = v
	}
}

// flush writes the block's keys and, when the block's undo record is
// kept, their values before the block into it, in one synced batch.
func (bf *platformBackfill) flush() error {
	if len(bf.order) == 0 {
		return nil
	}
	b := bf.s.db.NewBatch()
	defer func() { _ = b.Close() }()
	for _, k := range bf.order {
		if err := b.Set([]byte(k), bf.writes[k], nil); err != nil {
			return err
		}
	}
	undoKey := chainNumKey(chainUndoPrefix, bf.block)
	undo, ok, err := bf.s.Get(undoKey)
	if err != nil {
		return err
	}
	if ok {
		for _, k := range bf.order {
			if undoHas(undo, k) {
				continue // a crashed earlier run appended it
			}
			undo = binary.AppendUvarint(undo, uint64(len(k)))
			undo = append(undo, k...)
			if prev := bf.before[k]; prev == nil {
				undo = append(undo, 0)
			} else {
				undo = append(undo, 1)
				undo = binary.AppendUvarint(undo, uint64(len(prev)))
				undo = append(undo, prev...)
			}
		}
		if err := b.Set(undoKey, undo, nil); err != nil {
			return err
		}
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("persistence: migrate accruals of block %d: %w", bf.block, err)
	}
	return nil
}

// undoHas reports whether the undo record lists key.
func undoHas(undo []byte, key string) bool {
	found := false
	_ = walkUndo(undo, func(k, _ []byte, _ bool) error {
		if string(k) == key {
			found = true
		}
		return nil
	})
	return found
}
