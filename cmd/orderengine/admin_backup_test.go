package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/cluster/natsjs"
	"github.com/orderengine/orderengine/config"
	apihttp "github.com/orderengine/orderengine/http"
)

// TestAdminBackupRestoreCommands: `admin backup` downloads a backup of a
// one-node cluster that reads back whole and holds the account written
// through the admin API; it never overwrites a file; `admin restore`
// through the admin API refuses a truncated copy (400 INVALID_REQUEST), a
// relative path the node cannot see is made absolute, and a restore into
// the cluster, which holds data, is refused 409 ALREADY_EXISTS. The
// restore itself is TestBackupRestore (cluster/natsjs) and
// TestClusterBackupRestore (cluster/clustertest). One node: this package
// runs under the race detector, and several protoactor members in one
// process are not race-clean (cluster/clustertest's doc).
func TestAdminBackupRestoreCommands(t *testing.T) {
	nodes := apptest.NewTestCluster(t, 1, apptest.WithConfig(func(c *config.Config) { c.Cluster.Replicas = 1 }))
	if r := nodes[0].Admin("POST", "/admin/v1/accounts", apihttp.CreateAccountRequest{Name: "kept"}); r.Status != 201 {
		t.Fatalf("create account: %d %s", r.Status, r.Body)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "cluster.backup")
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
	var accounts int
	h, err := natsjs.ReadBackup(f, func(m *natsjs.BackupMessage) error {
		if m.Stream == "SHARED" && bytes.Contains(m.Data, []byte(`"kept"`)) {
			accounts++
		}
		return nil
	})
	_ = f.Close()
	if err != nil || accounts != 1 || h.Cluster != "apptest" || !strings.Contains(out.String(), `"cluster": "apptest"`) {
		t.Fatalf("backup: %v, %d messages naming the account, header %+v, output %s", err, accounts, h, out.String())
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

	cut := filepath.Join(dir, "cut.backup")
	if err := os.WriteFile(cut, before[:len(before)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if err := admin(nodes[0], "admin", "restore", "--in", "cut.backup"); err == nil || !strings.Contains(out.String(), "INVALID_REQUEST") || !strings.Contains(out.String(), "backup file refused") {
		t.Fatalf("restore of a truncated file: %v %s", err, out.String())
	}
	if err := admin(nodes[0], "admin", "restore", "--in", file); err == nil || !strings.Contains(err.Error(), "answered 409") ||
		!strings.Contains(out.String(), "ALREADY_EXISTS") {
		t.Fatalf("restore into a cluster holding data: %v %s", err, out.String())
	}
}
