package http_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/chainsync/chainsynctest"
)

// downNode is a fake for a node that goes down on demand: while down, its
// head read fails; otherwise it is the real simulated chain.
type downNode struct {
	chainsync.Backend
	down atomic.Bool
}

func (d *downNode) BlockNumber(ctx context.Context) (uint64, error) {
	if d.down.Load() {
		return 0, errors.New("dial tcp 127.0.0.1:8545: connect: connection refused")
	}
	return d.Backend.BlockNumber(ctx)
}

type readyBody struct {
	Status   string
	Code     string
	Error    string
	Draining bool
	Details  struct {
		Draining bool
		Indexer  *chainsync.Status
	}
	Indexer *chainsync.Status
}

func ready(t *testing.T, ts *apptest.Server) (int, readyBody) {
	t.Helper()
	r := ts.Do("GET", "/readyz", nil, nil) // validated against the OpenAPI document
	var b readyBody
	if err := json.Unmarshal(r.Body, &b); err != nil {
		t.Fatalf("/readyz %d: %v %s", r.Status, err, r.Body)
	}
	return r.Status, b
}

// TestReadiness drives GET /readyz with a real indexer on a simulated
// chain: ready without a chain and when caught up; 503 SERVICE_UNAVAILABLE
// while the indexer trails the head by more than lifecycle.readyMaxLag;
// 503 CHAIN_UNAVAILABLE while the node is down (and /healthz still 200:
// liveness does not depend on the node); 503 SERVICE_UNAVAILABLE once the
// server drains.
func TestReadiness(t *testing.T) {
	configure := apptest.WithConfig(func(c *config.Config) {
		c.Lifecycle.ReadyMaxLag = 5
		c.Limits.Free.Read = 1_000_000 // /readyz is polled below
	})
	if st, b := ready(t, apptest.NewTestServer(t, configure)); st != 200 || b.Status != "ready" || b.Indexer != nil {
		t.Fatalf("without a chain: %d %+v", st, b)
	}

	e := chainsynctest.NewEnv(t)
	node := &downNode{Backend: e.Client}
	ix, err := chainsync.New(node, chainsynctest.OpenStore(t, t.TempDir()), nil, chainsync.Options{
		Router: e.D.Router, StartBlock: e.D.Block, RecentBlocks: 64, MaxBlocksPerStep: 1, Poll: time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	// An indexer this test steps by hand, as the engine's would report it.
	ts := apptest.NewTestServer(t, configure, apptest.WithChainStatus(ix.Status))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for range 10 {
		e.Sim.Commit()
	}
	if _, err := ix.Step(ctx); err != nil { // one block of at least ten
		t.Fatal(err)
	}
	if st, b := ready(t, ts); st != 503 || b.Code != string(orderengine.CodeServiceUnavailable) ||
		!strings.Contains(b.Error, "blocks behind") || b.Details.Indexer == nil || b.Details.Indexer.LagBlocks <= 5 {
		t.Fatalf("indexer behind: %d %+v", st, b)
	}
	if err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if st, b := ready(t, ts); st != 200 || b.Indexer == nil || b.Indexer.LagBlocks != 0 {
		t.Fatalf("caught up: %d %+v", st, b)
	}

	node.down.Store(true)
	rctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { ix.Run(rctx); close(done) }()
	defer func() { stop(); <-done }()
	waitReady := func(what string, want int) readyBody {
		t.Helper()
		for {
			st, b := ready(t, ts)
			if st == want {
				return b
			}
			if ctx.Err() != nil {
				t.Fatalf("%s: /readyz still %d %+v", what, st, b)
			}
			time.Sleep(time.Millisecond)
		}
	}
	if b := waitReady("node down", 503); b.Code != string(orderengine.CodeChainUnavailable) || !b.Details.Indexer.Failing {
		t.Fatalf("node down: %+v", b)
	}
	if r := ts.Do("GET", "/healthz", nil, nil); r.Status != 200 {
		t.Fatalf("/healthz with the node down: %d", r.Status)
	}
	node.down.Store(false)
	waitReady("node back", 200)

	// Draining: the listener is closed, so ask the app in memory.
	sctx, scancel := context.WithTimeout(ctx, 10*time.Second)
	defer scancel()
	if err := ts.HTTP.Shutdown(sctx); err != nil {
		t.Fatal(err)
	}
	resp, err := ts.HTTP.Handler().Test(httptest.NewRequest("GET", "/readyz", nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	var b readyBody
	_ = json.NewDecoder(resp.Body).Decode(&b)
	if resp.StatusCode != 503 || b.Code != string(orderengine.CodeServiceUnavailable) || !b.Details.Draining {
		t.Fatalf("draining: %d %+v", resp.StatusCode, b)
	}
}
