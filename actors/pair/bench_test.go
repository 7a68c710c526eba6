package pair

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkEvaluate is one trigger tick over n open orders: what every
// applied block costs the engine.
func BenchmarkEvaluate(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("open=%d", n), func(b *testing.B) {
			e := newSynthEnv(b, n)
			ctx := context.Background()
			block := uint64(0)
			if err := e.engine.Evaluate(ctx, BlockRef{Number: block, Time: 1_700_000_000}); err != nil {
				b.Fatal(err) // the first tick loads the open orders
			}
			for b.Loop() {
				block++
				if err := e.engine.Evaluate(ctx, BlockRef{Number: block, Time: 1_700_000_000 + block}); err != nil {
					b.Fatal(err)
				}
			}
			if got := len(e.engine.Executable("")); got < n/4 {
				b.Fatalf("%d executable of %d open", got, n)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/order")
		})
	}
}
