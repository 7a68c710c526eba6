//go:build !race

package members_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/cluster/members"
	"github.com/orderengine/orderengine/internal/testport"
)

// Members on separate ports find each other through the automanaged
// provider's health endpoints (the static peer list of cluster.actors.peers)
// and place identities as with any provider; a member whose endpoint stops
// answering is dropped by the others within a few refreshes.
func TestAutomanagedPeers(t *testing.T) {
	const n = 3
	peers := make([]string, n)
	for i := range peers {
		peers[i] = testport.Addr(t)
	}
	nodes := make([]*node, n)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quietLog() }))
		nd := &node{system: system, activations: &sync.Map{}}
		nd.counter = kind.NewRegistry(system, counterKind(nd.activations), nil)
		nd.member = members.New(members.Config{Name: "auto", Listen: "127.0.0.1:0", Log: quietLog(),
			Provider: members.Automanaged(peers[i], peers, 200*time.Millisecond), Attempt: 500 * time.Millisecond})
		nd.member.Host("counter", nd.counter, time.Minute)
		must(t, nd.counter.Place(nd.member))
		nodes[i] = nd
		wg.Go(func() { errs[i] = nd.member.Start(context.Background()) })
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, nd := range nodes {
			nd.member.Kill()
			nd.system.Shutdown()
		}
	})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	waitSee(t, nodes, n)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for i := range 30 {
		id := fmt.Sprintf("a-%d", i)
		for j, nd := range nodes {
			if got, err := add(ctx, nd, id, 1); err != nil || got != j+1 {
				t.Fatalf("%s via %d: %d, %v", id, j, got, err)
			}
		}
	}
	// The last member leaves; the others drop it.
	leaveCtx, cancelLeave := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancelLeave()
	if err := nodes[n-1].member.Leave(leaveCtx); err != nil {
		t.Fatal(err)
	}
	waitSee(t, nodes[:n-1], n-1)
	for i := range 30 {
		if _, err := add(ctx, nodes[0], fmt.Sprintf("a-%d", i), 1); err != nil {
			t.Fatal(err)
		}
	}
}

// waitSee waits until each of nodes sees n members.
func waitSee(t *testing.T, nodes []*node, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for _, nd := range nodes {
		for len(nd.member.Members()) != n {
			if time.Now().After(deadline) {
				t.Fatalf("%s sees %v, want %d members", nd.member.Address(), nd.member.Members(), n)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
