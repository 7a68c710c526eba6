package maker

import (
	"context"
	"log/slog"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/internal/clock"
)

// BenchmarkAdmit measures a submission's admission on a single node (the
// submit path): the maker's state used on the caller's goroutine, over
// 1,024 makers. The window is a microsecond, so nearly every submission
// is admitted and counted.
func BenchmarkAdmit(b *testing.B) {
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	b.Cleanup(sys.Shutdown)
	m := New(sys, clock.Real{}, nil, Options{Submits: 64, Window: time.Microsecond, OpenOrders: 1000})
	b.Cleanup(m.Stop)
	makers := make([]common.Address, 1024)
	for i := range makers {
		makers[i] = common.BigToAddress(big.NewInt(int64(i + 1)))
	}
	ctx := context.Background()
	var admitted atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		n, i := int64(0), 0
		for pb.Next() {
			if m.Admit(ctx, makers[i%len(makers)]) == nil {
				n++
			}
			i++
		}
		admitted.Add(n)
	})
	if admitted.Load() == 0 {
		b.Fatal("nothing admitted")
	}
}

// BenchmarkServeAdmit measures the owner's side of another member's
// admission request, over 1,024 makers: decided on the request's
// goroutine (Serve) against handed to the maker's actor and back
// (the registry's Serve, the path before).
func BenchmarkServeAdmit(b *testing.B) {
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	b.Cleanup(sys.Shutdown)
	m := New(sys, clock.Real{}, nil, Options{Submits: 64, Window: time.Microsecond, OpenOrders: 1000})
	b.Cleanup(m.Stop)
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = codec.Key(common.BigToAddress(big.NewInt(int64(i + 1))))
	}
	req := kind.Message{Type: typeAdmit}
	for _, c := range []struct {
		name  string
		serve func(context.Context, string, kind.Message, bool) (kind.Message, error)
	}{{"direct", m.Serve}, {"actor", m.reg.Serve}} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					ans, err := c.serve(ctx, keys[i%len(keys)], req, false)
					if err != nil || ans.Type != typeAdmitted {
						b.Errorf("answer %v, %v", ans, err)
						return
					}
					i++
				}
			})
		})
	}
}
