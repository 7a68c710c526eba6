package webhookstore

import (
	"context"
	"crypto/sha256"
	"errors"
	"github.com/orderengine/orderengine/persistence/persistencetest"
	"testing"
	"time"
)

// An idempotency record is written with the endpoint it created or
// re-enabled, never on its own: a refused create leaves none. A later
// record of the account deletes the account's records made before its
// PurgeBefore, not another account's, and not one with its own key.
func TestIdempotentCreateIsWrittenWithItsEndpoint(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	w := New(s, Options{})
	ctx := context.Background()
	rec := func(key string, at time.Time, id string, purge bool) *IdempotentCreate {
		r := &IdempotentCreate{Key: sha256.Sum256([]byte(key)), Fingerprint: sha256.Sum256([]byte("body " + key)), At: at, EndpointID: id, Answer: []byte("sealed " + key)}
		if purge {
			r.PurgeBefore = at.Add(-24 * time.Hour)
		}
		return r
	}
	ep := func(account, id string) *Endpoint {
		return &Endpoint{ID: id, AccountID: account, URL: "https://example.com/" + id, Enabled: true, CreatedAt: whT0, UpdatedAt: whT0}
	}
	stored := func(account, key string) (*IdempotentCreate, bool) {
		t.Helper()
		r, ok, err := w.IdempotentCreate(account, sha256.Sum256([]byte(key)))
		if err != nil {
			t.Fatal(err)
		}
		return r, ok
	}

	if err := w.CreateEndpoint(ctx, ep("acc_1", "wh_1"), 3, rec("old", whT0, "wh_1", false)); err != nil {
		t.Fatal(err)
	}
	if err := w.CreateEndpoint(ctx, ep("acc_2", "wh_2"), 3, rec("other", whT0, "wh_2", false)); err != nil {
		t.Fatal(err)
	}
	got, ok := stored("acc_1", "old")
	if want := rec("old", whT0, "wh_1", false); !ok || got.Fingerprint != want.Fingerprint || !got.At.Equal(whT0) || got.EndpointID != "wh_1" || string(got.Answer) != "sealed old" {
		t.Fatalf("record %+v %v", got, ok)
	}
	// Refused (the limit is 1): no record.
	if err := w.CreateEndpoint(ctx, ep("acc_1", "wh_3"), 1, rec("refused", whT0, "wh_3", false)); !errors.Is(err, ErrEndpointLimit) {
		t.Fatalf("create over the limit: %v", err)
	}
	if _, ok := stored("acc_1", "refused"); ok {
		t.Fatal("a refused create left its record")
	}
	// A day and more later a re-enabling write's record purges acc_1's
	// old one, not acc_2's.
	later := whT0.Add(25 * time.Hour)
	if err := w.UpdateEndpoint(ctx, ep("acc_1", "wh_1"), true, rec("new", later, "wh_1", true)); err != nil {
		t.Fatal(err)
	}
	if _, ok := stored("acc_1", "old"); ok {
		t.Fatal("the account's expired record was kept")
	}
	if _, ok := stored("acc_1", "new"); !ok {
		t.Fatal("the new record is missing")
	}
	if _, ok := stored("acc_2", "other"); !ok {
		t.Fatal("another account's record was purged")
	}
}

// A delivered delivery made outstanding again is pending with its next
// attempt and its attempts kept, listed among the outstanding ones, and
// its next outcome is accepted; a resend that does not hold the stored
// attempts, or of a delivery not stored, is a conflict.
func TestResendDelivery(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	w := New(s, Options{})
	ctx := context.Background()
	ep := newEndpoint(t, w, "acc_1", "wh_1")
	nd := newDelivery("wh_1", "evt_1", 0)
	if _, err := w.CreateDeliveries(ctx, ep, []NewDelivery{nd}, false, 0); err != nil {
		t.Fatal(err)
	}
	done := attempted(nd.Delivery, DeliveryDelivered)
	if c, err := w.RecordOutcomes(ctx, ep, []*Delivery{done}); err != nil || c[0] != nil {
		t.Fatalf("outcome: %v %v", c, err)
	}
	if ds, _ := w.PendingDeliveries("wh_1"); len(ds) != 0 {
		t.Fatalf("%d outstanding after delivery", len(ds))
	}
	loaded, ok, err := w.LoadDelivery("wh_1", "evt_1")
	if err != nil || !ok || loaded.Status != DeliveryDelivered || len(loaded.Attempts) != 1 {
		t.Fatalf("load: %+v %v %v", loaded, ok, err)
	}
	if _, ok, _ := w.LoadDelivery("wh_1", "evt_2"); ok {
		t.Fatal("an unknown delivery loaded")
	}

	again := *loaded
	again.Status, again.NextAttemptAt = DeliveryPending, whT0.Add(time.Minute)
	stale := again
	stale.Attempts = nil
	if err := w.ResendDelivery(ctx, ep, &stale); !errors.Is(err, ErrDeliveryConflict) {
		t.Fatalf("resend holding fewer attempts: %v", err)
	}
	ghost := again
	ghost.EventID = "evt_ghost"
	if err := w.ResendDelivery(ctx, ep, &ghost); !errors.Is(err, ErrDeliveryConflict) {
		t.Fatalf("resend of a delivery not stored: %v", err)
	}
	if err := w.ResendDelivery(ctx, ep, &again); err != nil {
		t.Fatal(err)
	}
	ds, err := w.PendingDeliveries("wh_1")
	if err != nil || len(ds) != 1 || ds[0].Status != DeliveryPending || !ds[0].NextAttemptAt.Equal(again.NextAttemptAt) || len(ds[0].Attempts) != 1 {
		t.Fatalf("outstanding after the resend: %+v %v", ds, err)
	}
	if c, err := w.RecordOutcomes(ctx, ep, []*Delivery{attempted(&again, DeliveryDelivered)}); err != nil || c[0] != nil {
		t.Fatalf("outcome of the resent attempt: %v %v", c, err)
	}
}
