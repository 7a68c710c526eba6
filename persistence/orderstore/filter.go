package orderstore

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"
)

// LoadHashFilter reads every stored order hash (from the status list
// indexes: keys only) into the filter chain that AppendOrder and
// ApplyBatch keep current and MayExist answers from. Call it once, before any order actor runs.
func (o *Store) LoadHashFilter() error {
	var hashes []common.Hash
	for _, st := range Statuses {
		p := orderIndexPrefix(IndexStatus, common.Address{}, st, 0)
		err := ordersScan(o.store.DB(), p, func(k, _ []byte) {
			if len(k) == len(p)+40 {
				hashes = append(hashes, common.BytesToHash(k[len(p)+8:]))
			}
		})
		if err != nil {
			return fmt.Errorf("persistence: order hash filter: %w", err)
		}
	}
	o.stored.Load(hashes)
	return nil
}

// MayExist reports whether an order with hash may be stored: false means
// certainly not (no read needed). Without a loaded filter it is always true.
func (o *Store) MayExist(h common.Hash) bool { return o.stored.MayContain(h) }
