package limiter

import (
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/actors/kind/kindtest"
	"github.com/orderengine/orderengine/internal/clock"
)

// newClusterLimiters places a limiter on each member of a fake network of
// n, all on clk.
func newClusterLimiters(t *testing.T, n int, clk clock.Clock) (*kindtest.Network, []*Limiter) {
	t.Helper()
	net := kindtest.NewNetwork(n)
	out := make([]*Limiter, n)
	for i := range n {
		sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
		t.Cleanup(sys.Shutdown)
		l := New(sys, clk, nil, Options{Window: time.Minute, Idle: 10 * time.Minute, Cluster: &ClusterOptions{
			Placement: net.Member(i), Members: func() int { return n },
			NodeLocal: func(s string) bool { return s == "ip:local" }}})
		t.Cleanup(l.Stop)
		net.Member(i).Host(KindName, l)
		out[i] = l
	}
	return net, out
}

// Many goroutines on three members take one key's tokens at once: the
// cluster admits exactly the limit within the window, most requests are
// decided from leases without a round trip, and what is stranded in the
// leases at the end is at most one lease per member.
func TestLeasesUnderConcurrency(t *testing.T) {
	clk := clock.NewManual(t0)
	net, ls := newClusterLimiters(t, 3, clk)
	const limit, workers, each = 3200, 6, 300
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for _, l := range ls {
		for range workers {
			wg.Go(func() {
				for range each {
					if l.Take("key_hot", Read, limit).Allowed {
						admitted.Add(1)
					}
				}
			})
		}
	}
	wg.Wait()
	got := int(admitted.Load())
	if got > limit {
		t.Fatalf("admitted %d, limit %d", got, limit)
	}
	if stranded := limit - got; got < 3*workers*each && stranded > 2*maxLease(limit) {
		t.Fatalf("admitted %d of %d requests with limit %d: %d stranded, more than two non-owners' leases", got, 3*workers*each, limit, stranded)
	}
	t.Logf("admitted %d of %d requests, limit %d, %d lease requests", got, 3*workers*each, limit, net.Calls())
	if calls := net.Calls(); calls*5 > 3*workers*each {
		t.Fatalf("%d lease requests for %d requests: leases do not batch", calls, 3*workers*each)
	}
}

// The ledger gives back what an expired lease did not use, and a refused
// member asks again only after a while; address subjects stay per member.
func TestLeaseReturnAndRefusal(t *testing.T) {
	clk := clock.NewManual(t0)
	net, ls := newClusterLimiters(t, 2, clk)
	const key, limit = "key_r", 64
	owner := net.Owner(key)
	other := ls[1-owner]
	take := func(l *Limiter) Decision {
		t.Helper()
		d := l.Take(key, Order, limit)
		if !d.Allowed {
			t.Fatalf("refused under the limit: %+v", d)
		}
		return d
	}
	// A lease of one token, used; then one of two (twice what was used),
	// one of them left unused; then the owner's own request.
	take(other)
	take(other)
	if d := take(ls[owner]); d.Remaining != limit-4 {
		t.Fatalf("the owner counts %d, want 4 (one token unused in a lease)", limit-d.Remaining)
	}
	// The lease expires; the next request gives its unused token back and
	// takes a new lease of two, one of them used.
	clk.Advance(2 * time.Second)
	take(other)
	if d := take(ls[owner]); d.Remaining != limit-6 {
		t.Fatalf("the owner counts %d, want 6 once the unused token came back", limit-d.Remaining)
	}
	// The owner takes the rest; the other member uses its last token, is
	// then refused with a Retry-After, and asks the owner once for ten
	// refusals.
	for ls[owner].Take(key, Order, limit).Allowed {
	}
	take(other)
	before := net.Calls()
	for range 10 {
		if d := other.Take(key, Order, limit); d.Allowed || d.RetryAfterSeconds() < 1 {
			t.Fatalf("admitted over the limit: %+v", d)
		}
	}
	if calls := net.Calls() - before; calls != 1 {
		t.Fatalf("%d lease requests for ten refusals, want one", calls)
	}
	// Client addresses are counted on each member alone.
	before = net.Calls()
	for _, l := range ls {
		for range 3 {
			if !l.Take("ip:local", Read, 3).Allowed {
				t.Fatal("an address refused under its per-member limit")
			}
		}
	}
	if calls := net.Calls() - before; calls != 0 {
		t.Fatalf("address subjects crossed the network (%d calls)", calls)
	}
}

// While a key's owner is down, another member admits against its share
// of the limit for a while, then asks the owner again.
func TestOwnerDownFallsBackToAShare(t *testing.T) {
	clk := clock.NewManual(t0)
	net, ls := newClusterLimiters(t, 2, clk)
	const key, limit = "key_down", 10
	owner := net.Owner(key)
	other := ls[1-owner]
	net.SetDown(owner, true)
	admitted := 0
	for range 20 {
		if other.Take(key, Read, limit).Allowed {
			admitted++
		}
	}
	if admitted != limit/2 {
		t.Fatalf("admitted %d while the owner was down, want the member's share %d", admitted, limit/2)
	}
	net.SetDown(owner, false)
	clk.Advance(fallbackFor + time.Millisecond)
	if !other.Take(key, Read, limit).Allowed {
		t.Fatal("refused once the owner answers again")
	}
}

// The ledger's bound: grants in any window-long interval, counted with
// the lifetime of their leases, never exceed the limit; given-back tokens
// free capacity.
func TestLedger(t *testing.T) {
	q := ledgerSlot(time.Minute)
	if q != int64(500*time.Millisecond) {
		t.Fatalf("slot %d", q)
	}
	var lg ledger
	now := t0.UnixNano()
	g := lg.grant(now, q, 5, 8)
	if g.Granted != 5 || g.Remaining != 3 || g.Valid <= time.Duration(q) || g.Valid > time.Duration(2*q) {
		t.Fatalf("grant %+v", g)
	}
	if g2 := lg.grant(now, q, 5, 8); g2.Granted != 3 || g2.Remaining != 0 {
		t.Fatalf("second grant %+v", g2)
	}
	if g3 := lg.grant(now, q, 1, 8); g3.Granted != 0 || g3.Reset <= time.Minute {
		t.Fatalf("over the limit %+v", g3)
	}
	lg.giveBack(now+int64(time.Second), q, g.Slot, 2)
	if g4 := lg.grant(now+int64(time.Second), q, 5, 8); g4.Granted != 2 {
		t.Fatalf("after a give-back %+v", g4)
	}
	// The tokens leave only once the window plus a lease's life passed.
	later := now + int64(time.Minute)
	if g5 := lg.grant(later, q, 1, 8); g5.Granted != 0 {
		t.Fatalf("tokens left at the window's end, while leases may still be used: %+v", g5)
	}
	if g6 := lg.grant(later+2*q, q, 8, 8); g6.Granted != 6 {
		t.Fatalf("after the window and a lease's life, the first grants left, the given-back slot's not: %+v", g6)
	}
}

// scanReset is the ledger's reset found by scanning every counted slot:
// the reference for the ledger's own search, which resumes where it last
// stopped.
func scanReset(lg *ledger, now, q int64) time.Duration {
	if lg.total == 0 {
		return 0
	}
	for o := lg.head - ledgerSpan + 1; o <= lg.head; o++ {
		if o >= 0 && lg.slots[o%ledgerSpan] != 0 {
			return time.Duration((o+ledgerSpan)*q - now)
		}
	}
	return 0
}

// The reset a grant reports is the time until the oldest counted token
// leaves, whatever grants, give-backs and gaps came before.
func TestLedgerResetFollowsOldestToken(t *testing.T) {
	q := ledgerSlot(time.Minute)
	rng := rand.New(rand.NewPCG(1, 2))
	var lg ledger
	type held struct {
		slot int64
		n    int
	}
	var leases []held
	now := t0.UnixNano()
	for i := range 20000 {
		// Steps from a few milliseconds to whole windows, mostly short.
		switch r := rng.IntN(100); {
		case r < 80:
			now += rng.Int64N(2 * q)
		case r < 98:
			now += rng.Int64N(40 * q)
		default:
			now += rng.Int64N(3 * int64(time.Minute))
		}
		if len(leases) > 0 && rng.IntN(3) == 0 {
			k := rng.IntN(len(leases))
			lg.giveBack(now, q, leases[k].slot, rng.IntN(leases[k].n+1))
			leases = slices.Delete(leases, k, k+1)
		}
		g := lg.grant(now, q, 1+rng.IntN(4), 50)
		if g.Granted > 0 {
			leases = append(leases, held{g.Slot, g.Granted})
		}
		if want := scanReset(&lg, now, q); g.Reset != want {
			t.Fatalf("step %d: reset %v, a scan of the slots finds %v (total %d)", i, g.Reset, want, lg.total)
		}
	}
}
