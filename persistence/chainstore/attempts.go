package chainstore

import (
	"encoding/json"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
)

// Failed fill attempts: the last fillOrder transaction of each order that
// reverted on chain, for the order diagnostics (GET /v1/orders/{hash}).
// A reverted transaction emits no log, so the indexer's records do not
// hold it: the keeper's attempt watcher (keeper/attempts.go) finds it in
// the block's transactions and receipts.
//
// Key layout (see persistence/keys.go):
//
//	u/<orderHash 32>   FailedAttempt, JSON
//
// The record is chain-bound but outside the indexer's undo records: an
// attempt seen in a block a reorg removed stays (it was made).

func attemptKey(h common.Hash) []byte { return append([]byte(persistence.PrefixAttempt), h[:]...) }

// FailedAttempt is a fillOrder transaction that reverted on chain.
type FailedAttempt struct {
	TxHash      common.Hash    `json:"txHash"`
	BlockNumber uint64         `json:"blockNumber"`
	Keeper      common.Address `json:"keeper"`
	// RevertName is the router's custom error (or "Error(<reason>)", or
	// "" when the replay found no revert data).
	RevertName string `json:"revertName"`
	// Timestamp is the block time, unix seconds.
	Timestamp uint64 `json:"timestamp"`
}

// SetFailedAttempt records a as order h's last failed attempt (unless a
// later one is recorded already). The write does not wait for an fsync:
// losing it in a power loss loses a diagnostic, nothing else.
func (c *Chain) SetFailedAttempt(h common.Hash, a FailedAttempt) error {
	if prev, ok, err := c.FailedAttempt(h); err != nil {
		return err
	} else if ok && prev.BlockNumber > a.BlockNumber {
		return nil
	}
	v, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("persistence: encode failed attempt: %w", err)
	}
	b := c.store.DB().NewBatch()
	defer b.Close()
	if err := b.Set(attemptKey(h), v, nil); err != nil {
		return err
	}
	if err := c.store.Commit(b, pebble.NoSync); err != nil {
		return fmt.Errorf("persistence: store failed attempt: %w", err)
	}
	return nil
}

// FailedAttempt returns order h's last failed attempt (ok false: none).
func (c *Chain) FailedAttempt(h common.Hash) (FailedAttempt, bool, error) {
	var a FailedAttempt
	v, ok, err := c.store.Get(attemptKey(h))
	if err != nil || !ok {
		return a, false, err
	}
	if err := json.Unmarshal(v, &a); err != nil {
		return a, false, fmt.Errorf("persistence: decode failed attempt: %w", err)
	}
	return a, true, nil
}
