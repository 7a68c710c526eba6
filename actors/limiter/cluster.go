package limiter

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/orderengine/orderengine/actors/kind"
)

// Cluster mode (Options.Cluster): a subject's limit holds across the members. The
// subject's limiter actor on the member that owns it keeps the subject's
// ledger (ledger.go) and counts that member's own requests in it
// directly; every other member admits from leases of a few tokens that
// the owner counted for it (lease.go), so most requests are still decided
// on the request's goroutine without a round trip.
//
// While a subject's owner cannot be reached (a member is leaving, the
// cluster is changing), a member admits the subject's requests against its
// share of the limit (limit / members, at least one) on its own window for
// a second at a time, then asks the owner again. A new owner starts with
// an empty ledger: across an ownership change a subject may be admitted up
// to one more limit within the window that spans it.

// ClusterOptions configure a Limiter placed in a cluster.
type ClusterOptions struct {
	// Placement places the subjects on the members (cluster/members).
	Placement kind.Placement
	// NodeLocal, when set, names the subjects each member counts alone
	// (client addresses: each member protects itself from one client).
	NodeLocal func(subject string) bool
	// Members returns the number of members (for the share a member
	// admits while an owner is unreachable). Nil: 1.
	Members func() int
	// LeaseTimeout bounds one lease request. Default 500 ms.
	LeaseTimeout time.Duration
}

// fallbackFor is how long a member admits against its share after a lease
// request failed, before asking the owner again.
const fallbackFor = time.Second

// clustered is the limiter's cluster mode.
type clustered struct {
	opts ClusterOptions
	q    int64 // the ledger's slot, nanoseconds
	// warned is the unix time (seconds) of the last warning about an
	// unreachable owner: one a second at most.
	warned atomic.Int64
}

// newClustered returns the cluster mode opts configure.
func newClustered(opts ClusterOptions, window time.Duration) *clustered {
	if opts.LeaseTimeout <= 0 {
		opts.LeaseTimeout = 500 * time.Millisecond
	}
	return &clustered{opts: opts, q: ledgerSlot(window)}
}

// Serve implements the cluster's handler of the limiter kind (the lease
// requests of the other members): see kind.Registry.Serve.
func (l *Limiter) Serve(ctx context.Context, key string, req kind.Message, oneWay bool) (kind.Message, error) {
	return l.reg.Serve(ctx, key, req, oneWay)
}

// shared is a subject's cluster state, under the state's mutex.
type shared struct {
	ledgers  [numBuckets]*ledger // as the subject's owner
	leases   [numBuckets]lease   // as another member
	fallback [numBuckets]*ring   // while the owner is unreachable
}

func (st *state) sharedLocked() *shared {
	if st.shared == nil {
		st.shared = &shared{}
	}
	return st.shared
}

func (sh *shared) ledger(b Bucket) *ledger {
	if sh.ledgers[b] == nil {
		sh.ledgers[b] = new(ledger)
	}
	return sh.ledgers[b]
}

// takeShared is Take of a subject counted cluster-wide.
func (l *Limiter) takeShared(c *clustered, subject string, b Bucket, limit int) Decision {
	owns := l.reg.Owns(subject)
	var d Decision
	l.reg.Use(subject, func(st *state) {
		st.mu.Lock()
		defer st.mu.Unlock()
		now := l.clock.Now().UnixNano()
		st.lastUsed = now
		sh := st.sharedLocked()
		if owns {
			g := sh.ledger(b).grant(now, c.q, 1, limit)
			d = Decision{Allowed: g.Granted == 1, Limit: limit, Remaining: g.Remaining, Reset: g.Reset}
			return
		}
		d = l.takeLeased(c, subject, st, sh, b, limit)
	})
	return d
}

// takeLeased admits one request from the member's lease, asking the owner
// for the next one when needed. It is called, and returns, with st.mu
// held; it releases it while a lease request is in flight (one per subject
// and bucket at a time: the others wait for its answer).
func (l *Limiter) takeLeased(c *clustered, subject string, st *state, sh *shared, b Bucket, limit int) Decision {
	ls := &sh.leases[b]
	for {
		now := l.clock.Now().UnixNano()
		if d, ok := ls.take(now, limit); ok {
			return d
		}
		if now < ls.fallbackUntil {
			return sh.takeFallback(b, now, l.slot, max(1, limit/c.members()))
		}
		if now < ls.refusedUntil {
			return Decision{Limit: limit, Reset: time.Duration(max(0, ls.reset-now))}
		}
		if ls.fetching != nil {
			wait := ls.fetching
			st.mu.Unlock()
			<-wait
			st.mu.Lock()
			continue
		}
		want, back := ls.next(limit)
		done := make(chan struct{})
		ls.fetching = done
		st.mu.Unlock()
		g, err := l.requestLease(c, subject, &LeaseRequest{Bucket: b, Limit: limit, Want: want, Return: back})
		st.mu.Lock()
		ls.fetching = nil
		close(done)
		if err != nil {
			ls.fallbackUntil = now + int64(fallbackFor)
			c.warn(l, subject, err)
			continue
		}
		ls.install(now, c.q, g)
	}
}

// requestLease asks the subject's owner for a lease.
func (l *Limiter) requestLease(c *clustered, subject string, req *LeaseRequest) (*LeaseGrant, error) {
	ctx, cancel := context.WithTimeout(context.Background(), c.opts.LeaseTimeout)
	defer cancel()
	res, err := l.reg.Request(ctx, subject, req)
	if err != nil {
		return nil, err
	}
	g, ok := res.(*LeaseGrant)
	if !ok {
		return nil, fmt.Errorf("limiter: the owner answered %T to a lease request", res)
	}
	return g, nil
}

// takeFallback counts one request against this member's share while the
// owner is unreachable.
func (sh *shared) takeFallback(b Bucket, now int64, slot time.Duration, share int) Decision {
	r := sh.fallback[b]
	if r == nil {
		r = new(ring)
		sh.fallback[b] = r
	}
	return r.take(now, slot, share)
}

func (c *clustered) members() int {
	if c.opts.Members == nil {
		return 1
	}
	return max(1, c.opts.Members())
}

func (c *clustered) warn(l *Limiter, subject string, err error) {
	now := time.Now().Unix()
	if last := c.warned.Load(); now > last && c.warned.CompareAndSwap(last, now) {
		l.log.Warn("limiter: a subject's owner did not answer; counting this member's share of its limit for a while",
			"subject", subject, "err", err)
	}
}

// grantLease is the owner's answer to another member's lease request: the
// unused tokens it gives back are uncounted, then a lease is counted.
func (a *limiterActor) grantLease(req *LeaseRequest) *LeaseGrant {
	q := ledgerSlot(a.l.window)
	if c := a.l.cluster; c != nil {
		q = c.q
	}
	now := a.l.clock.Now().UnixNano()
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	a.st.lastUsed = now
	lg := a.st.sharedLocked().ledger(req.Bucket)
	if req.Return.Tokens > 0 {
		lg.giveBack(now, q, req.Return.Slot, req.Return.Tokens)
	}
	g := lg.grant(now, q, min(req.Want, maxLease(req.Limit)), req.Limit)
	return (*LeaseGrant)(&g)
}
