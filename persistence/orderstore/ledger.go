package orderstore

import (
	"encoding/binary"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
)

// The order ledger: which chain logs an order's events were already emitted
// for, and how the order was cancelled. It is written by the order actors
// in the batch of the transition (Transition.Ledger) and is NOT undone by a
// chain rewind, which is the point: a fill that a reorg removed and the new
// branch re-mines is recognised by its (txHash, logIndex) and emits no
// second event, and a rewind can tell an on-chain cancel (to be undone with
// the block) from an off-chain one (final).
//
// THIS IS THE ON-DISK FORMAT (see persistence/keys.go):
//
//	l/<orderHash 32><txHash 32><logIndex BE4>   one byte: LedgerFill, LedgerCancel or LedgerOffChain
//
// An on-chain cancel has no log index of its own in the order layer; it is
// keyed by its transaction with LedgerNoLog. The off-chain cancel is keyed by
// the zero transaction hash and LedgerNoLog. The prefix is the core's
// (persistence.PrefixLedger).

// Ledger entry kinds.
const (
	// LedgerFill: the events of the fill (txHash, logIndex) were emitted.
	LedgerFill byte = 'f'
	// LedgerCancel: the order was cancelled on-chain by txHash
	// (OrderCancelled or NonceInvalidated) and order.cancelled emitted.
	LedgerCancel byte = 'c'
	// LedgerOffChain: the maker cancelled the order off-chain.
	LedgerOffChain byte = 'x'
)

// LedgerNoLog is the log index of entries that are not one log's.
const LedgerNoLog = ^uint32(0)

// LedgerEntry is one row of an order's ledger.
type LedgerEntry struct {
	TxHash   common.Hash
	LogIndex uint32
	Kind     byte
}

func orderLedgerPrefix(h common.Hash) []byte {
	k := make([]byte, 0, len(persistence.PrefixLedger)+32+36)
	k = append(k, persistence.PrefixLedger...)
	return append(k, h[:]...)
}

func orderLedgerKey(h common.Hash, e LedgerEntry) []byte {
	k := append(orderLedgerPrefix(h), e.TxHash[:]...)
	return binary.BigEndian.AppendUint32(k, e.LogIndex)
}

// LoadLedger implements Journal: every entry of order h's ledger.
func (o *Store) LoadLedger(h common.Hash) ([]LedgerEntry, error) {
	p := orderLedgerPrefix(h)
	it, err := o.store.DB().NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: persistence.PrefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: order ledger: %w", err)
	}
	defer it.Close()
	var out []LedgerEntry
	for ok := it.First(); ok; ok = it.Next() {
		k, v := it.Key(), it.Value()
		if len(k) != len(p)+36 || len(v) != 1 {
			return nil, fmt.Errorf("persistence: corrupt order ledger entry %x", k)
		}
		out = append(out, LedgerEntry{
			TxHash:   common.BytesToHash(k[len(p) : len(p)+32]),
			LogIndex: binary.BigEndian.Uint32(k[len(p)+32:]),
			Kind:     v[0],
		})
	}
	return out, it.Error()
}
