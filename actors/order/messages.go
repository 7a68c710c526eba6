package order

import (
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// CreateRequest asks the actor of a new order's hash to store it as
// pending. The signature, fee fields and limits are checked before it is
// sent; the actor checks only that the hash is not taken (ALREADY_EXISTS).
type CreateRequest struct {
	Record *orderstore.Record
	// BindReferrer binds the maker to this referrer in the same write.
	BindReferrer *common.Address
}

// CancelRequest is the off-chain cancel of a pending order; the maker's
// OrderCancel signature is verified before it is sent. Any other status,
// cancelled included, is NOT_CANCELLABLE, except that a cancel seeing the
// order cancelled by itself answers success: ID names one cancel request,
// the same on every attempt to deliver it, and is recorded as the
// off-chain cancel's ledger entry, so an attempt repeated after its owner
// died having cancelled the order (a cluster's failover) is told it took
// effect. A zero ID is never matched.
type CancelRequest struct {
	ID common.Hash
}

// ChainObserved carries what the chain records say about the order after
// an applied block: its cumulative chain state and every fill in chain
// order. The actor activates the order, applies the fills it has not
// applied yet (by the router's executions counter) and records an
// on-chain cancel, each with its event once per chain log over the order's
// life (the ledger, persistence/orderstore/ledger.go).
type ChainObserved struct {
	Chain chainstore.Order
	Fills []chainstore.Fill
	// At dates an activation or a cancel (the block time); fills carry
	// their own.
	At time.Time
}

// NonceInvalidated records the maker's invalidateNonce of the order's
// nonce by transaction TxHash: an open order is cancelled on-chain.
type NonceInvalidated struct {
	TxHash common.Hash
	At     time.Time
}

// ResyncRequest recomputes the order's chain-derived fields from Chain,
// what the chain records say after a rewind (resync.go). It emits no event.
type ResyncRequest struct {
	Chain chainstore.View
	At    time.Time
}

// ExpireRequest records that the deadline passed before completion. It
// changes nothing when Chain already shows the order fully executed,
// cancelled on-chain or its nonce invalidated (the chain projection
// records that outcome instead).
type ExpireRequest struct {
	Chain chainstore.View
	At    time.Time
}

// FailRequest records that the order can no longer execute.
type FailRequest struct {
	Reason, RevertName string
	At                 time.Time
}

// TriggerRequest records that the engine saw a stop or trailing trigger
// condition met at Price (stop.triggered). Only the first one counts, and
// none once Chain shows the order fully executed, cancelled on-chain or its
// nonce invalidated.
type TriggerRequest struct {
	Price uint256.Int
	Chain chainstore.View
	At    time.Time
}

// StallRequest sets or clears the stalled flag of a dca order; setting it
// emits dca.stalled (not once Chain shows the order ended).
type StallRequest struct {
	Stalled bool
	Chain   chainstore.View
	At      time.Time
}

// Response answers every request: the order's record after the request
// (nil when the order does not exist), whether the request changed it, and
// the error (an *orderengine.Error for refusals).
type Response struct {
	Record  *orderstore.Record
	Changed bool
	Err     error
}

// WarmRequest starts the order's actor, if not running, and loads its
// record (tests and the memory benchmark: a new order starts passivated).
type WarmRequest struct{}
