package order

import (
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
)

// CreateRequest asks the actor of a new order's hash to store it as
// pending. The signature, fee fields and limits are checked before it is
// sent; the actor checks only that the hash is not taken (ALREADY_EXISTS).
type CreateRequest struct {
	Record *persistence.OrderRecord
	// BindReferrer binds the maker to this referrer in the same batch.
	BindReferrer *common.Address
}

// CancelRequest is the off-chain cancel of a pending order; the maker's
// OrderCancel signature is verified before it is sent. A cancelled order
// answers success again (idempotent); any other non-pending status is
// NOT_CANCELLABLE.
type CancelRequest struct{}

// ActivateRequest records that the router has seen the order (first fill,
// first DCA leg or an on-chain arm): pending → active.
type ActivateRequest struct{ At time.Time }

// RecordFillRequest applies one OrderFilled event: the fill is stored,
// the filled totals and executions are set from the event, the order
// becomes active, and filled when Complete. A fill already recorded (its
// executions counter is not above the record's) changes nothing. Its
// events (order.filled, dca.completed) are emitted once per (txHash,
// logIndex) over the order's life: a fill re-mined after a reorg updates
// the record again but emits nothing (the order ledger, l/).
type RecordFillRequest struct {
	Fill persistence.OrderFill
	// RowStored says the fill row (f/) is already stored by the chain
	// indexer's batch (the projector): the actor must not write it, so a
	// row that a rewind removed is never written back.
	RowStored bool
	// FilledAmountIn and Executions are the router's running totals after
	// this fill (OrderFilled's filledAmountIn and executions).
	FilledAmountIn string
	Executions     int
	// Complete marks the order filled (amountIn spent, or a DCA order
	// completed or short-circuited).
	Complete bool
	At       time.Time
}

// CancelOnChainRequest records an on-chain cancel or nonce invalidation.
type CancelOnChainRequest struct {
	TxHash string
	At     time.Time
}

// ResyncRequest recomputes the order's chain-derived fields from the chain
// records after a rewind (resync.go). It emits no event.
type ResyncRequest struct{ At time.Time }

// ExpireRequest records that the deadline passed before completion. It
// changes nothing when the chain records already show the order fully
// executed, cancelled on-chain or its nonce invalidated (the projector
// records that outcome instead).
type ExpireRequest struct{ At time.Time }

// FailRequest records that the order can no longer execute.
type FailRequest struct {
	Reason, RevertName string
	At                 time.Time
}

// TriggerRequest records that the engine saw a stop or trailing trigger
// condition met at price (stop.triggered). Only the first one counts, and
// none once the chain records show the order fully executed, cancelled
// on-chain or its nonce invalidated.
type TriggerRequest struct {
	Price string
	At    time.Time
}

// StallRequest sets or clears the stalled flag of a dca order; setting it
// emits dca.stalled (not once the chain records show the order fully
// executed, cancelled on-chain or its nonce invalidated).
type StallRequest struct {
	Stalled bool
	At      time.Time
}

// Response answers every request: the order's record after the request
// (nil when the order does not exist), whether the request changed it, and
// the error (an *orderengine.Error for refusals).
type Response struct {
	Record  *persistence.OrderRecord
	Changed bool
	Err     error
}

// WarmRequest starts the order's actor, if not running, and loads its
// record (tests and the memory benchmark: a new order starts passivated).
type WarmRequest struct{}

// PassivateRequest asks the actor to stop now if nothing is in flight
// (tests and memory pressure; the registry's sweep stops idle actors).
type PassivateRequest struct{}

// PassivateResponse says whether the actor stopped.
type PassivateResponse struct{ Stopped bool }

// bind is the first message of a new order actor: the order it owns and
// its registry slot.
type bind struct {
	hash common.Hash
	slot *slot
}
