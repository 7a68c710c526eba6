package routing

import (
	"math/rand"
	"os"
	"sort"
	"testing"
	"time"
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
// searches on the synthetic graph and fails when p50 ≥ 200 µs or
// p99 ≥ 1 ms. Timing targets are meaningless on a loaded machine or under
// the race detector, so it runs only with ROUTING_LATENCY=1 (make bench).
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
	lat := make([]time.Duration, len(reqs))
	for i, r := range reqs {
		start := time.Now()
		if _, err := s.Search(snap, r); err != nil {
			t.Fatal(err)
		}
		lat[i] = time.Since(start)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p50, p90, p99 := lat[len(lat)/2], lat[len(lat)*90/100], lat[len(lat)*99/100]
	t.Logf("route search, 50 tokens / %d pools, %d requests: p50 %v p90 %v p99 %v max %v",
		len(g.pools), len(reqs), p50, p90, p99, lat[len(lat)-1])
	if p50 >= 200*time.Microsecond || p99 >= time.Millisecond {
		t.Fatalf("latency target missed: p50 %v (< 200µs), p99 %v (< 1ms)", p50, p99)
	}
}
