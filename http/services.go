package http

import (
	"context"

	"github.com/orderengine/orderengine/config"
)

// Caller identifies the account behind an authenticated request.
type Caller struct {
	AccountID string
	KeyID     string
	Tier      config.Tier
	RequestID string
}

// Services are the capabilities behind the public API. A nil field makes
// its endpoints answer 501 NOT_IMPLEMENTED (still authenticated, rate
// limited and described in the OpenAPI document). Methods return a value
// that is encoded as the JSON body (a json.RawMessage or []byte is written
// as is, for services that build JSON themselves) and must match the
// endpoint's OpenAPI schema; errors are *orderengine.Error. Every string and
// byte slice passed in is a copy the service may keep.
type Services struct {
	Routing  RoutingService
	Orders   OrderService
	Market   MarketService
	Webhooks WebhookService
	Keeper   KeeperService
}

// RoutingService serves quotes, routes, preflight checks, spot prices and
// the token search (the quote bucket; spot and tokens use the read bucket).
type RoutingService interface {
	Route(ctx context.Context, req RouteRequest) (any, error)
	Quote(ctx context.Context, req QuoteRequest) (any, error)
	Preflight(ctx context.Context, req PreflightRequest) (any, error)
	Spot(ctx context.Context, req SpotRequest) (any, error)
	Tokens(ctx context.Context, req TokenSearchRequest) (any, error)
}

// OrderService accepts, cancels and reads orders.
type OrderService interface {
	// Submit takes the raw POST /v1/orders body (already checked to be
	// JSON and within the body limit) and returns the 201 body.
	Submit(ctx context.Context, caller Caller, body []byte) (any, error)
	Get(ctx context.Context, hash string) (any, error)
	Cancel(ctx context.Context, caller Caller, hash, signature string) (any, error)
	Fills(ctx context.Context, hash string) (any, error)
	List(ctx context.Context, req ListOrdersRequest) (any, error)
	Orderbook(ctx context.Context, req OrderbookRequest) (any, error)
}

// MarketService serves recent swaps, volume aggregates and counters.
type MarketService interface {
	Swaps(ctx context.Context, req SwapsRequest) (any, error)
	Volume(ctx context.Context) (any, error)
	Stats(ctx context.Context) (any, error)
}

// WebhookService manages the caller's webhook endpoints (contract.md §7).
type WebhookService interface {
	Create(ctx context.Context, caller Caller, req CreateWebhookRequest) (any, error)
	List(ctx context.Context, caller Caller) (any, error)
	Get(ctx context.Context, caller Caller, id string) (any, error)
	Delete(ctx context.Context, caller Caller, id string) (any, error)
	Test(ctx context.Context, caller Caller, id string) (any, error)
	Deliveries(ctx context.Context, caller Caller, id string) (any, error)
}

// KeeperService lists orders a keeper can execute now (lifecycle
// extension).
type KeeperService interface {
	Executable(ctx context.Context, req KeeperExecutableRequest) (any, error)
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
