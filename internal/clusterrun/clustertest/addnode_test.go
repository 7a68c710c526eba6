package clustertest_test

import (
	"bufio"
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/internal/clusterrun/clustertest"
)

// TestClusterAddsANode adds a fourth node to a running three-node cluster
// as docs/cluster.md ("Adding a node") says: node4 starts with every node
// in its routes and peers, then node1..node3 restart one at a time with
// node4 in theirs. node4 reads every order stored before it joined and
// the key made before it; once the rolling restart is done every node
// counts four members and three routes, and an order accepted by any node
// reads the same on all four.
func TestClusterAddsANode(t *testing.T) {
	h := clustertest.Start(t, clustertest.Options{Nodes: 4, Joining: 1, Cluster: true, Env: loadEnv})
	key := h.Key(0)
	for i := range 3 {
		waitFor(t, "the key on "+h.Nodes[i].Name, func() bool { return h.KeyWorks(context.Background(), i, key) == nil })
	}
	c := h.Contracts()
	maker := clustertest.Maker(0)
	c.Approve(t, maker, "WETH")
	var hashes []common.Hash
	submit := func(i int, salt uint64) {
		t.Helper()
		body, hash := c.Sign(t, clustertest.Resting(maker, salt))
		if a := h.Post(i, "/v1/orders", key, body, 15*time.Second); a.Code != http.StatusCreated {
			t.Fatalf("submit on %s: %s", h.Nodes[i].Name, describe(h, a))
		}
		hashes = append(hashes, hash)
	}
	for k := range 6 {
		submit(k%3, uint64(k+1))
	}
	// Each node sees the others as their member leases are read (every
	// tick), not at once when it is ready.
	waitFor(t, "node1 counting three members before node4 joins", func() bool {
		return gauge(t, h, 0, "orderengine_cluster_members") == 3
	})

	h.Join(3)
	if err := h.WaitKey(context.Background(), key, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	for _, hash := range hashes {
		sameOrder(t, h, key, hash)
	}
	submit(3, 100)
	sameOrder(t, h, key, hashes[len(hashes)-1])
	// The streams keep their replicas where they were.
	for stream, peers := range h.StreamPeers(0) {
		for _, p := range peers {
			if p == "node4" {
				t.Errorf("stream %s has a replica on node4: %v", stream, peers)
			}
		}
	}

	for i := range 3 {
		h.Rejoin(i)
	}
	for i := range h.Nodes {
		waitFor(t, h.Nodes[i].Name+" counting four members and three routes", func() bool {
			return gauge(t, h, i, "orderengine_cluster_members") == 4 && gauge(t, h, i, "orderengine_cluster_nats_routes") == 3
		})
	}
	for i := range h.Nodes {
		submit(i, uint64(200+i))
	}
	for _, hash := range hashes {
		sameOrder(t, h, key, hash)
	}
	sameLists(t, h, key, "/v1/orders?wallet="+addressOf(maker))
}

// gauge reads the value of an unlabelled gauge from node i's /metrics on
// its admin listener (-1 when it is missing or the node does not answer).
func gauge(t *testing.T, h *clustertest.Harness, i int, name string) float64 {
	t.Helper()
	resp, err := http.Get(h.AdminURL(i) + "/metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %q", name, sc.Text())
			}
			return f
		}
	}
	return -1
}

// waitFor polls cond every 200 ms for up to 60 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
