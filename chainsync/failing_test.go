package chainsync

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orderengine/orderengine/chainsync/chainsynctest"
	"github.com/orderengine/orderengine/internal/syncbuf"
)

// downNode is a fake for what cannot exist here on demand: a node that
// goes down and comes back. While down, its every call fails; otherwise it
// is the real simulated chain.
type downNode struct {
	Backend
	down  atomic.Bool
	calls atomic.Int64
}

func (d *downNode) BlockNumber(ctx context.Context) (uint64, error) {
	d.calls.Add(1)
	if d.down.Load() {
		return 0, errors.New("dial tcp 127.0.0.1:8545: connect: connection refused")
	}
	return d.Backend.BlockNumber(ctx)
}

// TestRunLogsAnOutageOnceAndReportsIt: while the node is down, Run polls
// every millisecond; the status says failing, the outage is one warning
// (not one per poll), and the recovery is logged once and clears the flag.
func TestRunLogsAnOutageOnceAndReportsIt(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	s := chainsynctest.OpenStore(t, t.TempDir())
	node := &downNode{Backend: e.Client}
	node.down.Store(true)
	var logs syncbuf.Buffer
	ix, err := New(node, s, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo})), Options{
		Router: e.D.Router, StartBlock: e.D.Block, RecentBlocks: 64, Poll: time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { ix.Run(rctx); close(done) }()
	defer func() { stop(); <-done }()
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for !cond() {
			if ctx.Err() != nil {
				t.Fatalf("%s: %+v\n%s", what, ix.Status(), logs.String())
			}
			time.Sleep(time.Millisecond)
		}
	}
	waitFor("20 failed polls", func() bool { return node.calls.Load() >= 20 && ix.Status().Failing })
	if n := strings.Count(logs.String(), "level=WARN"); n != 1 {
		t.Fatalf("%d warnings for one outage of 20 polls:\n%s", n, logs.String())
	}
	node.down.Store(false)
	waitFor("recovery", func() bool { return !ix.Status().Failing })
	waitFor("recovery log", func() bool { return strings.Contains(logs.String(), "indexer recovered") })
}
