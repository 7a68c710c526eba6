package orderstore

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine/persistence"
)

// Consistency is the result of CheckOrders.
type Consistency struct {
	Orders, IndexEntries, Fills int
	// Problems lists every inconsistency found (empty when consistent).
	Problems []string
}

// CheckOrders verifies the order key space: every order record decodes and
// has exactly the four index keys of its status; every index key belongs to
// an order whose current keys include it; every fill key is well formed
// (fills are the indexer's rows and may be of orders not submitted here).
// It reads one consistent snapshot, so it may run while the engine writes.
func (o *Store) CheckOrders() (Consistency, error) {
	var res Consistency
	snap := o.store.DB().NewSnapshot()
	defer snap.Close()
	expected := make(map[string]bool)
	err := ordersScan(snap, []byte(persistence.PrefixOrder), func(k, v []byte) {
		res.Orders++
		var rec Record
		if err := decodeOrder(v, &rec); err != nil {
			res.Problems = append(res.Problems, fmt.Sprintf("order %x: undecodable: %v", k, err))
			return
		}
		if h := Key(rec.Hash); string(h) != string(k) {
			res.Problems = append(res.Problems, fmt.Sprintf("order %x: record says hash %s", k, rec.Hash.Hex()))
		}
		for _, ik := range orderIndexKeys(&rec, rec.Status) {
			expected[string(ik)] = true
		}
	})
	if err != nil {
		return res, err
	}
	seen := make(map[string]bool, len(expected))
	err = ordersScan(snap, []byte(persistence.PrefixIndex), func(k, _ []byte) {
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
	err = ordersScan(snap, []byte(persistence.PrefixFill), func(k, _ []byte) {
		res.Fills++
		if len(k) != len(persistence.PrefixFill)+32+12 {
			res.Problems = append(res.Problems, fmt.Sprintf("malformed fill key %x", k))
		}
	})
	return res, err
}

func ordersScan(r pebble.Reader, p []byte, fn func(k, v []byte)) error {
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: persistence.PrefixUpperBound(p)})
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
