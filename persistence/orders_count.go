package persistence

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
)

// CountOrders counts orders per status and type from the list indexes.
func CountOrders(s *Store) (map[string]map[string]int, error) {
	out := map[string]map[string]int{}
	for _, status := range Statuses {
		for class := chain.ClassLimit; class <= chain.ClassTrailing; class++ {
			p := orderIndexPrefix(IndexStatus|IndexType, common.Address{}, status, class)
			it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: PrefixUpperBound(p)})
			if err != nil {
				return nil, fmt.Errorf("persistence: count orders: %w", err)
			}
			n := 0
			for ok := it.First(); ok; ok = it.Next() {
				n++
			}
			if err := it.Close(); err != nil {
				return nil, err
			}
			if out[status.String()] == nil {
				out[status.String()] = map[string]int{}
			}
			out[status.String()][class.String()] = n
		}
	}
	return out, nil
}

// MakerOrderCount counts maker's orders, every status (a scan of its list
// index keys, no record read).
func (o *Orders) MakerOrderCount(maker common.Address) (int, error) {
	n := 0
	for _, st := range Statuses {
		prefix := orderIndexPrefix(IndexStatus|IndexMaker, maker, st, 0)
		it, err := o.store.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: PrefixUpperBound(prefix)})
		if err != nil {
			return 0, err
		}
		for it.First(); it.Valid(); it.Next() {
			n++
		}
		if err := it.Close(); err != nil {
			return 0, err
		}
	}
	return n, nil
}
