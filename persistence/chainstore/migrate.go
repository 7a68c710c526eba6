package chainstore

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
)

// Orders is what the platform records' schema step reads and builds of the
// order records, which are another store's (persistence/orderstore): the
// referee index, an order's signed terms, a maker's referral binding.
type Orders interface {
	// BuildReferees writes the referee index (q/) of the referral
	// bindings (r/) and returns how many bindings it wrote.
	BuildReferees() (int, error)
	// Terms returns the signed order with hash h (found false: the store
	// holds no such order).
	Terms(h common.Hash) (order chain.Order, found bool, err error)
	// Binding returns the referrer maker is bound to (found false:
	// unbound).
	Binding(maker common.Address) (referrer common.Address, found bool, err error)
}

// Migrations returns the schema steps of the platform records, for
// persistence.Options.Migrations. orders returns the order records of the
// store being migrated.
func Migrations(orders func(*persistence.Store) Orders) []persistence.Migration {
	return []persistence.Migration{{From: 3, Name: "platform records built", Run: func(s *persistence.Store) (int, error) {
		return migratePlatform(s, orders(s))
	}}}
}

// migratePlatform is the step from schema 3 to 4: it builds the platform
// records of what the store already holds, and returns how many referee
// bindings and accruals it wrote.
//
//   - q/: one referee binding per r/ binding, dated by the maker's oldest
//     order naming the referrer (Orders.BuildReferees).
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
func migratePlatform(s *persistence.Store, orders Orders) (int, error) {
	referees, err := orders.BuildReferees()
	if err != nil {
		return referees, err
	}
	accruals, err := migrateAccruals(s, orders)
	return referees + accruals, err
}

// platformBackfill accumulates the p/ writes of one block.
type platformBackfill struct {
	s      *persistence.Store
	orders Orders
	block  uint64
	writes map[string][]byte // key → value after the block
	order  []string
	before map[string][]byte // key → value before the block (nil: absent)
	volume map[string]*uint256.Int
}

func migrateAccruals(s *persistence.Store, orders Orders) (int, error) {
	it, err := s.DB().NewIter(&pebble.IterOptions{LowerBound: []byte(persistence.PrefixSwap), UpperBound: persistence.PrefixUpperBound([]byte(persistence.PrefixSwap))})
	if err != nil {
		return 0, err
	}
	defer func() { _ = it.Close() }()
	bf := &platformBackfill{s: s, orders: orders, volume: map[string]*uint256.Int{}}
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
		o, ok, err := bf.orders.Terms(h)
		if err != nil {
			return 0, fmt.Errorf("persistence: migrate fill of %s: %w", h.Hex(), err)
		}
		if !ok {
			return 0, nil
		}
		a.Referrer, a.Token, a.OrderHash = o.Referrer, o.TokenOut, &h
		bound, ok, err := bf.orders.Binding(o.Maker)
		if err != nil {
			return 0, err
		}
		if ok && bound == o.Referrer {
			in, err := uint256.FromDecimal(r.AmountIn)
			if err != nil {
				return 0, fmt.Errorf("persistence: migrate fill of %s: amountIn %q", h.Hex(), r.AmountIn)
			}
			k := string(refVolumeKey(o.Referrer, o.Maker, o.TokenIn))
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
	b := bf.s.DB().NewBatch()
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
