package members_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/orderengine/orderengine/actors/kind"
)

// BenchmarkCall measures one call of the counter kind from a member to
// the holder of the key's shard: "remote" to another member (the request
// and its answer cross the NATS routes), "local" to a shard the calling
// member holds (served on its own handler). It reports the p50 and p99 of
// one call at a time: the cost of a call, not the cluster's throughput.
func BenchmarkCall(b *testing.B) {
	c := newCluster(b, 3)
	keys := shardKeys(c.nodes[0].member)
	waitFor(b, 20*time.Second, "the shards spread over the members", func() bool {
		per := map[string]int{}
		for _, o := range c.owners(keys) {
			per[o[0]]++
		}
		return len(c.owners(keys)) == len(keys) && len(per) == len(c.nodes)
	})
	time.Sleep(time.Second) // the preferred members settle
	from := c.nodes[0]
	for _, name := range []string{"remote", "local"} {
		b.Run(name, func(b *testing.B) {
			key := ""
			for k, o := range c.owners(keys) {
				if (o[0] == from.name) == (name == "local") {
					key = k
				}
			}
			if key == "" {
				b.Skip("no such shard in this placement")
			}
			lat := make([]time.Duration, 0, b.N)
			ctx := context.Background()
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				if _, err := from.member.Call(ctx, "counter", key, kind.Message{Type: "count"}); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}
