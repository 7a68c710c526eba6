//go:build !race

package members_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/orderengine/orderengine/actors/limiter"
	"github.com/orderengine/orderengine/internal/clock"
)

// remoteIDs returns identities of the counter kind that node from does not
// own.
func remoteIDs(c *testCluster, from *node, n int) []string {
	var ids []string
	for i := 0; len(ids) < n; i++ {
		id := fmt.Sprintf("r-%d", i)
		if !from.member.Owns("counter", id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// BenchmarkRemoteRequest measures one request to an identity another
// member owns, through kind.Registry.Request: codec, our call path,
// protoactor's remote over loopback, the grain, the owner's registry and
// actor, and back. It reports the latency's p50 and p99 (one caller at a
// time: the cost of a call, not the cluster's throughput).
func BenchmarkRemoteRequest(b *testing.B) {
	c := newCluster(b, 3, nil)
	from := c.nodes[0]
	ids := remoteIDs(c, from, 64)
	ctx := context.Background()
	for _, id := range ids { // activate the grains and warm the connections
		if _, err := add(ctx, from, id, 0); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		if _, err := add(ctx, from, ids[i%len(ids)], 1); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

// BenchmarkLocalRequest is the same request to an identity the calling
// member owns: the registry's local path, for comparison.
func BenchmarkLocalRequest(b *testing.B) {
	c := newCluster(b, 3, nil)
	from := c.nodes[0]
	var ids []string
	for i := 0; len(ids) < 64; i++ {
		if id := fmt.Sprintf("l-%d", i); from.member.Owns("counter", id) {
			ids = append(ids, id)
		}
	}
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		if _, err := add(ctx, from, ids[i%len(ids)], 1); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

// BenchmarkLeasedTake measures the limiter's admission on a member that
// does not own the key: mostly from its lease on the request's goroutine,
// with a lease request to the owner every few admissions. The key's limit
// is high enough never to refuse.
func BenchmarkLeasedTake(b *testing.B) {
	benchTake(b, false)
}

// BenchmarkOwnerTake is the admission on the key's owner (its ledger, no
// round trip).
func BenchmarkOwnerTake(b *testing.B) {
	benchTake(b, true)
}

func benchTake(b *testing.B, owner bool) {
	c := newClusterWith(b, 3, clusterOpts{clock: clock.Real{}}, nil)
	nd := c.nodes[0]
	var keys []string
	for i := 0; len(keys) < 16; i++ {
		k := fmt.Sprintf("key_%d", i)
		if nd.member.Owns(limiter.KindName, k) == owner {
			keys = append(keys, k)
		}
	}
	const limit = 1 << 30
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		if !nd.limiter.Take(keys[i%len(keys)], limiter.Read, limit).Allowed {
			b.Fatal("refused")
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
}
