package accountstore

import (
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

func codeOf(err error) orderengine.Code { return orderengine.AsError(err).Code }

// A first sign-in creates one free account owning the wallet, however many
// race; linking, the one-account rule, the cap and unlinking keep the
// account's list and the wallet index in step, across a reopen.
func TestWalletsBelongToOneAccount(t *testing.T) {
	dir := t.TempDir()
	s := persistencetest.Open(t, dir)
	a := NewAccounts(s, nil)
	w1 := common.HexToAddress("0x00000000000000000000000000000000000000E1")
	w2 := common.HexToAddress("0x00000000000000000000000000000000000000E2")
	ids := make([]string, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() {
			acct, _, err := a.WalletAccount(w1)
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = acct.ID
		})
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("concurrent first sign-ins made accounts %v", ids)
		}
	}
	acct, _ := a.Account(ids[0])
	if acct.Tier != config.TierFree || len(acct.Wallets) != 1 || acct.Wallets[0] != w1 {
		t.Fatalf("new account %+v", acct)
	}
	other, _ := a.CreateAccount("other", config.TierFree, config.BucketLimits{})
	if _, err := a.LinkWallet(other.ID, w1, 5); codeOf(err) != orderengine.CodeAlreadyExists {
		t.Fatalf("linking another account's wallet: %v", err)
	}
	if _, err := a.LinkWallet(acct.ID, w1, 5); codeOf(err) != orderengine.CodeAlreadyExists {
		t.Fatalf("linking a wallet twice: %v", err)
	}
	if _, err := a.LinkWallet(acct.ID, w2, 1); codeOf(err) != orderengine.CodeLimitReached {
		t.Fatalf("over the cap: %v", err)
	}
	if acct, _ = a.LinkWallet(acct.ID, w2, 5); len(acct.Wallets) != 2 {
		t.Fatalf("after linking: %+v", acct.Wallets)
	}
	if _, err := a.UnlinkWallet(other.ID, w2); codeOf(err) != orderengine.CodeNotFound {
		t.Fatalf("unlinking another account's wallet: %v", err)
	}
	if _, err := a.UnlinkWallet(acct.ID, w1); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := a.AccountOfWallet(w1); ok {
		t.Fatal("an unlinked wallet still maps to its account")
	}
	if _, err := a.LinkWallet(other.ID, w1, 5); err != nil {
		t.Fatalf("linking a freed wallet elsewhere: %v", err)
	}
	s.Close()
	s = persistencetest.Open(t, dir)
	defer s.Close()
	a = NewAccounts(s, nil)
	for w, want := range map[common.Address]string{w1: other.ID, w2: acct.ID} {
		if id, ok, err := a.AccountOfWallet(w); !ok || err != nil || id != want {
			t.Fatalf("after a reopen %s maps to %q %v %v, want %s", w.Hex(), id, ok, err, want)
		}
	}
	if got, _ := a.Account(acct.ID); len(got.Wallets) != 1 || got.Wallets[0] != w2 {
		t.Fatalf("wallets after a reopen: %+v", got.Wallets)
	}
}

// A tier application is pending until decided; approval moves the tier,
// which the next authentication of the account's key sees.
func TestTierApplication(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	a := NewAccounts(s, nil)
	acct, _ := a.CreateAccount("dev", config.TierFree, config.BucketLimits{})
	key, _, _ := a.IssueKey(acct.ID)
	if _, err := a.DecideTierApplication(acct.ID, true, ""); codeOf(err) != orderengine.CodeNotFound {
		t.Fatalf("deciding without an application: %v", err)
	}
	app := TierApplication{Tier: config.TierBuilder, UseCase: "a wallet", ExpectedVolume: "1k orders a day"}
	got, err := a.ApplyForTier(acct.ID, app)
	if err != nil || got.TierApplication.Status != TierPending {
		t.Fatalf("apply: %+v %v", got, err)
	}
	if _, err := a.ApplyForTier(acct.ID, app); codeOf(err) != orderengine.CodeAlreadyExists {
		t.Fatalf("second application while pending: %v", err)
	}
	if list, _ := a.TierApplications(TierPending); len(list) != 1 || list[0].ID != acct.ID {
		t.Fatalf("pending list: %+v", list)
	}
	if _, err := a.DecideTierApplication(acct.ID, false, "tell us more"); err != nil {
		t.Fatal(err)
	}
	if p, _ := a.Authenticate(key); p.Account.Tier != config.TierFree || p.Account.TierApplication.Status != TierDeclined {
		t.Fatalf("after decline: %+v", p.Account)
	}
	if _, err := a.ApplyForTier(acct.ID, app); err != nil {
		t.Fatalf("applying again after a decline: %v", err)
	}
	if _, err := a.DecideTierApplication(acct.ID, true, ""); err != nil {
		t.Fatal(err)
	}
	if p, _ := a.Authenticate(key); p.Account.Tier != config.TierBuilder || p.Account.TierApplication.DecidedAt == nil {
		t.Fatalf("after approval the key sees %+v", p.Account)
	}
	if list, _ := a.TierApplications(TierPending); len(list) != 0 {
		t.Fatalf("pending after approval: %+v", list)
	}
	if _, err := a.ApplyForTier(acct.ID, app); codeOf(err) != orderengine.CodeAlreadyExists {
		t.Fatalf("applying for the tier the account has: %v", err)
	}
}

// Sessions expire, are deleted on sign-out, and are swept.
func TestSessions(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	now := time.Unix(1_800_000_000, 0)
	ss := NewSessions(s, func() time.Time { return now })
	w := common.HexToAddress("0x00000000000000000000000000000000000000E1")
	tok, ses, err := ss.Create("acc_x", w, time.Hour)
	if err != nil || len(ses.CSRF) < 40 {
		t.Fatal(err)
	}
	if got, ok, err := ss.Lookup(tok); !ok || err != nil || got.AccountID != "acc_x" || got.Wallet != w || got.CSRF != ses.CSRF {
		t.Fatalf("lookup: %+v %v %v", got, ok, err)
	}
	if _, ok, _ := ss.Lookup(tok[:len(tok)-1] + "x"); ok {
		t.Fatal("another token found the session")
	}
	other, _, _ := ss.Create("acc_x", w, 2*time.Hour)
	if err := ss.Delete(other); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := ss.Lookup(other); ok {
		t.Fatal("a deleted session is found")
	}
	if _, _, err := ss.Create("acc_y", w, 3*time.Hour); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Hour)
	if _, ok, _ := ss.Lookup(tok); ok {
		t.Fatal("an expired session is found")
	}
	now = now.Add(3 * time.Hour)
	if n, err := ss.Sweep(); err != nil || n != 1 {
		t.Fatalf("sweep removed %d, %v", n, err)
	}
}

// Key use is tracked to the minute in memory and written by the flush,
// never by the request; a key's name survives a reissue.
func TestKeyUsage(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	now := time.Unix(1_800_000_000, 0)
	a := NewAccounts(s, func() time.Time { return now })
	acct, _ := a.CreateAccount("dev", config.TierFree, config.BucketLimits{})
	key, rec, _ := a.CreateKey(acct.ID, "backend", 2)
	if keys, _ := a.ListKeys(acct.ID); keys[0].LastUsedAt != nil || keys[0].Name != "backend" {
		t.Fatalf("a new key: %+v", keys[0])
	}
	if _, err := a.Authenticate(key); err != nil {
		t.Fatal(err)
	}
	v, _, _ := s.Get(keyRecordKey(rec.ID))
	want := now.Truncate(time.Minute)
	if keys, _ := a.ListKeys(acct.ID); keys[0].LastUsedAt == nil || !keys[0].LastUsedAt.Equal(want) {
		t.Fatalf("listed last use %v, want %v", keys[0].LastUsedAt, want)
	}
	if after, _, _ := s.Get(keyRecordKey(rec.ID)); string(after) != string(v) {
		t.Fatal("a request wrote the key record")
	}
	if err := a.FlushKeyUsage(); err != nil {
		t.Fatal(err)
	}
	b := NewAccounts(s, func() time.Time { return now })
	if keys, _ := b.ListKeys(acct.ID); keys[0].LastUsedAt == nil {
		t.Fatal("the flushed last use is not stored")
	}
	if _, _, err := a.CreateKey(acct.ID, "two", 2); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.CreateKey(acct.ID, "three", 2); codeOf(err) != orderengine.CodeLimitReached {
		t.Fatalf("a third enabled key: %v", err)
	}
	_, re, err := a.ReissueKeyOnce(rec.ID)
	if err != nil || re.Name != "backend" {
		t.Fatalf("reissue: %+v %v", re, err)
	}
	if _, _, err := a.ReissueKeyOnce(rec.ID); codeOf(err) != orderengine.CodeAlreadyExists {
		t.Fatalf("a second reissue of the same key: %v", err)
	}
}
