package orderstore

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
)

// Count counts orders per status and type from the list indexes.
func Count(s *persistence.Store) (map[string]map[string]int, error) {
	out := map[string]map[string]int{}
	for _, status := range Statuses {
		for class := chain.ClassLimit; class <= chain.ClassTrailing; class++ {
			p := orderIndexPrefix(IndexStatus|IndexType, common.Address{}, status, class)
			it, err := s.DB().NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: persistence.PrefixUpperBound(p)})
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
func (o *Store) MakerOrderCount(maker common.Address) (int, error) {
	n := 0
	for _, st := range Statuses {
		prefix := orderIndexPrefix(IndexStatus|IndexMaker, maker, st, 0)
		it, err := o.store.DB().NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: persistence.PrefixUpperBound(prefix)})
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
