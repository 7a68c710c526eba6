package webhook_test

import (
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/orderengine/orderengine/config"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence"
)

// TestCrashBeforeFanoutSyncRedelivers simulates a power loss while the
// first attempt of a delivery is in flight, before anything synced the
// fan-out batch (committed without its own fsync): the crashed store must
// still hold the event in the outbox, and the restarted manager must
// deliver it.
func TestCrashBeforeFanoutSyncRedelivers(t *testing.T) {
	dir := t.TempDir() // the secret key file lives on the real disk
	fs := vfs.NewCrashableMem()
	quiet := slog.New(slog.DiscardHandler)
	clk := clock.NewManual(t0)
	cfg := config.Default().Webhooks
	cfg.JitterPpm = 0

	open := func(fs vfs.FS) (*persistence.Store, *persistence.Outbox) {
		t.Helper()
		s, err := persistence.OpenFS("db", fs, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s, persistence.NewOutbox(s, nil, clk.Now)
	}
	start := func(s *persistence.Store, ob *persistence.Outbox) (*actor.ActorSystem, *webhook.Manager) {
		t.Helper()
		sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
		m, err := webhook.New(webhook.Options{Config: cfg, Dev: true, DataDir: dir, Store: s, Outbox: ob, System: sys, Clock: clk})
		if err != nil {
			t.Fatal(err)
		}
		return sys, m
	}

	hang := make(chan struct{})
	defer close(hang)
	var healthy atomic.Bool
	rc := newReceiver(t, func(r *http.Request, n int) (int, http.Header) {
		if !healthy.Load() {
			select { // the first life: the attempt never completes
			case <-hang:
			case <-r.Context().Done():
			}
		}
		return 200, nil
	})

	s, ob := open(fs)
	sys, m := start(s, ob)
	ep, err := m.Create(t.Context(), "acc_a", rc.srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	emitEvents(t, ob, s, "acc_a", persistence.OutboxEvent{Trigger: persistence.TriggerOrderFilled})
	eventually(t, "first attempt in flight", func() bool { return rc.count() == 1 })
	eventID := rc.all()[0].Header.Get(webhook.HeaderDelivery)
	if left, _ := ob.Scan("acc_a", 0, 10); len(left) != 0 {
		t.Fatalf("the fan-out did not move the event: %+v", left)
	}

	// Power loss now: only synced data survives.
	crashed := fs.CrashClone(vfs.CrashCloneCfg{})
	m.Close()
	sys.Shutdown()
	_ = s.Close()

	healthy.Store(true)
	s2, ob2 := open(crashed)
	if left, _ := ob2.Scan("acc_a", 0, 10); len(left) != 1 || left[0].Event.ID != eventID {
		t.Fatalf("after the crash the outbox should hold the event again (fan-out batch unsynced): %+v", left)
	}
	sys2, m2 := start(s2, ob2)
	defer func() { m2.Close(); sys2.Shutdown(); _ = s2.Close() }()
	if _, err := m2.Get("acc_a", ep.ID); err != nil {
		t.Fatalf("the endpoint (synced at creation) is gone: %v", err)
	}
	eventually(t, "redelivered after the crash", func() bool {
		for _, r := range rc.all()[1:] {
			if r.Header.Get(webhook.HeaderDelivery) == eventID {
				return true
			}
		}
		return false
	})
	eventually(t, "outbox consumed again", func() bool {
		left, _ := ob2.Scan("acc_a", 0, 10)
		return len(left) == 0
	})
}
