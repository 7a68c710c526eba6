package limiter

import (
	"hash/maphash"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/internal/clock"
)

// MakerLimiter is the per-maker-wallet submit limit of contract.md section 5
// that the order path calls once per submission, after the signature is
// verified and before any actor or disk work.
type MakerLimiter interface {
	// AdmitSubmit checks and counts one submission of maker (a 0x address,
	// any case). openOrders is the maker's current number of open orders as
	// the caller's index knows it. It returns nil when admitted, or an
	// *orderengine.Error MAKER_RATE_LIMITED with RetryAfterSeconds set when
	// the maker exceeds its submits per window or its open-orders cap. A
	// refused submission is not counted.
	AdmitSubmit(maker string, openOrders int) error
}

// MakerOptions configure Makers.
type MakerOptions struct {
	// Submits is the number of submissions admitted per Window.
	Submits int
	Window  time.Duration
	// OpenOrders caps the open orders of one maker.
	OpenOrders int
}

// Makers implements MakerLimiter with an exact sliding log per maker: the
// admission times of the last Submits submissions, so a maker can never be
// admitted Submits+1 times in any Window. Logs live in a sharded map; one
// janitor actor drops the logs of makers idle for a whole window.
type Makers struct {
	clock  clock.Clock
	opts   MakerOptions
	seed   maphash.Seed
	shards [numShards]makerShard
	pid    *actor.PID
}

type makerShard struct {
	mu sync.Mutex
	m  map[string]*makerLog
}

// makerLog is a ring of the last admission times (unix nanoseconds).
type makerLog struct {
	times []int64
	next  int // index of the oldest entry once full
	n     int
}

var _ MakerLimiter = (*Makers)(nil)

// NewMakers returns a maker limiter and starts its janitor actor in system.
func NewMakers(system *actor.ActorSystem, clk clock.Clock, log *slog.Logger, opts MakerOptions) *Makers {
	m := &Makers{clock: clk, opts: opts, seed: maphash.MakeSeed()}
	for i := range m.shards {
		m.shards[i].m = make(map[string]*makerLog)
	}
	log = log.With("component", "maker-limiter")
	props := actor.PropsFromFunc(func(ctx actor.Context) {
		switch msg := ctx.Message().(type) {
		case *actor.Started:
			ctx.SetReceiveTimeout(opts.Window)
		case *actor.ReceiveTimeout:
			m.Sweep()
		case *actor.Stopping, *actor.Stopped, *actor.Restarting:
		default:
			log.Warn("maker limiter: unexpected message", "type", typeName(msg))
		}
	})
	m.pid = system.Root.Spawn(props)
	return m
}

// AdmitSubmit implements MakerLimiter.
func (m *Makers) AdmitSubmit(maker string, openOrders int) error {
	windowSecs := max(1, ceilSeconds(m.opts.Window))
	if openOrders >= m.opts.OpenOrders {
		return &orderengine.Error{
			Code:              orderengine.CodeMakerRateLimited,
			Message:           "maker has reached the cap of open orders; cancel or wait for fills",
			RetryAfterSeconds: windowSecs,
		}
	}
	key := strings.ToLower(maker)
	now := m.clock.Now().UnixNano()
	sh := &m.shards[maphash.String(m.seed, key)%numShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	lg := sh.m[key]
	if lg == nil {
		lg = &makerLog{times: make([]int64, m.opts.Submits)}
		sh.m[key] = lg
	}
	if lg.n == len(lg.times) {
		oldest := lg.times[lg.next]
		if wait := oldest + int64(m.opts.Window) - now; wait > 0 {
			return &orderengine.Error{
				Code:              orderengine.CodeMakerRateLimited,
				Message:           "too many orders from this maker wallet",
				RetryAfterSeconds: max(1, ceilSeconds(time.Duration(wait))),
			}
		}
		lg.times[lg.next] = now
		lg.next = (lg.next + 1) % len(lg.times)
		return nil
	}
	lg.times[(lg.next+lg.n)%len(lg.times)] = now
	lg.n++
	return nil
}

// Sweep drops the logs of makers whose newest admission left the window.
func (m *Makers) Sweep() {
	cutoff := m.clock.Now().UnixNano() - int64(m.opts.Window)
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		for k, lg := range sh.m {
			if lg.n == 0 || lg.times[(lg.next+lg.n-1)%len(lg.times)] <= cutoff {
				delete(sh.m, k)
			}
		}
		sh.mu.Unlock()
	}
}

// Tracked returns the number of makers with a live log.
func (m *Makers) Tracked() int {
	n := 0
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		n += len(sh.m)
		sh.mu.Unlock()
	}
	return n
}
