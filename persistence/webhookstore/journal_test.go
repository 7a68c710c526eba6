package webhookstore

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

var whT0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// newDelivery returns the pending delivery of eventID to endpointID created
// i milliseconds after whT0, with its body.
func newDelivery(endpointID, eventID string, i int) NewDelivery {
	at := whT0.Add(time.Duration(i) * time.Millisecond)
	return NewDelivery{
		Delivery: &Delivery{EndpointID: endpointID, EventID: eventID, Trigger: persistence.TriggerOrderFilled,
			CreatedAt: at, Status: DeliveryPending, NextAttemptAt: at},
		Body: []byte(`{"id":"` + eventID + `"}`),
	}
}

// newEndpoint stores an endpoint of accountID.
func newEndpoint(t *testing.T, w *Store, accountID, id string) *Endpoint {
	t.Helper()
	ep := &Endpoint{ID: id, AccountID: accountID, URL: "https://example.com/" + id, Enabled: true, CreatedAt: whT0, UpdatedAt: whT0}
	if err := w.CreateEndpoint(context.Background(), ep, 3, nil); err != nil {
		t.Fatal(err)
	}
	return ep
}

// acc1 is endpoint id of account acc_1, as its actor names it to the
// journal.
func acc1(id string) *Endpoint { return &Endpoint{ID: id, AccountID: "acc_1"} }

// create creates ds of acc_1's endpoints, one call per run of deliveries
// to the same endpoint, and returns what each call created.
func create(w *Store, ds []NewDelivery, durable bool) ([]bool, error) {
	var out []bool
	for len(ds) > 0 {
		n := 1
		for n < len(ds) && ds[n].Delivery.EndpointID == ds[0].Delivery.EndpointID {
			n++
		}
		c, err := w.CreateDeliveries(context.Background(), acc1(ds[0].Delivery.EndpointID), ds[:n], durable, 0)
		if err != nil {
			return nil, err
		}
		out, ds = append(out, c...), ds[n:]
	}
	return out, nil
}

// attempted returns d after one more attempt with the given status.
func attempted(d *Delivery, status string) *Delivery {
	out := *d
	out.Attempts = append(append([]Attempt(nil), d.Attempts...), Attempt{N: len(d.Attempts) + 1, At: whT0, StatusCode: 500})
	out.Status = status
	if status != DeliveryPending {
		out.NextAttemptAt = time.Time{}
	}
	return &out
}

func countKeys(t *testing.T, s *persistence.Store, prefix []byte) int {
	t.Helper()
	n := 0
	if err := scanKeys(s.DB(), prefix, func([]byte) bool { n++; return true }); err != nil {
		t.Fatal(err)
	}
	return n
}

// A delivery is keyed by endpoint and event: a second create of it, even
// with another creation time, writes nothing, and the event's body is
// stored once for all its endpoints.
func TestCreateDeliveryIsIdempotent(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	w := New(s, Options{})
	newEndpoint(t, w, "acc_1", "wh_a")
	newEndpoint(t, w, "acc_1", "wh_b")
	first := []NewDelivery{newDelivery("wh_a", "evt_1", 0), newDelivery("wh_b", "evt_1", 0), newDelivery("wh_a", "evt_1", 1)}
	created, err := create(w, first, false)
	if err != nil || !created[0] || !created[1] || created[2] {
		t.Fatalf("first create: %v %v (the same delivery twice in one call is created once)", created, err)
	}
	again, err := create(w, []NewDelivery{newDelivery("wh_a", "evt_1", 50)}, true)
	if err != nil || again[0] {
		t.Fatalf("second create: %v %v", again, err)
	}
	for _, ep := range []string{"wh_a", "wh_b"} {
		ds, err := w.PendingDeliveries(ep)
		if err != nil || len(ds) != 1 || !ds[0].CreatedAt.Equal(whT0) {
			t.Fatalf("%s outstanding: %+v %v", ep, ds, err)
		}
		if recent, _ := w.RecentDeliveries(ep, 10); len(recent) != 1 {
			t.Fatalf("%s history: %d deliveries", ep, len(recent))
		}
	}
	if body, ok, err := w.EventBody("acc_1", "evt_1"); err != nil || !ok || string(body) != `{"id":"evt_1"}` {
		t.Fatalf("body %q %v %v", body, ok, err)
	}
	if n := countKeys(t, s, []byte(persistence.PrefixWebhook+"b/")); n != 1 {
		t.Fatalf("%d bodies, want 1", n)
	}
	// A delivery to an endpoint that is not stored is refused.
	if _, err := create(w, []NewDelivery{newDelivery("wh_gone", "evt_2", 0)}, false); !errors.Is(err, ErrEndpointNotFound) {
		t.Fatalf("create for an unknown endpoint: %v", err)
	}
}

// An outcome is written only over the version it follows: a writer that
// loaded an older version (a stale actor) cannot overwrite a newer outcome,
// and of two writers racing from one version exactly one wins.
func TestStaleOutcomeIsRefused(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	w := New(s, Options{})
	ctx := context.Background()
	newEndpoint(t, w, "acc_1", "wh_a")
	nd := newDelivery("wh_a", "evt_1", 0)
	if _, err := create(w, []NewDelivery{nd}, false); err != nil {
		t.Fatal(err)
	}
	v1 := attempted(nd.Delivery, DeliveryPending)
	if c, err := w.RecordOutcomes(ctx, acc1("wh_a"), []*Delivery{v1}); err != nil || c[0] != nil {
		t.Fatalf("first outcome: %v %v", c, err)
	}
	v2 := attempted(v1, DeliveryDelivered)
	if c, err := w.RecordOutcomes(ctx, acc1("wh_a"), []*Delivery{v2}); err != nil || c[0] != nil {
		t.Fatalf("second outcome: %v %v", c, err)
	}
	// A stale writer still holding version 0 writes its own first attempt.
	stale := attempted(nd.Delivery, DeliveryFailed)
	if c, err := w.RecordOutcomes(ctx, acc1("wh_a"), []*Delivery{stale}); err != nil || !errors.Is(c[0], ErrDeliveryConflict) {
		t.Fatalf("stale outcome: %v %v", c, err)
	}
	got, err := w.RecentDeliveries("wh_a", 10)
	if err != nil || len(got) != 1 || got[0].Status != DeliveryDelivered || len(got[0].Attempts) != 2 {
		t.Fatalf("after the stale write: %+v %v", got, err)
	}
	if n := countKeys(t, s, pendingPrefix("wh_a")); n != 0 {
		t.Fatalf("a finished delivery is still outstanding (%d rows)", n)
	}
	// An outcome of a delivery that is not stored writes nothing.
	ghost := attempted(newDelivery("wh_a", "evt_ghost", 0).Delivery, DeliveryPending)
	if c, err := w.RecordOutcomes(ctx, acc1("wh_a"), []*Delivery{ghost}); err != nil || !errors.Is(c[0], ErrDeliveryConflict) {
		t.Fatalf("outcome of an absent delivery: %v %v", c, err)
	}
	if got, _ := w.RecentDeliveries("wh_a", 10); len(got) != 1 {
		t.Fatalf("an outcome created a delivery: %+v", got)
	}

	// Racing writers from one loaded version: exactly one wins.
	for i := range 20 {
		ev := fmt.Sprintf("evt_race%d", i)
		nd := newDelivery("wh_a", ev, i)
		if _, err := create(w, []NewDelivery{nd}, false); err != nil {
			t.Fatal(err)
		}
		var wins atomic.Int32
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				c, err := w.RecordOutcomes(ctx, acc1(nd.Delivery.EndpointID), []*Delivery{attempted(nd.Delivery, DeliveryPending)})
				if err != nil {
					t.Error(err)
				} else if c[0] == nil {
					wins.Add(1)
				}
			})
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("%s: %d writers won from the same version", ev, wins.Load())
		}
	}
}

// However many creates of an account race, it ends with at most max
// endpoints, and every refused create is answered ErrEndpointLimit.
func TestEndpointLimitHoldsUnderConcurrentCreates(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	w := New(s, Options{})
	var ok, limited atomic.Int32
	var wg sync.WaitGroup
	for i := range 24 {
		wg.Go(func() {
			acct := []string{"acc_1", "acc_2"}[i%2]
			ep := &Endpoint{ID: fmt.Sprintf("wh_%02d", i), AccountID: acct, Enabled: true, CreatedAt: whT0}
			switch err := w.CreateEndpoint(context.Background(), ep, 3, nil); {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, ErrEndpointLimit):
				limited.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 6 || limited.Load() != 18 {
		t.Fatalf("%d created, %d refused; want 6 and 18", ok.Load(), limited.Load())
	}
	var taken string
	for _, acct := range []string{"acc_1", "acc_2"} {
		eps, err := w.AccountEndpoints(acct)
		if err != nil || len(eps) != 3 {
			t.Fatalf("%s has %d endpoints (%v)", acct, len(eps), err)
		}
		taken = eps[0].ID
	}
	if err := w.CreateEndpoint(context.Background(), &Endpoint{ID: taken, AccountID: "acc_3"}, 3, nil); !errors.Is(err, ErrEndpointExists) {
		t.Fatalf("a taken id: %v", err)
	}
}

// A trim deletes the finished deliveries beyond the newest keep and never
// an outstanding one, also while deliveries are created and finished
// concurrently.
func TestTrimKeepsOutstandingDeliveries(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	w := New(s, Options{})
	ctx := context.Background()
	newEndpoint(t, w, "acc_1", "wh_a")
	const keep, total = 5, 400
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range total {
			nd := newDelivery("wh_a", fmt.Sprintf("evt_%04d", i), i)
			if _, err := create(w, []NewDelivery{nd}, false); err != nil {
				t.Error(err)
				return
			}
			if i%2 == 0 { // every other one finishes
				if _, err := w.RecordOutcomes(ctx, acc1(nd.Delivery.EndpointID), []*Delivery{attempted(nd.Delivery, DeliveryDelivered)}); err != nil {
					t.Error(err)
					return
				}
			}
		}
	})
	wg.Go(func() {
		for range 50 {
			if err := w.TrimDeliveries(ctx, acc1("wh_a"), keep); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Wait()
	if err := w.TrimDeliveries(ctx, acc1("wh_a"), keep); err != nil {
		t.Fatal(err)
	}
	pending, err := w.PendingDeliveries("wh_a")
	if err != nil || len(pending) != total/2 {
		t.Fatalf("%d outstanding after the trims, want %d (%v)", len(pending), total/2, err)
	}
	recent, err := w.RecentDeliveries("wh_a", 1000)
	if err != nil {
		t.Fatal(err)
	}
	finished := 0
	for i, d := range recent { // newest first
		if d.Status != DeliveryPending {
			finished++
			if i >= keep {
				t.Fatalf("finished delivery %s survived the trim at place %d (keep %d)", d.EventID, i, keep)
			}
		}
	}
	if finished == 0 || len(recent) != total/2+finished {
		t.Fatalf("%d deliveries, %d finished after the trim (keep %d)", len(recent), finished, keep)
	}
	for _, d := range pending {
		if _, ok, _ := w.EventBody("acc_1", d.EventID); !ok {
			t.Fatalf("outstanding %s lost its body", d.EventID)
		}
	}
	if n := countKeys(t, s, []byte(persistence.PrefixWebhook+"b/")); n != len(recent) {
		t.Fatalf("%d bodies for %d deliveries", n, len(recent))
	}
}

// An event's body is deleted with the last delivery of it, and only then:
// not while another endpoint's delivery of it remains, and not when a
// delivery of it was created again.
func TestBodyGoesWithItsLastDelivery(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	w := New(s, Options{})
	ctx := context.Background()
	a := newEndpoint(t, w, "acc_1", "wh_a")
	newEndpoint(t, w, "acc_1", "wh_b")
	finish := func(ep, ev string, i int) {
		t.Helper()
		nd := newDelivery(ep, ev, i)
		if _, err := create(w, []NewDelivery{nd}, false); err != nil {
			t.Fatal(err)
		}
		if _, err := w.RecordOutcomes(ctx, acc1(nd.Delivery.EndpointID), []*Delivery{attempted(nd.Delivery, DeliveryDelivered)}); err != nil {
			t.Fatal(err)
		}
	}
	bodies := func() map[string]bool {
		out := map[string]bool{}
		for _, ev := range []string{"evt_shared", "evt_only", "evt_back", "evt_new"} {
			_, ok, err := w.EventBody("acc_1", ev)
			if err != nil {
				t.Fatal(err)
			}
			out[ev] = ok
		}
		return out
	}
	finish("wh_a", "evt_shared", 0)
	finish("wh_b", "evt_shared", 0)
	finish("wh_a", "evt_only", 1)
	finish("wh_a", "evt_back", 2)
	finish("wh_a", "evt_new", 3) // the one the trim keeps
	if err := w.TrimDeliveries(ctx, acc1("wh_a"), 1); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"evt_shared": true, "evt_only": false, "evt_back": false, "evt_new": true}
	if got := bodies(); !reflect.DeepEqual(got, want) {
		t.Fatalf("bodies after the trim %v, want %v", got, want)
	}
	// A delivery of evt_back created again (another endpoint) stores its
	// body again.
	newEndpoint(t, w, "acc_1", "wh_c")
	if _, err := create(w, []NewDelivery{newDelivery("wh_c", "evt_back", 9)}, false); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := w.EventBody("acc_1", "evt_back"); !ok {
		t.Fatal("a delivery created again has no body")
	}
	// Deleting an endpoint keeps the bodies other endpoints' deliveries
	// reference; deleting them all leaves nothing.
	if err := w.DeleteEndpoint(ctx, a); err != nil {
		t.Fatal(err)
	}
	want = map[string]bool{"evt_shared": true, "evt_only": false, "evt_back": true, "evt_new": false}
	if got := bodies(); !reflect.DeepEqual(got, want) {
		t.Fatalf("bodies after deleting wh_a %v, want %v", got, want)
	}
	for _, id := range []string{"wh_b", "wh_c"} {
		ep, _, _ := w.LoadEndpoint(id)
		if err := w.DeleteEndpoint(ctx, ep); err != nil {
			t.Fatal(err)
		}
	}
	if n := countKeys(t, s, []byte(persistence.PrefixWebhook)); n != 0 {
		t.Fatalf("%d webhook keys left after every endpoint was deleted", n)
	}
}

// Deleting an endpoint removes its record, its account entry and every
// delivery; later writes of it are refused.
func TestDeleteEndpointRemovesItsDeliveries(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	w := New(s, Options{})
	ctx := context.Background()
	ep := newEndpoint(t, w, "acc_1", "wh_a")
	keepEp := newEndpoint(t, w, "acc_1", "wh_b")
	var nds []NewDelivery
	for i := range 10 {
		nds = append(nds, newDelivery("wh_a", fmt.Sprintf("evt_%d", i), i), newDelivery("wh_b", fmt.Sprintf("evt_%d", i), i))
	}
	if _, err := create(w, nds, false); err != nil {
		t.Fatal(err)
	}
	if err := w.DeleteEndpoint(ctx, ep); err != nil {
		t.Fatal(err)
	}
	if err := w.DeleteEndpoint(ctx, ep); !errors.Is(err, ErrEndpointNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if eps, _ := w.AccountEndpoints("acc_1"); len(eps) != 1 || eps[0].ID != keepEp.ID {
		t.Fatalf("account endpoints after the delete: %+v", eps)
	}
	if ds, _ := w.PendingDeliveries("wh_a"); len(ds) != 0 {
		t.Fatalf("%d outstanding deliveries of a deleted endpoint", len(ds))
	}
	if ds, _ := w.PendingDeliveries("wh_b"); len(ds) != 10 {
		t.Fatalf("the other endpoint has %d outstanding deliveries, want 10", len(ds))
	}
	if n := countKeys(t, s, deliveryPrefix("wh_a")); n != 0 {
		t.Fatalf("%d delivery rows of a deleted endpoint", n)
	}
	if n := countKeys(t, s, []byte(persistence.PrefixWebhook+"d/")); n != 10 {
		t.Fatalf("%d delivery rows, want the other endpoint's 10", n)
	}
	if n := countKeys(t, s, []byte(persistence.PrefixWebhook+"b/")); n != 10 {
		t.Fatalf("%d bodies, want the other endpoint's 10", n)
	}
	if c, err := w.RecordOutcomes(ctx, acc1("wh_a"), []*Delivery{attempted(nds[0].Delivery, DeliveryDelivered)}); err != nil || !errors.Is(c[0], ErrDeliveryConflict) {
		t.Fatalf("outcome after the delete: %v %v", c, err)
	}
	if err := w.UpdateEndpoint(ctx, ep, false, nil); !errors.Is(err, ErrEndpointNotFound) {
		t.Fatalf("update after the delete: %v", err)
	}
}

// A durable write survives a power loss once it returned; a write that is
// not durable may be lost, but survives once a later durable write of the
// journal returned.
func TestJournalDurability(t *testing.T) {
	fs := vfs.NewCrashableMem()
	s, err := persistence.OpenWith("db", persistence.Options{FS: fs})
	if err != nil {
		t.Fatal(err)
	}
	w := New(s, Options{})
	newEndpoint(t, w, "acc_1", "wh_a") // durable
	if _, err := create(w, []NewDelivery{newDelivery("wh_a", "evt_lazy", 0)}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := create(w, []NewDelivery{newDelivery("wh_a", "evt_sync", 1)}, true); err != nil {
		t.Fatal(err)
	}
	image := fs.CrashClone(vfs.CrashCloneCfg{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := persistence.OpenWith("db", persistence.Options{FS: image})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	ds, err := New(s2, Options{}).PendingDeliveries("wh_a")
	if err != nil || len(ds) != 2 {
		t.Fatalf("after the power loss: %d outstanding deliveries (%v), want both", len(ds), err)
	}
	for _, d := range ds {
		if _, ok, _ := New(s2, Options{}).EventBody("acc_1", d.EventID); !ok {
			t.Fatalf("%s survived without its body", d.EventID)
		}
	}
}

// A shared batch that deletes the range of an endpoint's deliveries tells
// the store's OnShared listener of that endpoint once it is applied.
func TestSharedRangeDeletionIsHeard(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	d := &Delivery{EndpointID: "we_1", EventID: "evt_1", CreatedAt: time.Unix(1, 0)}
	if err := s.DB().Set(deliveryKey(d), []byte("row"), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	var heard []Change
	New(s, Options{OnShared: func(c Change) { heard = append(heard, c) }})
	b := s.DB().NewBatch()
	_ = b.DeleteRange(deliveryPrefix("we_1"), persistence.PrefixUpperBound(deliveryPrefix("we_1")), nil)
	if err := s.ApplyShared(b.Repr(), "SHARED", 1); err != nil {
		t.Fatal(err)
	}
	_ = b.Close()
	if _, ok, _ := s.Get(deliveryKey(d)); ok {
		t.Fatal("the delivery survived the range deletion")
	}
	if len(heard) != 1 || len(heard[0].Endpoints) != 1 || heard[0].Endpoints[0] != "we_1" {
		t.Fatalf("the listener heard %+v", heard)
	}
}

// A final outcome single-deletes its delivery's w/p row, which a flush
// drops with the row's one set: a delivery resent while still outstanding
// (its row set a second time) must not come back as outstanding once
// delivered and flushed.
func TestPendingRowGoesForGoodAfterAResend(t *testing.T) {
	ctx := context.Background()
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	w := New(s, Options{})
	newEndpoint(t, w, "acc_1", "wh_a")
	nd := newDelivery("wh_a", "evt_1", 0)
	if _, err := create(w, []NewDelivery{nd}, false); err != nil {
		t.Fatal(err)
	}
	failed := attempted(nd.Delivery, DeliveryPending)
	if c, err := w.RecordOutcomes(ctx, acc1("wh_a"), []*Delivery{failed}); err != nil || c[0] != nil {
		t.Fatalf("a failed attempt: %v %v", c, err)
	}
	resent := *failed
	resent.NextAttemptAt = whT0.Add(time.Second)
	if err := w.ResendDelivery(ctx, acc1("wh_a"), &resent); err != nil {
		t.Fatalf("resend of an outstanding delivery: %v", err)
	}
	if c, err := w.RecordOutcomes(ctx, acc1("wh_a"), []*Delivery{attempted(&resent, DeliveryDelivered)}); err != nil || c[0] != nil {
		t.Fatalf("delivered: %v %v", c, err)
	}
	if err := s.DB().Flush(); err != nil {
		t.Fatal(err)
	}
	if ds, err := w.PendingDeliveries("wh_a"); err != nil || len(ds) != 0 {
		t.Fatalf("outstanding after the delivery and a flush: %+v %v", ds, err)
	}
	if n := countKeys(t, s, pendingPrefix("wh_a")); n != 0 {
		t.Fatalf("%d w/p rows left", n)
	}
}

// A trim deletes a run of finished deliveries with one range deletion,
// not a tombstone per row: after a flush, the only point deletions are
// the trimmed events' bodies (the outstanding rows' single deletes met
// their sets in the memtable).
func TestTrimDeletesARunAsARange(t *testing.T) {
	ctx := context.Background()
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	w := New(s, Options{})
	newEndpoint(t, w, "acc_1", "wh_a")
	const keep, total = 5, 50
	for i := range total {
		nd := newDelivery("wh_a", fmt.Sprintf("evt_%04d", i), i)
		if _, err := create(w, []NewDelivery{nd}, false); err != nil {
			t.Fatal(err)
		}
		if _, err := w.RecordOutcomes(ctx, acc1("wh_a"), []*Delivery{attempted(nd.Delivery, DeliveryDelivered)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.TrimDeliveries(ctx, acc1("wh_a"), keep); err != nil {
		t.Fatal(err)
	}
	if n := countKeys(t, s, deliveryPrefix("wh_a")); n != keep {
		t.Fatalf("%d deliveries after the trim, want %d", n, keep)
	}
	if err := s.DB().Flush(); err != nil {
		t.Fatal(err)
	}
	levels, err := s.DB().SSTables(pebble.WithProperties())
	if err != nil {
		t.Fatal(err)
	}
	var dels, rangeDels uint64
	for _, tables := range levels {
		for _, tb := range tables {
			dels += tb.Properties.NumDeletions
			rangeDels += tb.Properties.NumRangeDeletions
		}
	}
	if rangeDels != 1 || dels-rangeDels != total-keep {
		t.Fatalf("%d range deletions and %d point deletions after the trim, want 1 and the %d bodies'", rangeDels, dels-rangeDels, total-keep)
	}
}
