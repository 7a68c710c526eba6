package http_test

import (
	"io"
	"log/slog"
	"net"
	"syscall"
	"testing"

	"github.com/orderengine/orderengine/config"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/orderengine/orderengine/app/apptest"
)

// serveInProcess drives a Fiber app's handler without a network, so the
// benchmark measures the middleware chain, not the kernel.
func serveInProcess(b *testing.B, h fasthttp.RequestHandler, method, uri string, header map[string]string) {
	b.Helper()
	serveRequest(b, h, method, uri, header, nil, 0)
}

// serveRequest is serveInProcess with a JSON body, failing on any status
// but want (0: any).
func serveRequest(b *testing.B, h fasthttp.RequestHandler, method, uri string, header map[string]string, body []byte, want int) {
	b.Helper()
	var req fasthttp.Request
	req.Header.SetMethod(method)
	req.SetRequestURI(uri)
	if body != nil {
		req.Header.SetContentType("application/json")
		req.SetBody(body)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000}
	b.ReportAllocs()
	b.ResetTimer()
	var ctx fasthttp.RequestCtx
	before := cpuTime()
	defer func() { b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op") }()
	for range b.N {
		ctx.Init(&req, addr, nil)
		h(&ctx)
		switch got := ctx.Response.StatusCode(); {
		case got == 0:
			b.Fatal("no response")
		case want != 0 && got != want:
			b.Fatalf("status %d: %s", got, ctx.Response.Body())
		}
	}
}

// cpuTime is the process's user+system CPU time in nanoseconds. The
// cpu-ns/op metric it feeds is less disturbed than ns/op when other work
// shares the machine's cores.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func unlimited(c *config.Config) {
	big := config.BucketLimits{Quote: 1 << 30, Read: 1 << 30, Order: 1 << 30}
	c.Limits.Free, c.Limits.Builder = big, big
}

// BenchmarkBare501 is the baseline: a Fiber app answering the same 501
// error body with no middleware.
func BenchmarkBare501(b *testing.B) {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	body := []byte(`{"error":"this endpoint is described but not implemented in this build","code":"NOT_IMPLEMENTED"}`)
	app.Get("/v1/stats", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Status(501).Send(body)
	})
	serveInProcess(b, app.Handler(), "GET", "/v1/stats", nil)
}

// BenchmarkKeyed501 is the whole chain on a keyed route: request id,
// authentication (checksum, SHA-256, cache), the limiter, the error mapping
// and JSON error body, metrics, and the access log (discarded).
func BenchmarkKeyed501(b *testing.B) {
	ts := apptest.NewTestServer(b, apptest.WithConfig(unlimited))
	serveInProcess(b, ts.HTTP.Handler().Handler(), "GET", "/v1/stats", map[string]string{"X-API-Key": ts.APIKey})
}

// BenchmarkKeyed501TextLog is BenchmarkKeyed501 with the access log
// formatted by slog's text handler (to io.Discard), as in production.
func BenchmarkKeyed501TextLog(b *testing.B) {
	ts := apptest.NewTestServer(b, apptest.WithConfig(unlimited), apptest.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	serveInProcess(b, ts.HTTP.Handler().Handler(), "GET", "/v1/stats", map[string]string{"X-API-Key": ts.APIKey})
}

// BenchmarkUnauthorized is the error path of a wrong key.
func BenchmarkUnauthorized(b *testing.B) {
	ts := apptest.NewTestServer(b, apptest.WithConfig(unlimited))
	serveInProcess(b, ts.HTTP.Handler().Handler(), "GET", "/v1/stats", map[string]string{"X-API-Key": "svc_wrong"})
}

// BenchmarkBareConfig and BenchmarkConfig compare GET /v1/config with a
// bare handler returning the same bytes.
func BenchmarkBareConfig(b *testing.B) {
	ts := apptest.NewTestServer(b)
	body := ts.Raw(ts.URL, "GET", "/v1/config", nil, nil).Body
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	app.Get("/v1/config", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Send(body)
	})
	serveInProcess(b, app.Handler(), "GET", "/v1/config", nil)
}

// BenchmarkConfig is GET /v1/config through the whole chain (keyless:
// per-address limiter).
func BenchmarkConfig(b *testing.B) {
	ts := apptest.NewTestServer(b, apptest.WithConfig(unlimited))
	serveInProcess(b, ts.HTTP.Handler().Handler(), "GET", "/v1/config", nil)
}
