package pair

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// openOrder is an open order as its pair actor holds it: what the book
// and the decisions need of the record the change feed last delivered
// (copied, so that the record itself is not kept: the pair holds an order
// in about a third of its record's memory), and the chain's progress on
// it. Those fields never change once the actor holds it: a change puts a
// new openOrder, so a reader of the executable set never sees one change.
// The last four fields are the actor's own bookkeeping, which nothing
// outside the actor reads. Amounts are held inline (uint256), not as
// big.Int, to keep a held order small.
type openOrder struct {
	Key // the trigger price and the hash
	// From the record: its version, its time of acceptance (unix
	// nanoseconds), amountIn and the filledIn it shows, its maker and
	// tokenIn, its DCA parameters (shared with the record: never modified)
	// and what the decisions read of its traits.
	version         uint64
	createdAt       int64
	amountIn, shown uint256.Int
	maker, tokenIn  common.Address
	dca             *orderstore.DCAParams
	deadline, nonce uint64
	trailPpm        uint32
	class           chain.Class
	status          orderstore.Status
	stalled, fired  bool // the record's stalled flag, and whether its triggeredAt is set
	// filled is the larger of the record's and the chain's filledAmountIn
	// (the chain may be ahead of the projection into the record); left
	// tells that amountIn is above it.
	filled uint256.Int
	left   bool
	// From the chain record: executions and the times of the first and
	// latest fill.
	executions                    uint32
	firstExecution, lastExecution uint64

	// group is the trailing peak group the order is in (nil: none).
	group *peakGroup
	// dcaAt is when the DCA schedule entry queued for this version is due
	// (0: none queued).
	dcaAt uint64
	// mark is the evaluation that last took the order as a candidate.
	mark uint32
	// resolved tells that the order's stored trailing state was read.
	resolved bool
}

// newOpenOrder is rec as its pair holds it, with the chain's record of it
// (found false: the chain has not seen it).
func newOpenOrder(rec *orderstore.Record, co chainstore.Order, found bool) *openOrder {
	o := &openOrder{Key: Key{Price: rec.Order.TriggerPrice, Hash: rec.Hash}, version: rec.Version, createdAt: rec.CreatedAt.UnixNano(),
		amountIn: rec.Order.AmountIn, shown: rec.FilledIn, maker: rec.Order.Maker, tokenIn: rec.Order.TokenIn, dca: rec.DCA,
		class: rec.Class, status: rec.Status, stalled: rec.Stalled, fired: !rec.TriggeredAt.IsZero()}
	t := rec.Traits()
	o.deadline, o.nonce, o.trailPpm = t.Deadline, t.Nonce, t.TrailPpm()
	o.setChain(co, found)
	return o
}

// withChain returns a copy of o with the chain's new record of it.
func (o *openOrder) withChain(co chainstore.Order, found bool) *openOrder {
	n := *o
	n.setChain(co, found)
	return &n
}

func (o *openOrder) setChain(co chainstore.Order, found bool) {
	o.filled = o.shown
	o.executions, o.firstExecution, o.lastExecution = 0, 0, 0
	if found {
		o.executions, o.firstExecution, o.lastExecution = co.Executions, co.FirstExecution, co.LastExecution
		if co.FilledAmountIn.Gt(&o.filled) {
			o.filled = co.FilledAmountIn
		}
	}
	o.left = o.amountIn.Gt(&o.filled)
}

// remainingIn is amountIn − filled, meaningful only when left.
func (o *openOrder) remainingIn() uint256.Int {
	var r uint256.Int
	r.Sub(&o.amountIn, &o.filled)
	return r
}

// accepted is when the order was accepted.
func (o *openOrder) accepted() time.Time { return time.Unix(0, o.createdAt) }

// Key is a position in a book: trigger price, then hash.
type Key struct {
	Price uint256.Int
	Hash  common.Hash
}

// less orders by price, then hash.
func (k Key) less(o Key) bool {
	if c := k.Price.Cmp(&o.Price); c != 0 {
		return c < 0
	}
	return bytes.Compare(k.Hash[:], o.Hash[:]) < 0
}

// Cursor renders k as an opaque cursor (128 hex digits).
func (k Key) Cursor() string {
	b := k.Price.Bytes32()
	return hex.EncodeToString(b[:]) + hex.EncodeToString(k.Hash[:])
}

// ParseCursor parses a cursor made by Key.Cursor.
func ParseCursor(s string) (Key, error) {
	var k Key
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 64 {
		return k, fmt.Errorf("cursor is not one this server issued")
	}
	k.Price.SetBytes32(b[:32])
	copy(k.Hash[:], b[32:])
	return k, nil
}

// PairKey returns the canonical (lower-case) identity of a pair's actor.
func PairKey(tokenIn, tokenOut common.Address) string {
	b := make([]byte, 0, 2*(2+2*common.AddressLength)+1)
	b = append(b, "0x"...)
	b = hex.AppendEncode(b, tokenIn[:])
	b = append(b, "-0x"...)
	b = hex.AppendEncode(b, tokenOut[:])
	return string(b)
}

// pairTokens parses a PairKey back into its tokens.
func pairTokens(key string) (in, out common.Address, ok bool) {
	a, b, found := strings.Cut(key, "-")
	if !found || !common.IsHexAddress(a) || !common.IsHexAddress(b) {
		return in, out, false
	}
	return common.HexToAddress(a), common.HexToAddress(b), true
}

// row renders o for the book.
func (o *openOrder) row() api.OrderbookRow {
	return api.OrderbookRow{
		OrderHash: o.Hash.Hex(), OrderType: o.class.String(), Status: o.status.String(),
		Maker: chain.Checksum(o.maker), AmountIn: o.amountIn.Dec(), FilledAmountIn: o.shown.Dec(),
		TriggerPrice: o.Price.Dec(), CreatedAt: o.accepted().UTC().Format(time.RFC3339Nano),
	}
}
