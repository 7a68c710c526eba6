//go:build !race

package members_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/limiter"
	"github.com/orderengine/orderengine/actors/maker"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

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

// countAll counts what an exact sliding log admits of the requests at
// times: the reference the cluster's limiter is measured against.
func countAll(times []time.Time, limit int, window time.Duration) int {
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

// One API key's requests spread round-robin over three members are
// admitted at most its limit in any sliding minute, cluster-wide, and
// nearly as many as an exact limiter admits (the leases' price: the
// ledger's longer span and tokens stranded in leases, within 10 %).
func TestLimiterHoldsAcrossMembers(t *testing.T) {
	clk := clock.NewManual(t0)
	c := newClusterWith(t, 3, clusterOpts{clock: clk}, nil)
	const limit = 100
	const key = "key_round_robin"
	owner := c.nodes[0].member.Owner(limiter.KindName, key)
	steps := []time.Duration{7 * time.Millisecond, 130 * time.Millisecond, 1100 * time.Millisecond, 49 * time.Millisecond, 300 * time.Millisecond}
	var times, admitted []time.Time
	perNode := make([]int, 3)
	end := t0.Add(5 * time.Minute)
	for i := 0; clk.Now().Before(end); i++ {
		nd := c.nodes[i%3]
		times = append(times, clk.Now())
		d := nd.limiter.Take(key, limiter.Read, limit)
		if d.Allowed {
			admitted = append(admitted, clk.Now())
			perNode[i%3]++
		} else if d.RetryAfterSeconds() < 1 || d.Remaining != 0 {
			t.Fatalf("refusal without Retry-After: %+v", d)
		}
		clk.Advance(steps[i%len(steps)])
	}
	if most := maxInWindow(admitted, time.Minute); most > limit {
		t.Fatalf("%d admissions in one minute across the members, limit %d", most, limit)
	}
	exact := countAll(times, limit, time.Minute)
	if len(admitted) < exact*90/100 {
		t.Fatalf("admitted %d, an exact limiter admits %d: more than 10 %% lost", len(admitted), exact)
	}
	for i, n := range perNode {
		if n == 0 {
			t.Fatalf("member %d (owner %v) admitted nothing: %v", i, c.nodes[i].member.Address() == owner, perNode)
		}
	}
	t.Logf("admitted %d of %d requests (exact limiter: %d), per member %v", len(admitted), len(times), exact, perNode)
}

// A maker's submissions through any member count against one window on
// the maker's owner, and its open orders (told to every member, as the
// materialiser does) cap it on whichever member it submits through.
func TestMakerLimitsHoldAcrossMembers(t *testing.T) {
	clk := clock.NewManual(t0)
	c := newClusterWith(t, 3, clusterOpts{clock: clk, makers: maker.Options{Submits: 10, Window: 10 * time.Second, OpenOrders: 4}}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	mk := common.HexToAddress("0xabc0000000000000000000000000000000000001")
	admitted := 0
	for i := range 30 {
		err := c.nodes[i%3].makers.Admit(ctx, mk)
		switch {
		case err == nil:
			admitted++
		case retryAfter(t, err) < 1:
			t.Fatal("a refusal without Retry-After")
		}
		clk.Advance(100 * time.Millisecond)
	}
	if admitted != 10 {
		t.Fatalf("admitted %d submissions in 3 s across the members, want the window's 10", admitted)
	}
	clk.Advance(10 * time.Second)
	if err := c.nodes[1].makers.Admit(ctx, mk); err != nil {
		t.Fatalf("after the window slid: %v", err)
	}
	// The open-order cap: four open orders, each told to every member.
	other := common.HexToAddress("0xabc0000000000000000000000000000000000002")
	for range 4 {
		c.feed(0, &persistence.OrderRecord{Status: persistence.StatusPending, Order: chain.Order{Maker: other}}, nil)
	}
	for i, nd := range c.nodes {
		if n := nd.makers.OpenOrders(other); n != 4 {
			t.Fatalf("member %d counts %d open orders, want 4", i, n)
		}
		if err := nd.makers.Admit(ctx, other); err == nil {
			t.Fatalf("member %d admitted a maker at its cap of open orders", i)
		}
	}
	c.feed(persistence.StatusPending, &persistence.OrderRecord{Status: persistence.StatusCancelled, Order: chain.Order{Maker: other}}, nil)
	if err := c.nodes[2].makers.Admit(ctx, other); err != nil {
		t.Fatalf("after an order closed: %v", err)
	}
}

func retryAfter(t *testing.T, err error) int {
	t.Helper()
	var e *orderengine.Error
	if !errors.As(err, &e) || e.Code != orderengine.CodeMakerRateLimited {
		t.Fatalf("want MAKER_RATE_LIMITED, got %v", err)
	}
	return e.RetryAfterSeconds
}
