package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/config"
	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/accountstore"
)

// TestAdminBackupRestoreCommands: `admin backup` downloads a store
// backup of a one-node cluster that reads back whole; `orderengine
// restore` restores it into an empty data folder, where the account
// written through the admin API before the backup is, and refuses a
// folder that holds a store; `admin backup` never overwrites a file;
// `admin restore` (the online restore of a dump of the streams) refuses a
// store backup, pointing to `orderengine restore`, a truncated dump (400
// INVALID_REQUEST; a relative path the node cannot see is made absolute)
// and a restore into the cluster, which holds data (409 ALREADY_EXISTS).
// The restores themselves are TestClusterStoreBackupRestore,
// TestBackupRestore (cluster/natsjs) and TestClusterBackupRestore
// (cluster/clustertest).
func TestAdminBackupRestoreCommands(t *testing.T) {
	nodes := apptest.NewTestCluster(t, 1, apptest.WithConfig(func(c *config.Config) { c.Cluster.Replicas = 1 }))
	r := nodes[0].Admin("POST", "/admin/v1/accounts", apihttp.CreateAccountRequest{Name: "kept"})
	var acct struct{ ID string }
	if err := json.Unmarshal(r.Body, &acct); r.Status != 201 || err != nil {
		t.Fatalf("create account: %d %s", r.Status, r.Body)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "store.backup")
	var out bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: io.Discard, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
	admin := func(node *apptest.Server, args ...string) error {
		out.Reset()
		return run(context.Background(), env, append(args, "--admin-url", node.AdminURL, "--token", node.AdminToken))
	}
	if err := admin(nodes[0], "admin", "backup", "--out", file); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	h, err := persistence.ReadBackup(f, nil)
	_ = f.Close()
	if err != nil || h.Cluster != "apptest" || !strings.Contains(out.String(), `"cluster": "apptest"`) {
		t.Fatalf("backup: %v, header %+v, output %s", err, h, out.String())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the backup left %d files in its folder", len(entries))
	}
	before, _ := os.ReadFile(file)
	if err := admin(nodes[0], "admin", "backup", "--out", file); err == nil || !strings.Contains(err.Error(), "never overwrites") {
		t.Fatalf("a backup over an existing file: %v", err)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Fatal("the existing file changed")
	}

	restored := filepath.Join(t.TempDir(), "data")
	out.Reset()
	if err := run(context.Background(), env, []string{"restore", "--in", file, "--data-dir", restored}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), h.ID) {
		t.Fatalf("restore output %s, want the backup's id %s", out.String(), h.ID)
	}
	st, err := persistence.Open(restored, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = accountstore.NewAccounts(st, nil).Account(acct.ID)
	_ = st.Close()
	if err != nil {
		t.Fatalf("the account in the restored store: %v", err)
	}
	if err := run(context.Background(), env, []string{"restore", "--in", file, "--data-dir", restored}); err == nil || !strings.Contains(err.Error(), "holds a store") {
		t.Fatalf("a restore into a folder holding a store: %v", err)
	}

	t.Chdir(dir)
	if err := admin(nodes[0], "admin", "restore", "--in", "store.backup"); err == nil || !strings.Contains(err.Error(), "orderengine restore") {
		t.Fatalf("admin restore of a store backup: %v", err)
	}
	dump := nodes[0].Admin("GET", "/admin/v1/cluster/backup", nil)
	if dump.Status != 200 {
		t.Fatalf("dump of the streams: %d %s", dump.Status, dump.Body)
	}
	if err := os.WriteFile(filepath.Join(dir, "cut.dump"), dump.Body[:len(dump.Body)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "whole.dump"), dump.Body, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := admin(nodes[0], "admin", "restore", "--in", "cut.dump"); err == nil || !strings.Contains(out.String(), "INVALID_REQUEST") || !strings.Contains(out.String(), "backup file refused") {
		t.Fatalf("restore of a truncated file: %v %s", err, out.String())
	}
	if err := admin(nodes[0], "admin", "restore", "--in", "whole.dump"); err == nil || !strings.Contains(err.Error(), "answered 409") ||
		!strings.Contains(out.String(), "ALREADY_EXISTS") {
		t.Fatalf("restore into a cluster holding data: %v %s", err, out.String())
	}
}
