package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// runRestart is the restart mode: it stores -n orders through the HTTP
// server of an in-process engine, cancels the -closed share of them, stops
// the engine and opens it again on the same directory, timing what a
// restart does before the order API answers: opening the store (Pebble,
// the chain-record filters, the accounts), building the order service (the
// stored-hash filter, every open order decoded into its pair's book and
// its maker's open count) and the first order read over HTTP. The chain
// and the other services of `serve` are not part of it.
func runRestart(ctx context.Context, out io.Writer, args []string) error {
	fs := flag.NewFlagSet("restart", flag.ContinueOnError)
	n := fs.Int("n", 100000, "orders to store before the restart")
	closed := fs.Float64("closed", 0.5, "share of the orders cancelled before the restart (0 to 1)")
	conns := fs.Int("conns", 32, "concurrent keep-alive connections")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the restart (reopen to first read)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *closed < 0 || *closed > 1 || *n < 2 {
		return fmt.Errorf("restart: -n must be at least 2 and -closed in [0, 1]")
	}
	e, err := startEngine(engineOptions{orders: true})
	if err != nil {
		return err
	}
	t := orderTarget(e)
	s, err := newOrderSigner(t, max(1, (*n+9)/10), *n, defaultReferralPpm())
	if err != nil {
		_ = t.close()
		return err
	}
	elapsed, err := storeOrders(ctx, t, *n, *conns, s.sign)
	if err != nil {
		_ = t.close()
		return err
	}
	nClosed := min(*n-1, int(*closed*float64(*n))) // one order stays open: the first read is of an open order
	if err := closeAll(ctx, t, s.hashes[:nClosed], *conns); err != nil {
		_ = t.close()
		return err
	}
	fmt.Fprintf(out, "%d orders stored in %s, %d of them cancelled; restarting\n", *n, elapsed.Round(time.Second), nClosed)
	if err := e.stop(); err != nil {
		_ = e.close()
		return err
	}

	defer func() { _ = os.RemoveAll(e.dir) }()
	stopProfile, err := startProfiles("", *cpuprofile)
	if err != nil {
		return err
	}
	stopProfile = sync.OnceFunc(stopProfile)
	defer stopProfile()
	start := time.Now()
	e2, err := startEngineAt(e.dir, engineOptions{orders: true})
	if err != nil {
		return err
	}
	t2 := orderTarget(e2)
	defer func() { _ = t2.close() }()
	header := map[string]string{"X-API-Key": t2.key}
	status, body, err := fetch(t2.addr, "/v1/orders/"+s.hashes[*n-1].Hex(), header)
	if err != nil || status != 200 {
		return fmt.Errorf("first read after the restart: %d %s %v", status, body, err)
	}
	firstRead := time.Since(start)
	stopProfile()
	// The restart lost nothing: an open order is pending, a cancelled one
	// cancelled (the read above), and the makers' open counts are back.
	if !answerHasStatus(body, "pending") {
		return fmt.Errorf("open order after the restart: %s", body)
	}
	if nClosed > 0 {
		if status, body, err = fetch(t2.addr, "/v1/orders/"+s.hashes[0].Hex(), header); err != nil || status != 200 || !answerHasStatus(body, "cancelled") {
			return fmt.Errorf("cancelled order after the restart: %d %s %v", status, body, err)
		}
	}
	open := 0
	for _, m := range s.makers {
		open += t2.svc.OpenOrders(m)
	}
	if open != *n-nClosed {
		return fmt.Errorf("open orders after the restart: %d, want %d", open, *n-nClosed)
	}
	fmt.Fprintf(out, "restart with %d orders (%d open): engine built %s (store, hash filter), started %s (%d open orders into their pairs), first order read at %s\n",
		*n, open, e2.built.Round(time.Millisecond), e2.started.Round(time.Millisecond), open, firstRead.Round(time.Millisecond))
	fmt.Fprintf(out, "restart time per stored order %.1f µs, per open order %.1f µs\n",
		float64(firstRead.Microseconds())/float64(*n), float64(firstRead.Microseconds())/float64(open))
	return nil
}

// answerHasStatus reports whether an order's JSON carries "status":want.
func answerHasStatus(body []byte, want string) bool {
	var rec struct {
		Status string `json:"status"`
	}
	return json.Unmarshal(body, &rec) == nil && rec.Status == want
}
