package http_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/app/apptest"
	apihttp "github.com/orderengine/orderengine/http"
)

// submitBody is a POST /v1/orders body of the usual size (the chain
// benchmarks below do not parse it).
var submitBody = []byte(`{"orderType":"limit","order":{"salt":"1","maker":"0x1111111111111111111111111111111111111111",` +
	`"receiver":"0x0000000000000000000000000000000000000000","tokenIn":"0x2222222222222222222222222222222222222222",` +
	`"tokenOut":"0x3333333333333333333333333333333333333333","amountIn":"1000000000000000000","triggerPrice":"0",` +
	`"makerTraits":"0","referrer":"0x0000000000000000000000000000000000000000","referralFeePpm":0},` +
	`"signature":"0x` + string(make65Hex()) + `","orderHash":"0x0000000000000000000000000000000000000000000000000000000000000001"}`)

func make65Hex() []byte {
	b := make([]byte, 130)
	for i := range b {
		b[i] = 'a'
	}
	return b
}

// stubOrders answers every submit with the same 201 body, so the
// benchmarks measure the HTTP chain of POST /v1/orders alone.
type stubOrders struct{ apihttp.OrderService }

func (stubOrders) Submit(_ context.Context, _ api.Caller, body []byte) (*api.Submitted, error) {
	return &api.Submitted{Success: true, OrderHash: "0x9f2c4a7d8e3b1f6a0c5d2e9b4a7f1c3e8d6b2a5f9c0e4d7b1a3f6c8e2d5b9a0c4"}, nil
}

// serveSubmit drives POST /v1/orders through h without a network.
func serveSubmit(b *testing.B, h fasthttp.RequestHandler, header map[string]string) {
	b.Helper()
	serveRequest(b, h, "POST", "/v1/orders", header, submitBody, 201)
}

// BenchmarkBareSubmit is the floor's handler without its recovery: a Fiber
// POST answering 201 with a body of the same size.
func BenchmarkBareSubmit(b *testing.B) {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	body := (&api.Submitted{Success: true, OrderHash: "0x9f2c4a7d8e3b1f6a0c5d2e9b4a7f1c3e8d6b2a5f9c0e4d7b1a3f6c8e2d5b9a0c4"}).AppendJSON(nil)
	app.Post("/v1/orders", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Status(201).Send(body)
	})
	serveSubmit(b, app.Handler(), nil)
}

// BenchmarkSubmitChain is POST /v1/orders through the whole chain (request
// id, authentication, the limiter and its headers, the body checks, the
// 201's rendering, metrics, the access log formatted by slog's text
// handler) around an order service that answers at once.
func BenchmarkSubmitChain(b *testing.B) {
	ts := apptest.NewTestServer(b, apptest.WithConfig(unlimited), apptest.WithServices(apihttp.Services{Orders: stubOrders{}}),
		apptest.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	serveSubmit(b, ts.HTTP.Handler().Handler(), map[string]string{"X-API-Key": ts.APIKey})
}
