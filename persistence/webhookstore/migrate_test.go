package webhookstore

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

// webhookFixtures reads testdata/webhooks_schema4.jsonl: every webhook row
// a schema-4 store held for three endpoints of two accounts (one disabled)
// and five deliveries (two outstanding of one endpoint, one with two
// failed attempts; one delivered; one failed; one outstanding of another
// account's endpoint), keys in hex, values as that version's Store
// wrote them (JSON; the body base64 in outstanding rows).
func webhookFixtures(t *testing.T) [][2][]byte {
	t.Helper()
	f, err := os.Open("testdata/webhooks_schema4.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var row struct{ Key, Value string }
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		k, err := hex.DecodeString(row.Key)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, [2][]byte{k, []byte(row.Value)})
	}
	if err := sc.Err(); err != nil || len(out) != 11 {
		t.Fatalf("fixtures: %d rows, %v", len(out), err)
	}
	return out
}

// schemaKey is the key of the store's schema version (persistence/keys.go).
func schemaKey() []byte { return []byte("m/schema") }

// noPlatform stands in for the platform records' step (chainstore's,
// which has its own tests): these fixtures hold no referral binding and
// no swap record.
var noPlatform = persistence.Migration{From: 3, Name: "no platform records", Run: func(*persistence.Store) (int, error) { return 0, nil }}

// openMigrating opens the store in dir with the webhook migrations, as the
// engine does, and a stand-in for the platform step, closed when the test
// ends.
func openMigrating(t *testing.T, dir string) *persistence.Store {
	t.Helper()
	s, err := persistence.OpenWith(dir, persistence.Options{Migrations: append([]persistence.Migration{noPlatform}, Migrations...)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// writeOldWebhooks writes the fixtures and the given schema version (the
// webhook layout is the same in every schema before 5).
func writeOldWebhooks(t *testing.T, dir string, version uint32) {
	t.Helper()
	s := persistencetest.Open(t, dir)
	b := s.DB().NewBatch()
	for _, kv := range webhookFixtures(t) {
		_ = b.Set(kv[0], kv[1], nil)
	}
	var v [4]byte
	binary.BigEndian.PutUint32(v[:], version)
	_ = b.Set(schemaKey(), v[:], nil)
	if err := b.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// checkWebhooksMigrated checks a store opened from the schema-4 fixtures.
func checkWebhooksMigrated(t *testing.T, s *persistence.Store) {
	t.Helper()
	if v, _, _ := s.Get(schemaKey()); binary.BigEndian.Uint32(v) != persistence.SchemaVersion {
		t.Fatalf("schema %x after open", v)
	}
	if n := countKeys(t, s, []byte(legacyEndpointPrefix)); n != 0 {
		t.Fatalf("%d endpoint rows left under %s", n, legacyEndpointPrefix)
	}
	if err := scanKeys(s.DB(), []byte(deliveriesPrefix), func(k []byte) bool {
		v, _, _ := s.Get(k)
		if v[0] != deliveryCodec1 {
			t.Errorf("delivery %q not re-encoded: %s", k, v)
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	w := New(s, Options{})
	one, err := w.AccountEndpoints("acc_one")
	if err != nil || len(one) != 2 || one[0].ID != "wh_AAAAAAAAAAAAAAAAAAA1" || one[1].Enabled || one[1].DisabledReason == "" {
		t.Fatalf("acc_one endpoints: %+v %v", one, err)
	}
	if one[0].LastSuccessAt == nil || one[0].FailingSince == nil || string(one[0].SealedSecret) != "sealed-secret-1-bytes" ||
		len(one[0].Events) != 2 || one[0].URL != "https://hooks.example.com/a" {
		t.Fatalf("endpoint 1 after migration: %+v", one[0])
	}
	if two, _ := w.AccountEndpoints("acc_two"); len(two) != 1 || two[0].ID != "wh_AAAAAAAAAAAAAAAAAAA3" {
		t.Fatalf("acc_two endpoints: %+v", two)
	}
	if all, _ := w.Endpoints(); len(all) != 3 {
		t.Fatalf("%d endpoints", len(all))
	}
	at := func(m int) time.Time { return time.Date(2026, 11, 20, 9, 30+m, 0, 0, time.UTC) }
	pending, err := w.PendingDeliveries("wh_AAAAAAAAAAAAAAAAAAA1")
	if err != nil || len(pending) != 2 {
		t.Fatalf("outstanding of endpoint 1: %+v %v", pending, err)
	}
	want := &Delivery{EndpointID: "wh_AAAAAAAAAAAAAAAAAAA1", EventID: "evt_pending2", Trigger: persistence.TriggerOrderCancelled,
		CreatedAt: at(11), Status: DeliveryPending, NextAttemptAt: at(16), Attempts: []Attempt{
			{N: 1, At: at(11), StatusCode: 500, LatencyMs: 12, Error: "HTTP 500"},
			{N: 2, At: at(11).Add(5 * time.Second), LatencyMs: 10000, Error: "timeout"}}}
	if got := pending[1]; pending[0].EventID != "evt_pending0" || !reflect.DeepEqual(got, want) { // oldest first
		t.Fatalf("outstanding deliveries %+v %+v, the second should be %+v", pending[0], pending[1], want)
	}
	recent, _ := w.RecentDeliveries("wh_AAAAAAAAAAAAAAAAAAA1", 10)
	if len(recent) != 3 || recent[0].EventID != "evt_pending2" || recent[2].EventID != "evt_delivered" ||
		recent[2].Status != DeliveryDelivered || len(recent[2].Attempts) != 1 || recent[2].Attempts[0].StatusCode != 204 {
		t.Fatalf("history of endpoint 1, newest first: %+v", recent)
	}
	if failed, _ := w.RecentDeliveries("wh_AAAAAAAAAAAAAAAAAAA2", 10); len(failed) != 1 || failed[0].Status != DeliveryFailed || !failed[0].NextAttemptAt.IsZero() {
		t.Fatalf("history of endpoint 2: %+v", failed)
	}
	if other, _ := w.PendingDeliveries("wh_AAAAAAAAAAAAAAAAAAA3"); len(other) != 1 || other[0].EventID != "evt_other" {
		t.Fatalf("outstanding of endpoint 3: %+v", other)
	}
	// Outstanding deliveries keep their body (the outbox row's JSON, once
	// base64 inside the row); finished ones had none.
	body, ok, _ := w.EventBody("acc_one", "evt_pending2")
	if !ok || string(body) != `{"id":"evt_pending2","trigger":"order.cancelled","createdAt":"2026-11-20T09:30:00Z","data":{"orderType":"limit","amountIn":"1000","amountOut":"990","orderHash":"0x01"}}` {
		t.Fatalf("body of evt_pending2: %s", body)
	}
	for ev, want := range map[[2]string]bool{{"acc_one", "evt_pending0"}: true, {"acc_two", "evt_other"}: true,
		{"acc_one", "evt_delivered"}: false, {"acc_one", "evt_failed"}: false} {
		if _, ok, _ := w.EventBody(ev[0], ev[1]); ok != want {
			t.Fatalf("body of %s stored %v, want %v", ev, ok, want)
		}
	}
	if n := countKeys(t, s, []byte(persistence.PrefixWebhook+"b/")); n != 3 {
		t.Fatalf("%d bodies, want the 3 outstanding deliveries'", n)
	}
}

// A schema-4 store opens as schema 5 with its webhook records in the new
// layout, and the journal works on them; so does a schema-3 store, through
// both steps.
func TestMigrateSchema4Webhooks(t *testing.T) {
	for _, from := range []uint32{3, 4} {
		dir := t.TempDir()
		writeOldWebhooks(t, dir, from)
		checkWebhooksMigrated(t, openMigrating(t, dir))
	}
	dir := t.TempDir()
	writeOldWebhooks(t, dir, 4)
	s := openMigrating(t, dir)
	w := New(s, Options{})
	d := attempted(&Delivery{EndpointID: "wh_AAAAAAAAAAAAAAAAAAA3", EventID: "evt_other", Trigger: persistence.TriggerOrderExpired,
		CreatedAt: time.Date(2026, 11, 20, 9, 50, 0, 0, time.UTC), Status: DeliveryPending}, DeliveryDelivered)
	if c, err := w.RecordOutcomes(t.Context(), &Endpoint{ID: d.EndpointID, AccountID: "acc_two"}, []*Delivery{d}); err != nil || c[0] != nil {
		t.Fatalf("outcome of a migrated delivery: %v %v", c, err)
	}
}

// A migration interrupted after its first batches (here: the endpoints and
// one delivery moved, the schema still 4) completes at the next start, and
// running it again changes nothing.
func TestMigrateWebhooksResumes(t *testing.T) {
	dir := t.TempDir()
	writeOldWebhooks(t, dir, 4)
	// Part of the way by hand, on the bare database (no migration runs).
	s, err := pebble.Open(dir, &pebble.Options{FormatMajorVersion: persistence.FormatMajorVersion})
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateEndpoints(s); err != nil {
		t.Fatal(err)
	}
	b := s.NewBatch()
	kv := webhookFixtures(t)[1] // an outstanding one
	if err := migrateDelivery(b, kv[0], kv[1], map[string]string{"wh_AAAAAAAAAAAAAAAAAAA1": "acc_one"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	st := openMigrating(t, dir)
	checkWebhooksMigrated(t, st)
	if n, err := migrateWebhooks(st); err != nil || n != 0 {
		t.Fatalf("a second run rewrote %d deliveries (%v)", n, err)
	}
	checkWebhooksMigrated(t, st)
}

// A store that needs the webhook records' migration does not open without
// it, and says which step it lacks; nothing is rewritten.
func TestMigrationNeededToOpen(t *testing.T) {
	dir := t.TempDir()
	writeOldWebhooks(t, dir, 4)
	if s, err := persistence.Open(dir, nil); err == nil || !strings.Contains(err.Error(), "webhook records") {
		if s != nil {
			_ = s.Close()
		}
		t.Fatalf("a schema-4 store opened without its migration: %v", err)
	}
	s := openMigrating(t, dir)
	checkWebhooksMigrated(t, s)
}
