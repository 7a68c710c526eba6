package clustertest_test

import (
	"testing"
	"time"

	"github.com/orderengine/orderengine/internal/clusterrun/clustertest"
)

func TestMain(m *testing.M) { clustertest.Main(m) }

// TestHarnessSmoke drives every operation of the harness on three nodes
// with cluster mode off (independent engines on the one shared chain):
// an order fills through a node's in-process keeper; a node killed with
// SIGKILL restarts on its folder with its order; a paused node answers
// nothing until it is resumed; a node stopped with SIGTERM exits 0 and,
// restarted with an empty folder under a new name, serves again without
// the orders of its old folder (without cluster mode they lived there
// only).
func TestHarnessSmoke(t *testing.T) {
	clustertest.Binary(t)
	began := time.Now()
	h := clustertest.Start(t, clustertest.Options{})
	t.Logf("chain and three nodes ready in %v", time.Since(began).Round(time.Millisecond))
	c := h.Contracts()
	maker := clustertest.Maker(0)
	c.Approve(t, maker, "WETH")

	key0 := h.Key(0)
	filled, fh := c.Sign(t, clustertest.Fillable(maker, 1))
	if code := h.Submit(0, key0, filled); code != 201 {
		t.Fatalf("submit on node1: %d", code)
	}
	h.WaitStatus(0, key0, fh, "filled", time.Minute)

	key1 := h.Key(1)
	resting, rh := c.Sign(t, clustertest.Resting(maker, 2))
	if code := h.Submit(1, key1, resting); code != 201 {
		t.Fatalf("submit on node2: %d", code)
	}
	before, _ := h.Status(1, key1, rh)
	h.Kill(1)
	if _, code := h.Status(1, key1, rh); code != 0 {
		t.Fatalf("a killed node answered %d", code)
	}
	h.Restart(1)
	if after, code := h.Status(1, key1, rh); after != before || code != 200 {
		t.Fatalf("after kill -9 and restart: %q (%d), before %q", after, code, before)
	}

	h.Pause(2)
	if h.Ready(2) {
		t.Fatal("a paused node answered /readyz")
	}
	h.Resume(2)
	h.WaitReady(2)

	h.Stop(0)
	h.RestartEmpty(0, "node1b")
	key0 = h.Key(0)
	if _, code := h.Status(0, key0, fh); code != 404 {
		t.Fatalf("node1b (empty folder, cluster mode off) reads node1's order: %d, want 404", code)
	}
	t.Logf("whole test %v", time.Since(began).Round(time.Millisecond))
}
