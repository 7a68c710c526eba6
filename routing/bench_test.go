package routing

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"golang.org/x/sys/unix"
)

// benchRequests draws n route requests on g: random pairs, amounts from
// $10 to $10M (log-uniform in decades).
func benchRequests(g *synthGraph, n int) []Request {
	rng := rand.New(rand.NewSource(99))
	reqs := make([]Request, 0, n)
	for len(reqs) < n {
		a, b := rng.Intn(len(g.tokens)), rng.Intn(len(g.tokens))
		if a == b {
			continue
		}
		usd := []float64{10, 100, 1e3, 1e4, 1e5, 1e6, 1e7}[rng.Intn(7)]
		reqs = append(reqs, Request{TokenIn: g.tokens[a], TokenOut: g.tokens[b], AmountIn: g.amountUSD(a, usd)})
	}
	return reqs
}

// BenchmarkSearch measures one full Search (best route, per-family
// candidates, suggestions) on a 50-token, 300-pool synthetic graph.
func BenchmarkSearch(b *testing.B) {
	g := newSynthGraph(1, 50, 300)
	snap := NewSnapshot(1, g.pools)
	s := NewSearcher(g.opts)
	reqs := benchRequests(g, 1024)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Search(snap, reqs[i%len(reqs)]); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSearchLatencyPercentiles is the percentile harness: it times 5,000
// searches on the synthetic graph, in wall time and in the calling
// thread's CPU time (CLOCK_THREAD_CPUTIME_ID, which a loaded machine does
// not inflate), and fails when the CPU-time p50 ≥ 200 µs or p99 ≥ 1 ms.
// Timing targets are meaningless under the race detector or next to other
// heavy jobs, so it runs only with ROUTING_LATENCY=1.
func TestSearchLatencyPercentiles(t *testing.T) {
	if os.Getenv("ROUTING_LATENCY") != "1" || raceEnabled {
		t.Skip("set ROUTING_LATENCY=1 to run the latency harness (not under -race)")
	}
	g := newSynthGraph(1, 50, 300)
	snap := NewSnapshot(1, g.pools)
	s := NewSearcher(g.opts)
	reqs := benchRequests(g, 5000)
	for _, r := range reqs[:500] { // warm up
		_, _ = s.Search(snap, r)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	wall := make([]time.Duration, len(reqs))
	cpu := make([]time.Duration, len(reqs))
	for i, r := range reqs {
		c0, start := threadCPU(), time.Now()
		if _, err := s.Search(snap, r); err != nil {
			t.Fatal(err)
		}
		wall[i], cpu[i] = time.Since(start), threadCPU()-c0
	}
	pw, pc := percentiles(wall), percentiles(cpu)
	t.Logf("route search, %d tokens / %d pools, %d requests, GOMAXPROCS %d", len(g.tokens), len(g.pools), len(reqs), runtime.GOMAXPROCS(0))
	t.Logf("wall: p50 %v p90 %v p99 %v max %v", pw[0], pw[1], pw[2], pw[3])
	t.Logf("cpu:  p50 %v p90 %v p99 %v max %v", pc[0], pc[1], pc[2], pc[3])
	if pc[0] >= 200*time.Microsecond || pc[2] >= time.Millisecond {
		t.Fatalf("latency target missed: cpu p50 %v (< 200µs), p99 %v (< 1ms)", pc[0], pc[2])
	}
}

// percentiles returns p50, p90, p99 and max of d (sorted in place).
func percentiles(d []time.Duration) [4]time.Duration {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	n := len(d)
	return [4]time.Duration{d[n/2], d[n*90/100], d[n*99/100], d[n-1]}
}

// threadCPU is the calling OS thread's CPU time.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// BenchmarkSpot measures GET /api/spot's work: parsing, the best direct
// pool's cached price, the price per whole token.
func BenchmarkSpot(b *testing.B) {
	g := newSynthGraph(1, 50, 300)
	regs := make([]config.TokenConfig, len(g.tokens))
	for i, t := range g.tokens {
		regs[i] = config.TokenConfig{Address: t.Hex(), Symbol: fmt.Sprintf("T%d", i), Decimals: g.decimals[i]}
	}
	tokens, err := NewTokens(regs)
	if err != nil {
		b.Fatal(err)
	}
	svc := NewService(ServiceConfig{Venues: staticSource{NewSnapshot(1, g.pools)}, Searcher: NewSearcher(g.opts), Tokens: tokens})
	p := SpotParams{TokenIn: g.tokens[0].Hex(), TokenOut: g.tokens[1].Hex()}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := svc.Spot(context.Background(), p); err != nil {
			b.Fatal(err)
		}
	}
}

type staticSource struct{ snap *Snapshot }

func (s staticSource) Snapshot() *Snapshot { return s.snap }
