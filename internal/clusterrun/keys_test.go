package clusterrun

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// AdminFetch sends node i's admin token (read from its data folder, as
// serve writes it) and returns a 200's body; any other answer is an
// error naming the node.
func TestAdminFetchSendsTheNodesToken(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-2" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(r.URL.Path))
	}))
	defer srv.Close()
	l := Loopback(dir, 1, []NodePorts{{HTTP: 2, Admin: 3, NATS: 4}, {HTTP: 5, Admin: 6, NATS: 7}})
	l.Nodes[1].Admin = strings.TrimPrefix(srv.URL, "http://")
	if err := os.MkdirAll(l.Nodes[1].DataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(l.Nodes[1].DataDir, adminTokenFile), []byte("tok-2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := New(l, "orderengine", nil, filepath.Join(dir, "logs"))
	got, err := c.AdminFetch(context.Background(), 1, "/admin/v1/debug/pprof/profile")
	if err != nil || string(got) != "/admin/v1/debug/pprof/profile" {
		t.Fatalf("AdminFetch: %q, %v", got, err)
	}
	if _, err := c.AdminToken(0); err == nil || !strings.Contains(err.Error(), "node1") {
		t.Fatalf("node1 has no token file: %v", err)
	}
	if err := os.WriteFile(filepath.Join(l.Nodes[1].DataDir, adminTokenFile), []byte("other"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AdminFetch(context.Background(), 1, "/x"); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("a refused token: %v", err)
	}
}
