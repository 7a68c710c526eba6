package limiter

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/internal/clock"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newTestLimiter(t testing.TB) (*Limiter, *clock.Manual) {
	t.Helper()
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	t.Cleanup(sys.Shutdown)
	clk := clock.NewManual(t0)
	return New(sys, clk, slog.New(slog.DiscardHandler), Options{Window: time.Minute, Idle: 2 * time.Minute}), clk
}

func TestTakeLimitAndSlide(t *testing.T) {
	l, clk := newTestLimiter(t)
	for i := range 5 {
		d := l.Take("k", Quote, 5)
		if !d.Allowed || d.Remaining != 4-i || d.Limit != 5 {
			t.Fatalf("take %d: %+v", i, d)
		}
	}
	d := l.Take("k", Quote, 5)
	if d.Allowed || d.Remaining != 0 || d.RetryAfterSeconds() != 61 {
		// The oldest slot frees 60.1 s after t0, rounded up to whole seconds.
		t.Fatalf("over limit: %+v retry %d", d, d.RetryAfterSeconds())
	}
	if !l.Take("k", Read, 5).Allowed {
		t.Fatal("read bucket refused while quote is full")
	}
	clk.Advance(59 * time.Second)
	if l.Take("k", Quote, 5).Allowed {
		t.Fatal("admitted before the window slid")
	}
	clk.Advance(1200 * time.Millisecond) // 60.2 s after the burst
	if d := l.Take("k", Quote, 5); !d.Allowed || d.Remaining != 4 {
		t.Fatalf("after the window slid: %+v", d)
	}
}

// TestNeverExceedsInAnyWindow drives a greedy client with an irregular
// clock and checks, against an exact log, that no 60 s interval holds more
// admissions than the limit, and that the client gets at least 99 % of what
// an exact limiter would admit.
func TestNeverExceedsInAnyWindow(t *testing.T) {
	l, clk := newTestLimiter(t)
	const limit = 100
	var admitted []time.Time
	steps := []time.Duration{7 * time.Millisecond, 130 * time.Millisecond, 1100 * time.Millisecond, 49 * time.Millisecond}
	end := t0.Add(10 * time.Minute)
	for i := 0; clk.Now().Before(end); i++ {
		if l.Take("greedy", Read, limit).Allowed {
			admitted = append(admitted, clk.Now())
		}
		clk.Advance(steps[i%len(steps)])
	}
	for i := range admitted {
		j := i
		for j < len(admitted) && admitted[j].Sub(admitted[i]) < time.Minute {
			j++
		}
		if j-i > limit {
			t.Fatalf("%d admissions in the minute from %s", j-i, admitted[i])
		}
	}
	// An exact limiter admits at most limit per minute; over ten minutes a
	// greedy client should get nearly 10 * limit.
	if len(admitted) < 10*limit*99/100 {
		t.Fatalf("admitted %d, want at least %d", len(admitted), 10*limit*99/100)
	}
}

func TestResetHeaderCountsDown(t *testing.T) {
	l, clk := newTestLimiter(t)
	d := l.Take("k", Order, 3)
	if d.ResetSeconds() != 61 {
		t.Fatalf("reset %d", d.ResetSeconds())
	}
	clk.Advance(30 * time.Second)
	if d = l.Take("k", Order, 3); d.ResetSeconds() != 31 || d.Remaining != 1 {
		t.Fatalf("later: %+v reset %d", d, d.ResetSeconds())
	}
}

func TestIdleActorsRetire(t *testing.T) {
	l, clk := newTestLimiter(t)
	for i := range 10 {
		l.Take(fmt.Sprintf("key-%d", i), Read, 10)
	}
	if l.Active() != 10 {
		t.Fatalf("active %d", l.Active())
	}
	ctx := context.Background()
	for range 3 {
		l.Sweep()
	}
	if l.Active() != 10 {
		t.Fatalf("early sweeps retired %d", 10-l.Active())
	}
	u, ok, err := l.Usage(ctx, "key-3")
	if err != nil || !ok || u.Counts[Read] != 1 {
		t.Fatalf("usage: %+v %v %v", u, ok, err)
	}
	clk.Advance(2 * time.Minute)
	l.Take("key-0", Read, 10) // key-0 stays active
	for range 3 {
		l.Sweep()
	}
	if l.Active() != 1 {
		t.Fatalf("after the sweeps: active %d, want key-0 alone", l.Active())
	}
	// A retired subject starts from a fresh state.
	if d := l.Take("key-5", Read, 10); !d.Allowed || d.Remaining != 9 {
		t.Fatalf("after retire: %+v", d)
	}
}

func BenchmarkTake(b *testing.B) {
	l, _ := newTestLimiter(b)
	subjects := make([]string, 64)
	for i := range subjects {
		subjects[i] = fmt.Sprintf("key_%d", i)
	}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			l.Take(subjects[i%len(subjects)], Read, 1<<30)
			i++
		}
	})
}

// BenchmarkActorRoundTrip measures what a protoactor Request/Future per
// request would cost, the design alternative the hot path avoids.
func BenchmarkActorRoundTrip(b *testing.B) {
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	defer sys.Shutdown()
	pid := sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*UsageRequest); ok {
			ctx.Respond(&UsageResponse{})
		}
	}))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := sys.Root.RequestFuture(pid, &UsageRequest{}, time.Second).Result(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
