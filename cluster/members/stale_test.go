package members_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/orderengine/orderengine/cluster/members"
	"github.com/orderengine/orderengine/cluster/natsjs"
)

// A read of the lease terms answered by a replica that has not applied
// the member's last writes is not current: the last terms stand in for
// it, and it never counts as the member seeing itself.
func TestTrailingReadIsNotCurrent(t *testing.T) {
	c := newCluster(t, 1)
	nd := c.nodes[0]
	ctx := context.Background()
	own := "member-" + nd.name

	// Two renewals after the acquire, so that both writes the member
	// remembers come after the acquire's sequence.
	seen := map[uint64]bool{}
	waitFor(t, 10*time.Second, "two renewals of the member lease", func() bool {
		seen[termSeq(t, nd.js, own)] = true
		return len(seen) >= 3
	})
	if current, live := members.ReadView(ctx, nd.member); !current || !slices.Contains(live, nd.name) {
		t.Fatalf("a read of the node's own replica: current %v, members %v; want current, with %s", current, live, nd.name)
	}

	// A replica that holds the member's term as the acquire left it.
	members.SetTermsReader(nd.member, func(ctx context.Context, prefix string) (map[string]natsjs.Term, error) {
		terms, err := nd.js.Terms(ctx, prefix)
		if err != nil {
			return nil, err
		}
		tm := terms[own]
		tm.Seq = 1
		terms[own] = tm
		return terms, nil
	})
	current, live := members.ReadView(ctx, nd.member)
	if current {
		t.Fatal("a read that trails the member's own renewals counted as current")
	}
	if !slices.Contains(live, nd.name) {
		t.Fatalf("the last terms did not stand in for the trailing read: members %v", live)
	}

	members.SetTermsReader(nd.member, nil)
	if current, _ := members.ReadView(ctx, nd.member); !current {
		t.Fatal("a read of the node's own replica again is not current")
	}
}

// A member joins only once a read saw the term it took: reads that answer
// with an earlier term of its name (live, but before its acquire) keep it
// out, and the same member name joins at once on reads that are current.
func TestNoJoinOnReadsBeforeTheAcquire(t *testing.T) {
	c := newCluster(t, 1)
	nd := c.nodes[0]
	newMember := func(name string) *members.Member {
		return members.New(members.Config{Node: nd.js, Cluster: "members", Name: name, Shards: testShards, TTL: testTTL,
			Tick: testTick, Attempt: 300 * time.Millisecond, Log: testLog().With("node", name)})
	}

	late := newMember("late")
	members.SetTermsReader(late, func(ctx context.Context, prefix string) (map[string]natsjs.Term, error) {
		terms, err := nd.js.Terms(ctx, prefix)
		if err != nil {
			return nil, err
		}
		terms["member-late"] = natsjs.Term{Name: "member-late", Holder: "late", Seq: 1, Expires: time.Now().Add(time.Minute)}
		return terms, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	if err := late.Start(ctx); err == nil {
		late.Kill()
		t.Fatal("the member joined on reads that trail its own acquire")
	}

	again := newMember("late")
	ctx2, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel2()
	if err := again.Start(ctx2); err != nil {
		t.Fatalf("the member did not join on current reads: %v", err)
	}
	again.Kill()
}

// termSeq is the sequence of lease name's current term.
func termSeq(t *testing.T, js *natsjs.Node, name string) uint64 {
	t.Helper()
	terms, err := js.Terms(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return terms[name].Seq
}
