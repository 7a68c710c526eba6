package http

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/limiter"
)

// Access says how a route is authenticated and which bucket it counts in.
type Access uint8

// The access classes of specification sections 5 and 8.
const (
	// Keyless routes need no key and are limited per client address at the
	// free read rate.
	Keyless Access = iota
	// QuoteBucket, ReadBucket and OrderBucket need a key and count in that
	// bucket of the key's limiter.
	QuoteBucket
	ReadBucket
	OrderBucket
)

func (a Access) bucket() limiter.Bucket {
	switch a {
	case QuoteBucket:
		return limiter.Quote
	case OrderBucket:
		return limiter.Order
	}
	return limiter.Read
}

// BucketName is what the OpenAPI document declares as an operation's
// x-rate-limit-bucket: quote, read or order (the key's buckets), or address
// (keyless: per client address at the free read rate).
func (a Access) BucketName() string {
	if a == Keyless {
		return "address"
	}
	return a.bucket().String()
}

// callFunc parses the request from in, calls one service method and returns
// the body to encode.
type callFunc func(ctx context.Context, s *Services, in *input) (any, error)

// Route is one row of the public route table.
type Route struct {
	Method string
	// Path uses Fiber syntax (/v1/orders/:hash); the OpenAPI path is derived.
	Path   string
	Access Access
	// Auth is the credential a keyed route takes (AuthKey by default).
	Auth Auth
	// Status is the success status.
	Status int
	// JSONBody routes reject a body declared as another media type than
	// JSON, or that is not well-formed JSON, with 400 INVALID_REQUEST
	// before the service is called.
	JSONBody bool
	// ParsesBody marks a JSONBody route whose call parses the body itself
	// and answers one that is not well-formed JSON with the same 400
	// INVALID_REQUEST: the handler then checks only the Content-Type, so
	// the body is read as JSON once.
	ParsesBody bool
	Doc        OpDoc
	call       callFunc
	// stream opens the Server-Sent Events stream of a stream route
	// (sse.go): its answer is text/event-stream, Response names the
	// schema of one event.
	stream streamFunc
	// raw serves built-in keyless endpoints from prebuilt bytes.
	raw func(s *Server, c *fiber.Ctx) error
}

// OpDoc is a route's OpenAPI description. Schemas name components of the
// document (openapi_schemas.go).
type OpDoc struct {
	ID, Summary, Tag string
	Params           []ParamDoc
	Request          string
	Response         string
	// Errors lists the codes the operation may answer with besides the ones
	// every keyed route shares (UNAUTHORIZED, KEY_DISABLED, RATE_LIMITED,
	// INTERNAL, NOT_IMPLEMENTED).
	Errors []orderengine.Code
}

// ParamDoc describes one path or query parameter.
type ParamDoc struct {
	Name, In, Schema, Description string
	Required                      bool
}

// Repeatable reports whether a query parameter may be sent more than once
// (a list, such as exclude); any other repeated query parameter is
// INVALID_REQUEST.
func (p ParamDoc) Repeatable() bool { return p.Schema == "ExcludeList" }

func q(name, schema, desc string, required bool) ParamDoc {
	return ParamDoc{Name: name, In: "query", Schema: schema, Description: desc, Required: required}
}

func pathParam(name, schema, desc string) ParamDoc {
	return ParamDoc{Name: name, In: "path", Schema: schema, Description: desc, Required: true}
}

var (
	pTokenIn  = q("tokenIn", "Address", "ERC-20 address of the input token.", true)
	pTokenOut = q("tokenOut", "Address", "ERC-20 address of the output token.", true)
	pAmountIn = q("amountIn", "UintString", "Raw integer amount of tokenIn.", true)
	pLimit    = q("limit", "PageLimit", "Page size, default 100, at most 500.", false)
	pCursor   = q("cursor", "Cursor", "The nextCursor of the previous page.", false)
	pHash     = pathParam("hash", "Hash", "EIP-712 order hash, 0x-hex.")
	pHookID   = pathParam("id", "WebhookID", "Webhook endpoint id.")
)

var errsBadInput = []orderengine.Code{orderengine.CodeInvalidRequest}

// errsHookID: an unknown id and another account's id both answer 404
// NOT_FOUND (never 403), so ids cannot be probed.
var errsHookID = []orderengine.Code{orderengine.CodeNotFound}

// errsHookChange are the codes of a call that changes an endpoint: an
// unknown id, or a session call without its CSRF token or from another
// origin.
var errsHookChange = []orderengine.Code{orderengine.CodeNotFound, orderengine.CodeForbidden}

var (
	pIdempotencyKey = ParamDoc{Name: headerIdempotencyKey, In: "header", Schema: "IdempotencyKey",
		Description: "Makes the create idempotent for 24 hours: the same key with the same body is answered the first answer again (the same endpoint and secret), nothing created; the same key with another body is 400 INVALID_REQUEST. 1 to 255 printable ASCII characters; a UUID is a good choice."}
	pCSRFIfSession = ParamDoc{Name: headerCSRF, In: "header", Schema: "CSRFToken",
		Description: "With a dashboard session: the session's csrfToken (sign-in answer or GET /v1/account), as every state-changing session call sends it. Not used with an API key."}
)

// publicRoutes returns the public route table.
func publicRoutes() []Route {
	routes := []Route{
		{Method: "GET", Path: "/v1/errors", Access: Keyless, Status: 200, raw: (*Server).serveErrors,
			Doc: OpDoc{ID: "listErrors", Tag: "meta", Summary: "The error catalog with status and retry guidance.", Response: "ErrorCatalog"}},
		{Method: "GET", Path: "/v1/config", Access: Keyless, Status: 200, raw: (*Server).serveConfig,
			Doc: OpDoc{ID: "getConfig", Tag: "meta", Summary: "Chain, router, signing domain, EIP-712 types, makerTraits layout and rate limits.", Response: "EngineConfig"}},
		{Method: "GET", Path: "/v1/openapi.json", Access: Keyless, Status: 200, raw: (*Server).serveOpenAPI,
			Doc: OpDoc{ID: "getOpenAPI", Tag: "meta", Summary: "This OpenAPI 3.1 document.", Response: "OpenAPIDocument"}},

		{Method: "GET", Path: "/v1/route", Access: QuoteBucket, Status: 200, call: callRoute,
			Doc: OpDoc{ID: "getRoute", Tag: "routing", Summary: "Best executable route with fee legs for a pair and amount.", Response: "Route",
				Params: []ParamDoc{pTokenIn, pTokenOut, pAmountIn,
					q("slippagePpm", "Ppm", "Slippage tolerance in ppm.", false),
					q("directSwap", "ZeroOne", "1 quotes the direct swap path, 0 the signed-order (keeper) path.", false),
					q("wallet", "Address", "Trading wallet; resolves account-specific fee legs.", false),
					q("orderType", "OrderType", "Selects the fee cell; omitted serves the direct-swap cell.", false),
					q("triggered", "ZeroOne", "1 for a price-gated DCA.", false),
					q("referrer", "Address", "Sets feeLegs.referrer (a third party's payout address); the zero address is INVALID_REQUEST.", false),
					q("exclude", "ExcludeList", "Venue families to drop: comma-separated, or the parameter repeated.", false)},
				Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeNoRoute, orderengine.CodeNoPool, orderengine.CodeUnsupportedPair, orderengine.CodeNoOracle, orderengine.CodeChainUnavailable}}},
		{Method: "GET", Path: "/v1/quote", Access: QuoteBucket, Status: 200, call: callQuote,
			Doc: OpDoc{ID: "getQuote", Tag: "routing", Summary: "Venue-by-venue indicative quotes.", Response: "QuoteResponse",
				Params: []ParamDoc{pTokenIn, pTokenOut, pAmountIn},
				Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeNoRoute, orderengine.CodeNoPool}}},
		{Method: "GET", Path: "/v1/order-preflight", Access: QuoteBucket, Status: 200, call: callPreflight,
			Doc: OpDoc{ID: "orderPreflight", Tag: "routing", Summary: "Balance, allowance, route, fee-leg and oracle checks for an order before it is signed.", Response: "PreflightResponse",
				Params: []ParamDoc{pTokenIn, pTokenOut, pAmountIn,
					q("wallet", "Address", "Maker wallet.", true),
					q("slippagePpm", "Ppm", "Slippage tolerance in ppm.", false),
					q("isStopLoss", "ZeroOne", "1 for a stop-loss order, 0 (the default) for a limit order.", false)},
				Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeChainUnavailable}}},

		{Method: "POST", Path: "/v1/orders", Access: OrderBucket, Status: 201, JSONBody: true, ParsesBody: true, call: callSubmit,
			Doc: OpDoc{ID: "submitOrder", Tag: "orders", Summary: "Submit an EIP-712 signed order.", Request: "SubmitOrderRequest", Response: "SubmitOrderResponse",
				Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeInvalidOrder, orderengine.CodeInvalidTraits, orderengine.CodeOrderExpired,
					orderengine.CodeBadSignature, orderengine.CodeFeeParamsMismatch, orderengine.CodeAlreadyExists, orderengine.CodeMakerRateLimited,
					orderengine.CodeUnsupportedPair, orderengine.CodeNoOracle, orderengine.CodePayloadTooLarge, orderengine.CodeChainUnavailable,
					orderengine.CodeNoQuorum}}},
		{Method: "GET", Path: "/v1/orders", Access: ReadBucket, Status: 200, call: callListOrders,
			Doc: OpDoc{ID: "listOrders", Tag: "orders", Summary: "Orders filtered by wallet (maker), status and order type, newest first, keyset-paginated.", Response: "OrderList",
				Params: []ParamDoc{q("wallet", "Address", "Maker wallet.", false), q("status", "OrderStatus", "Order status.", false),
					q("orderType", "OrderType", "Order type.", false), pLimit, pCursor},
				Errors: errsBadInput}},
		{Method: "GET", Path: "/v1/orders/:hash", Access: ReadBucket, Auth: AuthKeyOrSession, Status: 200, call: callGetOrder,
			Doc: OpDoc{ID: "getOrder", Tag: "orders", Summary: "One order with its status, and why an open order waits. In a cluster a node answers 404 only when the order's stream holds no such order (asked of its leader when the node's own store lacks it), else 503 NO_QUORUM when it cannot tell.", Response: "OrderRecord",
				Params: []ParamDoc{pHash}, Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeNotFound, orderengine.CodeNoQuorum}}},
		{Method: "DELETE", Path: "/v1/orders/:hash", Access: OrderBucket, Status: 200, JSONBody: true, call: callCancel,
			Doc: OpDoc{ID: "cancelOrder", Tag: "orders", Summary: "Cancel a pending order off-chain with the maker's signature.", Request: "CancelOrderRequest", Response: "SuccessResponse",
				Params: []ParamDoc{pHash}, Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeBadSignature, orderengine.CodeNotFound, orderengine.CodeNotCancellable, orderengine.CodeChainUnavailable,
					orderengine.CodeNoQuorum}}},
		{Method: "GET", Path: "/v1/orders/:hash/fills", Access: ReadBucket, Status: 200, call: callFills,
			Doc: OpDoc{ID: "getFills", Tag: "orders", Summary: "Fills of an order in chain order (block, then log index); 404 for an unknown order (in a cluster, as for GET /v1/orders/{hash}: 503 NO_QUORUM when the node cannot tell).", Response: "FillList",
				Params: []ParamDoc{pHash}, Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeNotFound, orderengine.CodeNoQuorum}}},
		{Method: "GET", Path: "/v1/orderbook/:pair", Access: ReadBucket, Status: 200, call: callOrderbook,
			Doc: OpDoc{ID: "getOrderbook", Tag: "market", Summary: "Open (pending and active) orders of a pair by ascending trigger price, then order hash, keyset-paginated.", Response: "Orderbook",
				Params: []ParamDoc{pathParam("pair", "Pair", "<tokenIn address>-<tokenOut address>, lowercase or checksummed; the two tokens differ (the same token twice is INVALID_REQUEST)."), pLimit, pCursor}, Errors: errsBadInput}},
		{Method: "GET", Path: "/v1/swaps", Access: ReadBucket, Status: 200, call: callSwaps,
			Doc: OpDoc{ID: "listSwaps", Tag: "market", Summary: "Recent router swaps and order fills, newest first (block, then log index), keyset-paginated.", Response: "SwapList",
				Params: []ParamDoc{q("token", "Address", "Only swaps with this token on either side (0x-prefixed, lowercase or EIP-55; a bad checksum is INVALID_REQUEST).", false),
					q("wallet", "Address", "Only swaps whose sender (a fill's maker) or receiver is this wallet (0x-prefixed, lowercase or EIP-55).", false), pLimit, pCursor},
				Errors: errsBadInput}},
		{Method: "GET", Path: "/v1/volume", Access: ReadBucket, Status: 200, call: callVolume,
			Doc: OpDoc{ID: "getVolume", Tag: "market", Summary: "Volume aggregates.", Response: "Volume"}},
		{Method: "GET", Path: "/v1/stats", Access: ReadBucket, Status: 200, call: callStats,
			Doc: OpDoc{ID: "getStats", Tag: "market", Summary: "Engine-wide counters.", Response: "Stats"}},
		{Method: "GET", Path: "/v1/tokens", Access: ReadBucket, Status: 200, call: callTokens,
			Doc: OpDoc{ID: "searchTokens", Tag: "market", Summary: "Token search ranked by 30-day USD volume.", Response: "TokenList",
				Params: []ParamDoc{q("search", "SearchText", "Symbol or name.", false)}, Errors: errsBadInput}},
		{Method: "GET", Path: "/api/spot", Access: ReadBucket, Status: 200, call: callSpot,
			Doc: OpDoc{ID: "getSpot", Tag: "market", Summary: "Fast spot price from cached venue state, no simulation.", Response: "Spot",
				Params: []ParamDoc{pTokenIn, pTokenOut, q("amountIn", "UintString", "Raw amount of tokenIn.", false)},
				Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeNoPool, orderengine.CodeNoRoute}}},

		{Method: "POST", Path: "/v1/webhooks", Access: ReadBucket, Auth: AuthKeyOrSession, Status: 201, JSONBody: true, call: callCreateWebhook,
			Doc: OpDoc{ID: "createWebhook", Tag: "webhooks", Summary: "Register a webhook endpoint (at most 3 per account); the secret is shown only here.", Request: "CreateWebhookRequest", Response: "WebhookCreated",
				Params: []ParamDoc{pIdempotencyKey, pCSRFIfSession}, Errors: []orderengine.Code{orderengine.CodeInvalidRequest, orderengine.CodeLimitReached, orderengine.CodePayloadTooLarge, orderengine.CodeForbidden}}},
		{Method: "GET", Path: "/v1/webhooks", Access: ReadBucket, Auth: AuthKeyOrSession, Status: 200, call: callListWebhooks,
			Doc: OpDoc{ID: "listWebhooks", Tag: "webhooks", Summary: "The account's webhook endpoints.", Response: "WebhookList"}},
		{Method: "GET", Path: "/v1/webhooks/:id", Access: ReadBucket, Auth: AuthKeyOrSession, Status: 200, call: callGetWebhook,
			Doc: OpDoc{ID: "getWebhook", Tag: "webhooks", Summary: "One webhook endpoint of the caller's account (another account's id is 404, like an unknown one).", Response: "Webhook",
				Params: []ParamDoc{pHookID}, Errors: errsHookID}},
		{Method: "DELETE", Path: "/v1/webhooks/:id", Access: ReadBucket, Auth: AuthKeyOrSession, Status: 200, call: callDeleteWebhook,
			Doc: OpDoc{ID: "deleteWebhook", Tag: "webhooks", Summary: "Delete a webhook endpoint.", Response: "SuccessResponse",
				Params: []ParamDoc{pHookID, pCSRFIfSession}, Errors: errsHookChange}},
		{Method: "POST", Path: "/v1/webhooks/:id/test", Access: ReadBucket, Auth: AuthKeyOrSession, Status: 200, call: callTestWebhook,
			Doc: OpDoc{ID: "testWebhook", Tag: "webhooks", Summary: "Send a test.ping delivery.", Response: "WebhookTestResult",
				Params: []ParamDoc{pHookID, pCSRFIfSession}, Errors: errsHookChange}},
		{Method: "GET", Path: "/v1/webhooks/:id/deliveries", Access: ReadBucket, Auth: AuthKeyOrSession, Status: 200, call: callWebhookDeliveries,
			Doc: OpDoc{ID: "listWebhookDeliveries", Tag: "webhooks", Summary: "Recent delivery attempts with status, response code, latency and next retry.", Response: "DeliveryList",
				Params: []ParamDoc{pHookID}, Errors: errsHookID}},
		{Method: "POST", Path: "/v1/webhooks/:id/deliveries/:deliveryId/resend", Access: ReadBucket, Auth: AuthKeyOrSession, Status: 200, call: callResendDelivery,
			Doc: OpDoc{ID: "resendWebhookDelivery", Tag: "webhooks", Summary: "Attempt a delivery again now, under the same delivery id.", Response: "Delivery",
				Params: []ParamDoc{pHookID, pathParam("deliveryId", "EventID", "The delivery's id (its event id, the X-Service-Delivery value)."), pCSRFIfSession}, Errors: errsHookChange}},
		{Method: "POST", Path: "/v1/webhooks/:id/rotate-secret", Access: ReadBucket, Auth: AuthKeyOrSession, Status: 200, JSONBody: true, call: callRotateWebhookSecret,
			Doc: OpDoc{ID: "rotateWebhookSecret", Tag: "webhooks", Summary: "Replace the signing secret; both sign during the overlap. The new secret is shown only here.", Request: "RotateWebhookSecretRequest", Response: "WebhookCreated",
				Params: []ParamDoc{pHookID, pCSRFIfSession}, Errors: append([]orderengine.Code{orderengine.CodeInvalidRequest}, errsHookChange...)}},

		{Method: "GET", Path: "/v1/keeper/executable", Access: ReadBucket, Status: 200, call: callKeeperExecutable,
			Doc: OpDoc{ID: "keeperExecutable", Tag: "keeper", Summary: "Orders whose trigger condition holds now, with what a keeper needs to execute them.", Response: "ExecutableList",
				Params: []ParamDoc{q("keeper", "Address", "Keeper address (0x-prefixed, lowercase or EIP-55): the sender each transaction is simulated from (absent: 0x000000000000000000000000000000000000dEaD, not the zero address, to which a standard ERC-20 refuses the keeper fee), and the only caller shown orders designated to it (makerTraits.allowedSender). It is a filter, not an authentication: the router enforces allowedSender on-chain, so another sender's transaction reverts with SenderNotAllowed. Absent: orders designated to a keeper are left out.", false),
					q("pair", "Pair", "Only this pair: <tokenIn address>-<tokenOut address>, lowercase or checksummed; a malformed pair or the same token twice is INVALID_REQUEST.", false), pLimit, pCursor},
				Errors: errsBadInput}},
	}
	return append(append(streamRoutes(), routes...), accountRoutes()...)
}
