package limiter

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
)

// CheckIdleRequest asks a limiter actor to retire now if its subject is idle.
type CheckIdleRequest struct{}

// CheckIdleResponse tells whether the actor retired.
type CheckIdleResponse struct{ Retired bool }

// UsageRequest asks a limiter actor for its subject's current counts.
type UsageRequest struct{}

// UsageResponse holds the counted requests per bucket in the current window.
type UsageResponse struct {
	Subject string
	Counts  [numBuckets]int64
}

// limiterActor owns one subject's state: it retires it when idle.
type limiterActor struct {
	l       *Limiter
	subject string
	st      *state
}

// Receive handles the actor's messages.
func (a *limiterActor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		ctx.SetReceiveTimeout(a.l.idle)
	case *actor.ReceiveTimeout:
		a.checkIdle(ctx)
	case *CheckIdleRequest:
		ctx.Respond(&CheckIdleResponse{Retired: a.checkIdle(ctx)})
	case *UsageRequest:
		ctx.Respond(a.usage())
	case *actor.Stopping, *actor.Stopped, *actor.Restarting:
	default:
		a.l.log.Warn("limiter: unexpected message", "type", typeName(msg), "subject", a.subject)
	}
}

func (a *limiterActor) checkIdle(ctx actor.Context) bool {
	if !a.l.retire(a.subject, a.st, a.l.clock.Now()) {
		return false
	}
	ctx.Stop(ctx.Self())
	return true
}

func (a *limiterActor) usage() *UsageResponse {
	now := a.l.clock.Now().UnixNano()
	out := &UsageResponse{Subject: a.subject}
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	for b, r := range a.st.rings {
		if r != nil {
			r.advance(now / int64(a.l.slot))
			out.Counts[b] = r.total
		}
	}
	return out
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }
