package clustertest

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence"
)

// TestClusterStoreBackupRestore: on a cluster whose compaction removed the
// cancelled orders from their streams, the dump of the streams is refused
// (400: it would miss them) and a store backup (GET /admin/v1/backup)
// holds them. Restored into every node's empty data folder of a new
// cluster (with another number of order streams) before its first start (persistence.RestoreBackup, as
// `orderengine restore` does), it gives every order's whole answer on
// every node as the backed-up cluster gave it, the removed ones included;
// the key authenticates; a resubmit is 409 ALREADY_EXISTS; a restored
// open order is cancelled there (its first transition in the new
// streams) and every node reads the cancel; a new order is accepted.
func TestClusterStoreBackupRestore(t *testing.T) {
	cfg := func(c *config.Config) {
		big := config.BucketLimits{Quote: 1 << 20, Read: 1 << 20, Order: 1 << 20}
		c.Limits.Free, c.Limits.Builder = big, big
		c.Chain.Router, c.Chain.FeeVault = testRouter.Hex(), testVault.Hex()
		c.Cluster.OrderPartitions = clusterPartitions
		c.Cluster.Retention, c.Cluster.CompactionInterval = time.Minute, time.Second
	}
	src := apptest.NewTestCluster(t, 3, apptest.WithTokens(testTokens(t)), apptest.WithClock(pastClock{}), apptest.WithConfig(cfg))
	domain := chain.NewRouterDomain(4663, testRouter)
	type placed struct {
		hash common.Hash
		body []byte
		key  *ecdsa.PrivateKey
	}
	var all, open, closed []placed
	for i := range 8 {
		key, _ := crypto.GenerateKey()
		body, h := signOrder(key, uint64(time.Now().UnixNano())+uint64(i))
		if r := submit(src[i%3], body); r.Status != 201 {
			t.Fatalf("submit: %d %s", r.Status, r.Body)
		}
		p := placed{hash: h, body: body, key: key}
		all = append(all, p)
		if i%2 == 0 {
			cancelOn(t, src[(i+1)%3], domain, h, key)
			closed = append(closed, p)
		} else {
			open = append(open, p)
		}
	}
	src[0].WaitFor("the compaction to remove the cancelled orders", func() bool {
		for _, p := range closed {
			if found, err := src[0].System.ClusterNode().Streamed(t.Context(), p.hash); err != nil || found {
				return false
			}
		}
		return true
	})
	want := map[common.Hash][]byte{}
	for _, p := range all {
		r := src[2].Get("/v1/orders/" + p.hash.Hex())
		if r.Status != 200 {
			t.Fatalf("order on node 3: %d %s", r.Status, r.Body)
		}
		want[p.hash] = r.Body
	}
	if r := src[0].Admin("GET", "/admin/v1/cluster/backup", nil); r.Status != 400 || r.Code() != "INVALID_REQUEST" {
		t.Fatalf("a dump of compacted streams: %d %s, want 400", r.Status, r.Body)
	}
	backup := src[1].Admin("GET", "/admin/v1/backup", nil)
	if backup.Status != 200 || backup.Header.Get("Content-Type") != "application/x-tar" {
		t.Fatalf("store backup: %d %.300s", backup.Status, backup.Body)
	}
	h, err := persistence.ReadBackup(bytes.NewReader(backup.Body), nil)
	if err != nil || h.Node != src[1].Config.Cluster.Node || h.Cluster != "apptest" {
		t.Fatalf("the backup reads back: %+v %v", h, err)
	}
	file := filepath.Join(t.TempDir(), "store.backup")
	if err := os.WriteFile(file, backup.Body, 0o600); err != nil {
		t.Fatal(err)
	}

	dst := apptest.NewTestCluster(t, 3, apptest.WithoutAccount(), apptest.WithTokens(testTokens(t)), apptest.WithConfig(func(c *config.Config) {
		cfg(c)
		// The new cluster makes its own number of order streams: the
		// restored store is detached from the backed-up cluster's.
		c.Cluster.OrderPartitions = 0
		if ok, err := persistence.StoreExists(c.DataDir); err != nil || ok {
			return // a restart
		}
		f, err := os.Open(file)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		if _, err := persistence.RestoreBackup(f, c.DataDir); err != nil {
			t.Errorf("restore into %s: %v", c.DataDir, err)
		}
	}))
	auth := map[string]string{"X-API-Key": src[0].APIKey}
	for _, n := range dst {
		if _, err := n.System.Accounts.Authenticate(src[0].APIKey); err != nil {
			t.Fatalf("%s: the backed-up key: %v", n.Config.Cluster.Node, err)
		}
		for _, p := range all {
			if got := n.Do("GET", "/v1/orders/"+p.hash.Hex(), nil, auth); got.Status != 200 || !bytes.Equal(got.Body, want[p.hash]) {
				t.Fatalf("%s reads %d\n%s\nthe backed-up cluster read\n%s", n.Config.Cluster.Node, got.Status, got.Body, want[p.hash])
			}
		}
	}
	if r := dst[2].Do("POST", "/v1/orders", closed[0].body, auth); r.Status != 409 || r.Code() != "ALREADY_EXISTS" {
		t.Fatalf("resubmit of a removed order: %d %s", r.Status, r.Body)
	}
	if r := dst[1].Do("POST", "/v1/orders", open[0].body, auth); r.Status != 409 || r.Code() != "ALREADY_EXISTS" {
		t.Fatalf("resubmit of an open order: %d %s", r.Status, r.Body)
	}
	d := chain.CancelHash(domain, open[1].hash)
	sig, _ := crypto.Sign(d[:], open[1].key)
	sig[64] += 27
	body, _ := json.Marshal(map[string]string{"signature": "0x" + hex.EncodeToString(sig)})
	if r := dst[0].Do("DELETE", "/v1/orders/"+open[1].hash.Hex(), body, auth); r.Status != 200 {
		t.Fatalf("cancel of a restored open order: %d %s", r.Status, r.Body)
	}
	for _, n := range dst {
		n.WaitFor("the cancel of a restored order", func() bool {
			return bytes.Contains(n.Do("GET", "/v1/orders/"+open[1].hash.Hex(), nil, auth).Body, []byte(`"status":"cancelled"`))
		})
	}
	key, _ := crypto.GenerateKey()
	nb, _ := signOrder(key, uint64(time.Now().UnixNano()))
	if r := dst[2].Do("POST", "/v1/orders", nb, auth); r.Status != 201 {
		t.Fatalf("a new order after the restore: %d %s", r.Status, r.Body)
	}
}
