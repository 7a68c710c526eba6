package api

import "github.com/orderengine/orderengine/config"

// Caller identifies the account behind an authenticated request.
type Caller struct {
	AccountID string
	// KeyID is the API key of a keyed request ("" for a session).
	KeyID     string
	Tier      config.Tier
	RequestID string
	// Session is set when a dashboard session authorised the request.
	Session *SessionInfo
}

// SessionInfo is what a call may know of the session behind it.
type SessionInfo struct {
	// Wallet signed the session in (EIP-55).
	Wallet string
	// CSRF is the session's anti-forgery token.
	CSRF string
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

// CreateWebhookRequest is the body of POST /v1/webhooks, with its
// Idempotency-Key header ("" when absent).
type CreateWebhookRequest struct {
	URL            string   `json:"url"`
	Events         []string `json:"events,omitempty"`
	IdempotencyKey string   `json:"-"`
}

// RotateWebhookSecretRequest is the body of POST
// /v1/webhooks/{id}/rotate-secret: how long the replaced secret keeps
// signing (nil: the default).
type RotateWebhookSecretRequest struct {
	OverlapSeconds *int64 `json:"overlapSeconds"`
}

// KeeperExecutableRequest holds the query of GET /v1/keeper/executable.
type KeeperExecutableRequest struct {
	Keeper, Pair string
	Limit        int
	Cursor       string
}

// FeeAccrualsRequest holds the query of GET /v1/platform/fee-accruals:
// optional referrer, token, from and to (unix seconds, as sent), and the
// page.
type FeeAccrualsRequest struct {
	Referrer, Token string
	From, To        *int64
	Limit           int
	Cursor          string
}

// RefereesRequest holds the query of GET /v1/platform/referees.
type RefereesRequest struct {
	Referrer string
	Limit    int
	Cursor   string
}

// Site is what a sign-in message must name: Domain, the host[:port] the
// API is served at, and Origin, the scheme://host[:port] its URI must
// have (from http.publicURL, else the request).
type Site struct {
	Domain, Origin string
}

// SignInRequest is the body of POST /v1/auth/signin.
type SignInRequest struct {
	Message   string `json:"message"`
	Signature string `json:"signature"`
}

// LinkWalletRequest is the body of POST /v1/account/wallets.
type LinkWalletRequest struct {
	Address   string `json:"address"`
	Message   string `json:"message"`
	Signature string `json:"signature"`
}

// CreateKeyRequest is the body of POST /v1/account/keys.
type CreateKeyRequest struct {
	Name string `json:"name"`
}

// TierApplicationRequest is the body of POST /v1/account/tier-application.
type TierApplicationRequest struct {
	Tier           string `json:"tier"`
	UseCase        string `json:"useCase"`
	ExpectedVolume string `json:"expectedVolume"`
}
