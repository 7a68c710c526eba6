package clustertest_test

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/internal/clusterrun/clustertest"
)

// TestClusterEmptyDiskRejoin replaces a node whose disk was lost, as
// docs/cluster.md ("Replace a node") says: with orders of every node
// stored (filled and resting), node3 is stopped, removed from the
// replicated streams with `orderengine admin remove-peer` run against
// node1's admin API, its data folder is deleted, and a node with an empty
// folder starts on node3's addresses under a new name. It starts from a
// peer's snapshot of its store (its log says so) and reaches the
// orders and indexes of its peers: every order reads the same on every
// node (the whole answer), every maker's order list and the pair's book
// list the same rows; the key works on it, a resubmit of an old order is
// refused 409 there, and an order it accepts is read on the others.
func TestClusterEmptyDiskRejoin(t *testing.T) {
	bin := clustertest.Binary(t)
	began := time.Now()
	h := clustertest.Start(t, clustertest.Options{Cluster: true, Env: loadEnv})
	key := h.Key(0)
	if err := h.WaitKey(context.Background(), key, 30*time.Second); err != nil {
		t.Fatalf("the key created on node1: %v", err)
	}
	c := h.Contracts()
	maker := clustertest.Maker(0)
	c.Approve(t, maker, "WETH")

	orders := map[common.Hash][]byte{}
	var filled []common.Hash
	for k := range 30 {
		l := clustertest.Resting(maker, uint64(k+1))
		if k%10 == 0 {
			l = clustertest.Fillable(maker, uint64(k+1))
		}
		body, hash := c.Sign(t, l)
		if a := h.Post(k%3, "/v1/orders", key, body, 15*time.Second); a.Code != http.StatusCreated {
			t.Fatalf("submit: %s", describe(h, a))
		}
		orders[hash] = body
		if k%10 == 0 {
			filled = append(filled, hash)
		}
	}
	for _, hash := range filled {
		for i := range h.Nodes {
			h.WaitStatus(i, key, hash, "filled", time.Minute)
		}
	}
	wallet := "/v1/orders?wallet=" + addressOf(maker)
	book := "/v1/orderbook/" + c.Tokens["WETH"].Address + "-" + c.Tokens["USDC"].Address
	sameLists(t, h, key, wallet)
	sameLists(t, h, key, book)

	rejoin := replaceNode(t, h, bin, 2, "node3b")
	t.Logf("node3b (empty folder, node3's addresses) ready %v after its start", time.Since(rejoin).Round(time.Millisecond))
	// It started from a peer's snapshot of its store, not a replay.
	if log, err := os.ReadFile(h.Nodes[2].Log); err != nil || !strings.Contains(string(log), "natsjs: snapshot received") {
		t.Fatalf("node3b's log does not say it received a snapshot (%v)", err)
	}

	for hash := range orders {
		sameOrder(t, h, key, hash)
	}
	sameLists(t, h, key, wallet)
	sameLists(t, h, key, book)
	if rows, err := h.ListAll(2, key, wallet); err != nil || len(rows) != len(orders) {
		t.Fatalf("node3b lists %d of the maker's %d orders (%v)", len(rows), len(orders), err)
	}
	if rows, err := h.ListAll(2, key, book); err != nil || len(rows) == 0 {
		t.Fatalf("node3b's book lists %d orders (%v)", len(rows), err)
	}
	t.Logf("node3b reads the %d orders and both lists as node1 and node2 do, %v after its start", len(orders), time.Since(rejoin).Round(time.Millisecond))
	if err := h.KeyWorks(context.Background(), 2, key); err != nil {
		t.Fatalf("the key on node3b: %v", err)
	}
	for hash, body := range orders {
		if a := h.Post(2, "/v1/orders", key, body, 15*time.Second); a.Code != http.StatusConflict || a.ErrCode != "ALREADY_EXISTS" {
			t.Fatalf("resubmit of %s on node3b: %s", hash.Hex(), describe(h, a))
		}
		break
	}
	body, hash := c.Sign(t, clustertest.Resting(maker, 1000))
	if a := h.Post(2, "/v1/orders", key, body, 15*time.Second); a.Code != http.StatusCreated {
		t.Fatalf("a new order on node3b: %s", describe(h, a))
	}
	sameOrder(t, h, key, hash)
	// node3b holds the replicas node3 held, and node3 none.
	for stream, peers := range h.StreamPeers(0) {
		has := map[string]bool{}
		for _, p := range peers {
			has[p] = true
		}
		if !has["node3b"] || has["node3"] || len(peers) != 3 {
			t.Errorf("stream %s: replicas on %v, want node1, node2 and node3b", stream, peers)
		}
	}
	t.Logf("whole test %v", time.Since(began).Round(time.Millisecond))
}

// replaceNode runs the procedure of docs/cluster.md ("Replacing a node
// whose data folder was lost") on node i: stop it, remove it from the
// streams with `orderengine admin remove-peer` against node 1's admin API
// (its address and data folder as on node 1's host), delete its data
// folder, and start a node with an empty folder on its addresses under
// name. It returns when the new node was started; it is ready on return.
func replaceNode(t *testing.T, h *clustertest.Harness, bin string, i int, name string) time.Time {
	t.Helper()
	oldDir := h.Layout.Nodes[i].DataDir
	h.Stop(i)
	cmd := exec.Command(bin, "admin", "remove-peer", "--node", h.Layout.Nodes[i].Name)
	cmd.Env = append(os.Environ(), "ORDERENGINE_HTTP_ADMIN_LISTEN="+h.Layout.Nodes[0].Admin,
		"ORDERENGINE_DATA_DIR="+h.Layout.Nodes[0].DataDir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"removed"`) {
		t.Fatalf("orderengine admin remove-peer: %v\n%s", err, out)
	}
	if err := os.RemoveAll(oldDir); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	h.RestartEmpty(i, name)
	return started
}

// sameOrder waits up to 30 s until every node answers GET
// /v1/orders/{hash} with 200 and the same body as node 1.
func sameOrder(t *testing.T, h *clustertest.Harness, key string, hash common.Hash) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		code, ref := h.Do(0, http.MethodGet, "/v1/orders/"+hash.Hex(), key, nil)
		diff := ""
		if code != http.StatusOK {
			diff = string(ref)
		}
		for i := 1; i < len(h.Nodes) && diff == ""; i++ {
			if c, body := h.Do(i, http.MethodGet, "/v1/orders/"+hash.Hex(), key, nil); c != code || string(body) != string(ref) {
				diff = h.Nodes[i].Name + ": " + string(body) + "; node1: " + string(ref)
			}
		}
		if diff == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("order %s: %s", hash.Hex(), diff)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
