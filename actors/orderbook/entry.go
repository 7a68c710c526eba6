package orderbook

import (
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
)

// bookEntry is how a book holds an open order: the fields of Entry in binary
// (about 200 bytes, one allocation), so a book of a million orders does
// not keep six strings per order alive. render gives the Entry back.
// Every field round-trips exactly; an Entry with a field that would not
// (never one the order service makes) is kept whole in full.
type bookEntry struct {
	Key
	amountIn, filled uint256.Int
	created          int64 // unix nanoseconds, rendered in UTC as RFC 3339
	maker            common.Address
	hasMaker         bool
	typ, status      string // interned
	full             *Entry
}

// interned are the order types and statuses a book sees, so entries share
// one copy of each.
var interned = map[string]string{}

func init() {
	for _, s := range []string{"limit", "stop_loss", "take_profit", "trailing", "dca", "pending", "active"} {
		interned[s] = s
	}
}

// compact returns the binary form of e.
func compact(e *Entry) *bookEntry {
	c := &bookEntry{Key: e.key()}
	typ, ok1 := interned[e.OrderType]
	status, ok2 := interned[e.Status]
	c.typ, c.status = typ, status
	ok := ok1 && ok2 && c.Hash.Hex() == e.OrderHash && c.Price.Dec() == e.TriggerPrice &&
		decimal(&c.amountIn, e.AmountIn) && decimal(&c.filled, e.FilledAmountIn)
	if e.Maker != "" {
		c.maker, c.hasMaker = common.HexToAddress(e.Maker), true
		ok = ok && chain.Checksum(c.maker) == e.Maker // memoized: a Keccak otherwise
	}
	if t, err := time.Parse(time.RFC3339Nano, e.CreatedAt); err == nil {
		c.created = t.UnixNano()
		ok = ok && t.UTC().Format(time.RFC3339Nano) == e.CreatedAt
	} else {
		ok = false
	}
	if !ok {
		c.full = e
	}
	return c
}

// decimal parses s into v and reports whether v renders back as s.
func decimal(v *uint256.Int, s string) bool {
	return v.SetFromDecimal(s) == nil && v.Dec() == s
}

// render returns the Entry that c was made from.
func (c *bookEntry) render() Entry {
	if c.full != nil {
		return *c.full
	}
	e := Entry{
		OrderHash: c.Hash.Hex(), OrderType: c.typ, Status: c.status,
		AmountIn: c.amountIn.Dec(), FilledAmountIn: c.filled.Dec(), TriggerPrice: c.Price.Dec(),
		CreatedAt: time.Unix(0, c.created).UTC().Format(time.RFC3339Nano),
		hash:      c.Hash, price: c.Price,
	}
	if c.hasMaker {
		e.Maker = chain.Checksum(c.maker)
	}
	return e
}
