package clustertest_test

import (
	"context"
	"crypto/ecdsa"
	"net/http"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/internal/clusterrun/clustertest"
)

// Timing of a kill round: the load runs steadily before the kill, through
// the survivors' failover, and on after the killed node's restart.
const (
	beforeKill   = 2 * time.Second
	afterKill    = 12 * time.Second
	afterRestart = 3 * time.Second
	loadWorkers  = 2
	loadGap      = 40 * time.Millisecond
	cancelGap    = 150 * time.Millisecond
)

// TestClusterKillUnderLoad kills (SIGKILL) one of three cluster nodes
// under a steady submit load spread round-robin over the nodes that are
// up, twice on one cluster: first the node that leads the most order
// streams, then a node that leads none (or the fewest). In each round:
// every submit before the kill is answered 201; every failed submit is a
// documented one (503 NO_QUORUM with Retry-After, or 500 saying the order
// may or may not have been stored; no answer only from the node killed
// under it); the orders whose answer left their fate unknown are settled
// by resubmitting them, and an order whose answer said nothing was stored
// is then accepted (201, not 409); every stored order is read with the
// same status on both survivors and on the killed node after its restart,
// and a resubmit of it on any node is refused 409 ALREADY_EXISTS. It logs
// the failover window: from the kill to the last non-201 answer of a
// survivor (docs/cluster.md, "A node dies"). Along the load, orders are
// cancelled by their maker through the API, and every cancel the cluster
// recorded reaches a webhook receiver in the test at least once with a
// valid signature and one delivery id (webhooks_kill_test.go): in the
// first round the killed node owns the endpoint, in the second a survivor
// does.
func TestClusterKillUnderLoad(t *testing.T) {
	clustertest.Binary(t)
	began := time.Now()
	h := clustertest.Start(t, clustertest.Options{Cluster: true, Env: hookEnv()})
	key := h.Key(0)
	if err := h.WaitKey(context.Background(), key, 30*time.Second); err != nil {
		t.Fatalf("the key created on node1: %v", err)
	}
	c := h.Contracts()
	makers := []*ecdsa.PrivateKey{clustertest.Maker(0), clustertest.Maker(1)}
	for _, m := range makers {
		c.Approve(t, m, "WETH")
	}
	rv := newHookReceiver(t)
	salt := uint64(1_000_000)
	for _, role := range []string{"leader", "follower"} {
		led := h.OrderStreamsLed(0)
		victim := 0
		for i := range led {
			if role == "leader" && led[i] > led[victim] || role == "follower" && led[i] < led[victim] {
				victim = i
			}
		}
		hook := &roundHook{rv: rv, path: "/hook/" + role}
		hook.id = registerOwnedBy(t, h, rv, key, 0, hook.path, victim, role == "leader")
		t.Logf("%s round: order streams led per node %v; killing %s; webhook endpoint %s owned by %s", role, led,
			h.Nodes[victim].Name, hook.id, h.Nodes[h.WebhookOwner(hook.id)].Name)
		killRound(t, h, c, key, makers, salt, victim, hook)
		if code, body := h.Do(0, http.MethodDelete, "/v1/webhooks/"+hook.id, key, nil); code != http.StatusOK {
			t.Fatalf("delete the endpoint: %d %s", code, body)
		}
		salt += 1_000_000
	}
	t.Logf("whole test %v", time.Since(began).Round(time.Millisecond))
}

// roundHook is a round's webhook endpoint on the receiver.
type roundHook struct {
	rv       *hookReceiver
	path, id string
}

// killRound runs one round of TestClusterKillUnderLoad with node victim.
func killRound(t *testing.T, h *clustertest.Harness, c *clustertest.Contracts, key string, makers []*ecdsa.PrivateKey, salt uint64, victim int, hook *roundHook) {
	t.Helper()
	round := time.Now()
	load := h.StartLoad(c, key, makers, salt, 4000, loadWorkers, loadGap)
	cancels := startCancels(h, c, key, makers, load, cancelGap)
	time.Sleep(beforeKill)
	load.SetUp(victim, false)
	killed := time.Now()
	h.Kill(victim)
	time.Sleep(afterKill)
	restarting := time.Now()
	h.Restart(victim)
	restarted := time.Now()
	load.SetUp(victim, true)
	time.Sleep(afterRestart)
	tried := cancels.Stop()
	answers := load.Stop()

	var failed []clustertest.Answer
	orders := map[common.Hash][]byte{}
	var lastFailover, lastRejoin time.Time
	var slowest time.Duration // the longest a 201 of a survivor took after the kill
	for _, a := range answers {
		orders[a.Hash] = a.Body
		if a.Code == http.StatusCreated {
			if a.Node != victim && a.At.After(killed) && a.Sent.Before(restarting) {
				slowest = max(slowest, a.At.Sub(a.Sent))
			}
			continue
		}
		failed = append(failed, a)
		killedUnder := a.Node == victim && a.Code == 0 && !a.Sent.Before(killed.Add(-10*time.Second)) && a.Sent.Before(restarting)
		switch {
		case a.At.Before(killed):
			t.Errorf("before the kill: %s", describe(h, a))
		case !allowedFailure(a) && !killedUnder:
			t.Errorf("not a documented failure: %s", describe(h, a))
		case a.Node != victim && a.Sent.Before(restarting):
			lastFailover = a.At
		case !a.Sent.Before(restarting):
			lastRejoin = a.At
		}
	}
	window := time.Duration(0)
	if !lastFailover.IsZero() {
		window = lastFailover.Sub(killed)
	}
	rejoin := time.Duration(0)
	if !lastRejoin.IsZero() {
		rejoin = lastRejoin.Sub(restarting)
	}
	t.Logf("%s killed: %d submits (%s); failover window %v (kill to the last non-201 of a survivor); "+
		"slowest 201 of a survivor after the kill %v; restart took %v, non-201 after it until %v past the restart",
		h.Nodes[victim].Name, len(answers), tally(answers), window.Round(time.Millisecond), slowest.Round(time.Millisecond),
		restarted.Sub(restarting).Round(time.Millisecond), rejoin.Round(time.Millisecond))
	for _, a := range failed {
		t.Logf("  %s", describe(h, a))
	}
	if t.Failed() {
		t.FailNow()
	}

	// Settle the unknown fates on a survivor, then check every order the
	// cluster stored on every node.
	survivor := (victim + 1) % len(h.Nodes)
	settled := settle(t, h, key, survivor, failed)
	stored := map[common.Hash][]byte{}
	for _, a := range answers {
		if a.Code == http.StatusCreated {
			stored[a.Hash] = a.Body
		}
	}
	for _, hash := range settled {
		stored[hash] = orders[hash]
	}
	verifyStored(t, h, key, survivor, stored)
	checkCancelsDelivered(t, h, key, survivor, hook.rv, hook.path, tried, killed, restarting)
	t.Logf("%d orders stored, read alike on every node and refused 409 on resubmit on every node (round %v)",
		len(stored), time.Since(round).Round(time.Millisecond))
}
