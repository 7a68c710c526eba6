package chainstore

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/persistence"
)

// The chain-derived platform (referral) records: the referral legs the
// router paid, and what each referrer's referees have filled. The wallets
// bound to each referrer (q/) are written with the orders that bind them,
// by the order store (persistence/orderstore/referees.go).
//
// THIS IS THE ON-DISK FORMAT; DO NOT CHANGE (see persistence/keys.go).
//
//	prefix  key                                                 value
//	------  --------------------------------------------------  -----------------------------------
//	p/      p/a/<referrer 20><^time BE8><^block BE8><^log BE4>  Accrual, binary (below): one referral
//	                                                            leg paid, by an order fill or a swap
//	        p/v/<referrer 20><maker 20><tokenIn 20>             uint256 BE 32: tokenIn the maker's
//	                                                            orders naming referrer had filled
//
// p/ is derived from the chain by the indexer's platform sink, inside the
// block's batch (so a rewind undoes it); it is chain-bound. ^ is the
// bitwise complement: a forward scan of one referrer's accruals is newest
// first (block time, then block, then log index).
//
// Accrual value: version byte 1, token 20, amount 32 (big-endian), txHash
// 32, then the order hash 32 for an order fill (absent for a direct swap).
const (
	prefixAccrual = persistence.PrefixPlatform + "a/"
	prefixRefVol  = persistence.PrefixPlatform + "v/"
)

// Accrual is one referral leg paid to Referrer.
type Accrual struct {
	Referrer    common.Address
	Timestamp   uint64 // block time, unix seconds
	BlockNumber uint64
	LogIndex    uint32
	Token       common.Address
	Amount      uint256.Int
	TxHash      common.Hash
	// OrderHash is the filled order; nil for a direct swap.
	OrderHash *common.Hash
}

func accrualPrefix(referrer common.Address) []byte {
	k := make([]byte, 0, len(prefixAccrual)+20+20)
	k = append(k, prefixAccrual...)
	return append(k, referrer[:]...)
}

// accrualSuffix is the part of an accrual key after the referrer.
func accrualSuffix(ts, block uint64, log uint32) []byte {
	b := make([]byte, 0, 20)
	b = binary.BigEndian.AppendUint64(b, ^ts)
	b = binary.BigEndian.AppendUint64(b, ^block)
	return binary.BigEndian.AppendUint32(b, ^log)
}

func accrualKey(a *Accrual) []byte {
	return append(accrualPrefix(a.Referrer), accrualSuffix(a.Timestamp, a.BlockNumber, a.LogIndex)...)
}

func encodeAccrual(a *Accrual) []byte {
	v := make([]byte, 0, 1+20+32+32+32)
	v = append(v, 1)
	v = append(v, a.Token[:]...)
	amt := a.Amount.Bytes32()
	v = append(v, amt[:]...)
	v = append(v, a.TxHash[:]...)
	if a.OrderHash != nil {
		v = append(v, a.OrderHash[:]...)
	}
	return v
}

func decodeAccrual(key, v []byte) (Accrual, error) {
	var a Accrual
	k := key[len(prefixAccrual):]
	if len(k) != 40 || len(v) < 85 || v[0] != 1 || (len(v) != 85 && len(v) != 117) {
		return a, fmt.Errorf("persistence: corrupt accrual record %x", key)
	}
	a.Referrer = common.BytesToAddress(k[:20])
	a.Timestamp = ^binary.BigEndian.Uint64(k[20:28])
	a.BlockNumber = ^binary.BigEndian.Uint64(k[28:36])
	a.LogIndex = ^binary.BigEndian.Uint32(k[36:40])
	a.Token = common.BytesToAddress(v[1:21])
	a.Amount.SetBytes(v[21:53])
	a.TxHash = common.BytesToHash(v[53:85])
	if len(v) == 117 {
		h := common.BytesToHash(v[85:117])
		a.OrderHash = &h
	}
	return a, nil
}

// PutAccrual records a referral leg in the block's batch.
func PutAccrual(cb *Batch, a *Accrual) error {
	return cb.setNew(accrualKey(a), encodeAccrual(a))
}

func refVolumeKey(referrer, maker, token common.Address) []byte {
	k := make([]byte, 0, len(prefixRefVol)+60)
	k = append(k, prefixRefVol...)
	k = append(k, referrer[:]...)
	k = append(k, maker[:]...)
	return append(k, token[:]...)
}

// AddRefereeVolume adds amount of tokenIn to what maker's orders naming
// referrer have filled, in the block's batch.
func AddRefereeVolume(cb *Batch, referrer, maker, tokenIn common.Address, amount *uint256.Int) error {
	k := refVolumeKey(referrer, maker, tokenIn)
	v, _, err := cb.Get(k)
	if err != nil {
		return err
	}
	sum := new(uint256.Int).SetBytes(v)
	sum.Add(sum, amount) // a token's total supply fits in 256 bits
	b := sum.Bytes32()
	return cb.Set(k, b[:])
}

// AccrualFilter selects accruals: the time range [From, To) in unix
// seconds (To 0: no upper bound), and Token when not nil.
type AccrualFilter struct {
	From, To uint64
	Token    *common.Address
}

// Platform reads the chain-derived platform records.
type Platform struct{ store *persistence.Store }

// NewPlatform returns the reader of store's platform records.
func NewPlatform(store *persistence.Store) *Platform { return &Platform{store: store} }

// accrualBounds are the iterator bounds of referrer's accruals in f's range.
func accrualBounds(referrer common.Address, f AccrualFilter) (lower, upper []byte) {
	p := accrualPrefix(referrer)
	lower, upper = p, persistence.PrefixUpperBound(p)
	if f.To > 0 {
		lower = binary.BigEndian.AppendUint64(bytes.Clone(p), ^(f.To - 1))
	}
	if f.From > 0 {
		upper = persistence.PrefixUpperBound(binary.BigEndian.AppendUint64(bytes.Clone(p), ^f.From))
	}
	return lower, upper
}

// AccrualCursorLen is the length of an accrual page cursor: the last row's
// key suffix (20) and referrer (20).
const AccrualCursorLen = 40

// Accruals returns up to limit accruals of referrers in f, newest first
// (ties between referrers by referrer), after the cursor when it is not
// nil, and the cursor of the next page (nil at the end).
func (p *Platform) Accruals(referrers []common.Address, f AccrualFilter, after []byte, limit int) ([]Accrual, []byte, error) {
	if after != nil && len(after) != AccrualCursorLen {
		return nil, nil, fmt.Errorf("persistence: accrual cursor length %d", len(after))
	}
	var heads []*accrualHead
	defer func() {
		for _, h := range heads {
			_ = h.it.Close()
		}
	}()
	for _, r := range referrers {
		lower, upper := accrualBounds(r, f)
		it, err := p.store.DB().NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
		if err != nil {
			return nil, nil, err
		}
		heads = append(heads, &accrualHead{it: it, ref: r})
		if after == nil {
			it.First()
			continue
		}
		seek := append(accrualPrefix(r), after[:20]...)
		it.SeekGE(seek)
		// Rows at the cursor's position: those of a referrer ordered before
		// or at the cursor's were on an earlier page.
		if it.Valid() && bytes.Equal(it.Key(), seek) && bytes.Compare(r[:], after[20:]) <= 0 {
			it.Next()
		}
	}
	var out []Accrual
	for len(out) < limit {
		var best *accrualHead
		for _, h := range heads {
			if !h.it.Valid() {
				continue
			}
			if best == nil {
				best = h
				continue
			}
			c := bytes.Compare(h.it.Key()[len(prefixAccrual)+20:], best.it.Key()[len(prefixAccrual)+20:])
			if c < 0 || (c == 0 && bytes.Compare(h.ref[:], best.ref[:]) < 0) {
				best = h
			}
		}
		if best == nil {
			return out, nil, iterErrs(heads)
		}
		v, err := best.it.ValueAndErr()
		if err != nil {
			return nil, nil, err
		}
		a, err := decodeAccrual(best.it.Key(), v)
		if err != nil {
			return nil, nil, err
		}
		best.it.Next()
		if f.Token != nil && a.Token != *f.Token {
			continue
		}
		out = append(out, a)
	}
	last := out[len(out)-1]
	next := append(accrualSuffix(last.Timestamp, last.BlockNumber, last.LogIndex), last.Referrer[:]...)
	for _, h := range heads {
		if h.it.Valid() {
			return out, next, nil
		}
	}
	return out, nil, iterErrs(heads)
}

// accrualHead is one referrer's iterator in the merge of Accruals.
type accrualHead struct {
	it  *pebble.Iterator
	ref common.Address
}

// iterErrs returns the first error of the heads' iterators.
func iterErrs(heads []*accrualHead) error {
	for _, h := range heads {
		if err := h.it.Error(); err != nil {
			return fmt.Errorf("persistence: accruals: %w", err)
		}
	}
	return nil
}

// AccrualTotals sums the accruals of referrers in f per token. It reads
// every row in the range (about a microsecond each): a narrower time range
// is cheaper.
func (p *Platform) AccrualTotals(referrers []common.Address, f AccrualFilter) (map[common.Address]*uint256.Int, error) {
	out := map[common.Address]*uint256.Int{}
	for _, r := range referrers {
		lower, upper := accrualBounds(r, f)
		it, err := p.store.DB().NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
		if err != nil {
			return nil, err
		}
		for it.First(); it.Valid(); it.Next() {
			v, err := it.ValueAndErr()
			if err != nil || len(v) < 53 {
				_ = it.Close()
				return nil, fmt.Errorf("persistence: accrual totals: corrupt record %x: %v", it.Key(), err)
			}
			token := common.BytesToAddress(v[1:21])
			if f.Token != nil && token != *f.Token {
				continue
			}
			sum := out[token]
			if sum == nil {
				sum = new(uint256.Int)
				out[token] = sum
			}
			sum.Add(sum, new(uint256.Int).SetBytes(v[21:53]))
		}
		if err := it.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// TokenAmount is an amount of one token.
type TokenAmount struct {
	Token  common.Address
	Amount uint256.Int
}

// RefereeVolume returns the tokenIn amounts maker's orders naming referrer
// have filled, by token address.
func (p *Platform) RefereeVolume(referrer, maker common.Address) ([]TokenAmount, error) {
	prefix := refVolumeKey(referrer, maker, common.Address{})[:len(prefixRefVol)+40]
	it, err := p.store.DB().NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: persistence.PrefixUpperBound(prefix)})
	if err != nil {
		return nil, err
	}
	var out []TokenAmount
	for it.First(); it.Valid(); it.Next() {
		var ta TokenAmount
		ta.Token = common.BytesToAddress(it.Key()[len(prefix):])
		v, err := it.ValueAndErr()
		if err != nil {
			_ = it.Close()
			return nil, err
		}
		ta.Amount.SetBytes(v)
		out = append(out, ta)
	}
	return out, it.Close()
}
