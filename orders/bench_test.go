package orders_test

import (
	"context"
	"syscall"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/api"
)

// cpuTime is the process's user+system CPU time in nanoseconds: less
// disturbed by other jobs on a shared machine than wall time.
func cpuTime() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkSubmitParallel calls Service.Submit (parse, checks, signature,
// fees, maker limit, the order actor's Sync commit) from many goroutines,
// without HTTP; orders are signed before the timer starts.
func BenchmarkSubmitParallel(b *testing.B) {
	benchSubmit(b, true)
}

// BenchmarkSubmitSerial is the same one at a time: every submit waits for
// its own fsync (no group commit).
func BenchmarkSubmitSerial(b *testing.B) {
	benchSubmit(b, false)
}

// BenchmarkEcrecover is the bare signature recovery the submit target is
// a share of (× cores for the parallel benchmark).
func BenchmarkEcrecover(b *testing.B) {
	key, _ := crypto.GenerateKey()
	msg := crypto.Keccak256([]byte("x"))
	sig, _ := crypto.Sign(msg, key)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_, _ = crypto.Ecrecover(msg, sig)
		}
	})
}

func benchSubmit(b *testing.B, parallel bool) {
	e := newEnv(b)
	bodies := make([][]byte, b.N)
	for i := range bodies {
		bodies[i], _ = e.build(defaultSpec("limit", newKey(b)))
	}
	caller := api.Caller{AccountID: e.srv.AccountID}
	ctx := context.Background()
	b.ResetTimer()
	before := cpuTime()
	if parallel {
		b.SetParallelism(16)
		next := make(chan int, b.N)
		for i := range b.N {
			next <- i
		}
		close(next)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := e.svc().Submit(ctx, caller, bodies[<-next]); err != nil {
					b.Error(err)
					return
				}
			}
		})
	} else {
		for i := range b.N {
			if _, err := e.svc().Submit(ctx, caller, bodies[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
}
