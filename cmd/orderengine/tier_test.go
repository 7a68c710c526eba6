package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/accountstore"
)

// TestAdminTierApplications: `orderengine admin tier-applications` lists
// the pending applications; approve moves the account's tier (its key is
// limited at the builder rate on its next request); decline keeps it and
// records the reason; a missing --account is refused before any call.
func TestAdminTierApplications(t *testing.T) {
	ts := apptest.NewTestServer(t)
	accts := ts.System.Accounts
	declined, err := accts.CreateAccount("second", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{ts.AccountID, declined.ID} {
		if _, err := accts.ApplyForTier(id, accountstore.TierApplication{Tier: config.TierBuilder, UseCase: "a wallet", ExpectedVolume: "1k a day"}); err != nil {
			t.Fatal(err)
		}
	}
	admin := func(args ...string) (string, error) {
		var out bytes.Buffer
		env := &cliEnv{stdout: &out, stderr: io.Discard, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
		err := run(context.Background(), env, append(append([]string{"admin"}, args...), "--admin-url", ts.AdminURL, "--token", ts.AdminToken))
		return out.String(), err
	}
	out, err := admin("tier-applications")
	var list struct {
		Accounts []accountstore.Account `json:"accounts"`
	}
	if err != nil || json.Unmarshal([]byte(out), &list) != nil || len(list.Accounts) != 2 {
		t.Fatalf("tier-applications: %v\n%s", err, out)
	}
	if _, err := admin("approve", "--account", ts.AccountID); err != nil {
		t.Fatal(err)
	}
	if _, err := admin("decline", "--account", declined.ID, "--reason", "tell us more about the volume"); err != nil {
		t.Fatal(err)
	}
	if got := ts.Get("/v1/stats").Header.Get("X-RateLimit-Limit"); got != strconv.Itoa(ts.Config.Limits.Builder.Read) {
		t.Fatalf("the approved account's key is limited at %s", got)
	}
	out, _ = admin("tier-applications", "--status", "declined")
	if !strings.Contains(out, declined.ID) || !strings.Contains(out, "tell us more about the volume") || strings.Contains(out, ts.AccountID) {
		t.Fatalf("declined list:\n%s", out)
	}
	if out, _ := admin("tier-applications"); strings.Contains(out, "acc_") {
		t.Fatalf("pending after the decisions:\n%s", out)
	}
	if _, err := admin("approve", "--account", ts.AccountID); err == nil || !strings.Contains(err.Error(), "answered 404") {
		t.Fatalf("approving twice: %v", err)
	}
	if _, err := admin("approve"); err == nil || !strings.Contains(err.Error(), "--account is required") {
		t.Fatalf("approve without an account: %v", err)
	}
	if _, err := admin("tier-applications", "--status", "maybe"); err == nil {
		t.Fatal("an unknown status was accepted")
	}
}
