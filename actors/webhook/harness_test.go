package webhook_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/config"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// harness is a manager over a real Pebble store in a temp dir, a real actor
// system and a manual clock.
type harness struct {
	t      *testing.T
	dir    string
	cfg    config.WebhooksConfig
	dev    bool
	res    webhook.Resolver
	clock  *clock.Manual
	store  *persistence.Store
	outbox *persistence.Outbox
	system *actor.ActorSystem
	m      *webhook.Manager
}

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func newHarness(t *testing.T, edit func(*harness)) *harness {
	t.Helper()
	h := &harness{t: t, dir: t.TempDir(), cfg: config.Default().Webhooks, dev: true, clock: clock.NewManual(t0)}
	h.cfg.JitterPpm = 0
	if edit != nil {
		edit(h)
	}
	h.open()
	t.Cleanup(h.close)
	return h
}

func (h *harness) open() {
	h.t.Helper()
	s, err := persistence.Open(h.dir, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	h.store = s
	h.outbox = persistence.NewOutbox(s, nil, h.clock.Now)
	quiet := slog.New(slog.DiscardHandler)
	h.system = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	h.m, err = webhook.New(webhook.Options{
		Config: h.cfg, Dev: h.dev, DataDir: h.dir, Store: s, Outbox: h.outbox,
		System: h.system, Clock: h.clock, Resolver: h.res,
	})
	if err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) close() {
	if h.m == nil {
		return
	}
	h.m.Close()
	h.system.Shutdown()
	if err := h.store.Close(); err != nil {
		h.t.Error(err)
	}
	h.m = nil
}

// restart closes everything and reopens on the same directory.
func (h *harness) restart() {
	h.close()
	h.open()
}

// emit writes one event the way a producer does: with an order's
// transition, through the order journal. Each call's event is about a new
// order.
func (h *harness) emit(account, trigger string) {
	h.t.Helper()
	emitEvents(h.t, h.outbox, h.store, account, persistence.OutboxEvent{Trigger: trigger, Data: persistence.EventData{
		OrderType: "limit", AmountIn: "1000", AmountOut: "990",
	}})
}

// emitted numbers the orders emitEvents creates, so each is new.
var emitted atomic.Uint64

// emitEvents appends a new order of account carrying events to the order
// journal over store and ob (an event exists only with its transition); an
// event that names no order is about the new one.
func emitEvents(t *testing.T, ob *persistence.Outbox, store *persistence.Store, account string, events ...persistence.OutboxEvent) {
	t.Helper()
	var h common.Hash
	binary.BigEndian.PutUint64(h[24:], emitted.Add(1))
	now := time.Unix(1_800_000_000, 0).UTC()
	rec := &orderstore.Record{Hash: h, Version: 1, Class: chain.ClassLimit, Status: orderstore.StatusPending,
		AccountID: account, CreatedAt: now, UpdatedAt: now}
	for i := range events {
		if events[i].Data.OrderHash == "" && events[i].Trigger != persistence.TriggerTestPing {
			events[i].Data.OrderHash = h.Hex() // the events are about this order
		}
	}
	if err := orderstore.New(store, ob).AppendOrder(context.Background(), &orderstore.Transition{Record: rec, Events: events}); err != nil {
		t.Fatal(err)
	}
}

// advance moves the manual clock and wakes the endpoint actors.
func (h *harness) advance(d time.Duration) {
	h.clock.Advance(d)
	h.m.Wake()
}

// eventually waits for cond with a deadline (no fixed sleeps: it polls).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// received is one request a receiver got.
type received struct {
	Header http.Header
	Body   []byte
	At     time.Time
}

// receiver is a real HTTP server on loopback whose answer the test controls.
type receiver struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []received
	// status answers each request (default 200); it may block.
	status func(r *http.Request, n int) (int, http.Header)
}

func newReceiver(t *testing.T, status func(r *http.Request, n int) (int, http.Header)) *receiver {
	rc := &receiver{status: status}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, received{Header: r.Header.Clone(), Body: body, At: time.Now()})
		n := len(rc.got)
		rc.mu.Unlock()
		code := 200
		if rc.status != nil {
			var hdr http.Header
			code, hdr = rc.status(r, n)
			for k, v := range hdr {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(code)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) count() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.got)
}

func (rc *receiver) all() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// create registers url for account and fails the test on error.
func (h *harness) create(account, url string, events ...string) *webhook.CreatedView {
	h.t.Helper()
	v, err := h.m.Create(h.t.Context(), account, url, events)
	if err != nil {
		h.t.Fatalf("create %s: %v", url, err)
	}
	return v
}

func decode[T any](t *testing.T, data []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	return v
}
