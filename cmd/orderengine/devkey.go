package main

import (
	"fmt"
	"io"

	"github.com/orderengine/orderengine/config"

	"github.com/orderengine/orderengine/app"
)

// announceDevKey runs once the listeners are up: on the embedded dev chain
// (dev mode without chain.rpcURL, like the dev keeper) it creates the
// development account and key on the first start of a data folder and
// prints the key, once. Called any earlier, a start that then failed (a
// busy port) would use up the shown-once key without anyone able to use
// it. With an external node the folder may serve a real network, whose
// keys are issued through the admin API and never printed.
func announceDevKey(cfg config.Config, eng *app.Engine, out io.Writer) error {
	if !cfg.Dev || cfg.Chain.RPCURL != "" {
		return nil
	}
	return ensureDevKey(eng, out)
}

// ensureDevKey creates a development account and key on the first start of
// a data directory on the embedded dev chain and prints the key, once.
func ensureDevKey(eng *app.Engine, out io.Writer) error {
	accts, err := eng.Accounts.ListAccounts()
	if err != nil || len(accts) > 0 {
		return err
	}
	acct, err := eng.Accounts.CreateAccount("dev", config.TierFree, config.BucketLimits{})
	if err != nil {
		return err
	}
	key, _, err := eng.Accounts.IssueKey(acct.ID)
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
