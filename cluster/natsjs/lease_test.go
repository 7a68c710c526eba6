package natsjs

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"
)

// TestLease: one holder at a time; the holder renews; a standby cannot
// take a live term; once the holder stops renewing the term expires and
// the standby takes it, the old holder's renew is refused; a release
// frees it at once; a watcher sees every holder in turn (the first term
// and its renewal may reach it as one: its consumer may start after
// both).
func TestLease(t *testing.T) {
	nodes := sharedCluster(t)
	ctx := context.Background()
	name := "test-" + strconv.FormatInt(time.Now().UnixNano(), 36) // the cluster outlives a run
	a := nodes[0].node.Lease(name, "n0", time.Second)
	b := nodes[1].node.Lease(name, "n1", time.Second)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	watch, err := nodes[2].node.Lease(name, "n2", time.Second).Watch(wctx)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := a.Acquire(ctx); !ok || err != nil {
		t.Fatalf("first acquire: %v %v", ok, err)
	}
	if ok, err := b.Acquire(ctx); ok || err != nil {
		t.Fatalf("acquire of a held lease: %v %v", ok, err)
	}
	first := a.Seq()
	if err := a.Renew(ctx); err != nil || a.Seq() == first || !a.Held() {
		t.Fatalf("renew: %v (seq %d after %d)", err, a.Seq(), first)
	}
	waitFor(t, "the term to expire", func() bool {
		ok, err := b.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	})
	if err := a.Renew(ctx); !errors.Is(err, ErrLeaseLost) || a.Held() {
		t.Fatalf("renew of an expired term: %v", err)
	}
	if err := b.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if ok, err := a.Acquire(ctx); !ok || err != nil {
		t.Fatalf("acquire after a release: %v %v", ok, err)
	}
	var holders []string
	timeout := time.After(10 * time.Second)
	for len(holders) < 4 {
		select {
		case st := <-watch:
			if len(holders) == 0 || holders[len(holders)-1] != st.Holder {
				holders = append(holders, st.Holder)
			}
			if st.Expires.IsZero() || st.Seq == 0 {
				t.Fatalf("term %+v", st)
			}
		case <-timeout:
			t.Fatalf("watched terms %v", holders)
		}
	}
	want := []string{"n0", "n1", "", "n0"}
	for i := range want {
		if holders[i] != want[i] {
			t.Fatalf("watched holders %v, want %v", holders, want)
		}
	}
}
