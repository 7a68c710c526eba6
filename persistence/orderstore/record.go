package orderstore

import (
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
)

// Status is an order's lifecycle status (contract.md section 3). Its
// numeric value is the status byte of the list index keys (keys.go) and
// of the record codec (codec.go): THIS IS THE ON-DISK FORMAT.
type Status uint8

// The statuses, in index-code order.
const (
	StatusPending Status = iota + 1
	StatusActive
	StatusFilled
	StatusCancelled
	StatusExpired
	StatusFailed
)

// Statuses lists every status in index-code order.
var Statuses = [...]Status{StatusPending, StatusActive, StatusFilled, StatusCancelled, StatusExpired, StatusFailed}

var statusNames = [...]string{"", "pending", "active", "filled", "cancelled", "expired", "failed"}

// String returns the API's name of s ("pending", ...), or "" when s is not
// a status.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return ""
}

// ParseStatus parses an API status name; ok is false for anything else.
func ParseStatus(name string) (Status, bool) {
	for _, s := range Statuses {
		if statusNames[s] == name {
			return s, true
		}
	}
	return 0, false
}

// Open reports whether s is pending or active: the order may still
// execute.
func (s Status) Open() bool { return s == StatusPending || s == StatusActive }

// Terminal reports whether s is final (filled, cancelled, expired, failed).
func (s Status) Terminal() bool { return s >= StatusFilled && s <= StatusFailed }

// Record is an order's whole state: the signed order and what the
// engine knows of it. Amounts, addresses and hashes are typed; the stored
// form is the record codec (codec.go) and the API's JSON is rendered
// from this struct by the order service, so neither constrains the other.
type Record struct {
	// Hash is the order's EIP-712 hash (router v7.1).
	Hash common.Hash
	// Version is the journal version of this state: 1 when the order was
	// created, one more for every transition (journal.go).
	Version uint64
	Class   chain.Class
	Status  Status
	// Order is the signed struct, triggerAmountOut resolved.
	Order     chain.Order
	Signature []byte
	// FilledIn is the router's cumulative filledAmountIn; FilledOut the sum
	// of the fills' net amountOut.
	FilledIn, FilledOut uint256.Int
	Executions          uint32
	// DCA is set for dca orders, Trailing for trailing orders.
	DCA      *DCAParams
	Trailing *TrailingParams
	// TriggeredAt is when the engine saw a stop or trailing condition met
	// (zero: not triggered).
	TriggeredAt time.Time
	// Stalled marks a dca order whose next leg is overdue.
	Stalled bool
	// Reason and RevertName explain a failed order.
	Reason, RevertName string
	// AccountID is the account whose key submitted the order.
	AccountID string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// DCAParams are a dca order's parameters, from its signed traits. The
// total amount is the order's amountIn.
type DCAParams struct {
	IntervalSeconds uint32
	TotalExecutions uint16
	FlexibilityPpm  uint32
	ShortCircuit    bool
	PriceGated      bool
}

// TrailingParams are a trailing order's parameters.
type TrailingParams struct {
	TrailPpm uint32
	// DesignatedKeeper is the submitted designatedKeeper (nil: none).
	DesignatedKeeper *common.Address
}

// Traits decodes the record's makerTraits.
func (r *Record) Traits() chain.Traits { return chain.DecodeTraits(&r.Order.MakerTraits) }

// Remaining is amountIn − filledIn (zero once filled or over-filled).
func (r *Record) Remaining() uint256.Int {
	var out uint256.Int
	if !r.FilledIn.Gt(&r.Order.AmountIn) {
		out.Sub(&r.Order.AmountIn, &r.FilledIn)
	}
	return out
}

// Clone returns a copy of r that shares nothing mutable with it.
func (r *Record) Clone() *Record {
	c := *r
	c.Signature = append([]byte(nil), r.Signature...)
	if r.DCA != nil {
		d := *r.DCA
		c.DCA = &d
	}
	if r.Trailing != nil {
		t := *r.Trailing
		if t.DesignatedKeeper != nil {
			k := *t.DesignatedKeeper
			t.DesignatedKeeper = &k
		}
		c.Trailing = &t
	}
	return &c
}

// check reports a record that cannot be stored: no hash, an unknown class
// or status, or a zero version.
func (r *Record) check() error {
	switch {
	case r.Hash == (common.Hash{}):
		return fmt.Errorf("persistence: order record without a hash")
	case r.Class < chain.ClassLimit || r.Class > chain.ClassTrailing:
		return fmt.Errorf("persistence: order %s has unknown class %d", r.Hash.Hex(), r.Class)
	case r.Status.String() == "":
		return fmt.Errorf("persistence: order %s has unknown status %d", r.Hash.Hex(), r.Status)
	case r.Version == 0:
		return fmt.Errorf("persistence: order %s has version 0", r.Hash.Hex())
	}
	return nil
}
