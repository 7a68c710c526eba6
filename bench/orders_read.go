package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"
	"github.com/valyala/fasthttp"
)

// runOrderRead is the order-read mode: it stores -n orders, then reads
// them (GET /v1/orders/{hash}, cycling over every hash) and GET /v1/config
// alternately, the same number of requests each, and prints both rates
// and their ratio (target ≥ 50 %). In process it also prints the RSS and
// Go heap per order with the order actors live and after they passivate.
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
	base := heapAndRSS(t) // before signing: the bodies are dropped before the next sample
	bodies, hashes, err := signOrders(t, f)
	if err != nil {
		return err
	}
	_, codes, _ := drive(ctx, t.addr, f.n, f.conns, 0, func(i int, r *fasthttp.Request) {
		r.SetRequestURI("http://" + t.addr + "/v1/orders")
		r.Header.SetMethod("POST")
		r.Header.SetContentType("application/json")
		r.Header.Set("X-API-Key", t.key)
		r.SetBody(bodies[i])
	})
	if codes["201"] != f.n {
		return fmt.Errorf("storing orders: %v", codes)
	}
	bodies = nil // free the signed bodies before sampling
	if t.svc != nil {
		live := heapAndRSS(t)
		fmt.Fprintf(out, "%d open orders stored, %d order actors live: heap %+.0f B/order, RSS %+.0f B/order\n",
			f.n, t.svc.Registry().Live(), perOrder(live.heap, base.heap, f.n), 1024*float64(live.rss-base.rss)/float64(f.n))
		for _, h := range hashes {
			if _, err := t.svc.Registry().Passivate(ctx, h); err != nil {
				return err
			}
		}
		idle := heapAndRSS(t)
		fmt.Fprintf(out, "after passivation (%d actors live): heap %+.0f B/order (orderbook entries and open counts remain), RSS %+.0f B/order\n",
			t.svc.Registry().Live(), perOrder(idle.heap, base.heap, f.n), 1024*float64(idle.rss-base.rss)/float64(f.n))
		if err := closeAll(ctx, t, hashes, f.conns); err != nil {
			return err
		}
		closed := heapAndRSS(t)
		fmt.Fprintf(out, "all %d orders closed (cancelled) and passivated: heap %+.0f B/order, RSS %+.0f B/order\n",
			f.n, perOrder(closed.heap, base.heap, f.n), 1024*float64(closed.rss-base.rss)/float64(f.n))
	}
	reads := f.reads
	if reads <= 0 {
		reads = 4 * f.n
	}
	for round := 1; round <= f.rounds; round++ {
		lc, cc, ec := drive(ctx, t.addr, reads, f.conns, 0, func(i int, r *fasthttp.Request) {
			r.SetRequestURI("http://" + t.addr + "/v1/config")
		})
		cfgRate := report(out, fmt.Sprintf("round %d GET /v1/config", round), lc, cc, ec)
		lo, co, eo := drive(ctx, t.addr, reads, f.conns, 0, func(i int, r *fasthttp.Request) {
			r.SetRequestURI("http://" + t.addr + "/v1/orders/" + hashes[i%len(hashes)].Hex())
			r.Header.Set("X-API-Key", t.key)
		})
		orderRate := report(out, fmt.Sprintf("round %d GET /v1/orders/{hash}", round), lo, co, eo)
		fmt.Fprintf(out, "round %d: order/config %.1f %% (target ≥ 50 %%)\n", round, 100*orderRate/cfgRate)
	}
	return nil
}

// closeAll cancels and passivates every order from conns goroutines, so
// the cancels' Sync commits share fsyncs.
func closeAll(ctx context.Context, t *target, hashes []common.Hash, conns int) error {
	var next atomic.Int64
	var first atomic.Value
	var wg sync.WaitGroup
	for range conns {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(hashes); i = int(next.Add(1) - 1) {
				if _, err := t.svc.Registry().Cancel(ctx, hashes[i]); err != nil {
					first.CompareAndSwap(nil, err)
					return
				}
				if _, err := t.svc.Registry().Passivate(ctx, hashes[i]); err != nil {
					first.CompareAndSwap(nil, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err, ok := first.Load().(error); ok {
		return err
	}
	return nil
}

func perOrder(now, base uint64, n int) float64 { return float64(int64(now)-int64(base)) / float64(n) }

type memSample struct {
	heap uint64
	rss  int
}

// heapAndRSS collects garbage, returns memory to the OS and samples the
// live heap and the RSS (KiB) of the target's process.
func heapAndRSS(t *target) memSample {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return memSample{heap: ms.HeapAlloc, rss: rssKiB(t.pid)}
}
