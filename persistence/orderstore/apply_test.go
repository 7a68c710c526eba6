package orderstore

import (
	"reflect"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

// TestTransitionCodecRoundTrip: a transition with every part survives the
// codec, and the events get the id and time every node then writes.
func TestTransitionCodecRoundTrip(t *testing.T) {
	rec := testRecord(7, StatusCancelled)
	rec.Version, rec.AccountID, rec.Reason = 3, "acc_1", "maker"
	bind := common.HexToAddress("0x00000000000000000000000000000000000000b1")
	in := &Transition{Record: rec, Expect: 2, Prev: StatusPending, Bind: &bind,
		Ledger: []LedgerEntry{{TxHash: common.HexToHash("0x01"), LogIndex: 4, Kind: LedgerCancel}, {LogIndex: LedgerNoLog, Kind: LedgerOffChain}},
		Events: []persistence.OutboxEvent{{Trigger: persistence.TriggerOrderCancelled, Data: persistence.EventData{OrderHash: rec.Hash.Hex()}}}}
	now := time.Unix(1_800_000_123, 0)
	b, err := EncodeTransition(in, now)
	if err != nil {
		t.Fatal(err)
	}
	if in.Events[0].ID == "" || !in.Events[0].CreatedAt.Equal(now) {
		t.Fatalf("event not stamped: %+v", in.Events[0])
	}
	out, err := DecodeTransition(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("round trip:\n in %+v\nout %+v", in, out)
	}
	if _, err := DecodeTransition(b[:len(b)-1]); err == nil {
		t.Fatal("a truncated transition decoded")
	}
	bad := *in
	bad.Expect = 5
	if _, err := EncodeTransition(&bad, now); err == nil {
		t.Fatal("a version that does not follow Expect was encoded")
	}
}

// TestOrderApplyIdempotent: applying a log's transitions writes what a local
// append writes, with the position in the same batch; applying them again
// (or an older version) changes nothing and reports nothing to the feed.
func TestOrderApplyIdempotent(t *testing.T) {
	s := persistencetest.OpenShared(t, nil)
	o := New(s, persistence.NewOutbox(s, nil, nil))
	rec := testRecord(1, StatusPending)
	rec.AccountID = "acc_1"
	v2 := rec.Clone()
	v2.Version, v2.Status = 2, StatusCancelled
	ts := []*Transition{
		{Record: rec},
		{Record: v2, Expect: 1, Prev: StatusPending, Ledger: []LedgerEntry{{LogIndex: LedgerNoLog, Kind: LedgerOffChain}},
			Events: []persistence.OutboxEvent{{ID: "evt_1", Trigger: persistence.TriggerOrderCancelled, CreatedAt: time.Unix(1, 0).UTC()}}},
	}
	changes := applyAll(t, o, "ORDERS_0", 7, ts...)
	if len(changes) != 2 || changes[0].Prev != 0 || changes[1].Prev != StatusPending || changes[1].Record.Status != StatusCancelled {
		t.Fatalf("changes %+v", changes)
	}
	if pos, err := o.LogPosition("ORDERS_0"); err != nil || pos != 7 {
		t.Fatalf("position %d %v", pos, err)
	}
	if again := applyAll(t, o, "ORDERS_0", 8, ts...); len(again) != 0 {
		t.Fatalf("a second apply reported %d changes", len(again))
	}
	got, ok, err := o.Load(rec.Hash)
	if err != nil || !ok || got.Version != 2 || got.Status != StatusCancelled {
		t.Fatalf("stored %+v %v %v", got, ok, err)
	}
	list, _, err := o.List(ListFilter{Status: StatusPending, Limit: 10})
	if err != nil || len(list) != 0 {
		t.Fatalf("pending index still lists %d orders (%v)", len(list), err)
	}
	if list, _, _ = o.List(ListFilter{Status: StatusCancelled, Limit: 10}); len(list) != 1 {
		t.Fatalf("cancelled index lists %d orders", len(list))
	}
	if l, _ := o.LoadLedger(rec.Hash); len(l) != 1 {
		t.Fatalf("ledger %+v", l)
	}
	if ev, _ := o.outbox.Scan("acc_1", 0, 10); len(ev) != 1 || ev[0].Event.ID != "evt_1" {
		t.Fatalf("outbox %+v", ev)
	}
	if !o.MayExist(rec.Hash) {
		t.Fatal("an applied order is not in the hash filter")
	}
}

// TestOrderApplyWithLoadedFilter: with the hash filter loaded, a new
// order is applied without a read, and a create of an order the store
// holds (its hash in the filter) is still recognised and skipped.
func TestOrderApplyWithLoadedFilter(t *testing.T) {
	s := persistencetest.OpenShared(t, nil)
	o := New(s, persistence.NewOutbox(s, nil, nil))
	old := testRecord(1, StatusPending)
	applyAll(t, o, "ORDERS_0", 1, &Transition{Record: old})
	if err := o.LoadHashFilter(); err != nil {
		t.Fatal(err)
	}
	fresh := testRecord(2, StatusPending)
	v2 := fresh.Clone()
	v2.Version, v2.Status = 2, StatusCancelled
	changes := applyAll(t, o, "ORDERS_0", 4, &Transition{Record: old}, &Transition{Record: fresh},
		&Transition{Record: v2, Expect: 1, Prev: StatusPending})
	if len(changes) != 2 || changes[0].Record != fresh || changes[1].Prev != StatusPending {
		t.Fatalf("changes %+v", changes)
	}
	if !o.MayExist(fresh.Hash) {
		t.Fatal("an applied order is not in the hash filter")
	}
	if got, ok, err := o.Load(fresh.Hash); err != nil || !ok || got.Version != 2 || got.Status != StatusCancelled {
		t.Fatalf("stored %+v %v %v", got, ok, err)
	}
	if list, _, err := o.List(ListFilter{Status: StatusPending, Limit: 10}); err != nil || len(list) != 1 || list[0].Hash != old.Hash {
		t.Fatalf("pending index %+v (%v)", list, err)
	}
}

func applyAll(t *testing.T, o *Store, log string, seq uint64, ts ...*Transition) []AppliedChange {
	t.Helper()
	a := o.BeginApply(log)
	defer a.Close()
	for i, tr := range ts {
		if _, err := a.Add(tr, seq-uint64(len(ts)-1-i)); err != nil {
			t.Fatal(err)
		}
	}
	changes, err := a.Commit(seq)
	if err != nil {
		t.Fatal(err)
	}
	return changes
}
