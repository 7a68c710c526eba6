package kind

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// counter is a test kind: it counts what it is told, answers what it has
// counted, records its activations and can be made to panic.
type counter struct {
	id      string
	n       int
	starts  *sync.Map // id → activations
	stopped *atomic.Int32
}

type (
	add   struct{ n int }
	get   struct{}
	crash struct{}
)

func (c *counter) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *Activated:
		v, _ := c.starts.LoadOrStore(c.id, new(atomic.Int32))
		v.(*atomic.Int32).Add(1)
	case *add:
		c.n += m.n
	case *get:
		ctx.Respond(c.n)
	case *crash:
		panic("crash")
	case *actor.Stopped:
		c.stopped.Add(1)
	}
}

type testState struct {
	mu   sync.Mutex
	uses int
}

func newCounters(t testing.TB, idle time.Duration) (*Registry[string, testState], *sync.Map, *atomic.Int32) {
	t.Helper()
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	t.Cleanup(system.Shutdown)
	starts, stopped := &sync.Map{}, &atomic.Int32{}
	r := NewRegistry(system, Kind[string, testState]{
		Name:  "counter",
		State: func(string) *testState { return &testState{} },
		New: func(id string, _ *testState) actor.Actor {
			return &counter{id: id, starts: starts, stopped: stopped}
		},
		Idle:  idle,
		Shard: func(id string) uint32 { return uint32(len(id)) },
	}, nil)
	t.Cleanup(r.Stop)
	return r, starts, stopped
}

func activations(starts *sync.Map, id string) int32 {
	v, ok := starts.Load(id)
	if !ok {
		return 0
	}
	return v.(*atomic.Int32).Load()
}

func ask(t testing.TB, r *Registry[string, testState], id string) int {
	t.Helper()
	res, err := r.Request(context.Background(), id, &get{})
	if err != nil {
		t.Fatal(err)
	}
	return res.(int)
}

// Each identity gets one actor, made on its first message and activated
// once; messages to it arrive in order.
func TestOneActorPerIdentity(t *testing.T) {
	r, starts, _ := newCounters(t, 0)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			id := []string{"a", "bb", "ccc"}[i%3]
			r.Send(id, &add{n: 1})
		})
	}
	wg.Wait()
	if got := ask(t, r, "a") + ask(t, r, "bb") + ask(t, r, "ccc"); got != 50 {
		t.Fatalf("counted %d of 50", got)
	}
	if r.Live() != 3 {
		t.Fatalf("live %d, want 3", r.Live())
	}
	for _, id := range []string{"a", "bb", "ccc"} {
		if n := activations(starts, id); n != 1 {
			t.Fatalf("%s activated %d times", id, n)
		}
	}
}

// An identity idle for idleEpochs sweeps passivates, never with a message
// or a Use on its way; the next message starts a new actor from scratch.
func TestSweepPassivatesIdleIdentities(t *testing.T) {
	r, starts, stopped := newCounters(t, time.Hour) // the test sweeps itself
	r.Send("a", &add{n: 5})
	if ask(t, r, "a") != 5 {
		t.Fatal("not counted")
	}
	for range idleEpochs - 1 {
		r.Sweep()
	}
	if r.Live() != 1 {
		t.Fatal("passivated before it was idle")
	}
	// A Use in progress keeps it.
	inUse, done := make(chan struct{}), make(chan struct{})
	var user sync.WaitGroup
	user.Go(func() { r.Use("a", func(*testState) { close(inUse); <-done }) })
	<-inUse
	for range 2 * idleEpochs {
		r.Sweep()
	}
	if r.Live() != 1 {
		t.Fatal("passivated during a Use")
	}
	close(done)
	user.Wait()
	for range idleEpochs {
		r.Sweep()
	}
	if r.Live() != 0 {
		t.Fatalf("idle identity not passivated: live %d", r.Live())
	}
	deadline := time.Now().Add(5 * time.Second)
	for stopped.Load() != 1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if stopped.Load() != 1 {
		t.Fatal("the passivated actor was not stopped")
	}
	if ask(t, r, "a") != 0 || activations(starts, "a") != 2 {
		t.Fatalf("after passivation: count %d, activations %d; want a fresh actor", ask(t, r, "a"), activations(starts, "a"))
	}
}

// Messages sent while the sweep runs are never lost: each reaches an
// actor that handles it, however often the identity passivates.
func TestNoMessageIsLostToTheSweep(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	var received sync.Map
	var generations atomic.Int32
	r := NewRegistry(system, Kind[string, struct{}]{Name: "recorder", New: func(string, *struct{}) actor.Actor {
		generations.Add(1)
		return actor.ReceiveFunc(func(ctx actor.Context) {
			if m, ok := ctx.Message().(*add); ok {
				received.Store(m.n, true)
			}
		})
	}, Idle: time.Hour}, nil)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				r.Sweep()
			}
		}
	})
	const n = 5000
	for i := range n {
		r.Send([]string{"x", "yy"}[i%2], &add{n: i})
		if i%50 == 0 {
			time.Sleep(50 * time.Microsecond) // let the identities go idle now and then
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	count := func() int {
		c := 0
		received.Range(func(any, any) bool { c++; return true })
		return c
	}
	for count() < n && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if c := count(); c != n {
		t.Fatalf("%d of %d messages handled (%d activations)", c, n, generations.Load())
	}
	if generations.Load() < 3 {
		t.Logf("only %d activations: the sweep rarely passivated", generations.Load())
	}
}

// Use shares the identity's state with callers; the state lives as long
// as the identity.
func TestUseSharesTheState(t *testing.T) {
	r, _, _ := newCounters(t, time.Hour)
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			r.Use("k", func(st *testState) {
				st.mu.Lock()
				st.uses++
				st.mu.Unlock()
			})
		})
	}
	wg.Wait()
	var uses int
	r.Use("k", func(st *testState) { uses = st.uses })
	if uses != 100 {
		t.Fatalf("uses %d, want 100", uses)
	}
	for range idleEpochs {
		r.Sweep()
	}
	r.Use("k", func(st *testState) { uses = st.uses })
	if uses != 0 {
		t.Fatalf("a passivated identity kept its state: %d", uses)
	}
}

// A claimed identity has no actor; messages wait for the claim's release
// and then start the actor.
func TestClaimHoldsMessages(t *testing.T) {
	r, starts, _ := newCounters(t, 0)
	release := r.Claim("c")
	if release == nil || r.Claim("c") != nil {
		t.Fatal("claim not exclusive")
	}
	if r.Live() != 0 {
		t.Fatal("a claim counted as an actor")
	}
	got := make(chan int, 1)
	go func() { got <- ask(t, r, "c") }()
	select {
	case <-got:
		t.Fatal("a request went through a claim")
	case <-time.After(20 * time.Millisecond):
	}
	release()
	if <-got != 0 || activations(starts, "c") != 1 || r.Live() != 1 {
		t.Fatal("the request after the claim did not start the actor")
	}
	if r.Claim("c") != nil {
		t.Fatal("a live identity was claimable")
	}
}

// An actor that panics leaves the registry; the next message starts a new
// one.
func TestFailedActorRestartsOnTheNextMessage(t *testing.T) {
	r, starts, _ := newCounters(t, 0)
	r.Send("p", &add{n: 3})
	if ask(t, r, "p") != 3 {
		t.Fatal("not counted")
	}
	r.Send("p", &crash{})
	deadline := time.Now().Add(5 * time.Second)
	for r.IsLive("p") && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if r.IsLive("p") {
		t.Fatal("the failed actor is still registered")
	}
	if ask(t, r, "p") != 0 || activations(starts, "p") != 2 {
		t.Fatal("no fresh actor after the failure")
	}
}

// Passivate stops an identity at once unless something is on its way;
// StopAll stops every actor; Each lists the live identities.
func TestPassivateEachStopAll(t *testing.T) {
	r, _, stopped := newCounters(t, 0)
	for _, id := range []string{"a", "b", "c"} {
		r.Send(id, &add{n: 1})
		ask(t, r, id)
	}
	var ids []string
	r.Each(func(id string) { ids = append(ids, id) })
	if len(ids) != 3 {
		t.Fatalf("each: %v", ids)
	}
	// The answer reaches the caller a moment before the host counts its
	// message handled; until then Passivate declines (a message in
	// flight), so it is retried for that moment.
	passivated := r.Passivate("a")
	for deadline := time.Now().Add(5 * time.Second); !passivated && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
		passivated = r.Passivate("a")
	}
	if !passivated || r.Passivate("a") || r.Live() != 2 {
		t.Fatal("passivate")
	}
	r.StopAll()
	if r.Live() != 0 || stopped.Load() != 3 {
		t.Fatalf("after StopAll: live %d, stopped %d", r.Live(), stopped.Load())
	}
}

// A request whose context ends first fails with the deadline.
func TestRequestHonoursTheContext(t *testing.T) {
	system := actor.NewActorSystem()
	defer system.Shutdown()
	r := NewRegistry(system, Kind[int, struct{}]{Name: "silent", New: func(int, *struct{}) actor.Actor {
		return actor.ReceiveFunc(func(actor.Context) {})
	}}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := r.Request(ctx, 1, &get{}); err == nil {
		t.Fatal("an unanswered request succeeded")
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("the request ignored the context's deadline")
	}
}

// Keep stops the sweep from passivating an identity whose state must
// stay; once Keep lets go, the identity passivates like any other.
func TestKeepHoldsAnIdleIdentity(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	r := NewRegistry(system, Kind[string, testState]{
		Name:  "kept",
		State: func(string) *testState { return &testState{} },
		New:   func(string, *testState) actor.Actor { return actor.ReceiveFunc(func(actor.Context) {}) },
		Idle:  time.Hour,
		Keep:  func(st *testState) bool { return st.uses > 0 },
	}, nil)
	r.Use("k", func(st *testState) { st.uses = 1 })
	for range 2 * idleEpochs {
		r.Sweep()
	}
	if !r.IsLive("k") {
		t.Fatal("an identity Keep holds was passivated")
	}
	r.Use("k", func(st *testState) { st.uses = 0 })
	for range idleEpochs {
		r.Sweep()
	}
	if r.IsLive("k") {
		t.Fatal("the identity stayed once Keep let go")
	}
}

// A sweep that empties a shard past its rebuild threshold passivates
// every idle identity (the shard's map is replaced while the sweep walks
// it) and leaves the map at its present size.
func TestSweepThroughARebuild(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	r := NewRegistry(system, Kind[int, struct{}]{Name: "many", Idle: time.Hour,
		New: func(int, *struct{}) actor.Actor { return actor.ReceiveFunc(func(actor.Context) {}) }}, nil)
	for i := range 3000 {
		r.Use(i, func(*struct{}) {}) // one shard: Kind.Shard is nil
	}
	if sh := &r.shards[0]; sh.peak != 3000 {
		t.Fatalf("peak %d", sh.peak)
	}
	for range idleEpochs {
		r.Sweep()
	}
	if sh := &r.shards[0]; r.Live() != 0 || sh.peak >= 1024 {
		t.Fatalf("after the sweep: live %d, peak %d", r.Live(), sh.peak)
	}
}
