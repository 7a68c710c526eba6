package members_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/cluster/members"
)

// sampler checks, every millisecond until stopped, that no shard has two
// owners: at no moment do two members both count themselves the owner of
// one identity, whatever happens to the members meanwhile.
type sampler struct {
	c       *testCluster
	keys    []string
	stop    chan struct{}
	done    chan struct{}
	mu      sync.Mutex
	doubles []string
	samples int
}

func startSampler(c *testCluster, keys []string) *sampler {
	s := &sampler{c: c, keys: keys, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for {
			select {
			case <-s.stop:
				return
			case <-time.After(time.Millisecond):
			}
			owners := s.c.owners(s.keys)
			s.mu.Lock()
			s.samples++
			for k, o := range owners {
				if len(o) > 1 {
					s.doubles = append(s.doubles, fmt.Sprintf("%s owned by %v at %s", k, o, time.Now().Format("15:04:05.000")))
				}
			}
			s.mu.Unlock()
		}
	}()
	return s
}

// check stops the sampler and fails the test on any double owner.
func (s *sampler) check(t *testing.T) {
	t.Helper()
	close(s.stop)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.doubles) > 0 {
		t.Fatalf("%d samples of %d found two owners, first: %s", len(s.doubles), s.samples, s.doubles[0])
	}
	if s.samples < 100 {
		t.Fatalf("only %d samples", s.samples)
	}
}

// allOwned waits until every key has exactly one owner among the nodes
// still running, and returns how long that took.
func (c *testCluster) allOwned(t *testing.T, keys []string, timeout time.Duration) time.Duration {
	t.Helper()
	return waitFor(t, timeout, "every shard owned once", func() bool {
		o := c.owners(keys)
		for _, k := range keys {
			if len(o[k]) != 1 {
				return false
			}
		}
		return true
	})
}

// TestShardsHaveOneOwner: every shard is owned by one member, spread over
// the members; when a member crashes (its process gone without releasing
// anything) its shards are taken over by the others once its terms end,
// within the TTL plus the grace of the loop; and at no sampled moment,
// before, during or after, do two members own one shard.
func TestShardsHaveOneOwner(t *testing.T) {
	c := newCluster(t, 3)
	keys := shardKeys(c.nodes[0].member)
	c.allOwned(t, keys, 10*time.Second)
	waitFor(t, 10*time.Second, "the shards spread over the members", func() bool {
		per := map[string]int{}
		for _, o := range c.owners(keys) {
			per[o[0]]++
		}
		return len(per) == 3
	})
	s := startSampler(c, keys)
	time.Sleep(500 * time.Millisecond)
	victim := c.nodes[0]
	var victims []string
	for k, o := range c.owners(keys) {
		if o[0] == victim.name {
			victims = append(victims, k)
		}
	}
	crashed := time.Now()
	c.crash(victim)
	took := c.allOwned(t, keys, testTTL+5*time.Second)
	s.check(t)
	t.Logf("%d shards of the crashed member owned again %v after the crash (TTL %v)", len(victims), time.Since(crashed).Round(time.Millisecond), testTTL)
	if took < testTTL/2 {
		t.Fatalf("the crashed member's shards moved after %v, before its terms could end (TTL %v)", took, testTTL)
	}
	// Its member term ends on its own schedule (the member lease is
	// renewed apart from the shards', up to a fifth of the TTL later), and
	// a survivor's view follows at its next current read.
	for _, nd := range c.nodes[1:] {
		waitFor(t, testTTL/2, nd.name+" dropping the crashed member", func() bool { return len(nd.member.Members()) == 2 })
	}
}

// TestCallsReachTheHolder: a call from any member reaches the member that
// holds the identity's shard, which serves it once; the answer names the
// holder.
func TestCallsReachTheHolder(t *testing.T) {
	c := newCluster(t, 3)
	keys := shardKeys(c.nodes[0].member)
	c.allOwned(t, keys, 10*time.Second)
	for _, from := range c.nodes {
		for _, k := range keys {
			owner := c.owners([]string{k})[k][0]
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			res, err := from.member.Call(ctx, "counter", k, kind.Message{Type: "count"})
			cancel()
			if err != nil {
				t.Fatalf("%s calls %s: %v", from.name, k, err)
			}
			if string(res.Data) != owner {
				t.Fatalf("%s's call for %s was served by %s, the owner is %s", from.name, k, res.Data, owner)
			}
		}
	}
	for _, k := range keys {
		total := int64(0)
		for _, nd := range c.nodes {
			if v, ok := nd.served.Load(k); ok {
				total += v.(interface{ Load() int64 }).Load()
			}
		}
		if total != int64(len(c.nodes)) {
			t.Fatalf("%s served %d times, want %d (one call from each member)", k, total, len(c.nodes))
		}
	}
}

// TestMemberRejoins: a member unfit for duties for a whole TTL gives up
// its shards and its membership (the others take its shards); fit again,
// it rejoins by itself, under the same name, and takes back the shards
// that prefer it. No shard has two owners meanwhile.
func TestMemberRejoins(t *testing.T) {
	c := newCluster(t, 3)
	keys := shardKeys(c.nodes[0].member)
	c.allOwned(t, keys, 10*time.Second)
	s := startSampler(c, keys)
	nd := c.nodes[1]
	nd.fit.Store(false)
	waitFor(t, testTTL+5*time.Second, nd.name+" giving up its membership", func() bool { return !nd.member.Joined() })
	waitFor(t, 5*time.Second, "the others not counting "+nd.name, func() bool {
		return !slices.Contains(c.nodes[0].member.Members(), nd.name) && !slices.Contains(c.nodes[2].member.Members(), nd.name)
	})
	c.allOwned(t, keys, 10*time.Second)
	for k, o := range c.owners(keys) {
		if o[0] == nd.name {
			t.Fatalf("%s still owns %s while unfit", nd.name, k)
		}
	}
	nd.fit.Store(true)
	healed := time.Now()
	waitFor(t, 10*time.Second, "every member counting three members", func() bool {
		for _, x := range c.nodes {
			if len(x.member.Members()) != 3 {
				return false
			}
		}
		return true
	})
	converged := time.Since(healed)
	waitFor(t, 10*time.Second, nd.name+" holding shards again", func() bool { return nd.member.HeldShards() > 0 })
	c.allOwned(t, keys, 10*time.Second)
	s.check(t)
	t.Logf("membership converged %v after %s was fit again", converged.Round(time.Millisecond), nd.name)
}

// TestCallGivesUpWithoutHolder: a call for a shard whose holder crashed
// gives up within about noHolderWait (ErrUnreachable), not at its
// deadline, so that the caller falls back; further calls to that shard
// give up at once for a moment; once the shard is taken over, calls are
// served by its new holder.
func TestCallGivesUpWithoutHolder(t *testing.T) {
	c := newCluster(t, 3)
	keys := shardKeys(c.nodes[0].member)
	c.allOwned(t, keys, 10*time.Second)
	victim := c.nodes[2]
	var key string
	// The shards that prefer it reach it once it has been a member for a
	// moment (a node that joined last may find them held by the others).
	waitFor(t, 10*time.Second, victim.name+" holding a shard", func() bool {
		for k, o := range c.owners(keys) {
			if len(o) == 1 && o[0] == victim.name {
				key = k
			}
		}
		return key != ""
	})
	c.crash(victim)
	from := c.nodes[0]
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	_, err := from.member.Call(ctx, "counter", key, kind.Message{Type: "count"})
	if !errors.Is(err, members.ErrUnreachable) || time.Since(start) > 3*time.Second {
		t.Fatalf("a call to the crashed holder's shard: %v after %v, want ErrUnreachable within 3 s", err, time.Since(start))
	}
	start = time.Now()
	if _, err := from.member.Call(ctx, "counter", key, kind.Message{Type: "count"}); !errors.Is(err, members.ErrUnreachable) ||
		time.Since(start) > 100*time.Millisecond {
		t.Fatalf("the next call: %v after %v, want ErrUnreachable at once", err, time.Since(start))
	}
	c.allOwned(t, keys, testTTL+5*time.Second)
	owner := c.owners([]string{key})[key][0]
	waitFor(t, 5*time.Second, "a call served by the new holder", func() bool {
		res, err := from.member.Call(ctx, "counter", key, kind.Message{Type: "count"})
		return err == nil && string(res.Data) == owner
	})
}
