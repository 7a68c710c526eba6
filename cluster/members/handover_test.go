package members_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orderengine/orderengine/cluster/members"
	"github.com/orderengine/orderengine/cluster/natsjs"
)

// A member that hands a shard over to its preferred member does not take
// it back before that member had its turn: the shard is free from the
// handover on, and the old holder waits the grace a free shard gets like
// any member that does not prefer it. The member it was handed to reads
// the terms a few ticks late here (as a busy node does), which is less
// than the grace.
func TestHandedOverShardIsNotTakenBack(t *testing.T) {
	c := newCluster(t, 2)
	keys := shardKeys(c.nodes[0].member)
	c.allOwned(t, keys, 10*time.Second)
	a, b := c.nodes[0], c.nodes[1]
	b.fit.Store(false)
	waitFor(t, testTTL+5*time.Second, a.name+" holding every shard", func() bool { return a.member.HeldShards() == testShards })

	// Until blindUntil (unix ns; 0: not set yet), b reads every free
	// shard as held by a.
	var blindUntil atomic.Int64
	members.SetTermsReader(b.member, func(ctx context.Context, prefix string) (map[string]natsjs.Term, error) {
		terms, err := b.js.Terms(ctx, prefix)
		if err != nil {
			return nil, err
		}
		now := time.Now()
		if u := blindUntil.Load(); u == 0 || now.UnixNano() < u {
			for i := range testShards {
				name := fmt.Sprintf("shard-%d", i)
				if !terms[name].Live(now) {
					terms[name] = natsjs.Term{Name: name, Holder: a.name + "/earlier", Seq: 1, Expires: now.Add(time.Minute)}
				}
			}
		}
		return terms, nil
	})
	rec := recordOwners(c, keys)
	b.fit.Store(true)
	waitFor(t, 10*time.Second, a.name+" handing a shard over", func() bool { return a.member.HeldShards() < testShards })
	blindUntil.Store(time.Now().Add(3 * testTick).UnixNano())
	waitFor(t, 10*time.Second, b.name+" holding shards", func() bool { return b.member.HeldShards() > 0 })
	c.allOwned(t, keys, 10*time.Second)
	time.Sleep(10 * testTick)
	for k, owners := range rec.stop() {
		gone := false
		for _, o := range owners {
			switch {
			case o != a.name:
				gone = gone || strings.Contains(owners[0], a.name)
			case gone:
				t.Fatalf("%s took the shard of %s back after handing it over: owners %v", a.name, k, owners)
			}
		}
	}
}

// ownerRecorder samples every millisecond, for each key, who owns it, and
// keeps each change: "" for no owner, names joined by "+" for several.
type ownerRecorder struct {
	stopc chan struct{}
	done  chan struct{}
	mu    sync.Mutex
	seq   map[string][]string
}

func recordOwners(c *testCluster, keys []string) *ownerRecorder {
	r := &ownerRecorder{stopc: make(chan struct{}), done: make(chan struct{}), seq: map[string][]string{}}
	go func() {
		defer close(r.done)
		for {
			owners := c.owners(keys)
			r.mu.Lock()
			for _, k := range keys {
				o := strings.Join(owners[k], "+")
				if s := r.seq[k]; len(s) == 0 || s[len(s)-1] != o {
					r.seq[k] = append(s, o)
				}
			}
			r.mu.Unlock()
			select {
			case <-r.stopc:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return r
}

// stop ends the sampling and returns each key's owners in order.
func (r *ownerRecorder) stop() map[string][]string {
	close(r.stopc)
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seq
}
