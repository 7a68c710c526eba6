package limiter

import (
	"context"
	"fmt"
	"hash/maphash"
	"log/slog"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/internal/clock"
)

// Bucket is one of the three rate-limit buckets of specification section 8.
type Bucket uint8

// The buckets.
const (
	Quote Bucket = iota
	Read
	Order
	numBuckets
)

// String returns the bucket's name as used in configuration and metrics.
func (b Bucket) String() string {
	switch b {
	case Quote:
		return "quote"
	case Read:
		return "read"
	case Order:
		return "order"
	}
	return fmt.Sprintf("bucket(%d)", uint8(b))
}

// Limiter holds the limiter actors of the subjects in use (API key ids,
// client addresses). It is safe for concurrent use.
type Limiter struct {
	reg    *kind.Registry[string, state]
	clock  clock.Clock
	log    *slog.Logger
	window time.Duration
	slot   time.Duration
	idle   time.Duration
	// cluster is the cluster mode (cluster.go); nil on a single node. Set
	// by New, never changed.
	cluster *clustered
}

// KindName is the limiter's kind in the actor registry and the cluster.
const KindName = "limiter"

// state is one subject's buckets, shared by its actor and the requests
// that Take on their own goroutines. Its mutex guards every field.
type state struct {
	mu       sync.Mutex
	lastUsed int64 // unix nanoseconds of the last Take, by the limiter's clock
	rings    [numBuckets]*ring
	// shared is the subject's cluster state (cluster.go); nil on a single
	// node.
	shared *shared
}

// Options configure a Limiter.
type Options struct {
	// Window is the sliding window of every bucket.
	Window time.Duration
	// Idle is how long a subject may go without a request before its actor
	// is stopped and its state dropped.
	Idle time.Duration
	// Cluster makes the limiter count cluster-wide (cluster.go); nil: a
	// single node's limiter.
	Cluster *ClusterOptions
}

// New returns a limiter whose actors live in system and whose windows follow
// clk.
func New(system *actor.ActorSystem, clk clock.Clock, log *slog.Logger, opts Options) *Limiter {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	l := &Limiter{clock: clk, log: log, window: opts.Window, slot: opts.Window / slotsPerWindow, idle: opts.Idle}
	if l.slot <= 0 {
		l.slot = time.Millisecond
	}
	var placement kind.Placement
	if opts.Cluster != nil {
		l.cluster = newClustered(*opts.Cluster, opts.Window)
		placement = opts.Cluster.Placement
	}
	seed := maphash.MakeSeed()
	l.reg = kind.NewRegistry(system, kind.Kind[string, state]{
		Name:  KindName,
		Codec: codec,
		State: func(string) *state { return &state{lastUsed: clk.Now().UnixNano()} },
		New:   func(subject string, st *state) actor.Actor { return &limiterActor{l: l, subject: subject, st: st} },
		Idle:  opts.Idle,
		// Idle by the limiter's clock too: the sweep's epochs follow real
		// time, the window follows clk.
		Keep:      func(st *state) bool { return clk.Now().UnixNano()-st.lastUsedLocked() < int64(opts.Idle) },
		Shard:     func(subject string) uint32 { return uint32(maphash.String(seed, subject)) },
		Placement: placement,
	}, log)
	return l
}

// lastUsedLocked reads lastUsed under the state's mutex.
func (st *state) lastUsedLocked() int64 {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.lastUsed
}

// Take counts one request of subject in bucket b against limit and reports
// the decision. A refused request is not counted. It runs on the caller's
// goroutine under the subject's own mutex (see the package doc); in a
// cluster it counts against the subject's limit across the members
// (cluster.go).
func (l *Limiter) Take(subject string, b Bucket, limit int) Decision {
	if c := l.cluster; c != nil && (c.opts.NodeLocal == nil || !c.opts.NodeLocal(subject)) {
		return l.takeShared(c, subject, b, limit)
	}
	now := l.clock.Now().UnixNano()
	var d Decision
	l.reg.Use(subject, func(st *state) {
		st.mu.Lock()
		r := st.rings[b]
		if r == nil {
			r = new(ring)
			st.rings[b] = r
		}
		d = r.take(now, l.slot, limit)
		st.lastUsed = now
		st.mu.Unlock()
	})
	return d
}

// Active returns the number of subjects with a live actor.
func (l *Limiter) Active() int { return l.reg.Live() }

// Sweep passivates the subjects idle for the limiter's idle time (by its
// clock) at the registry's next sweeps. The registry sweeps on its own;
// tests with a manual clock call it.
func (l *Limiter) Sweep() { l.reg.Sweep() }

// Stop ends the registry's sweep.
func (l *Limiter) Stop() { l.reg.Stop() }

// Usage returns subject's current counts without counting a request; ok is
// false when the subject has no live actor.
func (l *Limiter) Usage(ctx context.Context, subject string) (UsageResponse, bool, error) {
	if !l.reg.IsLive(subject) {
		return UsageResponse{}, false, nil
	}
	res, err := l.reg.Request(ctx, subject, &UsageRequest{})
	if err != nil {
		return UsageResponse{}, false, err
	}
	u, ok := res.(*UsageResponse)
	if !ok {
		return UsageResponse{}, false, nil
	}
	return *u, true, nil
}

// UsageRequest asks a limiter actor for its subject's current counts.
type UsageRequest struct{}

// UsageResponse holds the counted requests per bucket in the current window.
type UsageResponse struct {
	Subject string
	Counts  [numBuckets]int64
}

// limiterActor is one subject's actor: it owns the subject's window (the
// registry passivates it, and drops the state, once the subject is idle),
// answers Usage and, in a cluster, grants the other members' leases.
type limiterActor struct {
	l       *Limiter
	subject string
	st      *state
}

// Receive handles the actor's messages.
func (a *limiterActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *UsageRequest:
		ctx.Respond(a.usage())
	case *LeaseRequest:
		ctx.Respond(a.grantLease(m))
	}
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
	if sh := a.st.shared; sh != nil {
		q := ledgerSlot(a.l.window)
		for b, lg := range sh.ledgers {
			if lg != nil {
				lg.advance(now / q)
				out.Counts[b] += lg.total
			}
		}
	}
	return out
}
