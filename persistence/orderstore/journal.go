package orderstore

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
)

// The journal: the one seam through which every durable change of an order
// goes. An order actor loads a version of its record, decides a
// transition, and appends it conditional on that version; the journal
// writes the new record, its index moves, its outbox events, its ledger
// entries and its referral binding atomically, or nothing.
//
// Store (store.go) implements it on the persistence store: appends go
// through the core's group committer (persistence.Store.WriteGroup), whose
// single goroutine checks each append's expected version against the
// stored one (and the versions written earlier in its round) before the
// round's batch is applied, so two writers that loaded the same version
// cannot both commit. A replicated implementation keeps the same contract
// with a conditional publish.

// Transition is one durable change of an order.
type Transition struct {
	// Record is the new state. Its Version must be Expect + 1.
	Record *Record
	// Expect is the version the writer loaded: 0 for a new order (the
	// append fails when the hash is taken).
	Expect uint64
	// Prev is the status of the loaded version (0 for a new order): its
	// list index keys are replaced by those of Record.Status.
	Prev Status
	// Events are appended to the outbox of Record.AccountID.
	Events []persistence.OutboxEvent
	// Ledger entries to add (ledger.go).
	Ledger []LedgerEntry
	// Bind, when set, binds the maker to this referrer.
	Bind *common.Address
}

// ErrVersionConflict is returned by AppendOrder when the stored version is
// not the transition's Expect: another writer committed meanwhile, or the
// hash of a new order is taken. Nothing was written.
var ErrVersionConflict = errors.New("persistence: the order changed since it was loaded")

// Journal makes order transitions durable. Implementations are safe
// for concurrent use.
type Journal interface {
	// AppendOrder writes t atomically once the stored version equals
	// t.Expect, and returns nil when it is durable; ErrVersionConflict
	// when the version differs; another error when nothing could be
	// written (the outcome is then unknown only if the error says so).
	AppendOrder(ctx context.Context, t *Transition) error
	// LoadOrder returns the latest durable state of an order (found false
	// when there is none).
	LoadOrder(h common.Hash) (rec *Record, found bool, err error)
	// LoadLedger returns the order's ledger (ledger.go): the chain
	// logs its events were emitted for and how it was cancelled.
	LoadLedger(h common.Hash) ([]LedgerEntry, error)
	// MayExist reports whether an order with hash h may be stored; false
	// means certainly not, so a create needs no read.
	MayExist(h common.Hash) bool
}

var _ Journal = (*Store)(nil)
