package http

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/api"
)

// input gives a call copies of the request's parameters. It is valid only
// inside the handler; everything it returns is a copy.
type input struct {
	c      *fiber.Ctx
	caller api.Caller
	srv    *Server
}

func (in *input) query(name string) string { return utils.CopyString(in.c.Query(name)) }

func (in *input) required(name string) (string, error) {
	v := in.query(name)
	if v == "" {
		return "", orderengine.Errorf(orderengine.CodeInvalidRequest, "query parameter %s is required", name)
	}
	return v, nil
}

func (in *input) param(name string) string { return utils.CopyString(in.c.Params(name)) }

func (in *input) body() []byte { return utils.CopyBytes(in.c.Body()) }

func (in *input) optInt(name string) (*int64, error) {
	v := in.c.Query(name)
	if v == "" {
		return nil, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "query parameter %s must be a non-negative integer", name)
	}
	return &n, nil
}

// optFlag parses an optional `0`/`1` parameter (absent is false); any other
// value is INVALID_REQUEST naming it.
func (in *input) optFlag(name string) (bool, error) {
	switch in.c.Query(name) {
	case "", "0":
		return false, nil
	case "1":
		return true, nil
	}
	return false, orderengine.Errorf(orderengine.CodeInvalidRequest, "query parameter %s must be 0 or 1", name)
}

// page returns the keyset page size: default 100, at most 500.
func (in *input) page() (int, error) {
	n, err := in.optInt("limit")
	if err != nil {
		return 0, err
	}
	if n == nil {
		return 100, nil
	}
	if *n < 1 || *n > 500 {
		return 0, orderengine.Errorf(orderengine.CodeInvalidRequest, "limit must be between 1 and 500")
	}
	return int(*n), nil
}

func (in *input) list(name string) []string {
	var out []string
	for _, raw := range in.c.Context().QueryArgs().PeekMulti(name) {
		for _, part := range strings.Split(string(raw), ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// requireAll returns the first error of errs.
func requireAll(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func callRoute(ctx context.Context, s *Services, in *input) (any, error) {
	var req api.RouteRequest
	var e1, e2, e3, e4 error
	req.TokenIn, e1 = in.required("tokenIn")
	req.TokenOut, e2 = in.required("tokenOut")
	req.AmountIn, e3 = in.required("amountIn")
	req.SlippagePpm, e4 = in.optInt("slippagePpm")
	if err := requireAll(e1, e2, e3, e4); err != nil {
		return nil, err
	}
	req.DirectSwap, req.Wallet, req.OrderType = in.query("directSwap"), in.query("wallet"), in.query("orderType")
	req.Triggered, req.Referrer, req.Exclude = in.query("triggered"), in.query("referrer"), in.list("exclude")
	if s.Routing == nil {
		return nil, errUnimplemented
	}
	return s.Routing.Route(ctx, req)
}

func callQuote(ctx context.Context, s *Services, in *input) (any, error) {
	var req api.QuoteRequest
	var e1, e2, e3 error
	req.TokenIn, e1 = in.required("tokenIn")
	req.TokenOut, e2 = in.required("tokenOut")
	req.AmountIn, e3 = in.required("amountIn")
	if err := requireAll(e1, e2, e3); err != nil {
		return nil, err
	}
	if s.Routing == nil {
		return nil, errUnimplemented
	}
	return s.Routing.Quote(ctx, req)
}

func callPreflight(ctx context.Context, s *Services, in *input) (any, error) {
	var req api.PreflightRequest
	var e1, e2, e3, e4, e5, e6 error
	req.TokenIn, e1 = in.required("tokenIn")
	req.TokenOut, e2 = in.required("tokenOut")
	req.AmountIn, e3 = in.required("amountIn")
	req.Wallet, e4 = in.required("wallet")
	req.SlippagePpm, e5 = in.optInt("slippagePpm")
	req.IsStopLoss, e6 = in.optFlag("isStopLoss")
	if err := requireAll(e1, e2, e3, e4, e5, e6); err != nil {
		return nil, err
	}
	if s.Routing == nil {
		return nil, errUnimplemented
	}
	return s.Routing.Preflight(ctx, req)
}

func callSpot(ctx context.Context, s *Services, in *input) (any, error) {
	var req api.SpotRequest
	var e1, e2 error
	req.TokenIn, e1 = in.required("tokenIn")
	req.TokenOut, e2 = in.required("tokenOut")
	if err := requireAll(e1, e2); err != nil {
		return nil, err
	}
	req.AmountIn = in.query("amountIn")
	if s.Routing == nil {
		return nil, errUnimplemented
	}
	return s.Routing.Spot(ctx, req)
}

func callTokens(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Routing == nil {
		return nil, errUnimplemented
	}
	return s.Routing.Tokens(ctx, api.TokenSearchRequest{Search: in.query("search")})
}

func callSubmit(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Orders == nil {
		return nil, errUnimplemented
	}
	return s.Orders.Submit(ctx, in.caller, in.c.Body()) // not copied: see OrderService.Submit
}

func callListOrders(ctx context.Context, s *Services, in *input) (any, error) {
	n, err := in.page()
	if err != nil {
		return nil, err
	}
	if s.Orders == nil {
		return nil, errUnimplemented
	}
	return s.Orders.List(ctx, in.caller, api.ListOrdersRequest{Wallet: in.query("wallet"), Status: in.query("status"),
		OrderType: in.query("orderType"), Limit: n, Cursor: in.query("cursor")})
}

func callGetOrder(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Orders == nil {
		return nil, errUnimplemented
	}
	return s.Orders.Get(ctx, in.caller, in.param("hash"))
}

func callCancel(ctx context.Context, s *Services, in *input) (any, error) {
	var body struct {
		Signature string `json:"signature"`
	}
	if err := json.Unmarshal(in.c.Body(), &body); err != nil || body.Signature == "" {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "body must be {\"signature\": \"0x…\"}")
	}
	if s.Orders == nil {
		return nil, errUnimplemented
	}
	return s.Orders.Cancel(ctx, in.caller, in.param("hash"), body.Signature)
}

func callFills(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Orders == nil {
		return nil, errUnimplemented
	}
	return s.Orders.Fills(ctx, in.param("hash"))
}

func callOrderbook(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Orders == nil {
		return nil, errUnimplemented
	}
	n, err := in.page()
	if err != nil {
		return nil, err
	}
	return s.Orders.Orderbook(ctx, api.OrderbookRequest{Pair: in.param("pair"), Limit: n, Cursor: in.query("cursor")})
}

func callSwaps(ctx context.Context, s *Services, in *input) (any, error) {
	n, err := in.page()
	if err != nil {
		return nil, err
	}
	if s.Market == nil {
		return nil, errUnimplemented
	}
	return s.Market.Swaps(ctx, api.SwapsRequest{Token: in.query("token"), Wallet: in.query("wallet"), Limit: n, Cursor: in.query("cursor")})
}

func callVolume(ctx context.Context, s *Services, _ *input) (any, error) {
	if s.Market == nil {
		return nil, errUnimplemented
	}
	return s.Market.Volume(ctx)
}

func callStats(ctx context.Context, s *Services, _ *input) (any, error) {
	if s.Market == nil {
		return nil, errUnimplemented
	}
	return s.Market.Stats(ctx)
}

func callCreateWebhook(ctx context.Context, s *Services, in *input) (any, error) {
	req, err := parseCreateWebhook(in.c.Body())
	if err != nil {
		return nil, err
	}
	req.IdempotencyKey = utils.CopyString(in.c.Get(headerIdempotencyKey))
	if s.Webhooks == nil {
		return nil, errUnimplemented
	}
	return s.Webhooks.Create(ctx, in.caller, req)
}

// headerIdempotencyKey names the header that makes a create idempotent.
const headerIdempotencyKey = "Idempotency-Key"

// parseCreateWebhook reads the body of POST /v1/webhooks, refusing a
// field it does not define (wallets among them: an endpoint receives the
// events of every order of the account's keys and linked wallets).
func parseCreateWebhook(body []byte) (api.CreateWebhookRequest, error) {
	var req api.CreateWebhookRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err := dec.Decode(&req)
	if err != nil && strings.HasPrefix(err.Error(), "json: unknown field ") {
		field := strings.TrimPrefix(err.Error(), "json: unknown field ")
		if field == `"wallets"` {
			return req, orderengine.Errorf(orderengine.CodeInvalidRequest, "wallets is not a field of a webhook endpoint: an endpoint receives the events of every order submitted with the account's keys and of every order whose maker is one of its linked wallets (POST /v1/account/wallets)")
		}
		return req, orderengine.Errorf(orderengine.CodeInvalidRequest, "unknown field %s: the body is {\"url\": \"https://…\", \"events\": [...]}", field)
	}
	if err != nil || req.URL == "" {
		return req, orderengine.Errorf(orderengine.CodeInvalidRequest, "body must be {\"url\": \"https://…\", \"events\": [...]}")
	}
	return req, nil
}

func callResendDelivery(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Webhooks == nil {
		return nil, errUnimplemented
	}
	return s.Webhooks.Resend(ctx, in.caller, in.param("id"), in.param("deliveryId"))
}

func callRotateWebhookSecret(ctx context.Context, s *Services, in *input) (any, error) {
	var req api.RotateWebhookSecretRequest
	dec := json.NewDecoder(bytes.NewReader(in.c.Body()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "body must be {\"overlapSeconds\": <0 to 604800>} ({} for the default, 86400)")
	}
	if s.Webhooks == nil {
		return nil, errUnimplemented
	}
	return s.Webhooks.RotateSecret(ctx, in.caller, in.param("id"), req)
}

func callListWebhooks(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Webhooks == nil {
		return nil, errUnimplemented
	}
	return s.Webhooks.List(ctx, in.caller)
}

func callGetWebhook(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Webhooks == nil {
		return nil, errUnimplemented
	}
	return s.Webhooks.Get(ctx, in.caller, in.param("id"))
}

func callDeleteWebhook(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Webhooks == nil {
		return nil, errUnimplemented
	}
	return s.Webhooks.Delete(ctx, in.caller, in.param("id"))
}

func callTestWebhook(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Webhooks == nil {
		return nil, errUnimplemented
	}
	return s.Webhooks.Test(ctx, in.caller, in.param("id"))
}

func callWebhookDeliveries(ctx context.Context, s *Services, in *input) (any, error) {
	if s.Webhooks == nil {
		return nil, errUnimplemented
	}
	return s.Webhooks.Deliveries(ctx, in.caller, in.param("id"))
}

func callKeeperExecutable(ctx context.Context, s *Services, in *input) (any, error) {
	n, err := in.page()
	if err != nil {
		return nil, err
	}
	if s.Keeper == nil {
		return nil, errUnimplemented
	}
	return s.Keeper.Executable(ctx, api.KeeperExecutableRequest{Keeper: in.query("keeper"), Pair: in.query("pair"), Limit: n, Cursor: in.query("cursor")})
}
