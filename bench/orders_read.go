package main

import (
	"context"
	"fmt"
	"io"
	"time"
)

// runOrderRead is the order-read mode: it stores -n orders, then reads
// them (GET /v1/orders/{hash}, cycling over every hash) and GET /v1/config
// alternately, the same number of requests each, and prints both rates
// and their ratio (target ≥ 50 %); any answer but 200 fails the run.
// Memory per order is the order-memory mode (orders_memory.go).
func runOrderRead(ctx context.Context, out io.Writer, args []string) error {
	f, err := parseOrderFlags("order-read", args)
	if err != nil {
		return err
	}
	t, err := openTarget(f)
	if err != nil {
		return err
	}
	defer func() { _ = t.close() }()
	bodies, hashes, err := signOrders(t, f)
	if err != nil {
		return err
	}
	if _, err := storeOrders(ctx, t, f.n, f.conns, func(i int) []byte { return bodies[i] }); err != nil {
		return err
	}
	reads := f.reads
	if reads <= 0 {
		reads = 4 * f.n
	}
	for round := 1; round <= f.rounds; round++ {
		lc, cc, ec := drive(ctx, t.addr, reads, f.conns, 0, func(i int, dst []byte) []byte {
			return httpRequest(dst, t.addr, "GET", "/v1/config", nil)
		})
		cfgRate := report(out, fmt.Sprintf("round %d GET /v1/config", round), lc, cc, ec)
		cpu0 := processCPU()
		lo, co, eo := drive(ctx, t.addr, reads, f.conns, 0, func(i int, dst []byte) []byte {
			return httpRequest(dst, t.addr, "GET", "/v1/orders/"+hashes[i%len(hashes)].Hex(), nil, "X-API-Key", t.key)
		})
		orderCPU := (processCPU() - cpu0) / time.Duration(reads)
		orderRate := report(out, fmt.Sprintf("round %d GET /v1/orders/{hash}", round), lo, co, eo)
		if cc["200"] != reads || co["200"] != reads { // a rate of errors compares nothing
			return fmt.Errorf("round %d: config answered %v, orders %v", round, cc, co)
		}
		fmt.Fprintf(out, "round %d: order/config %.1f %% (target ≥ 50 %%); CPU per order read, server and harness: %v\n", round, 100*orderRate/cfgRate, orderCPU)
	}
	return nil
}
