package app

import (
	"fmt"
	"io"

	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/accountstore"
)

// ensureDevKey creates a development account and key on the first start of
// a data folder on the embedded dev chain and prints the key, once. It is
// stored only as a hash.
func ensureDevKey(accounts *accountstore.Accounts, out io.Writer) error {
	accts, err := accounts.ListAccounts()
	if err != nil || len(accts) > 0 {
		return err
	}
	acct, err := accounts.CreateAccount("dev", config.TierFree, config.BucketLimits{})
	if err != nil {
		return err
	}
	key, _, err := accounts.IssueKey(acct.ID)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, `
==================== DEVELOPMENT API KEY (shown once) ====================
  account %s, tier free
  export KEY=%s
  It is stored only as a hash. Lost it? orderengine admin issue-key --account %s
===========================================================================

`, acct.ID, key, acct.ID)
	return err
}
