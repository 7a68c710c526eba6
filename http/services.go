package http

import (
	"context"

	"github.com/orderengine/orderengine/accounts"
	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/keeper"
	"github.com/orderengine/orderengine/market"
	"github.com/orderengine/orderengine/persistence/accountstore"
	"github.com/orderengine/orderengine/platform"
	"github.com/orderengine/orderengine/routing"
)

// Services are the capabilities behind the public API. A nil field makes
// its endpoints answer 501 NOT_IMPLEMENTED (still authenticated, rate
// limited and described in the OpenAPI document). The requests are package
// api's types; each method returns a typed value that the handler encodes
// as the JSON body and that must match the endpoint's OpenAPI schema (a
// json.RawMessage or []byte, which a service that builds its JSON itself
// returns, is written as is). Errors are *orderengine.Error. Every string
// and byte slice passed in is a copy the service may keep.
type Services struct {
	Routing  RoutingService
	Orders   OrderService
	Market   MarketService
	Webhooks WebhookService
	Keeper   KeeperService
	Accounts AccountService
	Platform PlatformService
	// KeeperStream and OrderStream open the Server-Sent Events streams.
	KeeperStream KeeperStreamService
	OrderStream  OrderStreamService
}

// RoutingService serves quotes, routes, preflight checks, spot prices and
// the token search (the quote bucket; spot and tokens use the read bucket).
// NewRoutingService adapts a routing.Service.
type RoutingService interface {
	Route(ctx context.Context, req api.RouteRequest) (*routing.RouteResponse, error)
	Quote(ctx context.Context, req api.QuoteRequest) (*routing.QuoteResponse, error)
	Preflight(ctx context.Context, req api.PreflightRequest) (*routing.PreflightResponse, error)
	Spot(ctx context.Context, req api.SpotRequest) (*routing.SpotResponse, error)
	Tokens(ctx context.Context, req api.TokenSearchRequest) (*routing.TokensResponse, error)
}

// OrderService accepts, cancels and reads orders (orders.Service). The
// order and fill bodies are rendered by the service from its typed records
// (api.Rendered), without reflection.
type OrderService interface {
	// Submit takes the raw POST /v1/orders body (within the body limit;
	// the service reads it as JSON itself) and returns the 201 body. The
	// body is the request's buffer: valid only until Submit returns, so
	// the service keeps nothing of it.
	Submit(ctx context.Context, caller api.Caller, body []byte) (*api.Submitted, error)
	// Get and List show an order's accountId only to the account that
	// submitted it.
	Get(ctx context.Context, caller api.Caller, hash string) (api.Rendered, error)
	Cancel(ctx context.Context, caller api.Caller, hash, signature string) (*api.Success, error)
	Fills(ctx context.Context, hash string) (api.Rendered, error)
	List(ctx context.Context, caller api.Caller, req api.ListOrdersRequest) (api.Rendered, error)
	Orderbook(ctx context.Context, req api.OrderbookRequest) (*api.OrderbookPage, error)
}

// MarketService serves recent swaps, volume aggregates and counters
// (market.Service).
type MarketService interface {
	Swaps(ctx context.Context, req api.SwapsRequest) (*market.SwapList, error)
	Volume(ctx context.Context) (*market.VolumeBody, error)
	Stats(ctx context.Context) (*market.StatsBody, error)
}

// WebhookService manages the caller's webhook endpoints (contract.md §7
// and §10).
// NewWebhookService adapts a webhook.Manager.
type WebhookService interface {
	Create(ctx context.Context, caller api.Caller, req api.CreateWebhookRequest) (*webhook.CreatedView, error)
	List(ctx context.Context, caller api.Caller) (*webhook.ListView, error)
	Get(ctx context.Context, caller api.Caller, id string) (*webhook.EndpointView, error)
	Delete(ctx context.Context, caller api.Caller, id string) (api.Success, error)
	Test(ctx context.Context, caller api.Caller, id string) (*webhook.TestResult, error)
	Deliveries(ctx context.Context, caller api.Caller, id string) (*webhook.DeliveryListView, error)
	Resend(ctx context.Context, caller api.Caller, id, deliveryID string) (*webhook.DeliveryView, error)
	RotateSecret(ctx context.Context, caller api.Caller, id string, req api.RotateWebhookSecretRequest) (*webhook.CreatedView, error)
}

// KeeperService lists orders a keeper can execute now (keeper.Service).
type KeeperService interface {
	Executable(ctx context.Context, req api.KeeperExecutableRequest) (*keeper.ExecutableList, error)
}

// KeeperStreamService opens keeper streams of the executable set
// (keeper.Feed): GET /v1/keeper/stream.
type KeeperStreamService interface {
	Subscribe(req api.KeeperStreamRequest) (api.Stream, error)
}

// OrderStreamService opens streams of an account's order events
// (orders.EventStream): GET /v1/orders/stream.
type OrderStreamService interface {
	Subscribe(ctx context.Context, caller api.Caller, req api.OrderStreamRequest) (api.Stream, error)
}

// AccountService is the self-service account API (accounts.Service):
// sign-in, sessions, the account, its wallets, keys and tier application
// (contract.md section 10).
type AccountService interface {
	Nonce(ctx context.Context) (*accounts.NonceResult, error)
	SignIn(ctx context.Context, site api.Site, req api.SignInRequest) (*accounts.SignInResult, error)
	SignOut(token string) error
	// Session resolves a session cookie; ok is false for an unknown,
	// expired or revoked session.
	Session(token string) (*accountstore.Session, *accountstore.Account, bool, error)
	Account(ctx context.Context, caller api.Caller) (*accounts.AccountView, error)
	LinkWallet(ctx context.Context, caller api.Caller, site api.Site, req api.LinkWalletRequest) (*accounts.AccountView, error)
	UnlinkWallet(ctx context.Context, caller api.Caller, address string) (*accounts.AccountView, error)
	Keys(ctx context.Context, caller api.Caller) (*accounts.KeyList, error)
	CreateKey(ctx context.Context, caller api.Caller, req api.CreateKeyRequest) (*accounts.CreatedKey, error)
	DisableKey(ctx context.Context, caller api.Caller, id string) (*accounts.KeyView, error)
	ReissueKey(ctx context.Context, caller api.Caller, id string) (*accounts.CreatedKey, error)
	ApplyForTier(ctx context.Context, caller api.Caller, req api.TierApplicationRequest) (*accounts.TierApplicationView, error)
}

// PlatformService serves the referral lists of the caller's linked wallets
// (platform.Service).
type PlatformService interface {
	FeeAccruals(ctx context.Context, caller api.Caller, req api.FeeAccrualsRequest) (*platform.FeeAccrualList, error)
	Referees(ctx context.Context, caller api.Caller, req api.RefereesRequest) (*platform.RefereeList, error)
}
