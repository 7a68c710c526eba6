package persistence

import (
	"bytes"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
)

// OrderConsistency is the result of CheckOrders.
type OrderConsistency struct {
	Orders, IndexEntries, Fills int
	// Problems lists every inconsistency found (empty when consistent).
	Problems []string
}

// CheckOrders verifies the order key space: every order record decodes and
// has exactly the four index keys of its status; every index key belongs to
// an order whose current keys include it; every fill the order layer wrote
// belongs to an order (the indexer's fill rows, which carry the block hash,
// may be of orders not submitted here).
// It reads one consistent snapshot, so it may run while the engine writes.
func (o *Orders) CheckOrders() (OrderConsistency, error) {
	var res OrderConsistency
	snap := o.store.db.NewSnapshot()
	defer snap.Close()
	expected := make(map[string]bool)
	err := ordersScan(snap, []byte(ordPrefixOrder), func(k, v []byte) {
		res.Orders++
		var rec OrderRecord
		if err := DecodeOrderRecord(v, &rec); err != nil {
			res.Problems = append(res.Problems, fmt.Sprintf("order %x: undecodable: %v", k, err))
			return
		}
		if h := OrderKey(common.HexToHash(rec.OrderHash)); string(h) != string(k) {
			res.Problems = append(res.Problems, fmt.Sprintf("order %x: record says hash %s", k, rec.OrderHash))
		}
		keys, err := orderIndexKeys(&rec, rec.Status)
		if err != nil {
			res.Problems = append(res.Problems, err.Error())
			return
		}
		for _, ik := range keys {
			expected[string(ik)] = true
		}
	})
	if err != nil {
		return res, err
	}
	seen := make(map[string]bool, len(expected))
	err = ordersScan(snap, []byte(ordPrefixIndex), func(k, _ []byte) {
		res.IndexEntries++
		seen[string(k)] = true
		if !expected[string(k)] {
			res.Problems = append(res.Problems, fmt.Sprintf("index entry %x has no order in that state", k))
		}
	})
	if err != nil {
		return res, err
	}
	for k := range expected {
		if !seen[k] {
			res.Problems = append(res.Problems, fmt.Sprintf("order is missing index entry %x", k))
		}
	}
	err = ordersScan(snap, []byte(ordPrefixFill), func(k, v []byte) {
		res.Fills++
		if len(k) != len(ordPrefixFill)+32+12 {
			res.Problems = append(res.Problems, fmt.Sprintf("malformed fill key %x", k))
			return
		}
		if bytes.Contains(v, []byte(`"blockHash"`)) {
			return // the indexer's row (chain_orders.go): orders not submitted here have fills too
		}
		ok, err := ordersHas(snap, OrderKey(common.BytesToHash(k[len(ordPrefixFill):len(ordPrefixFill)+32])))
		if err != nil || !ok {
			res.Problems = append(res.Problems, fmt.Sprintf("fill %x has no order", k))
		}
	})
	return res, err
}

func ordersScan(r pebble.Reader, p []byte, fn func(k, v []byte)) error {
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixUpperBound(p)})
	if err != nil {
		return err
	}
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			_ = it.Close()
			return err
		}
		fn(it.Key(), v)
	}
	return it.Close()
}

func ordersHas(r pebble.Reader, key []byte) (bool, error) {
	_, closer, err := r.Get(key)
	if err == pebble.ErrNotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, closer.Close()
}
