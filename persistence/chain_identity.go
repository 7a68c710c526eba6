package persistence

import (
	"encoding/json"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
)

// ChainIdentity names the chain the store's chain-bound records (Prefixes)
// belong to: its id and the hash of one of its blocks, the block the
// indexer starts from. Two chains with the same id (a dev chain restarted
// from genesis, a test network reset) differ in that hash.
type ChainIdentity struct {
	ChainID uint64      `json:"chainId"`
	Block   uint64      `json:"block"`
	Hash    common.Hash `json:"hash"`
}

func chainIdentityKey() []byte { return []byte(prefixMeta + "chain") }

// ChainIdentity returns the identity recorded by SetChainIdentity; ok is
// false when none was (a new store, or one written before identities were).
func (s *Store) ChainIdentity() (id ChainIdentity, ok bool, err error) {
	v, ok, err := s.Get(chainIdentityKey())
	if err != nil || !ok {
		return id, false, err
	}
	if err := json.Unmarshal(v, &id); err != nil {
		return id, false, fmt.Errorf("persistence: corrupt chain identity record: %w", err)
	}
	return id, true, nil
}

// SetChainIdentity records id, durably.
func (s *Store) SetChainIdentity(id ChainIdentity) error {
	v, err := json.Marshal(id)
	if err != nil {
		return err
	}
	if err := s.db.Set(chainIdentityKey(), v, pebble.Sync); err != nil {
		return fmt.Errorf("persistence: write chain identity: %w", err)
	}
	return nil
}

// HasChainBound reports whether the store holds any chain-bound record.
func (s *Store) HasChainBound() (bool, error) {
	for _, p := range Prefixes {
		if !p.ChainBound {
			continue
		}
		it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte(p.Prefix), UpperBound: PrefixUpperBound([]byte(p.Prefix))})
		if err != nil {
			return false, err
		}
		found := it.First()
		if err := it.Close(); err != nil {
			return false, err
		}
		if found {
			return true, nil
		}
	}
	return false, nil
}

// ResetChainBound deletes every chain-bound record (Prefixes: the indexer's
// state, fills, swaps, volumes, trigger state, orders with their indexes and
// ledgers) in one synced batch and records id as the store's chain. It
// keeps accounts, keys, referral bindings, webhook endpoints, deliveries and
// the outbox. It must run before anything reads orders or chain records
// (the order service, the indexer, chainstore.New): their in-memory state
// is built at their start.
func (s *Store) ResetChainBound(id ChainIdentity) error {
	b := s.db.NewBatch()
	defer b.Close()
	for _, p := range Prefixes {
		if p.ChainBound {
			if err := b.DeleteRange([]byte(p.Prefix), PrefixUpperBound([]byte(p.Prefix)), nil); err != nil {
				return err
			}
		}
	}
	v, err := json.Marshal(id)
	if err != nil {
		return err
	}
	if err := b.Set(chainIdentityKey(), v, nil); err != nil {
		return err
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("persistence: reset chain-bound records: %w", err)
	}
	return nil
}
