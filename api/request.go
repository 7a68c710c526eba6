package api

import "github.com/orderengine/orderengine/config"

// Caller identifies the account behind an authenticated request.
type Caller struct {
	AccountID string
	KeyID     string
	Tier      config.Tier
	RequestID string
}

// RouteRequest holds the query of GET /v1/route. Optional integers are nil
// when absent; Exclude merges comma-separated and repeated values.
type RouteRequest struct {
	TokenIn, TokenOut, AmountIn string
	SlippagePpm                 *int64
	DirectSwap                  string
	Wallet                      string
	OrderType                   string
	Triggered                   string
	Referrer                    string
	Exclude                     []string
}

// QuoteRequest holds the query of GET /v1/quote.
type QuoteRequest struct {
	TokenIn, TokenOut, AmountIn string
}

// PreflightRequest holds the query of GET /v1/order-preflight.
type PreflightRequest struct {
	TokenIn, TokenOut, AmountIn, Wallet string
	SlippagePpm                         *int64
	IsStopLoss                          bool
}

// SpotRequest holds the query of GET /api/spot.
type SpotRequest struct {
	TokenIn, TokenOut, AmountIn string
}

// TokenSearchRequest holds the query of GET /v1/tokens.
type TokenSearchRequest struct {
	Search string
}

// ListOrdersRequest holds the filters and page of GET /v1/orders.
type ListOrdersRequest struct {
	Wallet, Status, OrderType string
	Limit                     int
	Cursor                    string
}

// OrderbookRequest holds the pair and page of GET /v1/orderbook/{pair}.
type OrderbookRequest struct {
	Pair   string
	Limit  int
	Cursor string
}

// SwapsRequest holds the filters and page of GET /v1/swaps.
type SwapsRequest struct {
	Token, Wallet string
	Limit         int
	Cursor        string
}

// CreateWebhookRequest is the body of POST /v1/webhooks.
type CreateWebhookRequest struct {
	URL    string   `json:"url"`
	Events []string `json:"events,omitempty"`
}

// KeeperExecutableRequest holds the query of GET /v1/keeper/executable.
type KeeperExecutableRequest struct {
	Keeper, Pair string
	Limit        int
	Cursor       string
}
