//go:build !race

package members_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/orderengine/orderengine/actors/kind"
)

// Every identity has one activation in the cluster, on the member that
// owns it, whichever member its requests enter by; the members agree on
// the owner, and the identities spread over all three.
func TestPlacementByIdentity(t *testing.T) {
	c := newCluster(t, 3, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const ids, rounds = 60, 3
	var wg sync.WaitGroup
	errs := make(chan error, ids*rounds*3)
	for r := range rounds {
		for i := range ids {
			for j, nd := range c.nodes {
				wg.Go(func() {
					if _, err := add(ctx, nd, fmt.Sprintf("id-%d", i), 1); err != nil {
						errs <- fmt.Errorf("round %d via node %d: %w", r, j, err)
					}
				})
			}
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	perNode := make([]int, len(c.nodes))
	for i := range ids {
		id := fmt.Sprintf("id-%d", i)
		owner := c.nodes[0].member.Owner("counter", id)
		for _, nd := range c.nodes[1:] {
			if o := nd.member.Owner("counter", id); o != owner {
				t.Fatalf("%s: members disagree on the owner: %s and %s", id, owner, o)
			}
		}
		total := 0
		for j, nd := range c.nodes {
			a := activationsOf(nd, id)
			if nd.member.Address() == owner {
				perNode[j]++
				if a != 1 || !nd.counter.IsLive(id) {
					t.Fatalf("%s: %d activations on its owner %s (live %v), want 1", id, a, owner, nd.counter.IsLive(id))
				}
				n, err := add(ctx, nd, id, 0)
				if err != nil {
					t.Fatal(err)
				}
				total = n
			} else if a != 0 || nd.counter.IsLive(id) {
				t.Fatalf("%s: activated on %s, which does not own it", id, nd.member.Address())
			}
		}
		if total != rounds*len(c.nodes) {
			t.Fatalf("%s counted %d, want %d", id, total, rounds*len(c.nodes))
		}
	}
	for j, n := range perNode {
		if n == 0 {
			t.Fatalf("node %d owns none of %d identities: %v", j, ids, perNode)
		}
	}
}

// A member that leaves gracefully is dropped by the others at once: the
// identities it owned are served by the survivors, their callers see no
// error, and its own calls fail fast instead of waiting.
func TestGracefulLeave(t *testing.T) {
	c := newCluster(t, 3, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	leaver := c.nodes[2]
	var moved []string
	for i := range 40 {
		id := fmt.Sprintf("g-%d", i)
		if _, err := add(ctx, c.nodes[0], id, 1); err != nil {
			t.Fatal(err)
		}
		if leaver.member.Owner("counter", id) == leaver.member.Address() {
			moved = append(moved, id)
		}
	}
	if len(moved) == 0 {
		t.Fatal("the leaver owns none of the identities")
	}
	start := time.Now()
	if err := leaver.member.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("graceful leave took %s", time.Since(start))
	c.mu.Lock()
	c.nodes[2] = nil
	c.mu.Unlock()
	leaver.system.Shutdown()
	c.waitMembers(2)
	for _, id := range moved {
		// The leaver's count is gone with it: its identities start afresh
		// on their new owner (a kind with durable state reloads it).
		n, err := add(ctx, c.nodes[1], id, 1)
		if err != nil || n != 1 {
			t.Fatalf("%s after the leave: %d, %v", id, n, err)
		}
		owner := c.nodes[0].member.Owner("counter", id)
		if owner == leaver.member.Address() || (owner != c.nodes[0].member.Address() && owner != c.nodes[1].member.Address()) {
			t.Fatalf("%s owned by %s after the leave", id, owner)
		}
	}
	if _, err := leaver.member.Call(ctx, "counter", "g-0", kind.Message{Type: "total"}); err == nil {
		t.Fatal("a member that left still calls")
	}
}
