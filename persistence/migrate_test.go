package persistence

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// setSchema writes v as the schema version of the store in dir, as an
// older binary left it.
func setSchema(t *testing.T, dir string, v uint32) {
	t.Helper()
	s := openTemp(t, dir)
	var buf [4]byte
	binary.BigEndian.PutUint32(buf[:], v)
	if err := s.db.Set(schemaKey(), buf[:], pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// schemaOf returns the schema version of the store in dir, read without
// opening the store (which would migrate it).
func schemaOf(t *testing.T, dir string) uint32 {
	t.Helper()
	db, err := pebble.Open(dir, &pebble.Options{ReadOnly: true, FormatMajorVersion: FormatMajorVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	v, ok, err := ReaderGet(db, schemaKey())
	if err != nil || !ok || len(v) != 4 {
		t.Fatalf("schema: %x %v %v", v, ok, err)
	}
	return binary.BigEndian.Uint32(v)
}

// An older store opens only with every step from its version on, given in
// any order; they run in version order, each version's once it is
// reached. Without a step the open stops there and says which records
// lack it; a step that fails stops the open with its error. Either way
// the store stays at the version of the step that did not run, so the
// next open starts there.
func TestMigrateRunsTheGivenStepsInOrder(t *testing.T) {
	dir := t.TempDir()
	setSchema(t, dir, 3)
	var ran []uint32
	step := func(from uint32, err error) Migration {
		return Migration{From: from, Name: "test step", Run: func(*Store) (int, error) {
			ran = append(ran, from)
			return 0, err
		}}
	}
	if s, err := OpenWith(dir, Options{Migrations: []Migration{step(3, nil)}}); err == nil || !strings.Contains(err.Error(), "webhook records") {
		if s != nil {
			_ = s.Close()
		}
		t.Fatalf("opened without the step from 4: %v", err)
	}
	if got := schemaOf(t, dir); got != 4 || len(ran) != 1 || ran[0] != 3 {
		t.Fatalf("without the step from 4: schema %d, steps run %v", got, ran)
	}
	failed := errors.New("step failed")
	ran = nil
	if _, err := OpenWith(dir, Options{Migrations: []Migration{step(4, failed), step(3, nil)}}); !errors.Is(err, failed) {
		t.Fatalf("a failing step: %v", err)
	}
	if got := schemaOf(t, dir); got != 4 || len(ran) != 1 || ran[0] != 4 {
		t.Fatalf("after a failing step: schema %d, steps run %v", got, ran)
	}
	ran = nil
	s, err := OpenWith(dir, Options{Migrations: []Migration{step(4, nil), step(3, nil)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := schemaOf(t, dir); got != SchemaVersion || len(ran) != 1 || ran[0] != 4 {
		t.Fatalf("after the migration: schema %d, steps run %v", got, ran)
	}
}

// RewritePrefix hands fn every record under the prefix once, in key
// order, across chunks, and none outside it; it counts the records fn
// rewrote and commits their replacements. At fn's first error it stops:
// the chunks before are committed, the failing one is not.
func TestRewritePrefixAcrossChunks(t *testing.T) {
	s := openTemp(t, t.TempDir())
	defer s.Close()
	b := s.db.NewBatch()
	for i := range 10 {
		v := "old"
		if i%4 == 0 {
			v = "new" // already rewritten by an interrupted run
		}
		_ = b.Set([]byte(fmt.Sprintf("rw/%02d", i)), []byte(v), nil)
	}
	_ = b.Set([]byte("rx/00"), []byte("old"), nil)
	if err := b.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	var seen []string
	n, err := s.RewritePrefix([]byte("rw/"), 3, func(b *pebble.Batch, key, v []byte) (bool, error) {
		seen = append(seen, string(key))
		if string(v) == "new" {
			return false, nil
		}
		return true, b.Set(key, []byte("new"), nil)
	})
	if err != nil || n != 7 || len(seen) != 10 || seen[0] != "rw/00" || seen[9] != "rw/09" || !slices.IsSorted(seen) {
		t.Fatalf("rewrote %d (%v), saw %v", n, err, seen)
	}
	for i := range 10 {
		if v, _, _ := s.Get([]byte(fmt.Sprintf("rw/%02d", i))); string(v) != "new" {
			t.Fatalf("rw/%02d is %q after the rewrite", i, v)
		}
	}
	if v, _, _ := s.Get([]byte("rx/00")); string(v) != "old" {
		t.Fatalf("a record outside the prefix was rewritten: %q", v)
	}
	failed := errors.New("bad record")
	n, err = s.RewritePrefix([]byte("rw/"), 3, func(b *pebble.Batch, key, v []byte) (bool, error) {
		if string(key) == "rw/04" {
			return false, failed
		}
		return true, b.Set(key, []byte("newer"), nil)
	})
	if !errors.Is(err, failed) {
		t.Fatalf("a failing rewrite: %d %v", n, err)
	}
	if v, _, _ := s.Get([]byte("rw/02")); string(v) != "newer" {
		t.Fatalf("the chunk before the failure was not committed: %q", v)
	}
	if v, _, _ := s.Get([]byte("rw/03")); string(v) != "new" {
		t.Fatalf("the failing chunk was committed: %q", v)
	}
}
