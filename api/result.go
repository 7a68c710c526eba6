package api

import "github.com/orderengine/orderengine/internal/jsonw"

// Success is the body {"success": true} of an operation that has nothing
// else to say (DELETE /v1/webhooks/{id}; the OpenAPI SuccessResponse).
type Success struct {
	Success bool `json:"success"`
}

// WebhookStats are the webhook counters since the process started
// (Disabled is the current number of disabled endpoints): the webhook
// manager counts them, GET /v1/stats shows them under "webhooks".
type WebhookStats struct {
	// Attempted counts delivery attempts (first tries and retries).
	Attempted uint64 `json:"deliveriesAttempted"`
	// Succeeded counts deliveries answered 2xx.
	Succeeded uint64 `json:"deliveriesSucceeded"`
	// Failed counts attempts that failed (non-2xx, timeout, connection error).
	Failed uint64 `json:"deliveriesFailed"`
	// Retried counts attempts that were retries.
	Retried uint64 `json:"deliveriesRetried"`
	// Resent counts requests sent again, within their attempt, on a new
	// connection after a reused one turned out closed by the receiver
	// before any answer (not failed attempts).
	Resent uint64 `json:"requestsResent"`
	// Abandoned counts deliveries that failed their last scheduled attempt.
	Abandoned uint64 `json:"deliveriesAbandoned"`
	// DisabledTotal counts endpoints disabled by the failure horizon.
	DisabledTotal uint64 `json:"endpointsDisabledTotal"`
	// Disabled is the number of endpoints disabled now.
	Disabled int64 `json:"endpointsDisabled"`
}

// Rendered is a JSON body its service rendered itself from typed records
// (orders and fills, without reflection); the HTTP layer writes it as is.
type Rendered []byte

// MarshalJSON returns r.
func (r Rendered) MarshalJSON() ([]byte, error) { return r, nil }

// Submitted is the 201 body of POST /v1/orders: the order's hash as the
// engine computed it, and a warning when it differs from the one sent.
type Submitted struct {
	Success   bool   `json:"success"`
	OrderHash string `json:"orderHash"`
	Warning   string `json:"warning,omitempty"`
}

// AppendJSON appends s's JSON to b (the HTTP layer's fast path: the usual
// answer is rendered without reflection).
func (s *Submitted) AppendJSON(b []byte) []byte {
	b = append(b, `{"success":`...)
	b = jsonw.Bool(b, s.Success)
	b = append(b, `,"orderHash":`...)
	b = jsonw.String(b, s.OrderHash)
	if s.Warning != "" {
		b = append(b, `,"warning":`...)
		b = jsonw.String(b, s.Warning)
	}
	return append(b, '}')
}

// OrderbookPage is one page of GET /v1/orderbook/{pair}.
type OrderbookPage struct {
	// Pair is "<tokenIn>-<tokenOut>", EIP-55.
	Pair   string         `json:"pair"`
	Orders []OrderbookRow `json:"orders"`
	// NextCursor continues the walk; nil at the end.
	NextCursor *string `json:"nextCursor"`
}

// OrderbookRow is an open order as the book shows it. Addresses are
// EIP-55, amounts decimal strings, createdAt RFC 3339.
type OrderbookRow struct {
	OrderHash      string `json:"orderHash"`
	OrderType      string `json:"orderType"`
	Status         string `json:"status"`
	Maker          string `json:"maker"`
	AmountIn       string `json:"amountIn"`
	FilledAmountIn string `json:"filledAmountIn"`
	TriggerPrice   string `json:"triggerPrice"`
	CreatedAt      string `json:"createdAt"`
}
