package orderstore

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

// legacyFixtures reads testdata/orders_schema2.jsonl: order records exactly
// as schema 2 stored them (the API's JSON; written by that version's
// encoder), one of each shape (limit, filled dca, triggered trailing with
// a designated keeper, trailing without one, failed stop-loss).
func legacyFixtures(t *testing.T) [][]byte {
	t.Helper()
	return persistencetest.Lines(t, "testdata/orders_schema2.jsonl")
}

// writeLegacyStore writes the fixtures as an older schema would have: the
// JSON records, their four index keys each and, for schema 1, the four
// status-less index keys too; then the schema version.
func writeLegacyStore(t *testing.T, s *persistence.Store, schema uint32, fixtures [][]byte) []*Record {
	t.Helper()
	b := s.DB().NewBatch()
	var want []*Record
	for _, v := range fixtures {
		rec, err := decodeLegacyOrder(v)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, rec)
		_ = b.Set(Key(rec.Hash), v, nil)
		for _, k := range orderIndexKeys(rec, rec.Status) {
			_ = b.Set(k, nil, nil)
		}
		if schema == 1 {
			suffix := IndexEntry{CreatedAt: rec.CreatedAt, Hash: rec.Hash}.suffix()
			for _, mask := range []byte{0, IndexMaker, IndexType, IndexMaker | IndexType} {
				_ = b.Set(append(orderIndexPrefix(mask, rec.Order.Maker, 0, rec.Class), suffix...), nil, nil)
			}
		}
	}
	var v [4]byte
	binary.BigEndian.PutUint32(v[:], schema)
	_ = b.Set(schemaKey(), v[:], nil)
	if err := b.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	return want
}

// noPlatform and noWebhooks stand in for the steps of the platform
// records (chainstore's) and of the webhook records (webhookstore's),
// which this package does not import (each has its own tests): these
// fixtures hold no referral binding, swap record or webhook record.
var (
	noPlatform = persistence.Migration{From: 3, Name: "no platform records", Run: func(*persistence.Store) (int, error) { return 0, nil }}
	noWebhooks = persistence.Migration{From: 4, Name: "no webhook records", Run: func(*persistence.Store) (int, error) { return 0, nil }}
)

// schemaKey is the core's key of the schema version (persistence/keys.go).
func schemaKey() []byte { return []byte("m/schema") }

// migrating are the options that open a store with every migration step
// the fixtures need.
func migrating() persistence.Options {
	return persistence.Options{Migrations: append(slices.Clone(Migrations), noPlatform, noWebhooks)}
}

// openMigrating opens the store in dir with every migration step the
// fixtures need.
func openMigrating(t *testing.T, dir string) *persistence.Store {
	t.Helper()
	s, err := persistence.OpenWith(dir, migrating())
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

// checkMigrated reopens dir and checks the store is at SchemaVersion,
// consistent, and holds want in codec 1 at version 1.
func checkMigrated(t *testing.T, dir string, want []*Record) *persistence.Store {
	t.Helper()
	s := openMigrating(t, dir)
	v, ok, err := s.Get(schemaKey())
	if err != nil || !ok || binary.BigEndian.Uint32(v) != persistence.SchemaVersion {
		t.Fatalf("schema after open: %x %v %v", v, ok, err)
	}
	o := New(s, nil)
	res, err := o.CheckOrders()
	if err != nil || len(res.Problems) != 0 || res.Orders != len(want) || res.IndexEntries != len(want)*len(IndexMasks) {
		t.Fatalf("after migration: %+v, %v", res, err)
	}
	for _, w := range want {
		raw, ok, err := s.Get(Key(w.Hash))
		if err != nil || !ok || raw[0] != orderCodec1 {
			t.Fatalf("order %s not re-encoded: %q %v", w.Hash.Hex(), raw, err)
		}
		got, ok, err := o.Load(w.Hash)
		if err != nil || !ok {
			t.Fatalf("load %s: %v %v", w.Hash.Hex(), ok, err)
		}
		if got.Version != 1 || !reflect.DeepEqual(got, w) {
			t.Fatalf("order %s after migration:\n got %+v\nwant %+v", w.Hash.Hex(), got, w)
		}
	}
	return s
}

// A schema-2 store (JSON records) opens as schema 3: every record is in
// codec 1 at version 1 with the same content, and every list answers.
func TestMigrateSchema2OrderCodec(t *testing.T) {
	dir := t.TempDir()
	s := persistencetest.Open(t, dir)
	fixtures := legacyFixtures(t)
	want := writeLegacyStore(t, s, 2, fixtures)
	// The legacy records carry what the fixtures say, typed.
	if w := want[2]; w.Class != chain.ClassTrailing || w.Trailing == nil || w.Trailing.DesignatedKeeper == nil ||
		*w.Trailing.DesignatedKeeper != common.HexToAddress("0x000000000000000000000000000000000000bEEF") || w.TriggeredAt.IsZero() ||
		w.Executions != 1 || w.FilledIn.Uint64() != 300000 {
		t.Fatalf("legacy trailing order decoded as %+v", w)
	}
	if w := want[1]; w.DCA == nil || !w.DCA.ShortCircuit || w.DCA.IntervalSeconds != 3600 || w.Status != StatusFilled {
		t.Fatalf("legacy dca order decoded as %+v", w)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = checkMigrated(t, dir, want)
	defer s.Close()
	o := New(s, nil)
	maker := want[0].Order.Maker
	all, _, err := o.List(ListFilter{Maker: &maker, Limit: 10})
	if err != nil || len(all) != len(want) {
		t.Fatalf("wallet list after migration: %d, %v", len(all), err)
	}
	trailing, _, err := o.List(ListFilter{Class: chain.ClassTrailing, Limit: 10})
	if err != nil || len(trailing) != 2 {
		t.Fatalf("trailing list after migration: %d, %v", len(trailing), err)
	}
}

// A schema-1 store (eight index keys per order, JSON records) goes through
// both steps: the four status-less keys are gone and the records are in
// codec 1.
func TestMigrateSchema1(t *testing.T) {
	dir := t.TempDir()
	s := persistencetest.Open(t, dir)
	want := writeLegacyStore(t, s, 1, legacyFixtures(t))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = checkMigrated(t, dir, want)
	defer s.Close()
	pending, _, err := New(s, nil).List(ListFilter{Status: StatusPending, Class: chain.ClassTrailing, Limit: 10})
	if err != nil || len(pending) != 1 {
		t.Fatalf("pending trailing list after migration: %d, %v", len(pending), err)
	}
}

// A migration interrupted after some records were re-encoded (the schema
// still says 2) completes at the next start without touching them again.
func TestMigrateOrderCodecResumes(t *testing.T) {
	dir := t.TempDir()
	s := persistencetest.Open(t, dir)
	want := writeLegacyStore(t, s, 2, legacyFixtures(t))
	if err := s.DB().Set(Key(want[0].Hash), appendOrder(nil, want[0]), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	checkMigrated(t, dir, want).Close()
}

// A record that is neither JSON of the old layout nor codec 1 stops the
// migration with an error naming the key, and the store does not open.
func TestMigrateRefusesACorruptRecord(t *testing.T) {
	dir := t.TempDir()
	s := persistencetest.Open(t, dir)
	writeLegacyStore(t, s, 2, legacyFixtures(t))
	if err := s.DB().Set(Key(common.Hash{9}), []byte(`{"orderHash":"nope"}`), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := persistence.OpenWith(dir, migrating())
	if err == nil {
		s.Close()
		t.Fatal("a store with a corrupt order record opened")
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("%x", Key(common.Hash{9}))) {
		t.Fatalf("the error does not name the record's key: %v", err)
	}
}

// A store that needs the order records' steps does not open without them,
// and says which records it lacks a step for.
func TestOrderMigrationsNeededToOpen(t *testing.T) {
	dir := t.TempDir()
	s := persistencetest.Open(t, dir)
	want := writeLegacyStore(t, s, 1, legacyFixtures(t))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	without := persistence.Options{Migrations: []persistence.Migration{noPlatform, noWebhooks}}
	if s, err := persistence.OpenWith(dir, without); err == nil || !strings.Contains(err.Error(), "order records") {
		if s != nil {
			_ = s.Close()
		}
		t.Fatalf("a schema-1 store opened without the order records' steps: %v", err)
	}
	checkMigrated(t, dir, want).Close()
}
