package limiter

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

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

const numShards = 64

// Limiter is the registry of per-subject limiter actors. It is safe for
// concurrent use.
type Limiter struct {
	system *actor.ActorSystem
	clock  clock.Clock
	log    *slog.Logger
	slot   time.Duration
	idle   time.Duration
	seed   maphash.Seed
	shards [numShards]shard
}

type shard struct {
	mu sync.RWMutex
	m  map[string]*state
}

// state is one subject's buckets. Its mutex guards every field.
type state struct {
	mu       sync.Mutex
	dead     bool
	lastUsed int64 // unix nanoseconds of the last Take
	rings    [numBuckets]*ring
	pid      *actor.PID
}

// Options configure a Limiter.
type Options struct {
	// Window is the sliding window of every bucket.
	Window time.Duration
	// Idle is how long a subject may go without a request before its actor
	// is stopped and its state dropped.
	Idle time.Duration
}

// New returns a limiter whose actors live in system and whose windows follow
// clk.
func New(system *actor.ActorSystem, clk clock.Clock, log *slog.Logger, opts Options) *Limiter {
	l := &Limiter{
		system: system,
		clock:  clk,
		log:    log.With("component", "limiter"),
		slot:   opts.Window / slotsPerWindow,
		idle:   opts.Idle,
		seed:   maphash.MakeSeed(),
	}
	if l.slot <= 0 {
		l.slot = time.Millisecond
	}
	for i := range l.shards {
		l.shards[i].m = make(map[string]*state)
	}
	return l
}

// Take counts one request of subject in bucket b against limit and reports
// the decision. A refused request is not counted.
func (l *Limiter) Take(subject string, b Bucket, limit int) Decision {
	now := l.clock.Now().UnixNano()
	for {
		st := l.lookup(subject)
		st.mu.Lock()
		if st.dead {
			st.mu.Unlock()
			continue
		}
		r := st.rings[b]
		if r == nil {
			r = new(ring)
			st.rings[b] = r
		}
		d := r.take(now, l.slot, limit)
		st.lastUsed = now
		st.mu.Unlock()
		return d
	}
}

func (l *Limiter) shardOf(subject string) *shard {
	return &l.shards[maphash.String(l.seed, subject)%numShards]
}

// lookup returns the live state of subject, spawning its actor when absent.
func (l *Limiter) lookup(subject string) *state {
	sh := l.shardOf(subject)
	sh.mu.RLock()
	st := sh.m[subject]
	sh.mu.RUnlock()
	if st != nil {
		return st
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if st = sh.m[subject]; st != nil {
		return st
	}
	st = &state{lastUsed: l.clock.Now().UnixNano()}
	props := actor.PropsFromProducer(func() actor.Actor { return &limiterActor{l: l, subject: subject, st: st} })
	pid, err := l.system.Root.SpawnNamed(props, "limiter/"+subject)
	if err != nil {
		// A previous actor of this subject is still stopping; an anonymous
		// name is as good.
		pid = l.system.Root.Spawn(props)
	}
	st.pid = pid
	sh.m[subject] = st
	return st
}

// retire drops subject's state when it has been idle for l.idle at now and
// reports whether it did. Called by the subject's actor only.
func (l *Limiter) retire(subject string, st *state, now time.Time) bool {
	sh := l.shardOf(subject)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.dead {
		return true
	}
	if now.UnixNano()-st.lastUsed < int64(l.idle) {
		return false
	}
	st.dead = true
	if sh.m[subject] == st {
		delete(sh.m, subject)
	}
	return true
}

// Active returns the number of subjects with a live actor.
func (l *Limiter) Active() int {
	n := 0
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.RLock()
		n += len(sh.m)
		sh.mu.RUnlock()
	}
	return n
}

// SweepIdle asks every limiter actor to check for idleness now (by the
// limiter's clock) instead of waiting for its receive timeout, and returns
// how many retired. Tests with a manual clock use it; production relies on
// the actors' own timers.
func (l *Limiter) SweepIdle(ctx context.Context) (int, error) {
	var pids []*actor.PID
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.RLock()
		for _, st := range sh.m {
			pids = append(pids, st.pid)
		}
		sh.mu.RUnlock()
	}
	retired := 0
	for _, pid := range pids {
		res, err := l.request(ctx, pid, &CheckIdleRequest{})
		if errors.Is(err, actor.ErrDeadLetter) {
			continue // it retired on its own timer meanwhile
		}
		if err != nil {
			return retired, err
		}
		if r, ok := res.(*CheckIdleResponse); ok && r.Retired {
			retired++
		}
	}
	return retired, nil
}

// Usage returns subject's current counts without counting a request; ok is
// false when the subject has no live actor.
func (l *Limiter) Usage(ctx context.Context, subject string) (UsageResponse, bool, error) {
	sh := l.shardOf(subject)
	sh.mu.RLock()
	st := sh.m[subject]
	sh.mu.RUnlock()
	if st == nil {
		return UsageResponse{}, false, nil
	}
	res, err := l.request(ctx, st.pid, &UsageRequest{})
	if err != nil {
		return UsageResponse{}, false, err
	}
	u, ok := res.(*UsageResponse)
	if !ok {
		return UsageResponse{}, false, nil
	}
	return *u, true, nil
}

func (l *Limiter) request(ctx context.Context, pid *actor.PID, msg any) (any, error) {
	timeout := 5 * time.Second
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
	}
	res, err := l.system.Root.RequestFuture(pid, msg, timeout).Result()
	if err != nil {
		return nil, fmt.Errorf("limiter: request %T: %w", msg, err)
	}
	return res, nil
}
