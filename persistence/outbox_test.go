package persistence

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

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
	// highest logged one.
	if err := o.Consume(map[string]uint64{"acc_1": got[0].Seq + 1, "acc_2": r5.seqs[0] + 1}); err != nil {
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
	if err := o.Consume(map[string]uint64{"acc_1": r1.seqs[0] + 1}); err != nil {
		t.Fatal(err)
	}
	if got, _ := o.Scan("acc_1", 0, 10); len(got) != 2 || got[0].Seq != r2.seqs[0] {
		t.Fatalf("after delete: %+v", got)
	}
}

// logSeqs returns the seqs in acct's event log.
func logSeqs(t *testing.T, s *Store, acct string) []uint64 {
	t.Helper()
	p := eventLogAccountPrefix(acct)
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: PrefixUpperBound(p)})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []uint64
	for ok := it.First(); ok; ok = it.Next() {
		out = append(out, binary.BigEndian.Uint64(it.Key()[len(p):]))
	}
	return out
}

// seqRange returns [from, to).
func seqRange(from, to uint64) []uint64 {
	var out []uint64
	for s := from; s < to; s++ {
		out = append(out, s)
	}
	return out
}

// The log's trims never delete an event the fan-out has not handed on:
// the count window waits at the cursor and catches up once it moves;
// TrimLog deletes old rows only before the cursor.
func TestOutboxCursorHoldsTheLog(t *testing.T) {
	s := openTemp(t, t.TempDir())
	defer s.Close()
	o := NewOutbox(s, nil, nil)
	o.LogKeep = 4
	stage := func(n int) {
		t.Helper()
		for range n {
			b, st := appendOne(t, o, s, "acc_1", TriggerOrderFilled)
			if err := commitOne(o, b, st); err != nil {
				t.Fatal(err)
			}
		}
	}
	stage(10)
	if got := logSeqs(t, s, "acc_1"); !slices.Equal(got, seqRange(0, 10)) {
		t.Fatalf("log before any event was handed on: %v, want every event", got)
	}
	if accts, err := o.OutboxAccounts(); err != nil || !slices.Equal(accts, []string{"acc_1"}) {
		t.Fatalf("accounts to resume: %v %v", accts, err)
	}
	if got := o.Behind(); !slices.Equal(got, []string{"acc_1"}) {
		t.Fatalf("accounts behind: %v", got)
	}
	if n, ok, err := o.Unfanned(100); n != 10 || !ok || err != nil {
		t.Fatalf("unfanned %d %v %v, want 10", n, ok, err)
	}
	if err := o.Consume(map[string]uint64{"acc_1": 8}); err != nil {
		t.Fatal(err)
	}
	if rows, err := o.ScanRows("acc_1", 0, 100); err != nil || len(rows) != 2 || rows[0].Seq != 8 {
		t.Fatalf("rows from 0 after the cursor moved to 8: %+v %v", rows, err)
	}
	stage(1) // seq 10: the window is 7..10, the cursor 8
	if got := logSeqs(t, s, "acc_1"); !slices.Equal(got, seqRange(7, 11)) {
		t.Fatalf("log after the cursor moved: %v, want 7..10", got)
	}
	if n, err := o.TrimLog(time.Now().Add(time.Hour)); err != nil || n != 1 {
		t.Fatalf("trim of everything old: %d %v, want the 1 row before the cursor", n, err)
	}
	if got := logSeqs(t, s, "acc_1"); !slices.Equal(got, seqRange(8, 11)) {
		t.Fatalf("log after the trim: %v, want 8..10 (not handed on)", got)
	}
	if n, ok, err := o.Unfanned(100); n != 3 || !ok || err != nil {
		t.Fatalf("unfanned %d %v %v, want 3", n, ok, err)
	}
	// A window held back far catches up a few rows per append.
	o2 := NewOutbox(s, nil, nil)
	o2.LogKeep = 4
	for range 40 {
		b, st := appendOne(t, o2, s, "acc_2", TriggerOrderFilled)
		if err := commitOne(o2, b, st); err != nil {
			t.Fatal(err)
		}
	}
	if err := o2.Consume(map[string]uint64{"acc_2": 40}); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		b, st := appendOne(t, o2, s, "acc_2", TriggerOrderFilled)
		if err := commitOne(o2, b, st); err != nil {
			t.Fatal(err)
		}
		if got, want := len(logSeqs(t, s, "acc_2")), max(41+i-trimMax*(i+1), 4); got != want {
			t.Fatalf("after %d appends past the cursor: %d rows, want %d", i+1, got, want)
		}
	}
}

// An account's seq never goes back to an event handed on, even when its
// whole log was trimmed: a new event there would be taken for one.
func TestOutboxSeqResumesAtTheCursor(t *testing.T) {
	dir := t.TempDir()
	s := openTemp(t, dir)
	o := NewOutbox(s, nil, nil)
	for range 3 {
		b, st := appendOne(t, o, s, "acc_1", TriggerOrderFilled)
		if err := commitOne(o, b, st); err != nil {
			t.Fatal(err)
		}
	}
	if err := o.Consume(map[string]uint64{"acc_1": 3}); err != nil {
		t.Fatal(err)
	}
	if n, err := o.TrimLog(time.Now().Add(time.Hour)); err != nil || n != 3 {
		t.Fatalf("trim: %d %v", n, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openTemp(t, dir)
	defer s.Close()
	o = NewOutbox(s, nil, nil)
	if accts, err := o.OutboxAccounts(); err != nil || len(accts) != 0 {
		t.Fatalf("accounts to resume with every event handed on: %v %v", accts, err)
	}
	if got := o.Behind(); len(got) != 0 {
		t.Fatalf("accounts behind with every event handed on: %v", got)
	}
	b, st := appendOne(t, o, s, "acc_1", TriggerOrderExpired)
	if st.seqs[0] != 3 {
		t.Fatalf("seq after the reopen %d, want 3", st.seqs[0])
	}
	if err := commitOne(o, b, st); err != nil {
		t.Fatal(err)
	}
	if rows, err := o.ScanRows("acc_1", 0, 10); err != nil || len(rows) != 1 || rows[0].Trigger != TriggerOrderExpired {
		t.Fatalf("rows: %+v %v", rows, err)
	}
}

// A store of schema 5 keeps the events its outbox rows held: each account
// with rows left gets its cursor at the lowest, a row whose log row is
// gone is logged again, and an account without rows left has every
// logged event handed on. The step runs again to the same result.
func TestOutboxRowsBecomeCursors(t *testing.T) {
	dir := t.TempDir()
	setSchema(t, dir, 5)
	s := openTemp(t, dir) // schema 6 again: write the old layout by hand
	ev := func(acct string, seq uint64) []byte {
		e := OutboxEvent{ID: fmt.Sprintf("evt_%s_%d", acct, seq), Trigger: TriggerOrderFilled, CreatedAt: time.Unix(1700000000, 0).UTC()}
		v, err := e.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	logAt := binary.BigEndian.AppendUint64(nil, uint64(time.Unix(1700000000, 0).UnixNano()))
	for _, r := range []struct {
		acct string
		seq  uint64
	}{{"acc_1", 0}, {"acc_1", 1}, {"acc_1", 2}, {"acc_1", 4}, {"acc_2", 0}, {"acc_2", 1}} {
		if err := s.db.Set(eventLogKey(r.acct, r.seq), append(slices.Clone(logAt), ev(r.acct, r.seq)...), nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, seq := range []uint64{3, 4} {
		if err := s.db.Set(outboxRowKey("acc_1", seq), ev("acc_1", seq), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	setSchema(t, dir, 5)
	s = openTemp(t, dir)
	defer s.Close()
	if v, _, err := s.Get(schemaKey()); err != nil || binary.BigEndian.Uint32(v) != SchemaVersion {
		t.Fatalf("schema %x after the open (%v)", v, err)
	}
	check := func() {
		t.Helper()
		for acct, want := range map[string]uint64{"acc_1": 3, "acc_2": 2} {
			if got, ok, err := s.Get(OutboxCursorKey(acct)); err != nil || !ok || binary.BigEndian.Uint64(got) != want {
				t.Fatalf("cursor of %s: %x %v, want %d", acct, got, err, want)
			}
		}
		if got := logSeqs(t, s, "acc_1"); !slices.Equal(got, seqRange(0, 5)) {
			t.Fatalf("acc_1's log: %v, want 0..4 (3 logged again)", got)
		}
		p := []byte(PrefixOutbox)
		it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: PrefixUpperBound(p)})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for ok := it.First(); ok; ok = it.Next() {
			n++
		}
		_ = it.Close()
		if n != 2 {
			t.Fatalf("%d keys under e/, want the 2 cursors", n)
		}
	}
	check()
	if _, err := outboxToCursors(s); err != nil {
		t.Fatal(err)
	}
	check()
	o := NewOutbox(s, nil, nil)
	if accts, err := o.OutboxAccounts(); err != nil || !slices.Equal(accts, []string{"acc_1"}) {
		t.Fatalf("accounts to resume: %v %v", accts, err)
	}
	// Resumed accounts are loaded: the sweep finds them from memory.
	if got := o.Behind(); !slices.Equal(got, []string{"acc_1"}) {
		t.Fatalf("accounts behind after the resume: %v", got)
	}
	rows, err := o.ScanRows("acc_1", 0, 10)
	if err != nil || len(rows) != 2 || rows[0].Seq != 3 || rows[1].Seq != 4 || string(rows[0].JSON) != string(ev("acc_1", 3)) || rows[0].ID != "evt_acc_1_3" {
		t.Fatalf("acc_1's events not handed on: %+v %v", rows, err)
	}
}
