package natsjs

import (
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/accountstore"
)

// TestSharedRecordsAcrossNodes: an account and key made on one node
// authenticate on every node; a key disabled on another stops
// authenticating everywhere (the time it took is logged: the bound
// docs/cluster-durability.md states); writes of account data racing on all
// nodes all land, and every node ends with the same accounts and keys; one
// wallet linked to two accounts on two nodes at once is linked to one.
func TestSharedRecordsAcrossNodes(t *testing.T) {
	nodes := sharedCluster(t)
	accts := make([]*accountstore.Accounts, len(nodes))
	for i, tn := range nodes {
		accts[i] = accountstore.NewAccounts(tn.store, nil)
	}
	acct, err := accts[0].CreateAccount("shared", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	key, rec, err := accts[0].IssueKey(acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range accts {
		waitFor(t, fmt.Sprintf("the key on node %d", i), func() bool { _, err := a.Authenticate(key); return err == nil })
	}
	start := time.Now()
	if _, err := accts[1].DisableKey(rec.ID); err != nil {
		t.Fatal(err)
	}
	for i, a := range accts {
		waitFor(t, fmt.Sprintf("the key refused on node %d", i), func() bool {
			_, err := a.Authenticate(key)
			var e *orderengine.Error
			return errors.As(err, &e) && e.Code == orderengine.CodeKeyDisabled
		})
		t.Logf("key disabled on node 1: refused on node %d %s after the disable returned", i, time.Since(start))
	}
	var wg sync.WaitGroup
	errs := make([]error, len(accts))
	for i, a := range accts {
		wg.Go(func() {
			for range 4 {
				if _, _, err := a.IssueKey(acct.ID); err != nil {
					errs[i] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("racing key issue on node %d: %v", i, err)
		}
	}
	want := 1 + 4*len(accts)
	for i, a := range accts {
		waitFor(t, fmt.Sprintf("every key on node %d", i), func() bool {
			keys, err := a.ListKeys(acct.ID)
			return err == nil && len(keys) == want
		})
	}
	ref, _ := accts[0].ListKeys(acct.ID)
	for i, a := range accts[1:] {
		keys, _ := a.ListKeys(acct.ID)
		for j := range ref {
			if keys[j].ID != ref[j].ID || keys[j].Disabled != ref[j].Disabled {
				t.Fatalf("node %d key %d: %+v vs %+v", i+1, j, keys[j], ref[j])
			}
		}
	}

	other, err := accts[0].CreateAccount("other", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		var wallet common.Address
		_, _ = rand.Read(wallet[:])
		owners := []string{acct.ID, other.ID}
		linkErrs := make([]error, 2)
		for i := range 2 {
			a := accts[1+i]
			wg.Go(func() { _, linkErrs[i] = a.LinkWallet(owners[i], wallet, 10) })
		}
		wg.Wait()
		won := -1
		for i, err := range linkErrs {
			var e *orderengine.Error
			switch {
			case err == nil && won < 0:
				won = i
			case errors.As(err, &e) && e.Code == orderengine.CodeAlreadyExists:
			default:
				t.Fatalf("round %d: racing links: %v", round, linkErrs)
			}
		}
		if won < 0 {
			t.Fatalf("round %d: no link won: %v", round, linkErrs)
		}
		for i, a := range accts {
			waitFor(t, fmt.Sprintf("the link on node %d", i), func() bool {
				id, ok, err := a.AccountOfWallet(wallet)
				return err == nil && ok && id == owners[won]
			})
		}
	}
}
