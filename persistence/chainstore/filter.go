package chainstore

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
)

// filters let a submission's chain-state check (has the router already
// seen this order, did its maker invalidate this nonce?) skip the two
// Pebble reads for the usual answer, "never": a point read of an absent
// key still builds an iterator over every memtable and level, about 8 µs
// each on the reference machine, with Bloom filters on the tables.
//
// They never give a false negative. They are loaded from the store when
// the store's Chain is made (New), under the store's Attach, before any
// handle that could write exists; every write of a c/o or c/n record goes
// through that one Chain (Begin) and adds to them before its batch is
// committed. Every caller of New over the store gets the same Chain, so no
// reader holds filters another handle's writes bypassed. Rewinds, and a
// ResetChainBound after the Chain was made, are not removed (a false
// positive only costs the read).
type filters struct {
	orders persistence.HashSet // c/o/<orderHash>
	makers persistence.HashSet // c/n/<maker>...: makers with an invalidated nonce
}

// makerKey places maker in the positions a HashSet reads (its first 16
// bytes): an address is already a hash output.
func makerKey(maker common.Address) common.Hash {
	var h common.Hash
	copy(h[:], maker[:])
	return h
}

// loadFilters reads the keys of every c/o and c/n record of db.
func loadFilters(db *pebble.DB) (*filters, error) {
	var orders, makers []common.Hash
	if err := scanKeys(db, []byte(orderPrefix), func(k []byte) {
		if len(k) == len(orderPrefix)+common.HashLength {
			orders = append(orders, common.BytesToHash(k[len(orderPrefix):]))
		}
	}); err != nil {
		return nil, fmt.Errorf("persistence: chain order filter: %w", err)
	}
	if err := scanKeys(db, []byte(noncePrefix), func(k []byte) {
		if len(k) >= len(noncePrefix)+common.AddressLength {
			makers = append(makers, makerKey(common.BytesToAddress(k[len(noncePrefix):len(noncePrefix)+common.AddressLength])))
		}
	}); err != nil {
		return nil, fmt.Errorf("persistence: chain nonce filter: %w", err)
	}
	f := &filters{}
	f.orders.Load(orders)
	f.makers.Load(makers)
	return f, nil
}

// scanKeys calls fn with every key under prefix p.
func scanKeys(db *pebble.DB, p []byte, fn func(k []byte)) error {
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: persistence.PrefixUpperBound(p)})
	if err != nil {
		return err
	}
	for ok := it.First(); ok; ok = it.Next() {
		fn(it.Key())
	}
	return it.Close()
}
