package clustertest

import (
	"context"
	"crypto/ecdsa"
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

// pastClock is the nodes' clock two hours behind: the orders they close
// are past the retention at once, so the compaction removes them.
type pastClock struct{}

func (pastClock) Now() time.Time { return time.Now().Add(-2 * time.Hour) }

// TestEmptiedNodeStartsFromSnapshot: on a cluster whose compaction
// removed the closed orders from their streams (cluster.retention 1 m, the
// nodes' clock two hours behind, a round every second), a node whose
// store was emptied (everything in its data folder but its JetStream
// store deleted) cannot replay the streams: it starts from a peer's
// snapshot of its store. It then reads every order as the others do, the
// removed ones included (they are in no stream), lists the makers'
// orders, refuses a resubmit of a removed order with 409 ALREADY_EXISTS
// and its cancel as closed (not 404), and accepts a new order the others
// read.
func TestEmptiedNodeStartsFromSnapshot(t *testing.T) {
	nodes := apptest.NewTestCluster(t, 3, apptest.WithTokens(testTokens(t)), apptest.WithClock(pastClock{}),
		apptest.WithConfig(func(c *config.Config) {
			big := config.BucketLimits{Quote: 1 << 20, Read: 1 << 20, Order: 1 << 20}
			c.Limits.Free, c.Limits.Builder = big, big
			c.Chain.Router, c.Chain.FeeVault = testRouter.Hex(), testVault.Hex()
			c.Cluster.OrderPartitions = clusterPartitions
			c.Cluster.Retention, c.Cluster.CompactionInterval = time.Minute, time.Second
		}))
	domain := chain.NewRouterDomain(4663, testRouter)
	type placed struct {
		hash  common.Hash
		body  []byte
		key   *ecdsa.PrivateKey
		maker common.Address
	}
	var closed, open []placed
	for i := range 12 {
		key, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		body, h := signOrder(key, uint64(time.Now().UnixNano())+uint64(i))
		if r := submit(nodes[i%3], body); r.Status != 201 {
			t.Fatalf("submit on node%d: %d %s", i%3, r.Status, r.Body)
		}
		p := placed{hash: h, body: body, key: key, maker: crypto.PubkeyToAddress(key.PublicKey)}
		if i%2 == 0 {
			cancelOn(t, nodes[(i+1)%3], domain, h, key)
			closed = append(closed, p)
		} else {
			open = append(open, p)
		}
	}
	js := nodes[0].System.ClusterNode()
	nodes[0].WaitFor("the compaction to remove the cancelled orders from their streams", func() bool {
		for _, p := range closed {
			if found, err := js.Streamed(context.Background(), p.hash); err != nil || found {
				return false
			}
		}
		return true
	})
	for _, p := range open {
		if found, err := js.Streamed(context.Background(), p.hash); err != nil || !found {
			t.Fatalf("open order %s left its stream (%v)", p.hash.Hex(), err)
		}
	}

	// Empty node 3's store: everything in its folder but JetStream's.
	emptied := nodes[2]
	emptied.Close()
	dir := emptied.Config.DataDir
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "jetstream" {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	if ok, err := persistence.StoreExists(dir); err != nil || ok {
		t.Fatalf("node 3's store after emptying it: exists %v (%v)", ok, err)
	}
	began := time.Now()
	emptied.Restart()
	emptied.WaitFor("GET /readyz answering 200", func() bool { return emptied.Raw(emptied.URL, "GET", "/readyz", nil, nil).Status == 200 })
	t.Logf("the emptied node answers /readyz 200 %v after its start", time.Since(began).Round(time.Millisecond))

	auth := map[string]string{"X-API-Key": nodes[0].APIKey}
	for _, p := range append(append([]placed{}, closed...), open...) {
		want := nodes[0].Do("GET", "/v1/orders/"+p.hash.Hex(), nil, auth)
		got := emptied.Do("GET", "/v1/orders/"+p.hash.Hex(), nil, auth)
		if want.Status != 200 || got.Status != 200 || string(got.Body) != string(want.Body) {
			t.Fatalf("order %s: node 3 answers %d %s; node 1 %d %s", p.hash.Hex(), got.Status, got.Body, want.Status, want.Body)
		}
		list := emptied.Do("GET", "/v1/orders?wallet="+p.maker.Hex(), nil, auth)
		var page struct {
			Orders []json.RawMessage `json:"orders"`
		}
		if list.Status != 200 || json.Unmarshal(list.Body, &page) != nil || len(page.Orders) != 1 {
			t.Fatalf("node 3 lists the maker of %s: %d %s", p.hash.Hex(), list.Status, list.Body)
		}
	}
	r := submit(emptied, closed[0].body)
	if r.Status != 409 || r.Code() != "ALREADY_EXISTS" {
		t.Fatalf("resubmit of a removed order on node 3: %d %s, want 409 ALREADY_EXISTS", r.Status, r.Body)
	}
	d := chain.CancelHash(domain, closed[1].hash)
	sig, _ := crypto.Sign(d[:], closed[1].key)
	sig[64] += 27
	body, _ := json.Marshal(map[string]string{"signature": "0x" + common.Bytes2Hex(sig)})
	if r := emptied.Do("DELETE", "/v1/orders/"+closed[1].hash.Hex(), body, map[string]string{"X-API-Key": emptied.APIKey}); r.Status == 404 || r.Status == 200 {
		t.Fatalf("cancel of a removed (cancelled) order on node 3: %d %s, want it refused as closed", r.Status, r.Body)
	}
	key, _ := crypto.GenerateKey()
	nb, nh := signOrder(key, uint64(time.Now().UnixNano()))
	if r := submit(emptied, nb); r.Status != 201 {
		t.Fatalf("a new order on node 3: %d %s", r.Status, r.Body)
	}
	nodes[0].WaitFor("node 1 to read node 3's new order", func() bool {
		return nodes[0].Do("GET", "/v1/orders/"+nh.Hex(), nil, auth).Status == 200
	})
}
