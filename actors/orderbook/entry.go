package orderbook

import (
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
)

// Entry is how a book holds an open order: typed fields, one allocation
// (about 200 bytes), so a book of a million orders keeps no strings
// alive. Row renders it for the API.
type Entry struct {
	Key
	class            chain.Class
	status           persistence.Status
	maker            common.Address
	amountIn, filled uint256.Int
	created          int64 // unix nanoseconds, rendered in UTC as RFC 3339
}

// NewEntry returns the book entry of an open order.
func NewEntry(rec *persistence.OrderRecord) *Entry {
	return &Entry{
		Key:   Key{Price: rec.Order.TriggerPrice, Hash: rec.Hash},
		class: rec.Class, status: rec.Status, maker: rec.Order.Maker,
		amountIn: rec.Order.AmountIn, filled: rec.FilledIn, created: rec.CreatedAt.UnixNano(),
	}
}

// Row is an open order as GET /v1/orderbook/{pair} shows it. Addresses are
// EIP-55, amounts decimal strings.
type Row struct {
	OrderHash      string `json:"orderHash"`
	OrderType      string `json:"orderType"`
	Status         string `json:"status"`
	Maker          string `json:"maker"`
	AmountIn       string `json:"amountIn"`
	FilledAmountIn string `json:"filledAmountIn"`
	TriggerPrice   string `json:"triggerPrice"`
	CreatedAt      string `json:"createdAt"`
}

// Row renders e.
func (e *Entry) Row() Row {
	return Row{
		OrderHash: e.Hash.Hex(), OrderType: e.class.String(), Status: e.status.String(),
		Maker: chain.Checksum(e.maker), AmountIn: e.amountIn.Dec(), FilledAmountIn: e.filled.Dec(),
		TriggerPrice: e.Price.Dec(), CreatedAt: time.Unix(0, e.created).UTC().Format(time.RFC3339Nano),
	}
}
