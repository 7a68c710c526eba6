package clustertest

import (
	"net/http"
	"testing"
	"time"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/clock"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// One API key's requests, sent round-robin to three nodes through the
// public API, are admitted at most its read limit in any sliding minute
// across the cluster, and nearly as many as an exact limiter admits.
func TestKeyLimitHoldsAcrossNodes(t *testing.T) {
	clk := clock.NewManual(t0)
	const limit = 40
	nodes := apptest.NewTestCluster(t, 3, apptest.WithClock(clk),
		apptest.WithConfig(func(c *config.Config) { c.Limits.Free.Read = limit }))
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
			t.Fatalf("node %d admitted nothing (owner %v): %v", i, nodes[i].System.Config.Cluster.Node == owner, perNode)
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
