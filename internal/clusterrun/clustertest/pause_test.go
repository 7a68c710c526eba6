package clustertest_test

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/clusterrun/clustertest"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// TestClusterPausedNode freezes (SIGSTOP) the chain lifecycle's driver
// (the lease holder) for longer than cluster.leaseTTL, under a steady submit
// load over the other two, with submits sent to the frozen node during
// the pause and right after it resumes (SIGCONT), and orders that fill on
// the chain around the pause. The frozen node answers nothing while
// stopped; every 201 it gives (during the pause's queued requests or
// after) is an order the others read too, with the same status (durable
// on a quorum); every other answer is a documented failure; no order is
// accepted twice; every fillable order is recorded filled once, each
// chain event once (the journal of its transitions); and the three nodes
// list the same orders with the same rows. Another node drives while it
// is stopped, and after SIGCONT it does not drive. It is one timeline (load,
// SIGSTOP, submits queued, SIGCONT, submits, checks), kept in one
// function so that its order reads as it runs.
func TestClusterPausedNode(t *testing.T) {
	clustertest.Binary(t)
	began := time.Now()
	h := clustertest.Start(t, clustertest.Options{Cluster: true, Env: loadEnv})
	key := h.Key(0)
	if err := h.WaitKey(context.Background(), key, 30*time.Second); err != nil {
		t.Fatalf("the key created on node1: %v", err)
	}
	c := h.Contracts()
	makers := []*ecdsa.PrivateKey{clustertest.Maker(0), clustertest.Maker(1)}
	for _, m := range makers {
		c.Approve(t, m, "WETH")
	}
	// The node paused is the chain lifecycle's driver (the lease holder),
	// whatever order streams it leads.
	led := h.OrderStreamsLed(0)
	victim := -1
	waitFor(t, "one node driving the chain lifecycle", func() bool {
		victim = driver(t, h)
		return victim >= 0
	})
	other := (victim + 1) % len(h.Nodes)
	pause := config.Default().Cluster.LeaseTTL + 3*time.Second
	t.Logf("order streams led per node %v; pausing %s for %v", led, h.Nodes[victim].Name, pause)

	// Orders the chain fills around the pause: two through the node to be
	// paused, two through the others while it is stopped.
	var fillable []common.Hash
	fillSubmit := func(node int, salt uint64) {
		body, hash := c.Sign(t, clustertest.Fillable(makers[0], salt))
		submitSettled(t, h, key, node, body)
		fillable = append(fillable, hash)
	}

	load := h.StartLoad(c, key, makers, 1_000_000, 4000, loadWorkers, loadGap)
	time.Sleep(beforeKill)
	fillSubmit(victim, 1)
	fillSubmit(victim, 2)
	load.SetUp(victim, false)
	h.Pause(victim)
	paused := time.Now()

	// Submits to the frozen node: they wait in its sockets until it
	// resumes. More are sent right after SIGCONT, when its view of its
	// routes is still the one from before the pause.
	var direct []clustertest.Answer
	var mu sync.Mutex
	var wg sync.WaitGroup
	submitDirect := func(salt uint64) {
		body, hash := c.Sign(t, clustertest.Resting(makers[1], salt))
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := h.Post(victim, "/v1/orders", key, body, time.Minute)
			a.Hash = hash
			mu.Lock()
			direct = append(direct, a)
			mu.Unlock()
		}()
	}
	for k := range 4 {
		submitDirect(5_000_000 + uint64(k))
	}
	fillSubmit(other, 3)
	fillSubmit((other+1)%len(h.Nodes), 4)
	waitFor(t, "another node driving while "+h.Nodes[victim].Name+" is stopped", func() bool {
		d := driver(t, h, victim)
		return d >= 0 && d != victim
	})
	t.Logf("%s drives %v after SIGSTOP", h.Nodes[driver(t, h, victim)].Name, time.Since(paused).Round(time.Millisecond))
	time.Sleep(pause - time.Since(paused))
	if h.Ready(victim) {
		t.Fatalf("%s answered /readyz while stopped", h.Nodes[victim].Name)
	}
	h.Resume(victim)
	resumed := time.Now()
	// Its term ended by its own clock while it was stopped: resumed, it
	// does not drive on it (it can take a new term only once fit again,
	// seconds later).
	if gauge(t, h, victim, "orderengine_lifecycle_driver") == 1 {
		t.Fatalf("%s drives on its old term right after SIGCONT", h.Nodes[victim].Name)
	}
	for k := range 4 {
		submitDirect(6_000_000 + uint64(k))
	}
	wg.Wait()
	h.WaitReady(victim)
	t.Logf("%s ready %v after SIGCONT", h.Nodes[victim].Name, time.Since(resumed).Round(time.Millisecond))
	load.SetUp(victim, true)
	time.Sleep(afterRestart)
	answers := append(load.Stop(), direct...)

	pauseAnswers(t, h, key, victim, answers, direct, paused, resumed)
	for _, hash := range fillable {
		for i := range h.Nodes {
			h.WaitStatus(i, key, hash, "filled", time.Minute)
		}
		checkJournalOnce(t, h, other, hash)
	}
	// Exactly one node drives (the lease may move meanwhile: a holder
	// unfit for a whole TTL hands it on, possibly to the node that was
	// paused, on a term of its own).
	waitFor(t, "exactly one node driving the chain lifecycle", func() bool { return driver(t, h) >= 0 })

	for _, m := range makers {
		sameLists(t, h, key, "/v1/orders?wallet="+addressOf(m))
	}
	t.Logf("whole test %v", time.Since(began).Round(time.Millisecond))
}

// submitSettled submits body on node, resubmitting after a documented
// failure (Retry-After) until it is stored: 201, or 409 ALREADY_EXISTS
// after a failure.
func submitSettled(t *testing.T, h *clustertest.Harness, key string, node int, body []byte) {
	t.Helper()
	for attempt := 1; ; attempt++ {
		a := h.Post(node, "/v1/orders", key, body, 15*time.Second)
		if a.Code == http.StatusCreated || a.Code == http.StatusConflict && a.ErrCode == "ALREADY_EXISTS" && attempt > 1 {
			return
		}
		if !allowedFailure(a) || attempt == 20 {
			t.Fatalf("submit on %s: %s", h.Nodes[node].Name, describe(h, a))
		}
		time.Sleep(time.Second)
	}
}

// pauseAnswers checks the answers of TestClusterPausedNode: the paused
// node (victim) answered nothing before SIGCONT (direct are its own
// answers), every failure is a documented one after SIGSTOP, the unknown
// fates settle, and every stored order (the paused node's 201s included)
// reads alike on every node and is refused on resubmit everywhere.
func pauseAnswers(t *testing.T, h *clustertest.Harness, key string, victim int, answers, direct []clustertest.Answer, paused, resumed time.Time) {
	t.Helper()
	other := (victim + 1) % len(h.Nodes)
	for _, a := range direct {
		if a.At.Before(resumed) {
			t.Errorf("%s answered while stopped: %s", h.Nodes[victim].Name, describe(h, a))
		}
	}
	var failed []clustertest.Answer
	orders := map[common.Hash][]byte{}
	stored := map[common.Hash][]byte{}
	var slowest time.Duration // the longest a 201 of the others took during the pause
	for _, a := range answers {
		if a.Code == http.StatusCreated && a.Node != victim && a.At.After(paused) && a.Sent.Before(resumed) {
			slowest = max(slowest, a.At.Sub(a.Sent))
		}
		orders[a.Hash] = a.Body
		if a.Code == http.StatusCreated {
			stored[a.Hash] = a.Body
			continue
		}
		failed = append(failed, a)
		if a.At.Before(paused) || !allowedFailure(a) {
			t.Errorf("not a documented failure: %s", describe(h, a))
		}
	}
	t.Logf("%d submits (%s); %s's own answers: %s; the slowest 201 of the others during the pause took %v",
		len(answers), tally(answers), h.Nodes[victim].Name, tally(direct), slowest.Round(time.Millisecond))
	for _, a := range failed {
		t.Logf("  %s", describe(h, a))
	}
	if t.Failed() {
		t.FailNow()
	}
	for _, hash := range settle(t, h, key, other, failed) {
		stored[hash] = orders[hash]
	}
	// Every 201 of the paused node included: stored on a quorum means
	// every node reads it.
	verifyStored(t, h, key, other, stored)

}

func addressOf(k *ecdsa.PrivateKey) string { return crypto.PubkeyToAddress(k.PublicKey).Hex() }

// checkJournalOnce reads the order's transitions from the replicated
// journal and checks that none is duplicated: versions 1, 2, … each
// loaded from the one before, each chain event (transaction, log index)
// and each webhook event's trigger recorded once, one transition into
// each terminal status.
func checkJournalOnce(t *testing.T, h *clustertest.Harness, via int, hash common.Hash) {
	t.Helper()
	js := h.Journal(via, hash)
	if len(js) == 0 {
		t.Fatalf("order %s: no transition in the journal", hash.Hex())
	}
	events := map[orderstore.LedgerEntry]bool{}
	triggers := map[string]bool{}
	terminal := 0
	for k, tr := range js {
		if tr.Record.Version != uint64(k+1) || tr.Expect != uint64(k) {
			t.Errorf("order %s: transition %d has version %d, loaded %d", hash.Hex(), k, tr.Record.Version, tr.Expect)
		}
		for _, e := range tr.Ledger {
			if events[e] {
				t.Errorf("order %s: chain event %s/%d recorded twice", hash.Hex(), e.TxHash.Hex(), e.LogIndex)
			}
			events[e] = true
		}
		for _, ev := range tr.Events {
			if triggers[ev.Trigger] {
				t.Errorf("order %s: event %s recorded twice", hash.Hex(), ev.Trigger)
			}
			triggers[ev.Trigger] = true
		}
		if tr.Record.Status.Terminal() && !tr.Prev.Terminal() {
			terminal++
		}
	}
	if terminal != 1 {
		t.Errorf("order %s: %d transitions into a final status, want 1", hash.Hex(), terminal)
	}
}

// sameLists waits up to 30 s until every node renders the list at path
// (every page) the same as node 1, and fails the test with the first
// difference otherwise.
func sameLists(t *testing.T, h *clustertest.Harness, key, path string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		diff := listsDiffer(h, key, path)
		if diff == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: %s", path, diff)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// listsDiffer returns the first difference of the list at path between
// node 1 and another node, or "".
func listsDiffer(h *clustertest.Harness, key, path string) string {
	ref, err := h.ListAll(0, key, path)
	if err != nil {
		return err.Error()
	}
	for i := 1; i < len(h.Nodes); i++ {
		rows, err := h.ListAll(i, key, path)
		if err != nil {
			return err.Error()
		}
		if len(rows) != len(ref) {
			return fmt.Sprintf("%s lists %d rows, %s %d", h.Nodes[0].Name, len(ref), h.Nodes[i].Name, len(rows))
		}
		for k := range rows {
			if string(rows[k]) != string(ref[k]) {
				return fmt.Sprintf("row %d: %s has %s, %s has %s", k, h.Nodes[0].Name, ref[k], h.Nodes[i].Name, rows[k])
			}
		}
	}
	return ""
}

// driver returns the index of the one node whose
// orderengine_lifecycle_driver gauge is 1, or -1 when none or several
// report it; the nodes in skip (stopped ones) are not asked.
func driver(t *testing.T, h *clustertest.Harness, skip ...int) int {
	t.Helper()
	found := -1
	for i := range h.Nodes {
		if slices.Contains(skip, i) {
			continue
		}
		if gauge(t, h, i, "orderengine_lifecycle_driver") == 1 {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}
