package orders

import (
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/internal/jsonw"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// The API's JSON of orders and fills, rendered from the typed records by
// hand: GET /v1/orders/{hash} is the engine's most frequent read. The
// shapes are the OpenAPI document's Order and Fill schemas; addresses are
// EIP-55, amounts decimal strings, hashes and bytes 0x-hex, times RFC 3339.

// orderView is how an order is shown to one caller.
type orderView struct {
	// Funded, when set, is the funded flag of an open order.
	Funded *bool
	// Account shows accountId (to the account that submitted the order).
	Account bool
	// Diagnostics, when set, is an open order's diagnostics JSON.
	Diagnostics []byte
}

// appendOrderJSON appends rec as the API's order object.
func appendOrderJSON(b []byte, rec *orderstore.Record, v orderView) ([]byte, error) {
	o := &rec.Order
	tokenIn, tokenOut := chain.Checksum(o.TokenIn), chain.Checksum(o.TokenOut)
	b = append(b, `{"orderHash":"`...)
	b = append(b, rec.Hash.Hex()...)
	b = append(b, `","orderType":"`...)
	b = append(b, rec.Class.String()...)
	b = append(b, `","status":"`...)
	b = append(b, rec.Status.String()...)
	b = append(b, `","pair":"`...)
	b = append(b, tokenIn...)
	b = append(b, '-')
	b = append(b, tokenOut...)
	b = append(b, `","order":`...)
	b = o.AppendJSON(b)
	b = append(b, `,"signature":`...)
	b = jsonw.Hex(b, rec.Signature)
	b = append(b, `,"filledAmountIn":`...)
	b = jsonw.Dec(b, &rec.FilledIn)
	b = append(b, `,"filledAmountOut":`...)
	b = jsonw.Dec(b, &rec.FilledOut)
	b = append(b, `,"executions":`...)
	b = jsonw.Uint(b, uint64(rec.Executions))
	if d := rec.DCA; d != nil {
		b = append(b, `,"dca":{"intervalSeconds":`...)
		b = jsonw.Uint(b, uint64(d.IntervalSeconds))
		b = append(b, `,"totalExecutions":`...)
		b = jsonw.Uint(b, uint64(d.TotalExecutions))
		b = append(b, `,"totalAmountIn":`...)
		b = jsonw.Dec(b, &o.AmountIn)
		b = append(b, `,"flexibilityPpm":`...)
		b = jsonw.Uint(b, uint64(d.FlexibilityPpm))
		b = append(b, `,"shortCircuit":`...)
		b = jsonw.Bool(b, d.ShortCircuit)
		b = append(b, `,"priceGated":`...)
		b = jsonw.Bool(b, d.PriceGated)
		b = append(b, '}')
	}
	if t := rec.Trailing; t != nil {
		b = append(b, `,"trailing":{"trailPpm":`...)
		b = jsonw.Uint(b, uint64(t.TrailPpm))
		b = append(b, `,"designatedKeeper":`...)
		if t.DesignatedKeeper == nil {
			b = jsonw.Null(b)
		} else {
			b = append(b, '"')
			b = append(b, chain.Checksum(*t.DesignatedKeeper)...)
			b = append(b, '"')
		}
		b = append(b, '}')
	}
	var err error
	b = append(b, `,"triggeredAt":`...)
	if rec.TriggeredAt.IsZero() {
		b = jsonw.Null(b)
	} else if b, err = jsonw.Time(b, rec.TriggeredAt); err != nil {
		return nil, err
	}
	b = append(b, `,"stalled":`...)
	b = jsonw.Bool(b, rec.Stalled)
	if rec.Reason != "" {
		b = append(b, `,"reason":`...)
		b = jsonw.String(b, rec.Reason)
	}
	if rec.RevertName != "" {
		b = append(b, `,"revertName":`...)
		b = jsonw.String(b, rec.RevertName)
	}
	if v.Account {
		b = append(b, `,"accountId":`...)
		b = jsonw.String(b, rec.AccountID)
	}
	b = append(b, `,"createdAt":`...)
	if b, err = jsonw.Time(b, rec.CreatedAt); err != nil {
		return nil, err
	}
	b = append(b, `,"updatedAt":`...)
	if b, err = jsonw.Time(b, rec.UpdatedAt); err != nil {
		return nil, err
	}
	if v.Funded != nil {
		b = append(b, `,"funded":`...)
		b = jsonw.Bool(b, *v.Funded)
	}
	if v.Diagnostics != nil {
		b = append(b, `,"diagnostics":`...)
		b = append(b, v.Diagnostics...)
	}
	return append(b, '}'), nil
}

// appendFillJSON appends f as the API's fill object.
func appendFillJSON(b []byte, f *chainstore.Fill) []byte {
	b = append(b, `{"txHash":"`...)
	b = append(b, f.TxHash.Hex()...)
	b = append(b, `","blockNumber":`...)
	b = jsonw.Uint(b, f.BlockNumber)
	b = append(b, `,"logIndex":`...)
	b = jsonw.Uint(b, uint64(f.LogIndex))
	for _, a := range [...]struct {
		key string
		v   *uint256.Int
	}{{`,"amountIn":`, &f.AmountIn}, {`,"amountOut":`, &f.AmountOut}, {`,"protocolFee":`, &f.ProtocolFee},
		{`,"referralFee":`, &f.ReferralFee}, {`,"keeperFee":`, &f.KeeperFee}} {
		b = append(b, a.key...)
		b = jsonw.Dec(b, a.v)
	}
	b = append(b, `,"keeper":"`...)
	b = append(b, chain.Checksum(f.Keeper)...)
	b = append(b, `","timestamp":`...)
	b = jsonw.Uint(b, f.Timestamp)
	return append(b, '}')
}
