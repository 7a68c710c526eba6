package kind

import (
	"context"
	"fmt"
	"testing"
)

// benchIDs are the identities the benchmarks spread their calls over.
func benchIDs() []string {
	ids := make([]string, 64)
	for i := range ids {
		ids[i] = fmt.Sprintf("id-%d", i)
	}
	return ids
}

// BenchmarkUse measures the shared-state fast path (the limiter's Take,
// the maker's Admit): a live identity found under its shard's read lock
// and its state used on the caller's goroutine.
func BenchmarkUse(b *testing.B) {
	r, _, _ := newCounters(b, 0)
	ids := benchIDs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			r.Use(ids[i%len(ids)], func(st *testState) {
				st.mu.Lock()
				st.uses++
				st.mu.Unlock()
			})
			i++
		}
	})
}

// BenchmarkRequest measures a request to a live identity's actor and its
// answer.
func BenchmarkRequest(b *testing.B) {
	r, _, _ := newCounters(b, 0)
	ids := benchIDs()
	ctx := context.Background()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := r.Request(ctx, ids[i%len(ids)], &get{}); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkSend measures a message sent to a live identity's actor
// without waiting.
func BenchmarkSend(b *testing.B) {
	r, _, _ := newCounters(b, 0)
	ids := benchIDs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			r.Send(ids[i%len(ids)], &add{n: 1})
			i++
		}
	})
	_ = ask(b, r, ids[0]) // drain the first identity's mailbox before the system stops
}
