package webhook_test

import (
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/webhookstore"
)

// crashLife is one life of a manager over a store on a crashable file
// system (only synced data survives CrashClone).
type crashLife struct {
	store  *persistence.Store
	outbox *persistence.Outbox
	system *actor.ActorSystem
	m      *webhook.Manager
}

// startLife opens the store on fs and starts a manager on it; the secret
// key file lives in dir, on the real disk.
func startLife(t *testing.T, fs vfs.FS, dir string, clk *clock.Manual) *crashLife {
	t.Helper()
	l := openLife(t, fs, clk)
	l.start(t, dir, clk)
	return l
}

// openLife opens the store on fs, without a manager.
func openLife(t *testing.T, fs vfs.FS, clk *clock.Manual) *crashLife {
	t.Helper()
	s, err := persistence.OpenWith("db", persistence.Options{FS: fs})
	if err != nil {
		t.Fatal(err)
	}
	return &crashLife{store: s, outbox: persistence.NewOutbox(s, nil, clk.Now)}
}

// start starts the manager of an opened life.
func (l *crashLife) start(t *testing.T, dir string, clk *clock.Manual) {
	t.Helper()
	var err error
	quiet := slog.New(slog.DiscardHandler)
	l.system = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	cfg := config.Default().Webhooks
	cfg.JitterPpm = 0
	l.m, err = webhook.New(webhook.Options{Config: cfg, Dev: true, DataDir: dir, Store: l.store, Outbox: l.outbox, System: l.system, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
}

func (l *crashLife) stop() {
	l.m.Close()
	l.system.Shutdown()
	_ = l.store.Close()
}

// TestCrashBeforeFanoutSyncRedelivers simulates a power loss while the
// first attempt of a delivery is in flight, before anything synced the
// fan-out's writes (the delivery's creation and the outbox cursor's move,
// both written without their own fsync): the crashed store must still
// hold the event ahead of the cursor, and the restarted manager must
// deliver it.
func TestCrashBeforeFanoutSyncRedelivers(t *testing.T) {
	dir, fs, clk := t.TempDir(), vfs.NewCrashableMem(), clock.NewManual(t0)
	hang := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(hang) }) }
	defer release()
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

	one := startLife(t, fs, dir, clk)
	ep, err := one.m.Create(t.Context(), "acc_a", rc.srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	emitEvents(t, one.outbox, one.store, "acc_a", persistence.OutboxEvent{Trigger: persistence.TriggerOrderFilled})
	eventually(t, "first attempt in flight", func() bool { return rc.count() == 1 })
	eventID := rc.all()[0].Header.Get(webhook.HeaderDelivery)
	eventually(t, "the fan-out consumed the event", func() bool {
		left, _ := one.outbox.Scan("acc_a", 0, 10)
		return len(left) == 0
	})

	// Power loss now: only synced data survives.
	crashed := fs.CrashClone(vfs.CrashCloneCfg{})
	release() // the crashed life's stop waits for its attempt in flight
	one.stop()

	healthy.Store(true)
	two := openLife(t, crashed, clk)
	if left, _ := two.outbox.Scan("acc_a", 0, 10); len(left) != 1 || left[0].Event.ID != eventID {
		t.Fatalf("after the crash the outbox should hold the event again (fan-out writes unsynced): %+v", left)
	}
	two.start(t, dir, clk)
	defer two.stop()
	if _, err := two.m.Get("acc_a", ep.ID); err != nil {
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
		left, _ := two.outbox.Scan("acc_a", 0, 10)
		return len(left) == 0
	})
}

// TestCrashAfterCreateBeforeTheCursorMoves: a power loss after both
// endpoints of an account created their deliveries, durably, and before
// the account's outbox cursor moved past the events. The restarted fan-out hands the events on
// again; the endpoints find their deliveries already created (one per
// endpoint and event, whatever happened to the first attempts), deliver
// each event to each endpoint under its one id, and the outbox drains.
func TestCrashAfterCreateBeforeTheCursorMoves(t *testing.T) {
	dir, fs, clk := t.TempDir(), vfs.NewCrashableMem(), clock.NewManual(t0)
	rcA, rcB := newReceiver(t, nil), newReceiver(t, nil)
	one := startLife(t, fs, dir, clk)
	epA := createOn(t, one.m, "acc_a", rcA.srv.URL)
	epB := createOn(t, one.m, "acc_a", rcB.srv.URL)

	var once sync.Once
	taken := make(chan vfs.FS, 1)
	webhook.SetHookBeforeConsume(func(string) {
		once.Do(func() {
			// Make everything written so far durable (the creates), then
			// take the image before the cursor's move is written.
			if err := one.store.DB().LogData(nil, pebble.Sync); err != nil {
				t.Error(err)
			}
			taken <- fs.CrashClone(vfs.CrashCloneCfg{})
		})
	})
	defer webhook.SetHookBeforeConsume(nil)
	events := make([]persistence.OutboxEvent, 3)
	for i := range events {
		events[i] = persistence.OutboxEvent{ID: persistence.NewEventID(), Trigger: persistence.TriggerOrderCancelled}
	}
	emitEvents(t, one.outbox, one.store, "acc_a", events...)
	image := <-taken
	eventually(t, "the fan-out consumed the events", func() bool {
		left, _ := one.outbox.Scan("acc_a", 0, 10)
		return len(left) == 0
	})
	one.stop()
	webhook.SetHookBeforeConsume(nil)

	// The image, before any manager runs on it: the events still in the
	// outbox, every delivery created.
	two := openLife(t, image, clk)
	if left, _ := two.outbox.Scan("acc_a", 0, 10); len(left) != len(events) {
		t.Fatalf("the image holds %d events in the outbox, want all %d", len(left), len(events))
	}
	for _, id := range []string{epA.ID, epB.ID} {
		if ds, _ := webhookstore.New(two.store, webhookstore.Options{}).RecentDeliveries(id, 10); len(ds) != len(events) {
			t.Fatalf("the image holds %d deliveries of %s, want the %d created before it", len(ds), id, len(events))
		}
	}
	two.start(t, dir, clk)
	defer two.stop()
	eventually(t, "the outbox drained after the restart", func() bool {
		left, _ := two.outbox.Scan("acc_a", 0, 10)
		return len(left) == 0
	})
	for _, c := range []struct {
		id string
		rc *receiver
	}{{epA.ID, rcA}, {epB.ID, rcB}} {
		eventually(t, "every event delivered to "+c.id, func() bool {
			l, err := two.m.Deliveries("acc_a", c.id)
			if err != nil || len(l.Deliveries) != len(events) {
				return false
			}
			for _, d := range l.Deliveries {
				if d.Status != webhookstore.DeliveryDelivered {
					return false
				}
			}
			return true
		})
		got := map[string]bool{}
		for _, r := range c.rc.all() {
			got[r.Header.Get(webhook.HeaderDelivery)] = true
		}
		for _, ev := range events {
			if !got[ev.ID] {
				t.Fatalf("%s never received %s", c.id, ev.ID)
			}
		}
		if len(got) != len(events) {
			t.Fatalf("%s received %d distinct ids, want %d", c.id, len(got), len(events))
		}
	}
}

// createOn registers url for account on m.
func createOn(t *testing.T, m *webhook.Manager, account, url string) *webhook.CreatedView {
	t.Helper()
	v, err := m.Create(t.Context(), account, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
