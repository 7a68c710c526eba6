package kind_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/actors/kind/kindtest"
)

// tally is a cluster kind for the tests: an actor per identity that adds
// what it is told (answering its total) and counts its activations.
type (
	plus  struct{ n int }
	total struct{ n int }
)

type tallyActor struct {
	id     string
	n      int
	starts *sync.Map
}

func (a *tallyActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *kind.Activated:
		v, _ := a.starts.LoadOrStore(a.id, new(atomic.Int32))
		v.(*atomic.Int32).Add(1)
	case *plus:
		a.n += m.n
		if ctx.Sender() != nil {
			ctx.Respond(&total{n: a.n})
		}
	}
}

var tallyCodec = &kind.Codec[string]{
	Key:   func(id string) string { return id },
	Parse: func(key string) (string, error) { return key, nil },
	Encode: func(msg any) (kind.Message, error) {
		switch m := msg.(type) {
		case *plus:
			return kind.Message{Type: "plus", Data: strconv.AppendInt(nil, int64(m.n), 10)}, nil
		case *total:
			return kind.Message{Type: "total", Data: strconv.AppendInt(nil, int64(m.n), 10)}, nil
		}
		return kind.Message{}, fmt.Errorf("tally: %T", msg)
	},
	Decode: func(m kind.Message) (any, error) {
		n, err := strconv.Atoi(string(m.Data))
		if err != nil {
			return nil, err
		}
		switch m.Type {
		case "plus":
			return &plus{n: n}, nil
		case "total":
			return &total{n: n}, nil
		}
		return nil, fmt.Errorf("tally: %q", m.Type)
	},
}

type tallyMember struct {
	reg    *kind.Registry[string, struct{}]
	starts *sync.Map
}

// newTallies places a tally registry on each member of a fake network of n.
func newTallies(t *testing.T, n int) (*kindtest.Network, []*tallyMember) {
	t.Helper()
	net := kindtest.NewNetwork(n)
	out := make([]*tallyMember, n)
	for i := range n {
		system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
		t.Cleanup(system.Shutdown)
		tm := &tallyMember{starts: &sync.Map{}}
		tm.reg = kind.NewRegistry(system, kind.Kind[string, struct{}]{
			Name:      "tally",
			New:       func(id string, _ *struct{}) actor.Actor { return &tallyActor{id: id, starts: tm.starts} },
			Codec:     tallyCodec,
			Placement: net.Member(i),
		}, nil)
		t.Cleanup(tm.reg.Stop)
		net.Member(i).Host("tally", tm.reg)
		out[i] = tm
	}
	return net, out
}

func starts(tm *tallyMember, id string) int32 {
	v, ok := tm.starts.Load(id)
	if !ok {
		return 0
	}
	return v.(*atomic.Int32).Load()
}

// Requests from every member for one identity reach one actor, on its
// owner, concurrently; the owner's own requests do not cross the network.
func TestRequestsGoToTheOwner(t *testing.T) {
	net, tallies := newTallies(t, 3)
	ctx := context.Background()
	const ids, per = 30, 10
	var wg sync.WaitGroup
	errs := make(chan error, ids*per*3)
	for i := range ids {
		for _, tm := range tallies {
			wg.Go(func() {
				for range per {
					if _, err := tm.reg.Request(ctx, fmt.Sprintf("id-%d", i), &plus{n: 1}); err != nil {
						errs <- err
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	local := 0
	for i := range ids {
		id := fmt.Sprintf("id-%d", i)
		owner := net.Owner(id)
		for j, tm := range tallies {
			want := int32(0)
			if j == owner {
				want = 1
			}
			if got := starts(tm, id); got != want {
				t.Fatalf("%s: %d activations on member %d (owner %d)", id, got, j, owner)
			}
		}
		res, err := tallies[(owner+1)%3].reg.Request(ctx, id, &plus{})
		if err != nil || res.(*total).n != per*3 {
			t.Fatalf("%s: total %v, %v; want %d", id, res, err, per*3)
		}
		if !tallies[owner].reg.Owns(id) || tallies[(owner+1)%3].reg.Owns(id) {
			t.Fatalf("%s: Owns disagrees with the placement", id)
		}
		local += per
	}
	if calls := net.Calls(); calls != ids*per*2+ids {
		t.Fatalf("%d requests crossed the network, want %d (the owners' %d stay local)", calls, ids*per*2+ids, local)
	}
}

// A send to an identity another member owns arrives there; a request to a
// member that is down fails with ErrRemote; a member that no longer owns a
// live identity passivates it.
func TestSendFailureAndMove(t *testing.T) {
	net, tallies := newTallies(t, 2)
	ctx := context.Background()
	id := "moving"
	owner := net.Owner(id)
	other := tallies[1-owner]
	other.reg.Send(id, &plus{n: 5})
	deadline := time.Now().Add(5 * time.Second)
	for {
		res, err := other.reg.Request(ctx, id, &plus{})
		if err != nil {
			t.Fatal(err)
		}
		if res.(*total).n == 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the send never arrived")
		}
		time.Sleep(time.Millisecond)
	}
	net.SetDown(owner, true)
	_, err := other.reg.Request(ctx, id, &plus{n: 1})
	if !errors.Is(err, kind.ErrRemote) || !errors.Is(err, kindtest.ErrDown) {
		t.Fatalf("a request to a member that is down: %v", err)
	}
	net.SetDown(owner, false)
	if !tallies[owner].reg.IsLive(id) || tallies[owner].reg.PassivateMoved() != 0 {
		t.Fatal("the owner passivated an identity it owns")
	}
	net.Remove(owner)
	if n := tallies[owner].reg.PassivateMoved(); n != 1 || tallies[owner].reg.IsLive(id) {
		t.Fatalf("passivated %d after the identity moved", n)
	}
	res, err := tallies[owner].reg.Request(ctx, id, &plus{n: 1})
	if err != nil || res.(*total).n != 1 || starts(other, id) != 1 {
		t.Fatalf("after the move: %v %v, activations on the new owner %d", res, err, starts(other, id))
	}
}

// A kind without a codec cannot be placed.
func TestPlaceNeedsACodec(t *testing.T) {
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
	t.Cleanup(system.Shutdown)
	newTally := func(p kind.Placement) *kind.Registry[string, struct{}] {
		return kind.NewRegistry(system, kind.Kind[string, struct{}]{Name: "local", New: func(string, *struct{}) actor.Actor { return &tallyActor{} }, Placement: p}, nil)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("a kind without a codec was placed")
			}
		}()
		newTally(kindtest.NewNetwork(1).Member(0))
	}()
	r := newTally(nil)
	t.Cleanup(r.Stop)
	if !r.Owns("anything") {
		t.Fatal("an unplaced registry does not own its identities")
	}
}
