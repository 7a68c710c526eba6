package persistence

import (
	"testing"

	"github.com/orderengine/orderengine/config"
)

// The events of an order go to the outbox of the account whose key
// submitted it and, when its maker is linked to another account, to that
// account's outbox too: the same event (id, time, body) in both, written in
// the order's batch. A maker linked to the submitting account, or to none,
// puts each event in one outbox only; after an unlink the next event goes
// to the submitter alone.
func TestOrderEventsReachTheMakersLinkedAccount(t *testing.T) {
	s := openTemp(t, t.TempDir())
	defer s.Close()
	accts := NewAccounts(s, nil)
	submitter, err := accts.CreateAccount("submitter", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	owner, err := accts.CreateAccount("owner", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	ob := NewOutbox(s, nil, nil)
	o := NewOrders(s, ob, WithLinkedWallets(accts))
	rows := func(account string) []OutboxRow {
		t.Helper()
		r, err := ob.ScanRows(account, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	rec := testRecord(0, StatusPending)
	rec.AccountID = submitter.ID
	mustPut(t, o, rec) // created: no events
	mustPut(t, o, rec, OutboxEvent{Trigger: TriggerOrderCancelled, Data: EventData{OrderHash: rec.Hash.Hex()}})
	if n, m := len(rows(submitter.ID)), len(rows(owner.ID)); n != 1 || m != 0 {
		t.Fatalf("maker linked to nobody: %d events for the submitter, %d for the other account", n, m)
	}

	if _, err := accts.LinkWallet(owner.ID, rec.Order.Maker, 10); err != nil {
		t.Fatal(err)
	}
	mustPut(t, o, rec, OutboxEvent{Trigger: TriggerOrderExpired, Data: EventData{OrderHash: rec.Hash.Hex()}})
	sub, own := rows(submitter.ID), rows(owner.ID)
	if len(sub) != 2 || len(own) != 1 {
		t.Fatalf("maker linked to the owner: %d events for the submitter, %d for the owner; want 2 and 1", len(sub), len(own))
	}
	if got, want := own[0], sub[1]; got.ID != want.ID || got.Trigger != TriggerOrderExpired || string(got.JSON) != string(want.JSON) {
		t.Fatalf("the owner's event %+v differs from the submitter's %+v", got, want)
	}

	// Linked to the submitter itself: one event, in its outbox.
	if _, err := accts.UnlinkWallet(owner.ID, rec.Order.Maker); err != nil {
		t.Fatal(err)
	}
	if _, err := accts.LinkWallet(submitter.ID, rec.Order.Maker, 10); err != nil {
		t.Fatal(err)
	}
	mustPut(t, o, rec, OutboxEvent{Trigger: TriggerOrderFailed})
	if n, m := len(rows(submitter.ID)), len(rows(owner.ID)); n != 3 || m != 1 {
		t.Fatalf("maker linked to the submitter: %d events for it, %d for the former owner; want 3 and 1", n, m)
	}
}

// A node applying a replicated transition writes its events to the same
// outboxes as a local AppendOrder: the submitter's and the maker's linked
// account's, one event (the id the message carries) in both.
func TestAppliedOrderEventsReachTheMakersLinkedAccount(t *testing.T) {
	s := openTemp(t, t.TempDir())
	defer s.Close()
	accts := NewAccounts(s, nil)
	submitter, err := accts.CreateAccount("submitter", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	owner, err := accts.CreateAccount("owner", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	ob := NewOutbox(s, nil, nil)
	o := NewOrders(s, ob, WithLinkedWallets(accts))
	rec := testRecord(0, StatusPending)
	rec.AccountID = submitter.ID
	if _, err := accts.LinkWallet(owner.ID, rec.Order.Maker, 10); err != nil {
		t.Fatal(err)
	}
	cancelled := *rec
	cancelled.Version, cancelled.Status = 2, StatusCancelled
	ev := OutboxEvent{ID: NewEventID(), Trigger: TriggerOrderCancelled, Data: EventData{OrderHash: rec.Hash.Hex()}}
	applyAll(t, o, "orders-0", 2, &OrderTransition{Record: rec}, &OrderTransition{Record: &cancelled, Expect: 1, Prev: StatusPending, Events: []OutboxEvent{ev}})
	for _, acct := range []string{submitter.ID, owner.ID} {
		rows, err := ob.ScanRows(acct, 0, 10)
		if err != nil || len(rows) != 1 || rows[0].ID != ev.ID {
			t.Fatalf("outbox of %s: %+v %v, want the one event %s", acct, rows, err, ev.ID)
		}
	}
}
