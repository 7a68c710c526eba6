package persistence

import (
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// appendOne stages one event in a batch of its own, as a producer does
// with its transition's writes.
func appendOne(t *testing.T, o *Outbox, s *Store, acct, trigger string) (*pebble.Batch, *StagedEvents) {
	t.Helper()
	b := s.DB().NewBatch()
	st, err := o.stage(b, acct, []OutboxEvent{{Trigger: trigger, Data: EventData{OrderHash: "0xabc"}}})
	if err != nil {
		t.Fatal(err)
	}
	return b, st
}

// commitOne commits a staged batch and settles it as durable.
func commitOne(o *Outbox, b *pebble.Batch, st *StagedEvents) error {
	err := b.Commit(pebble.Sync)
	o.Settle(st, err == nil)
	return err
}

func TestOutboxOrderingAndVisibility(t *testing.T) {
	dir := t.TempDir()
	s := openTemp(t, dir)
	o := NewOutbox(s, nil, nil)
	// changed reports whether the consumer was signalled, and for which
	// accounts.
	changed := func() []string {
		select {
		case <-o.Changed():
			got := o.TakeChanged()
			slices.Sort(got)
			return got
		default:
			return nil
		}
	}

	b1, r1 := appendOne(t, o, s, "acc_1", TriggerOrderCancelled)
	b2, r2 := appendOne(t, o, s, "acc_1", TriggerOrderFilled)
	if r2.seqs[0] != r1.seqs[0]+1 {
		t.Fatalf("seqs %d, %d not consecutive", r1.seqs[0], r2.seqs[0])
	}
	// The later event commits first: it must stay invisible while the
	// earlier one is in flight, or a consumer could skip the earlier one.
	if err := commitOne(o, b2, r2); err != nil {
		t.Fatal(err)
	}
	if got, _ := o.Scan("acc_1", 0, 10); len(got) != 0 {
		t.Fatalf("visible past an in-flight seq: %+v", got)
	}
	if got := changed(); !slices.Equal(got, []string{"acc_1"}) {
		t.Fatalf("changed after the first settle: %v", got)
	}
	if got := changed(); got != nil {
		t.Fatalf("signalled again with nothing settled: %v", got)
	}
	if err := commitOne(o, b1, r1); err != nil {
		t.Fatal(err)
	}
	got, err := o.Scan("acc_1", 0, 10)
	if err != nil || len(got) != 2 || got[0].Event.Trigger != TriggerOrderCancelled || got[1].Event.Trigger != TriggerOrderFilled {
		t.Fatalf("scan: %+v %v", got, err)
	}
	if got[0].Event.ID == "" || got[0].Event.CreatedAt.IsZero() || got[0].Event.Data.OrderHash != "0xabc" {
		t.Fatalf("event not filled in: %+v", got[0].Event)
	}
	b5, r5 := appendOne(t, o, s, "acc_2", TriggerOrderFilled)
	if err := commitOne(o, b5, r5); err != nil {
		t.Fatal(err)
	}
	if got := changed(); !slices.Equal(got, []string{"acc_1", "acc_2"}) {
		t.Fatalf("changed accounts %v, want both", got)
	}
	rows, err := o.ScanRows("acc_1", 0, 10)
	if err != nil || len(rows) != 2 || rows[0].ID != got[0].Event.ID || rows[0].Trigger != TriggerOrderCancelled {
		t.Fatalf("rows %+v %v", rows, err)
	}
	if want, _ := got[0].Event.AppendJSON(nil); string(rows[0].JSON) != string(want) {
		t.Fatalf("row JSON %s, want the event's JSON %s", rows[0].JSON, want)
	}
	if rest, _ := o.Scan("acc_1", got[0].Seq+1, 10); len(rest) != 1 || rest[0].Seq != got[1].Seq {
		t.Fatalf("scan from cursor: %+v", rest)
	}
	if other, _ := o.Scan("acc_2", 0, 10); len(other) != 1 || other[0].Event.Trigger != TriggerOrderFilled {
		t.Fatalf("another account's events mixed in: %+v", other)
	}

	// An abandoned batch leaves a gap and does not block.
	b3, r3 := appendOne(t, o, s, "acc_1", TriggerOrderExpired)
	_ = b3.Close()
	o.Settle(r3, false)
	if got, _ := o.Scan("acc_1", 0, 10); len(got) != 2 {
		t.Fatalf("abandoned event visible or blocking: %+v", got)
	}

	// Consume the first (and acc_2's), reopen: seq resumes after the
	// highest present key.
	if err := o.Consume(map[string][]uint64{"acc_1": {got[0].Seq}, "acc_2": {r5.seqs[0]}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openTemp(t, dir)
	defer s.Close()
	o = NewOutbox(s, nil, nil)
	accts, err := o.OutboxAccounts()
	if err != nil || len(accts) != 1 || accts[0] != "acc_1" {
		t.Fatalf("accounts: %v %v", accts, err)
	}
	b4, r4 := appendOne(t, o, s, "acc_1", TriggerOrderFailed)
	if r4.seqs[0] != got[1].Seq+1 {
		t.Fatalf("seq after reopen %d, want %d", r4.seqs[0], got[1].Seq+1)
	}
	if err := commitOne(o, b4, r4); err != nil {
		t.Fatal(err)
	}
	left, _ := o.Scan("acc_1", 0, 10)
	if len(left) != 2 || left[0].Event.Trigger != TriggerOrderFilled || left[1].Event.Trigger != TriggerOrderFailed {
		t.Fatalf("after reopen: %+v", left)
	}
}

// TestOutboxMemoryAndDiskPathsAgree mixes events settled as durable
// (served from memory) with one on disk but not cached (read from disk) and
// one abandoned: Scan returns exactly the durable ones, in order, from any
// cursor.
func TestOutboxMemoryAndDiskPathsAgree(t *testing.T) {
	s := openTemp(t, t.TempDir())
	defer s.Close()
	o := NewOutbox(s, nil, nil)
	b1, r1 := appendOne(t, o, s, "acc_1", TriggerOrderFilled)
	if err := commitOne(o, b1, r1); err != nil {
		t.Fatal(err)
	}
	b2, r2 := appendOne(t, o, s, "acc_1", TriggerOrderCancelled)
	if err := b2.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	o.Settle(r2, false) // on disk, not cached: Scan reads it back
	b3, r3 := appendOne(t, o, s, "acc_1", TriggerOrderExpired)
	_ = b3.Close()
	o.Settle(r3, false) // abandoned: never durable
	b4, r4 := appendOne(t, o, s, "acc_1", TriggerOrderFailed)
	if err := commitOne(o, b4, r4); err != nil {
		t.Fatal(err)
	}
	want := []string{TriggerOrderFilled, TriggerOrderCancelled, TriggerOrderFailed}
	for from := uint64(0); from <= r4.seqs[0]+1; from++ {
		got, err := o.Scan("acc_1", from, 10)
		if err != nil {
			t.Fatal(err)
		}
		var triggers []string
		for _, e := range got {
			if e.Seq < from {
				t.Fatalf("from %d: got seq %d", from, e.Seq)
			}
			triggers = append(triggers, e.Event.Trigger)
		}
		rows, err := o.ScanRows("acc_1", from, 10)
		if err != nil || len(rows) != len(got) {
			t.Fatalf("from %d: %d rows, %d events (%v)", from, len(rows), len(got), err)
		}
		for i, r := range rows {
			if r.Seq != got[i].Seq || r.ID != got[i].Event.ID || r.Trigger != got[i].Event.Trigger {
				t.Fatalf("from %d: row %+v, event %+v", from, r, got[i])
			}
		}
		var exp []string
		for i, seq := range []uint64{r1.seqs[0], r2.seqs[0], r4.seqs[0]} {
			if seq >= from {
				exp = append(exp, want[i])
			}
		}
		if strings.Join(triggers, ",") != strings.Join(exp, ",") {
			t.Fatalf("from %d: %v, want %v", from, triggers, exp)
		}
	}
	// A consumed event disappears from both paths.
	if err := o.Consume(map[string][]uint64{"acc_1": {r1.seqs[0]}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := o.Scan("acc_1", 0, 10); len(got) != 2 || got[0].Seq != r2.seqs[0] {
		t.Fatalf("after delete: %+v", got)
	}
}
