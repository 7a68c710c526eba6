package accountstore

import (
	"errors"
	"strings"
	"testing"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

func TestAPIKeyFormat(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		k := NewAPIKey()
		if len(k) != KeyLen || !strings.HasPrefix(k, KeyPrefix) {
			t.Fatalf("bad key shape %q", k)
		}
		if !WellFormedAPIKey(k) {
			t.Fatalf("fresh key %q fails its checksum", k)
		}
		if seen[k] {
			t.Fatalf("duplicate key %q", k)
		}
		seen[k] = true
		// Any single-character change must break the checksum.
		b := []byte(k)
		i := len(KeyPrefix) + 3
		if b[i] == 'a' {
			b[i] = 'b'
		} else {
			b[i] = 'a'
		}
		if WellFormedAPIKey(string(b)) {
			t.Fatalf("mutated key %q passes the checksum", b)
		}
	}
	for _, bad := range []string{"", "svc_", "abc_" + strings.Repeat("a", 38), NewAPIKey() + "x"} {
		if WellFormedAPIKey(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func code(err error) orderengine.Code {
	var e *orderengine.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestAccountsLifecycleSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	s := persistencetest.Open(t, dir)
	accts := NewAccounts(s, nil)
	acct, err := accts.CreateAccount("acme", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	key, rec, err := accts.IssueKey(acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	p, err := accts.Authenticate(key)
	if err != nil || p.Key.ID != rec.ID || p.Account.ID != acct.ID {
		t.Fatalf("authenticate: %+v %v", p, err)
	}
	if _, err := accts.Authenticate(NewAPIKey()); code(err) != orderengine.CodeUnauthorized {
		t.Fatalf("unknown key: %v", err)
	}
	if _, err := accts.Authenticate(""); code(err) != orderengine.CodeUnauthorized {
		t.Fatalf("empty key: %v", err)
	}
	if _, err := accts.SetTier(acct.ID, config.TierEnterprise, config.BucketLimits{}); code(err) != orderengine.CodeInvalidRequest {
		t.Fatalf("enterprise without limits: %v", err)
	}
	if _, err := accts.SetTier(acct.ID, config.TierBuilder, config.BucketLimits{}); err != nil {
		t.Fatal(err)
	}
	if p, _ := accts.Authenticate(key); p.Account.Tier != config.TierBuilder {
		t.Fatalf("tier change not visible: %v", p.Account.Tier)
	}
	newKey, newRec, err := accts.ReissueKey(rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := accts.Authenticate(key); code(err) != orderengine.CodeKeyDisabled {
		t.Fatalf("old key after reissue: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = persistencetest.Open(t, dir)
	defer func() { _ = s.Close() }()
	accts = NewAccounts(s, nil)
	p, err = accts.Authenticate(newKey)
	if err != nil || p.Key.ID != newRec.ID || p.Account.Tier != config.TierBuilder {
		t.Fatalf("after reopen: %+v %v", p, err)
	}
	if _, err := accts.Authenticate(key); code(err) != orderengine.CodeKeyDisabled {
		t.Fatalf("old key after reopen: %v", err)
	}
	keys, err := accts.ListKeys(acct.ID)
	if err != nil || len(keys) != 2 || !keys[0].Disabled || keys[0].ReplacedBy != newRec.ID || keys[1].Disabled {
		t.Fatalf("list keys: %+v %v", keys, err)
	}
	for _, k := range keys {
		if strings.Contains(k.Hint, newKey[8:]) {
			t.Fatalf("hint leaks the key: %q", k.Hint)
		}
	}
	if _, err := accts.DisableKey(newRec.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := accts.Authenticate(newKey); code(err) != orderengine.CodeKeyDisabled {
		t.Fatalf("disabled key: %v", err)
	}
	if _, err := accts.DisableKey("key_missing"); code(err) != orderengine.CodeNotFound {
		t.Fatalf("disable unknown: %v", err)
	}
	all, err := accts.ListAccounts()
	if err != nil || len(all) != 1 {
		t.Fatalf("list accounts: %v %v", all, err)
	}
}
