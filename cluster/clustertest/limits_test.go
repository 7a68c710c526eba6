//go:build !race

package clustertest

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/cluster/members"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/clock"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// startNodes starts n engine nodes as one cluster in this process, with
// clk and configure applied to each, and waits until each sees them all.
func startNodes(t *testing.T, n int, clk clock.Clock, configure func(*config.Config)) []*apptest.Server {
	t.Helper()
	agent := members.NewAgent()
	nodes := make([]*apptest.Server, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			nodes[i] = apptest.NewTestServer(t, apptest.WithClock(clk), apptest.WithConfig(configure),
				apptest.WithConfig(func(c *config.Config) { c.Cluster.Name, c.Cluster.Node = "test", fmt.Sprintf("node%d", i) }),
				apptest.WithClusterProvider(members.InMemory(agent)))
		})
	}
	wg.Wait()
	// The nodes leave together: a graceful leave takes protoactor about
	// two seconds.
	t.Cleanup(func() {
		var wg sync.WaitGroup
		for _, ts := range nodes {
			wg.Go(ts.Close)
		}
		wg.Wait()
	})
	deadline := time.Now().Add(20 * time.Second)
	for _, ts := range nodes {
		for len(ts.System.Member.Members()) != n {
			if time.Now().After(deadline) {
				t.Fatalf("node %s sees %v", ts.System.Member.Address(), ts.System.Member.Members())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	return nodes
}

// shareAccounts copies the accounts and API keys of from into every other
// node's store, as the cluster's replication of shared records does: one
// key then authenticates on every node.
func shareAccounts(t *testing.T, from *apptest.Server, to ...*apptest.Server) {
	t.Helper()
	src := from.System.Store.DB()
	for _, prefix := range []string{"a/", "k/", "h/", "x/"} {
		upper := []byte(prefix)
		upper[len(upper)-1]++
		it, err := src.NewIter(&pebble.IterOptions{LowerBound: []byte(prefix), UpperBound: upper})
		if err != nil {
			t.Fatal(err)
		}
		for ok := it.First(); ok; ok = it.Next() {
			v, err := it.ValueAndErr()
			if err != nil {
				t.Fatal(err)
			}
			for _, ts := range to {
				if err := ts.System.Store.DB().Set(it.Key(), v, pebble.Sync); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// One API key's requests, sent round-robin to three nodes through the
// public API, are admitted at most its read limit in any sliding minute
// across the cluster, and nearly as many as an exact limiter admits.
func TestKeyLimitHoldsAcrossNodes(t *testing.T) {
	clk := clock.NewManual(t0)
	const limit = 40
	nodes := startNodes(t, 3, clk, func(c *config.Config) { c.Limits.Free.Read = limit })
	shareAccounts(t, nodes[0], nodes[1:]...)
	key := nodes[0].APIKey
	owner := nodes[0].System.Member.Owner("limiter", nodes[0].KeyID)
	steps := []time.Duration{900 * time.Millisecond, 20 * time.Millisecond, 2300 * time.Millisecond, 310 * time.Millisecond, 45 * time.Millisecond}
	var times, admitted []time.Time
	perNode := make([]int, len(nodes))
	end := t0.Add(4 * time.Minute)
	for i := 0; clk.Now().Before(end); i++ {
		ts := nodes[i%len(nodes)]
		times = append(times, clk.Now())
		r := ts.Raw(ts.URL, "GET", "/v1/webhooks", nil, map[string]string{"X-API-Key": key})
		switch r.Status {
		case http.StatusOK:
			admitted = append(admitted, clk.Now())
			perNode[i%len(nodes)]++
		case http.StatusTooManyRequests:
			if r.Code() != "RATE_LIMITED" || r.Header.Get("Retry-After") == "" {
				t.Fatalf("a refusal without its code or Retry-After: %d %s %v", r.Status, r.Body, r.Header)
			}
		default:
			t.Fatalf("node %d: %d %s", i%len(nodes), r.Status, r.Body)
		}
		clk.Advance(steps[i%len(steps)])
	}
	if most := maxInWindow(admitted, time.Minute); most > limit {
		t.Fatalf("%d requests admitted in one minute across the nodes, limit %d", most, limit)
	}
	exact := exactAdmissions(times, limit, time.Minute)
	if len(admitted) < exact*90/100 {
		t.Fatalf("admitted %d, an exact limiter admits %d: more than 10 %% lost", len(admitted), exact)
	}
	for i, n := range perNode {
		if n == 0 {
			t.Fatalf("node %d admitted nothing (owner %v): %v", i, nodes[i].System.Member.Address() == owner, perNode)
		}
	}
	t.Logf("admitted %d of %d requests (exact limiter: %d), per node %v", len(admitted), len(times), exact, perNode)
}

// maxInWindow returns the most admissions in any window-long interval.
func maxInWindow(admitted []time.Time, window time.Duration) int {
	most := 0
	for i := range admitted {
		j := i
		for j < len(admitted) && admitted[j].Sub(admitted[i]) < window {
			j++
		}
		most = max(most, j-i)
	}
	return most
}

// exactAdmissions counts what an exact sliding log admits of the requests
// at times.
func exactAdmissions(times []time.Time, limit int, window time.Duration) int {
	var log []time.Time
	n := 0
	for _, at := range times {
		for len(log) > 0 && at.Sub(log[0]) >= window {
			log = log[1:]
		}
		if len(log) < limit {
			log = append(log, at)
			n++
		}
	}
	return n
}
