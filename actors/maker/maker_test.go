package maker

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newMakers(t *testing.T, opts Options) (*Makers, *clock.Manual) {
	t.Helper()
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	t.Cleanup(sys.Shutdown)
	clk := clock.NewManual(t0)
	m := New(sys, clk, nil, opts)
	t.Cleanup(m.Stop)
	return m, clk
}

func rateLimited(t *testing.T, err error) int {
	t.Helper()
	var e *orderengine.Error
	if !errors.As(err, &e) || e.Code != orderengine.CodeMakerRateLimited {
		t.Fatalf("want MAKER_RATE_LIMITED, got %v", err)
	}
	return e.RetryAfterSeconds
}

// A maker is admitted Submits times per window, exactly (a sliding log),
// each maker on its own.
func TestSubmitsPerWindow(t *testing.T) {
	m, clk := newMakers(t, Options{Submits: 10, Window: 10 * time.Second, OpenOrders: 1000})
	maker := common.HexToAddress("0xAbC0000000000000000000000000000000000001")
	for i := range 10 {
		if err := m.Admit(context.Background(), maker); err != nil {
			t.Fatalf("submit %d: %v", i, err)
		}
		clk.Advance(100 * time.Millisecond)
	}
	if retry := rateLimited(t, m.Admit(context.Background(), maker)); retry != 9 {
		t.Fatalf("retry after %d s, want 9", retry)
	}
	if err := m.Admit(context.Background(), common.HexToAddress("0x02")); err != nil {
		t.Fatalf("other maker: %v", err)
	}
	clk.Advance(9 * time.Second) // the first submission is now 10 s old
	if err := m.Admit(context.Background(), maker); err != nil {
		t.Fatalf("after slide: %v", err)
	}
	rateLimited(t, m.Admit(context.Background(), maker))
}

// The open-order cap counts what the change feed says: an order opening
// counts, closing frees a place, a change between open statuses does not
// count twice.
func TestOpenOrdersCap(t *testing.T) {
	m, _ := newMakers(t, Options{Submits: 100, Window: time.Second, OpenOrders: 2})
	maker := common.Address{7}
	rec := func(s orderstore.Status) *orderstore.Record {
		return &orderstore.Record{Status: s, Order: orderOf(maker)}
	}
	m.Changed(0, rec(orderstore.StatusPending), nil)
	m.Changed(0, rec(orderstore.StatusPending), nil)
	m.Changed(orderstore.StatusPending, rec(orderstore.StatusActive), nil)
	if n := m.OpenOrders(maker); n != 2 {
		t.Fatalf("open %d, want 2", n)
	}
	if rateLimited(t, m.Admit(context.Background(), maker)) < 1 {
		t.Fatal("no Retry-After on the cap")
	}
	m.Changed(orderstore.StatusActive, rec(orderstore.StatusFilled), nil)
	if err := m.Admit(context.Background(), maker); err != nil {
		t.Fatalf("after a close: %v", err)
	}
}

// The binding is read from the store once, and a create that binds the
// maker is seen at once by the next read.
func TestBindingReadOnceAndUpdatedByTheFeed(t *testing.T) {
	reads := 0
	stored := map[common.Address]common.Address{{1}: {0xaa}}
	m, _ := newMakers(t, Options{Submits: 10, Window: time.Second, OpenOrders: 10,
		Bindings: func(a common.Address) (common.Address, bool, error) {
			reads++
			r, ok := stored[a]
			return r, ok, nil
		}})
	ctx := context.Background()
	for range 3 {
		if r, ok, err := m.BoundReferrer(ctx, common.Address{1}); err != nil || !ok || r != (common.Address{0xaa}) {
			t.Fatalf("bound: %v %v %v", r, ok, err)
		}
	}
	if reads != 1 {
		t.Fatalf("%d store reads, want 1", reads)
	}
	if _, ok, _ := m.BoundReferrer(ctx, common.Address{2}); ok {
		t.Fatal("an unbound wallet is bound")
	}
	ref := common.Address{0xbb}
	m.Changed(0, &orderstore.Record{Status: orderstore.StatusPending, Order: orderOf(common.Address{2})}, &ref)
	if r, ok, _ := m.BoundReferrer(ctx, common.Address{2}); !ok || r != ref {
		t.Fatalf("after the binding create: %v %v", r, ok)
	}
}

// A maker with open orders or a recent admission is never passivated; one
// with neither is, and its binding is read again afterwards.
func TestPassivationKeepsWhatCannotBeReloaded(t *testing.T) {
	m, clk := newMakers(t, Options{Submits: 5, Window: 10 * time.Second, OpenOrders: 10, Idle: time.Hour})
	open, recent, idle := common.Address{1}, common.Address{2}, common.Address{3}
	m.Changed(0, &orderstore.Record{Status: orderstore.StatusPending, Order: orderOf(open)}, nil)
	if err := m.Admit(context.Background(), recent); err != nil {
		t.Fatal(err)
	}
	m.OpenOrders(idle)
	for range 3 {
		m.Sweep()
	}
	if m.Live() != 2 {
		t.Fatalf("live %d, want the maker with an open order and the recent one", m.Live())
	}
	clk.Advance(11 * time.Second)
	for range 3 {
		m.Sweep()
	}
	if m.Live() != 1 || m.OpenOrders(open) != 1 {
		t.Fatalf("live %d, open %d: only the maker with an open order stays", m.Live(), m.OpenOrders(open))
	}
}

func orderOf(maker common.Address) chain.Order { return chain.Order{Maker: maker} }
