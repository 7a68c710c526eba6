package clustertest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/config"
	apihttp "github.com/orderengine/orderengine/http"
)

// TestClusterBackupRestore: orders submitted on a three-node cluster (one
// cancelled by its maker) and its key are backed up through the admin API;
// a new, empty cluster restores the backup through its admin API; every
// order then reads the same on every node of the new cluster (status,
// version, the whole answer), the key authenticates there, a resubmit of a
// backed-up order is 409 ALREADY_EXISTS, a webhook endpoint registered
// before the backup is listed and sends its test delivery signed with its
// secret, and a second restore is 409. The new cluster has written
// nothing before the restore (the cluster's webhook secret key is made at
// its first use, not at start).
func TestClusterBackupRestore(t *testing.T) {
	src := startTestCluster(t)
	var hashes []common.Hash
	var bodies [][]byte
	for i := range 4 {
		key, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		body, h := signOrder(key, uint64(500+i))
		if r := submit(src[i%3], body); r.Status != 201 {
			t.Fatalf("submit %d: %d %s", i, r.Status, r.Body)
		}
		hashes, bodies = append(hashes, h), append(bodies, body)
		if i == 0 {
			d := chain.CancelHash(chain.NewRouterDomain(4663, testRouter), h)
			sig, _ := crypto.Sign(d[:], key)
			cancel, _ := json.Marshal(map[string]string{"signature": "0x" + hex.EncodeToString(sig)})
			if r := src[1].Do("DELETE", "/v1/orders/"+h.Hex(), cancel, map[string]string{"X-API-Key": src[1].APIKey}); r.Status != 200 {
				t.Fatalf("cancel: %d %s", r.Status, r.Body)
			}
		}
	}
	want := make([][]byte, len(hashes))
	for i, h := range hashes {
		r := src[2].Get("/v1/orders/" + h.Hex())
		src[2].WaitFor("the order on node 2", func() bool { r = src[2].Get("/v1/orders/" + h.Hex()); return r.Status == 200 })
		want[i] = r.Body
	}
	if !bytes.Contains(want[0], []byte(`"status":"cancelled"`)) {
		t.Fatalf("the cancelled order reads %s", want[0])
	}
	// A webhook endpoint: its record and its sealed secret travel in the
	// backup, with the cluster's key that seals it.
	rv := &receiver{t: t}
	hook := httptest.NewServer(rv)
	defer hook.Close()
	auth := map[string]string{"X-API-Key": src[0].APIKey}
	res := src[0].Do("POST", "/v1/webhooks", []byte(`{"url":"`+hook.URL+`/hook","events":["order.cancelled"]}`), auth)
	var ep struct{ ID, Secret string }
	if err := json.Unmarshal(res.Body, &ep); res.Status != 201 || err != nil || ep.ID == "" {
		t.Fatalf("create endpoint: %d %s", res.Status, res.Body)
	}
	rv.mu.Lock()
	rv.secret = ep.Secret
	rv.mu.Unlock()
	src[0].WaitFor("the endpoint on node 2", func() bool { return src[2].Do("GET", "/v1/webhooks/"+ep.ID, nil, auth).Status == 200 })

	backup := src[0].Admin("GET", "/admin/v1/cluster/backup", nil)
	if backup.Status != 200 || backup.Header.Get("Content-Type") != "application/gzip" {
		t.Fatalf("backup: %d %s", backup.Status, backup.Body)
	}
	file := filepath.Join(t.TempDir(), "cluster.backup")
	if err := os.WriteFile(file, backup.Body, 0o600); err != nil {
		t.Fatal(err)
	}

	dst := apptest.NewTestCluster(t, 3, apptest.WithoutAccount(), apptest.WithTokens(testTokens(t)), apptest.WithConfig(func(c *config.Config) {
		c.Chain.Router, c.Chain.FeeVault = testRouter.Hex(), testVault.Hex()
		c.Cluster.OrderPartitions = clusterPartitions
	}))
	r := dst[1].Admin("POST", "/admin/v1/cluster/restore", apihttp.RestoreRequest{File: file})
	if r.Status != 200 || !bytes.Contains(r.Body, []byte(`"messages":`)) {
		t.Fatalf("restore: %d %s", r.Status, r.Body)
	}
	for _, n := range dst {
		n.APIKey = src[0].APIKey
		n.WaitFor("the backed-up key", func() bool { _, err := n.System.Accounts.Authenticate(src[0].APIKey); return err == nil })
		for i, h := range hashes {
			var got *apptest.Response
			n.WaitFor("a restored order", func() bool { got = n.Get("/v1/orders/" + h.Hex()); return got.Status == 200 })
			if !bytes.Equal(got.Body, want[i]) {
				t.Fatalf("%s reads\n%s\nthe backed-up cluster read\n%s", n.Config.Cluster.Node, got.Body, want[i])
			}
		}
	}
	// The restored endpoint is listed, and its test delivery is signed
	// with the secret it was created with.
	for _, n := range dst {
		n.WaitFor("the restored endpoint", func() bool { return n.Do("GET", "/v1/webhooks/"+ep.ID, nil, auth).Status == 200 })
	}
	res = dst[1].Do("POST", "/v1/webhooks/"+ep.ID+"/test", nil, auth)
	var sent struct{ DeliveryID string }
	if err := json.Unmarshal(res.Body, &sent); res.Status != 200 || err != nil || sent.DeliveryID == "" {
		t.Fatalf("test delivery of the restored endpoint: %d %s", res.Status, res.Body)
	}
	dst[1].WaitFor("the restored endpoint's test delivery", func() bool { _, ok := rv.ping(sent.DeliveryID); return ok })
	if got, _ := rv.ping(sent.DeliveryID); !got.validSig {
		t.Fatal("the restored endpoint's test delivery is not signed with its secret")
	}
	if r := submit(dst[2], bodies[1]); r.Status != 409 || r.Code() != "ALREADY_EXISTS" {
		t.Fatalf("resubmit of a restored order: %d %s", r.Status, r.Body)
	}
	if r := dst[0].Admin("POST", "/admin/v1/cluster/restore", apihttp.RestoreRequest{File: file}); r.Status != 409 || r.Code() != "ALREADY_EXISTS" {
		t.Fatalf("a second restore: %d %s", r.Status, r.Body)
	}
}
