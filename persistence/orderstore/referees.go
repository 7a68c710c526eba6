package orderstore

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
)

// The referee index: the wallets bound to each referrer.
//
// THIS IS THE ON-DISK FORMAT; DO NOT CHANGE (see persistence/keys.go).
//
//	prefix  key                         value
//	------  --------------------------  ----------------------------------
//	q/      q/<referrer 20><maker 20>   RefereeBinding, binary (below)
//
// q/ is written with the referral binding r/<maker> (keys.go), in the
// same batch as the order that binds; like r/ it is not chain-bound. The
// chain-derived half of the platform records (p/: accruals and referee
// volume) is in persistence/chainstore.
//
// RefereeBinding value: boundAt unix nanoseconds BE8, the binding order's
// hash 32. The prefix is the core's (persistence.PrefixReferee).

// RefereeBinding is a wallet bound to a referrer: when, and by which order.
type RefereeBinding struct {
	Referrer, Wallet common.Address
	BoundAt          time.Time
	OrderHash        common.Hash
}

func refereeIndexKey(referrer, maker common.Address) []byte {
	k := make([]byte, 0, len(persistence.PrefixReferee)+40)
	k = append(k, persistence.PrefixReferee...)
	k = append(k, referrer[:]...)
	return append(k, maker[:]...)
}

func encodeRefereeBinding(boundAt time.Time, order common.Hash) []byte {
	v := binary.BigEndian.AppendUint64(make([]byte, 0, 40), uint64(boundAt.UnixNano()))
	return append(v, order[:]...)
}

// RefereeCursorLen is the length of a referee page cursor: referrer and
// wallet of the last row.
const RefereeCursorLen = 40

// Referees returns up to limit wallets bound to referrers, by referrer then
// wallet (byte order), after the cursor when not nil, and the next cursor
// (nil at the end).
func (o *Store) Referees(referrers []common.Address, after []byte, limit int) ([]RefereeBinding, []byte, error) {
	refs := slices.Clone(referrers)
	slices.SortFunc(refs, func(a, b common.Address) int { return bytes.Compare(a[:], b[:]) })
	var out []RefereeBinding
	for _, r := range refs {
		if after != nil && bytes.Compare(r[:], after[:20]) < 0 {
			continue
		}
		lower := refereeIndexKey(r, common.Address{})[:len(persistence.PrefixReferee)+20]
		upper := persistence.PrefixUpperBound(lower)
		if after != nil && bytes.Equal(r[:], after[:20]) {
			lower = append(append([]byte{}, persistence.PrefixReferee...), after...)
			lower = append(lower, 0)
		}
		it, err := o.store.DB().NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
		if err != nil {
			return nil, nil, err
		}
		for it.First(); it.Valid(); it.Next() {
			if len(out) == limit {
				_ = it.Close()
				last := out[len(out)-1]
				return out, append(last.Referrer.Bytes(), last.Wallet[:]...), nil
			}
			k := it.Key()[len(persistence.PrefixReferee):]
			v, err := it.ValueAndErr()
			if err != nil || len(v) != 40 || len(k) != 40 {
				_ = it.Close()
				return nil, nil, fmt.Errorf("persistence: corrupt referee record %x: %v", it.Key(), err)
			}
			out = append(out, RefereeBinding{Referrer: common.BytesToAddress(k[:20]), Wallet: common.BytesToAddress(k[20:]),
				BoundAt: time.Unix(0, int64(binary.BigEndian.Uint64(v[:8]))).UTC(), OrderHash: common.BytesToHash(v[8:])})
		}
		if err := it.Close(); err != nil {
			return nil, nil, err
		}
	}
	return out, nil, nil
}

// BuildReferees writes q/ of the referral bindings r/ (the referee half of
// the schema step from 3 to 4, chainstore.Migrations): one referee binding
// per r/ binding, dated by the maker's oldest order naming the referrer
// (zero time and hash when the store no longer holds such an order), in
// one synced batch. Every write is a Set of a value computed from
// unchanged inputs, so a run a crash interrupted runs again to the same
// result. It returns the bindings written.
func (o *Store) BuildReferees() (int, error) {
	s := o.store
	it, err := s.DB().NewIter(&pebble.IterOptions{LowerBound: []byte(persistence.PrefixBinding), UpperBound: persistence.PrefixUpperBound([]byte(persistence.PrefixBinding))})
	if err != nil {
		return 0, err
	}
	defer func() { _ = it.Close() }()
	b := s.DB().NewBatch()
	defer func() { _ = b.Close() }()
	n := 0
	for it.First(); it.Valid(); it.Next() {
		v, err := it.ValueAndErr()
		if err != nil || len(v) != 20 {
			return n, fmt.Errorf("persistence: migrate referral binding %x: %v", it.Key(), err)
		}
		maker := common.BytesToAddress(it.Key()[len(persistence.PrefixBinding):])
		referrer := common.BytesToAddress(v)
		at, hash, err := o.bindingOrder(maker, referrer)
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
func (o *Store) bindingOrder(maker, referrer common.Address) (time.Time, common.Hash, error) {
	s := o.store
	var at time.Time
	var hash common.Hash
	for _, st := range Statuses {
		prefix := orderIndexPrefix(IndexStatus|IndexMaker, maker, st, 0)
		it, err := s.DB().NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: persistence.PrefixUpperBound(prefix)})
		if err != nil {
			return at, hash, err
		}
		for it.First(); it.Valid(); it.Next() {
			h := common.BytesToHash(it.Key()[len(prefix)+8:])
			v, ok, err := s.Get(Key(h))
			if err != nil {
				_ = it.Close()
				return at, hash, err
			}
			var rec Record
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
