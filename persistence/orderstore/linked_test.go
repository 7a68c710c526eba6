package orderstore_test

import (
	"testing"

	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/accountstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

// The events of an order go to the outbox of the account whose key
// submitted it and, when its maker is linked to another account, to that
// account's outbox too: the same event (id, time, body) in both, written in
// the order's batch. A maker linked to the submitting account, or to none,
// puts each event in one outbox only; after an unlink the next event goes
// to the submitter alone.
func TestOrderEventsReachTheMakersLinkedAccount(t *testing.T) {
	accts, submitter, owner, ob, o := linkedStore(t)
	rows := func(account string) []persistence.OutboxRow {
		t.Helper()
		r, err := ob.ScanRows(account, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	rec := orderstore.TestRecord(0, orderstore.StatusPending)
	rec.AccountID = submitter.ID
	orderstore.MustPut(t, o, rec) // created: no events
	orderstore.MustPut(t, o, rec, persistence.OutboxEvent{Trigger: persistence.TriggerOrderCancelled, Data: persistence.EventData{OrderHash: rec.Hash.Hex()}})
	if n, m := len(rows(submitter.ID)), len(rows(owner.ID)); n != 1 || m != 0 {
		t.Fatalf("maker linked to nobody: %d events for the submitter, %d for the other account", n, m)
	}

	if _, err := accts.LinkWallet(owner.ID, rec.Order.Maker, 10); err != nil {
		t.Fatal(err)
	}
	orderstore.MustPut(t, o, rec, persistence.OutboxEvent{Trigger: persistence.TriggerOrderExpired, Data: persistence.EventData{OrderHash: rec.Hash.Hex()}})
	sub, own := rows(submitter.ID), rows(owner.ID)
	if len(sub) != 2 || len(own) != 1 {
		t.Fatalf("maker linked to the owner: %d events for the submitter, %d for the owner; want 2 and 1", len(sub), len(own))
	}
	if got, want := own[0], sub[1]; got.ID != want.ID || got.Trigger != persistence.TriggerOrderExpired || string(got.JSON) != string(want.JSON) {
		t.Fatalf("the owner's event %+v differs from the submitter's %+v", got, want)
	}

	// Linked to the submitter itself: one event, in its outbox.
	if _, err := accts.UnlinkWallet(owner.ID, rec.Order.Maker); err != nil {
		t.Fatal(err)
	}
	if _, err := accts.LinkWallet(submitter.ID, rec.Order.Maker, 10); err != nil {
		t.Fatal(err)
	}
	orderstore.MustPut(t, o, rec, persistence.OutboxEvent{Trigger: persistence.TriggerOrderFailed})
	if n, m := len(rows(submitter.ID)), len(rows(owner.ID)); n != 3 || m != 1 {
		t.Fatalf("maker linked to the submitter: %d events for it, %d for the former owner; want 3 and 1", n, m)
	}
}

// A node applying a replicated transition writes its events to the same
// outboxes as a local AppendOrder: the submitter's and the maker's linked
// account's, one event (the id the message carries) in both.
func TestAppliedOrderEventsReachTheMakersLinkedAccount(t *testing.T) {
	accts, submitter, owner, ob, o := linkedStore(t)
	rec := orderstore.TestRecord(0, orderstore.StatusPending)
	rec.AccountID = submitter.ID
	if _, err := accts.LinkWallet(owner.ID, rec.Order.Maker, 10); err != nil {
		t.Fatal(err)
	}
	cancelled := *rec
	cancelled.Version, cancelled.Status = 2, orderstore.StatusCancelled
	ev := persistence.OutboxEvent{ID: persistence.NewEventID(), Trigger: persistence.TriggerOrderCancelled, Data: persistence.EventData{OrderHash: rec.Hash.Hex()}}
	orderstore.ApplyAll(t, o, "orders-0", 2, &orderstore.Transition{Record: rec}, &orderstore.Transition{Record: &cancelled, Expect: 1, Prev: orderstore.StatusPending, Events: []persistence.OutboxEvent{ev}})
	for _, acct := range []string{submitter.ID, owner.ID} {
		rows, err := ob.ScanRows(acct, 0, 10)
		if err != nil || len(rows) != 1 || rows[0].ID != ev.ID {
			t.Fatalf("outbox of %s: %+v %v, want the one event %s", acct, rows, err, ev.ID)
		}
	}
}

// linkedStore opens a store in a temporary folder (closed with the test)
// with two accounts, the submitter and owner, and an order store that
// sends events to a maker's linked account.
func linkedStore(t *testing.T) (*accountstore.Accounts, *accountstore.Account, *accountstore.Account, *persistence.Outbox, *orderstore.Store) {
	t.Helper()
	s := persistencetest.Open(t, t.TempDir())
	t.Cleanup(func() { _ = s.Close() })
	accts := accountstore.NewAccounts(s, nil)
	submitter, err := accts.CreateAccount("submitter", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	owner, err := accts.CreateAccount("owner", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	ob := persistence.NewOutbox(s, nil, nil)
	return accts, submitter, owner, ob, orderstore.New(s, ob, orderstore.WithLinkedWallets(accts))
}
