package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// runRouteLoad is the route mode: GET /v1/route for one pair and amount
// against a running server (routing needs the chain and its pools), flat out
// or at a rate, with latency percentiles and answers by code.
func runRouteLoad(ctx context.Context, out io.Writer, args []string) error {
	fs := flag.NewFlagSet("route", flag.ContinueOnError)
	base := fs.String("url", "http://127.0.0.1:8080", "base URL of the running server")
	key := fs.String("key", "", "API key (its quote bucket must allow the rate)")
	in := fs.String("token-in", "", "tokenIn address")
	outTok := fs.String("token-out", "", "tokenOut address")
	amount := fs.String("amount", "1000000000000000000", "amountIn, raw units")
	orderType := fs.String("order-type", "limit", "orderType (fee cell); empty for the direct-swap cell")
	n := fs.Int("n", 2000, "requests")
	conns := fs.Int("conns", 8, "concurrent keep-alive connections")
	rate := fs.Int("rate", 0, "target requests per second (0: flat out)")
	pid := fs.Int("pid", 0, "server pid whose RSS is reported")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *in == "" || *outTok == "" {
		return fmt.Errorf("route needs -token-in and -token-out")
	}
	q := url.Values{"tokenIn": {*in}, "tokenOut": {*outTok}, "amountIn": {*amount}}
	if *orderType != "" {
		q.Set("orderType", *orderType)
	}
	driveGet(ctx, out, "route", *base, "/v1/route?"+q.Encode(), *key, *n, *conns, *rate, *pid)
	return nil
}

// driveGet is the route mode, and the read mode with -url: n keyed GETs of
// path against a running server, flat out or at rate per second, reported
// with latency percentiles, answers by code and (pid > 0) the server's RSS.
func driveGet(ctx context.Context, out io.Writer, what, base, path, key string, n, conns, rate, pid int) {
	addr := strings.TrimPrefix(strings.TrimPrefix(base, "http://"), "https://")
	fmt.Fprintf(out, "mode %s: %d × GET %s\n", what, n, "http://"+addr+path)
	lat, codes, elapsed := drive(ctx, addr, n, conns, rate, func(_ int, dst []byte) []byte {
		return httpRequest(dst, addr, "GET", path, nil, "X-API-Key", key)
	})
	report(out, what, lat, codes, elapsed)
	if pid > 0 {
		fmt.Fprintf(out, "server RSS (pid %d): %d KiB\n", pid, rssKiB(pid))
	}
}
