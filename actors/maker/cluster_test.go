package maker

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/kind/kindtest"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

func newClusterMakers(t *testing.T, n int, opts Options) (*kindtest.Network, []*Makers, *clock.Manual) {
	t.Helper()
	net := kindtest.NewNetwork(n)
	clk := clock.NewManual(t0)
	out := make([]*Makers, n)
	for i := range n {
		sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
		t.Cleanup(sys.Shutdown)
		o := opts
		o.Placement = net.Member(i)
		m := New(sys, clk, nil, o)
		t.Cleanup(m.Stop)
		net.Member(i).Host(KindName, m)
		out[i] = m
	}
	return net, out, clk
}

// Submissions of one maker through three members at once are admitted
// exactly Submits times in a window, by the maker's owner; a refusal keeps
// its code and Retry-After across the members.
func TestAdmissionsAcrossMembers(t *testing.T) {
	net, ms, _ := newClusterMakers(t, 3, Options{Submits: 25, Window: 10 * time.Second, OpenOrders: 1000})
	maker := common.HexToAddress("0xAbC0000000000000000000000000000000000009")
	ctx := context.Background()
	var admitted atomic.Int32
	var wg sync.WaitGroup
	refusals := make(chan error, 120)
	for _, m := range ms {
		for range 4 {
			wg.Go(func() {
				for range 10 {
					if err := m.Admit(ctx, maker); err == nil {
						admitted.Add(1)
					} else {
						refusals <- err
					}
				}
			})
		}
	}
	wg.Wait()
	close(refusals)
	for err := range refusals {
		if rateLimited(t, err) < 1 {
			t.Fatal("a refusal without Retry-After")
		}
	}
	if admitted.Load() != 25 {
		t.Fatalf("admitted %d of 120 submissions, want the window's 25", admitted.Load())
	}
	if net.Calls() == 0 {
		t.Fatal("no admission crossed the network")
	}
}

// The open-order cap holds through any member (every member's feed counts
// every order); while the owner is down a member admits on its own state.
func TestOpenCapAndOwnerDown(t *testing.T) {
	net, ms, _ := newClusterMakers(t, 2, Options{Submits: 100, Window: 10 * time.Second, OpenOrders: 2})
	maker := common.Address{0x42}
	ctx := context.Background()
	for range 2 {
		for _, m := range ms {
			m.Changed(0, &orderstore.Record{Status: orderstore.StatusPending, Order: orderOf(maker)}, nil)
		}
	}
	for _, m := range ms {
		rateLimited(t, m.Admit(ctx, maker))
	}
	owner := net.Owner(codec.Key(maker))
	net.SetDown(owner, true)
	other := ms[1-owner]
	rateLimited(t, other.Admit(ctx, maker)) // the cap, from this member's own count
	other.Changed(orderstore.StatusPending, &orderstore.Record{Status: orderstore.StatusFilled, Order: orderOf(maker)}, nil)
	if err := other.Admit(ctx, maker); err != nil {
		t.Fatalf("with the owner down and room under the cap: %v", err)
	}
}
