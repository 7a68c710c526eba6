package accountstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

// TestSharedWritesConverge: account writes through a shared log are
// applied from their bytes, the position kept, and the authentication
// cache drops a key disabled by the applied batch; sessions take the same
// path; a batch with nothing in it publishes nothing.
func TestSharedWritesConverge(t *testing.T) {
	s, log := persistencetest.SharedStore(t)
	a := NewAccounts(s, nil)
	acct, err := a.CreateAccount("x", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	key, rec, err := a.IssueKey(acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(key); err != nil {
		t.Fatal(err)
	}
	if _, err := a.DisableKey(rec.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(key); err == nil {
		t.Fatal("a disabled key still authenticates")
	}
	if pos, err := s.SharedPosition("SHARED"); err != nil || pos != 3 {
		t.Fatalf("shared position %d %v", pos, err)
	}
	sessions := NewSessions(s, nil)
	token, _, err := sessions.Create(acct.ID, common.Address{1}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := sessions.Lookup(token); !ok || err != nil {
		t.Fatalf("session lookup: %v %v", ok, err)
	}
	if log.Published != 4 {
		t.Fatalf("%d shared writes published, want 4", log.Published)
	}
	err = s.UpdateShared(context.Background(), accountsEntity, func(tx *persistence.SharedTx) error {
		return tx.Commit(context.Background(), func(*pebble.Batch) error { return nil })
	})
	if err != nil || log.Published != 4 {
		t.Fatalf("an empty shared write: %v, %d published", err, log.Published)
	}
}

// TestSharedWritesDropOtherNodesCaches: a node that cached a key, an
// account and a wallet link serves the change another node wrote as soon
// as it applied the shared batch: the disabled key refused, the new tier,
// the unlinked wallet gone.
func TestSharedWritesDropOtherNodesCaches(t *testing.T) {
	log := &persistencetest.SharedLog{}
	sa, sb := persistencetest.OpenShared(t, log), persistencetest.OpenShared(t, nil)
	log.ApplyTo = []*persistence.Store{sa, sb}
	a, b := NewAccounts(sa, nil), NewAccounts(sb, nil)
	acct, err := a.CreateAccount("x", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	key, rec, err := a.IssueKey(acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	w := common.Address{7}
	if _, err := a.LinkWallet(acct.ID, w, 5); err != nil {
		t.Fatal(err)
	}
	if p, err := b.Authenticate(key); err != nil || p.Account.Tier != config.TierFree {
		t.Fatalf("node b before: %+v %v", p, err)
	}
	if id, ok, err := b.AccountOfWallet(w); !ok || err != nil || id != acct.ID {
		t.Fatalf("node b's wallet lookup before: %q %v %v", id, ok, err)
	}
	if _, err := a.SetTier(acct.ID, config.TierBuilder, config.BucketLimits{}); err != nil {
		t.Fatal(err)
	}
	if p, err := b.Authenticate(key); err != nil || p.Account.Tier != config.TierBuilder {
		t.Fatalf("node b after the tier change: %+v %v", p, err)
	}
	if _, err := a.UnlinkWallet(acct.ID, w); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := b.AccountOfWallet(w); ok || err != nil {
		t.Fatalf("node b still finds the unlinked wallet: %v %v", ok, err)
	}
	if _, err := a.DisableKey(rec.ID); err != nil {
		t.Fatal(err)
	}
	var apiErr *orderengine.Error
	if _, err := b.Authenticate(key); !errors.As(err, &apiErr) || apiErr.Code != orderengine.CodeKeyDisabled {
		t.Fatalf("node b after the disable: %v", err)
	}
}

// TestSharedConflictRunsAgain: when another node's write of the entity
// lands between a mutation's reads and its commit, the commit is refused
// and the mutation runs again on what that write left: here a tier
// application after another node moved the account to that tier is
// ALREADY_EXISTS, not a stale pending application.
func TestSharedConflictRunsAgain(t *testing.T) {
	s, log := persistencetest.SharedStore(t)
	a := NewAccounts(s, nil)
	acct, err := a.CreateAccount("x", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	log.Interfere = func() []byte {
		moved := *acct
		moved.Tier = config.TierBuilder
		b := s.DB().NewBatch()
		defer func() { _ = b.Close() }()
		if err := setJSON(b, accountKey(acct.ID), &moved); err != nil {
			t.Fatal(err)
		}
		return append([]byte(nil), b.Repr()...)
	}
	_, err = a.ApplyForTier(acct.ID, TierApplication{Tier: config.TierBuilder, UseCase: "u", ExpectedVolume: "v"})
	var apiErr *orderengine.Error
	if !errors.As(err, &apiErr) || apiErr.Code != orderengine.CodeAlreadyExists {
		t.Fatalf("tier application after another node's tier change: %v", err)
	}
	got, err := a.Account(acct.ID)
	if err != nil || got.Tier != config.TierBuilder || got.TierApplication != nil {
		t.Fatalf("account after the conflict: %+v %v", got, err)
	}
}
