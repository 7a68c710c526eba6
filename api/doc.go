// Package api is the vocabulary the HTTP layer and the services share: who
// is calling (Caller), the parsed request of every endpoint (RouteRequest,
// ListOrdersRequest, ...) and the few answer shapes that more than one
// package builds or embeds (Success, WebhookStats).
//
// Package http parses a request into these types, calls one service method
// and encodes its typed result as the JSON body; the services take and
// return them without knowing they are behind HTTP, so the same method
// serves tests, the in-process keeper and the API.
//
// Where result types live: a result that one package builds is defined in
// that package, next to the code that fills it (routing.RouteResponse,
// market.SwapList, keeper.ExecutableList, webhook.EndpointView); package
// http's service interfaces (http/services.go) name them. A shape that
// several packages build or embed is defined here. A service that builds
// its JSON by hand on a hot path returns the encoded bytes
// (json.RawMessage), which the handler writes as is.
//
// Who imports it: package http and the services below it (orders, market,
// keeper, and actors/webhook for its counters), so that no service imports
// http. It imports nothing of the engine but config (the caller's tier);
// internal/layers enforces both directions.
package api
