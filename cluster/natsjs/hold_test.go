package natsjs

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// holdLoop is one node's Hold running in the background.
type holdLoop struct {
	lease   *Lease
	cancel  context.CancelFunc
	done    chan struct{}
	mu      sync.Mutex
	changes []bool
	since   time.Time // when Changed(true) came last
}

func startHold(n *Node, name, holder string, ttl time.Duration) *holdLoop {
	return startHoldMay(n, name, holder, ttl, nil)
}

func startHoldMay(n *Node, name, holder string, ttl time.Duration, may func() bool) *holdLoop {
	ctx, cancel := context.WithCancel(context.Background())
	h := &holdLoop{lease: n.Lease(name, holder, ttl), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(h.done)
		h.lease.Hold(ctx, HoldOptions{May: may, Changed: func(held bool) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.changes = append(h.changes, held)
			if held {
				h.since = time.Now()
			}
		}})
	}()
	return h
}

// stop ends the loop; release says whether it then releases the lease (a
// graceful stop) or leaves its term to expire (a killed holder).
func (h *holdLoop) stop(t *testing.T, release bool) {
	h.cancel()
	<-h.done
	if release {
		if err := h.lease.Release(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

func (h *holdLoop) history() []bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]bool(nil), h.changes...)
}

// TestHold: among nodes running Hold, at most one holds the lease at any
// moment; a holder stopped gracefully (Release) is replaced at the next
// tick, a killed one (its term left to expire) once its term ended; the
// loops report every change. The takeover times are logged, not asserted.
func TestHold(t *testing.T) {
	nodes := sharedCluster(t)
	const ttl = time.Second
	const name = "hold-test"
	// A holder that dies without releasing: its term is live when the
	// loops start.
	ghost := nodes[0].node.Lease(name, "ghost", ttl)
	if ok, err := ghost.Acquire(context.Background()); !ok || err != nil {
		t.Fatalf("ghost acquire: %v %v", ok, err)
	}
	ghostUntil := time.Now().Add(ttl)
	loops := []*holdLoop{
		startHold(nodes[1].node, name, "n1", ttl),
		startHold(nodes[2].node, name, "n2", ttl),
	}
	// Watch for two holders at once for as long as the test runs.
	var overlap atomic.Int32
	var loopsMu sync.Mutex
	watchCtx, stopWatch := context.WithCancel(context.Background())
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for watchCtx.Err() == nil {
			n := 0
			loopsMu.Lock()
			for _, l := range loops {
				if l.lease.Held() {
					n++
				}
			}
			loopsMu.Unlock()
			if ghost.Held() {
				n++
			}
			if n > 1 {
				overlap.Add(1)
			}
			time.Sleep(time.Millisecond)
		}
	}()
	holder := func() *holdLoop {
		for _, l := range loops {
			if l.lease.Held() {
				return l
			}
		}
		return nil
	}
	waitFor(t, "a loop to take the ghost's lease", func() bool { return holder() != nil })
	first := holder()
	if time.Now().Before(ghostUntil) {
		t.Fatalf("a loop took the lease before the ghost's term ended")
	}
	first.mu.Lock()
	t.Logf("killed holder: taken %v after its last renewal (TTL %v)", first.since.Sub(ghostUntil.Add(-ttl)).Round(time.Millisecond), ttl)
	first.mu.Unlock()
	// The holder keeps the lease across several TTLs (it renews).
	time.Sleep(2 * ttl)
	if holder() != first {
		t.Fatalf("the holder did not keep the lease")
	}
	stopAt := time.Now()
	first.stop(t, true)
	var second *holdLoop
	for _, l := range loops {
		if l != first {
			second = l
		}
	}
	waitFor(t, "the standby to take the released lease", second.lease.Held)
	t.Logf("graceful release: taken %v after the holder stopped", time.Since(stopAt).Round(time.Millisecond))
	// Killed without a release: the other loop takes over after the TTL.
	restarted := startHold(nodes[1].node, name, "n1b", ttl)
	loopsMu.Lock()
	loops = append(loops, restarted)
	loopsMu.Unlock()
	time.Sleep(ttl)
	if restarted.lease.Held() {
		t.Fatal("a second loop took a live term")
	}
	killAt := time.Now()
	second.stop(t, false)
	waitFor(t, "the standby to take the expired lease", restarted.lease.Held)
	t.Logf("killed holder: taken %v after it stopped (TTL %v)", time.Since(killAt).Round(time.Millisecond), ttl)
	restarted.stop(t, true)
	stopWatch()
	<-watched
	if n := overlap.Load(); n > 0 {
		t.Fatalf("two holders at once in %d samples", n)
	}
	for i, l := range loops {
		if got := l.history(); len(got) != 2 || !got[0] || got[1] {
			t.Fatalf("loop %d reported %v, want [true false]", i, got)
		}
	}
}

// TestHoldStepsDown: a holder whose May reports false for a whole TTL (its
// chain node stopped answering) releases the lease and does not take it
// again while unfit; a fit standby takes over.
func TestHoldStepsDown(t *testing.T) {
	nodes := sharedCluster(t)
	const ttl = time.Second
	var fit [2]atomic.Bool
	fit[0].Store(true)
	a := startHoldMay(nodes[0].node, "stepdown-test", "a", ttl, fit[0].Load)
	defer a.stop(t, true)
	waitFor(t, "a to hold the lease", a.lease.Held)
	b := startHoldMay(nodes[1].node, "stepdown-test", "b", ttl, fit[1].Load)
	defer b.stop(t, true)
	fit[1].Store(true)
	time.Sleep(ttl)
	if b.lease.Held() || !a.lease.Held() {
		t.Fatal("the lease changed hands while its holder was fit")
	}
	unfitAt := time.Now()
	fit[0].Store(false)
	waitFor(t, "b to take the lease", b.lease.Held)
	if a.lease.Held() {
		t.Fatal("both hold the lease")
	}
	t.Logf("an unfit holder replaced %v after it became unfit (TTL %v)", time.Since(unfitAt).Round(time.Millisecond), ttl)
	if got := a.history(); len(got) != 2 || !got[0] || got[1] {
		t.Fatalf("a reported %v, want [true false]", got)
	}
}
