package http_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/accountstore"

	"github.com/gofiber/fiber/v2"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/persistence"
)

func TestAdminRequiresToken(t *testing.T) {
	ts := apptest.NewTestServer(t)
	for _, h := range []map[string]string{nil, {"Authorization": "Bearer wrong"}, {"Authorization": ts.AdminToken}, {"X-API-Key": ts.APIKey}} {
		r := ts.Raw(ts.AdminURL, "GET", "/admin/v1/accounts", nil, h)
		checkCode(t, r, 401, orderengine.CodeUnauthorized)
	}
	if r := ts.Admin("GET", "/admin/v1/accounts", nil); r.Status != 200 {
		t.Fatalf("with token: %d %s", r.Status, r.Body)
	}
	// A single node has no cluster peers to remove.
	checkCode(t, ts.Admin("POST", "/admin/v1/cluster/peers/n2/remove", nil), 404, orderengine.CodeNotFound)
	// Nor streams to dump or restore (its store is backed up: GET
	// /admin/v1/backup).
	checkCode(t, ts.Admin("GET", "/admin/v1/cluster/backup", nil), 404, orderengine.CodeNotFound)
	checkCode(t, ts.Admin("POST", "/admin/v1/cluster/restore", apihttp.RestoreRequest{File: "/nonexistent"}), 404, orderengine.CodeNotFound)
	// The admin API does not exist on the public listener, with or
	// without the token.
	for _, h := range []map[string]string{nil, {"Authorization": "Bearer " + ts.AdminToken}} {
		r := ts.Do("GET", "/admin/v1/accounts", nil, h)
		checkCode(t, r, 404, orderengine.CodeNotFound)
	}
	// The generated token is in the data directory, owner-only.
	st, err := os.Stat(filepath.Join(ts.Config.DataDir, apihttp.AdminTokenFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("admin.token: %v %v", st, err)
	}
	data, _ := os.ReadFile(filepath.Join(ts.Config.DataDir, apihttp.AdminTokenFile))
	if strings.TrimSpace(string(data)) != ts.AdminToken {
		t.Fatal("admin.token does not hold the token in force")
	}
}

// A panicking admin handler is answered 500 INTERNAL with the request id,
// and the process (and the listener) keep running.
func TestAdminHandlerPanicIsAnswered(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithBeforeStart(func(s *apptest.Server) error {
		s.HTTP.AdminAppForTest().Get("/admin/v1/panic", func(*fiber.Ctx) error { panic("boom") })
		return nil
	}))
	r := ts.Admin("GET", "/admin/v1/panic", nil)
	checkCode(t, r, 500, orderengine.CodeInternal)
	if r.Header.Get("X-Request-Id") == "" || strings.Contains(string(r.Body), "boom") {
		t.Fatalf("panic answer: %v %s", r.Header, r.Body)
	}
	if r := ts.Admin("GET", "/admin/v1/accounts", nil); r.Status != 200 {
		t.Fatalf("after the panic: %d %s", r.Status, r.Body)
	}
}

// Go's runtime profiles are on the admin listener, behind its token, and
// not on the public one.
func TestAdminServesProfilesBehindTheToken(t *testing.T) {
	ts := apptest.NewTestServer(t)
	r := ts.Admin("GET", "/admin/v1/debug/pprof/goroutine?debug=1", nil)
	if r.Status != 200 || !strings.Contains(string(r.Body), "goroutine profile:") {
		t.Fatalf("goroutine profile: %d %.200s", r.Status, r.Body)
	}
	r = ts.Raw(ts.AdminURL, "GET", "/admin/v1/debug/pprof/goroutine?debug=1", nil, nil)
	checkCode(t, r, 401, orderengine.CodeUnauthorized)
	r = ts.Do("GET", "/admin/v1/debug/pprof/goroutine?debug=1", nil, nil)
	checkCode(t, r, 404, orderengine.CodeNotFound)
}

func TestAdminRefusesNonLoopback(t *testing.T) {
	cfg := config.Default()
	cfg.HTTP.AdminListen = "0.0.0.0:0"
	if err := cfg.Validate(); err == nil {
		t.Fatal("non-loopback admin listener validated")
	}
}

func TestAdminKeyLifecycleAndRestart(t *testing.T) {
	ts := apptest.NewTestServer(t)
	r := ts.Admin("POST", "/admin/v1/accounts", apihttp.CreateAccountRequest{Name: "acme", Tier: config.TierBuilder})
	var acct accountstore.Account
	if r.Status != 201 || json.Unmarshal(r.Body, &acct) != nil || acct.Tier != config.TierBuilder {
		t.Fatalf("create account: %d %s", r.Status, r.Body)
	}
	if bytes.Contains(r.Body, []byte(`"limits"`)) { // a builder's limits are the configuration's, not zero
		t.Fatalf("a builder account shows per-account limits: %s", r.Body)
	}
	r = ts.Admin("POST", "/admin/v1/accounts/"+acct.ID+"/keys", nil)
	var issued apihttp.IssuedKey
	if r.Status != 201 || json.Unmarshal(r.Body, &issued) != nil || !accountstore.WellFormedAPIKey(issued.Key) {
		t.Fatalf("issue key: %d %s", r.Status, r.Body)
	}
	if r := ts.Do("GET", "/v1/stats", nil, keyHeader(issued.Key)); r.Status != 200 || r.Header.Get("X-RateLimit-Limit") != "3000" {
		t.Fatalf("new key: %d limit %s", r.Status, r.Header.Get("X-RateLimit-Limit"))
	}
	// The key is never listed again.
	r = ts.Admin("GET", "/admin/v1/accounts/"+acct.ID+"/keys", nil)
	if r.Status != 200 || strings.Contains(string(r.Body), issued.Key) || !strings.Contains(string(r.Body), issued.Record.ID) {
		t.Fatalf("list keys: %d %s", r.Status, r.Body)
	}
	checkCode(t, ts.Admin("POST", "/admin/v1/accounts", map[string]string{"name": "x", "tier": "platinum"}), 400, orderengine.CodeInvalidRequest)
	checkCode(t, ts.Admin("POST", "/admin/v1/keys/key_nope/disable", nil), 404, orderengine.CodeNotFound)

	ts.Restart()
	if r := ts.Do("GET", "/v1/stats", nil, keyHeader(issued.Key)); r.Status != 200 {
		t.Fatalf("key after restart: %d %s", r.Status, r.Body)
	}
	if r := ts.Get("/v1/stats"); r.Status != 200 {
		t.Fatalf("harness key after restart: %d", r.Status)
	}
	// Reissue disables the old key at once and the new one works.
	r = ts.Admin("POST", "/admin/v1/keys/"+issued.Record.ID+"/reissue", nil)
	var again apihttp.IssuedKey
	if r.Status != 201 || json.Unmarshal(r.Body, &again) != nil || again.Key == issued.Key {
		t.Fatalf("reissue: %d %s", r.Status, r.Body)
	}
	checkCode(t, ts.Do("GET", "/v1/stats", nil, keyHeader(issued.Key)), 401, orderengine.CodeKeyDisabled)
	if r := ts.Do("GET", "/v1/stats", nil, keyHeader(again.Key)); r.Status != 200 {
		t.Fatalf("reissued key: %d", r.Status)
	}
}

// TestSingleNodeStoreBackup: a single node serves a store backup (GET
// /admin/v1/backup, application/x-tar) that holds its webhook secrets'
// key file and restores into an empty folder as a store holding its
// account and key; nothing is left in the data folder.
func TestSingleNodeStoreBackup(t *testing.T) {
	ts := apptest.NewTestServer(t)
	r := ts.Admin("GET", "/admin/v1/backup", nil)
	if r.Status != 200 || r.Header.Get("Content-Type") != "application/x-tar" {
		t.Fatalf("backup: %d %.200s", r.Status, r.Body)
	}
	dir := t.TempDir()
	h, err := persistence.RestoreBackup(bytes.NewReader(r.Body), dir)
	if err != nil || h.Cluster != "" || len(h.Extra) != 1 {
		t.Fatalf("restore: %+v %v", h, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "webhook-secrets.key")); err != nil {
		t.Fatalf("the webhook secrets' key: %v", err)
	}
	st, err := persistence.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := accountstore.NewAccounts(st, nil).Authenticate(ts.APIKey); err != nil {
		t.Fatalf("the key in the restored store: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(ts.Config.DataDir, "backup-*")); len(left) != 0 {
		t.Fatalf("the backup left %v in the data folder", left)
	}
}
