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
	"github.com/orderengine/orderengine/persistence"
)

// openOrder is an open order as its pair actor holds it: the record the
// change feed last delivered (immutable), the chain's progress on it, and
// what the book and the decisions need, derived once. Those fields never
// change once the actor holds it: a change puts a new openOrder, so an
// executable list published from an evaluation never sees a later change.
// The last four fields are the actor's own bookkeeping, which nothing
// outside the actor reads. Amounts are held inline (uint256), not as
// big.Int, to keep a held order small.
type openOrder struct {
	Key
	rec    *persistence.OrderRecord
	traits chain.Traits
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
func newOpenOrder(rec *persistence.OrderRecord, co persistence.ChainOrder, found bool) *openOrder {
	o := &openOrder{Key: Key{Price: rec.Order.TriggerPrice, Hash: rec.Hash}, rec: rec, traits: rec.Traits()}
	o.setChain(co, found)
	return o
}

// withChain returns a copy of o with the chain's new record of it.
func (o *openOrder) withChain(co persistence.ChainOrder, found bool) *openOrder {
	n := *o
	n.setChain(co, found)
	return &n
}

func (o *openOrder) setChain(co persistence.ChainOrder, found bool) {
	o.filled = o.rec.FilledIn
	o.executions, o.firstExecution, o.lastExecution = 0, 0, 0
	if found {
		o.executions, o.firstExecution, o.lastExecution = co.Executions, co.FirstExecution, co.LastExecution
		if co.FilledAmountIn.Gt(&o.filled) {
			o.filled = co.FilledAmountIn
		}
	}
	o.left = o.rec.Order.AmountIn.Gt(&o.filled)
}

// remainingIn is amountIn − filled, meaningful only when left.
func (o *openOrder) remainingIn() uint256.Int {
	var r uint256.Int
	r.Sub(&o.rec.Order.AmountIn, &o.filled)
	return r
}

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
	r := o.rec
	return api.OrderbookRow{
		OrderHash: r.Hash.Hex(), OrderType: r.Class.String(), Status: r.Status.String(),
		Maker: chain.Checksum(r.Order.Maker), AmountIn: r.Order.AmountIn.Dec(), FilledAmountIn: r.FilledIn.Dec(),
		TriggerPrice: r.Order.TriggerPrice.Dec(), CreatedAt: r.CreatedAt.UTC().Format(time.RFC3339Nano),
	}
}
