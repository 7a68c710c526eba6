package persistence

import (
	"bytes"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
)

// TestApplySharedRefusesChainData: a shared batch may not write chain-bound
// records, positions or metadata.
func TestApplySharedRefusesChainData(t *testing.T) {
	s := openTestStore(t)
	for _, key := range [][]byte{append([]byte(PrefixOrder), common.Hash{1}.Bytes()...), []byte("m/schema"), []byte("g/SHARED"), []byte("zz-unknown")} {
		b := s.db.NewBatch()
		_ = b.Set(key, []byte("x"), nil)
		if err := s.ApplyShared(b.Repr(), "SHARED", 1); err == nil {
			t.Errorf("a shared batch wrote %q", key)
		}
		_ = b.Close()
	}
	b := s.db.NewBatch()
	_ = b.Set([]byte(PrefixAccount+"acc_1"), []byte(`{"id":"acc_1"}`), nil)
	if err := s.ApplyShared(b.Repr(), "SHARED", 1); err != nil {
		t.Fatal(err)
	}
	if v, ok, _ := s.Get([]byte(PrefixAccount + "acc_1")); !ok || string(v) != `{"id":"acc_1"}` {
		t.Fatalf("account %q %v", v, ok)
	}
}

// openTestStore opens a store in a temporary folder, closed at the end.
func openTestStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// TestApplySharedRangeDeletions: a shared batch may delete a range within
// one kind of shared record (a webhook endpoint's deliveries), never a
// range that reaches other kinds or the outbox; applied, the range is gone
// and the listeners hear its start (webhookstore's test: the endpoint's).
func TestApplySharedRangeDeletions(t *testing.T) {
	s := openTestStore(t)
	refused := [][2][]byte{
		{[]byte(PrefixAccount), []byte(PrefixWebhook + "z")}, // accounts to webhooks: every kind between
		{[]byte(PrefixWebhook + "d/"), []byte("x")},          // out of the webhook records
		{[]byte(PrefixOutbox), PrefixUpperBound([]byte(PrefixOutbox))},
	}
	for _, r := range refused {
		b := s.db.NewBatch()
		_ = b.DeleteRange(r[0], r[1], nil)
		if err := s.ApplyShared(b.Repr(), "SHARED", 1); err == nil {
			t.Errorf("a shared batch deleted [%q, %q)", r[0], r[1])
		}
		_ = b.Close()
	}
	prefix := []byte(PrefixWebhook + "d/we_1/")
	row := append(bytes.Clone(prefix), "evt_1"...)
	if err := s.db.Set(row, []byte("row"), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	var heard [][]byte
	s.OnSharedApplied(func(keys [][]byte) { heard = append(heard, keys...) })
	b := s.db.NewBatch()
	_ = b.DeleteRange(prefix, PrefixUpperBound(prefix), nil)
	if err := s.ApplyShared(b.Repr(), "SHARED", 2); err != nil {
		t.Fatal(err)
	}
	_ = b.Close()
	if _, ok, _ := s.Get(row); ok {
		t.Fatal("the row survived the range deletion")
	}
	if len(heard) != 1 || !bytes.Equal(heard[0], prefix) {
		t.Fatalf("the listener heard %q", heard)
	}
}
