package http

import (
	"context"

	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/routing"
)

// routingService adapts routing.Service to RoutingService: it only copies
// the parsed query into routing's parameter structs. Validation, errors
// and the response shapes live in package routing.
type routingService struct {
	svc *routing.Service
}

// NewRoutingService returns the RoutingService of Services.Routing backed
// by svc (GET /v1/route, /v1/quote, /v1/order-preflight, /api/spot,
// /v1/tokens).
func NewRoutingService(svc *routing.Service) RoutingService { return routingService{svc: svc} }

// Route implements RoutingService.
func (r routingService) Route(ctx context.Context, req api.RouteRequest) (*routing.RouteResponse, error) {
	return r.svc.Route(ctx, routing.RouteParams{
		TokenIn: req.TokenIn, TokenOut: req.TokenOut, AmountIn: req.AmountIn, SlippagePpm: req.SlippagePpm,
		DirectSwap: req.DirectSwap, Wallet: req.Wallet, Referrer: req.Referrer, OrderType: req.OrderType,
		Triggered: req.Triggered, Exclude: req.Exclude,
	})
}

// Quote implements RoutingService.
func (r routingService) Quote(ctx context.Context, req api.QuoteRequest) (*routing.QuoteResponse, error) {
	return r.svc.Quote(ctx, routing.QuoteParams{TokenIn: req.TokenIn, TokenOut: req.TokenOut, AmountIn: req.AmountIn})
}

// Preflight implements RoutingService.
func (r routingService) Preflight(ctx context.Context, req api.PreflightRequest) (*routing.PreflightResponse, error) {
	return r.svc.Preflight(ctx, routing.PreflightParams{
		TokenIn: req.TokenIn, TokenOut: req.TokenOut, AmountIn: req.AmountIn, Wallet: req.Wallet,
		SlippagePpm: req.SlippagePpm, IsStopLoss: req.IsStopLoss,
	})
}

// Spot implements RoutingService.
func (r routingService) Spot(ctx context.Context, req api.SpotRequest) (*routing.SpotResponse, error) {
	return r.svc.Spot(ctx, routing.SpotParams{TokenIn: req.TokenIn, TokenOut: req.TokenOut, AmountIn: req.AmountIn})
}

// Tokens implements RoutingService.
func (r routingService) Tokens(ctx context.Context, req api.TokenSearchRequest) (*routing.TokensResponse, error) {
	return r.svc.Tokens(ctx, req.Search)
}
