package clustertest_test

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/internal/clusterrun/clustertest"
)

// The webhook side of TestClusterKillUnderLoad: an endpoint registered
// through one node on a receiver in this process (allowed by
// webhooks.allowTargets 127.0.0.1/32, as the nodes run in production
// mode), orders of the load cancelled by their maker through the API
// during the load and across the kill, and the check that every cancel the
// cluster recorded reaches the receiver, signed, under one delivery id.

// hookEnv is loadEnv with the loopback receiver allowed.
func hookEnv() map[string]string {
	env := map[string]string{"ORDERENGINE_WEBHOOKS_ALLOW_TARGETS": "127.0.0.1/32"}
	for k, v := range loadEnv {
		env[k] = v
	}
	return env
}

// hookReceipt is one request the receiver got.
type hookReceipt struct {
	path, delivery, trigger string
	orderHash               common.Hash
	validSig                bool
	at                      time.Time
}

// hookReceiver is a webhook receiver on loopback: it verifies each
// request's v1 signature with the secret of the endpoint its path names,
// records it and answers 204.
type hookReceiver struct {
	srv     *httptest.Server
	mu      sync.Mutex
	secrets map[string]string // by path
	got     []hookReceipt
}

func newHookReceiver(t *testing.T) *hookReceiver {
	rv := &hookReceiver{secrets: map[string]string{}}
	rv.srv = httptest.NewServer(http.HandlerFunc(rv.serve))
	t.Cleanup(rv.srv.Close)
	return rv
}

func (rv *hookReceiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rv.mu.Lock()
	defer rv.mu.Unlock()
	d := webhook.Receive(r.Header, body, rv.secrets[r.URL.Path], time.Now(), webhook.DefaultTolerance)
	rv.got = append(rv.got, hookReceipt{path: r.URL.Path, delivery: d.ID, trigger: d.Trigger, orderHash: d.OrderHash,
		validSig: d.Err == nil, at: time.Now()})
	w.WriteHeader(http.StatusNoContent)
}

// receipts returns what arrived on path, by order hash.
func (rv *hookReceiver) receipts(path string) map[common.Hash][]hookReceipt {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	out := map[common.Hash][]hookReceipt{}
	for _, r := range rv.got {
		if r.path == path && r.trigger != "test.ping" {
			out[r.orderHash] = append(out[r.orderHash], r)
		}
	}
	return out
}

// registerOwnedBy registers endpoints on path through node via until one
// is owned by a node that is (owned) or is not (!owned) node victim,
// deleting the others, and returns its id; the receiver learns its secret.
func registerOwnedBy(t *testing.T, h *clustertest.Harness, rv *hookReceiver, key string, via int, path string, victim int, owned bool) string {
	t.Helper()
	for range 30 {
		body, _ := json.Marshal(map[string]any{"url": rv.srv.URL + path, "events": []string{"order.cancelled"}})
		code, resp := h.Do(via, http.MethodPost, "/v1/webhooks", key, body)
		if code != http.StatusCreated {
			t.Fatalf("register %s on %s: %d %s", path, h.Nodes[via].Name, code, resp)
		}
		var ep struct{ ID, Secret string }
		if err := json.Unmarshal(resp, &ep); err != nil {
			t.Fatal(err)
		}
		if (h.WebhookOwner(ep.ID) == victim) == owned {
			rv.mu.Lock()
			rv.secrets[path] = ep.Secret
			rv.mu.Unlock()
			return ep.ID
		}
		if code, resp := h.Do(via, http.MethodDelete, "/v1/webhooks/"+ep.ID, key, nil); code != http.StatusOK {
			t.Fatalf("delete %s: %d %s", ep.ID, code, resp)
		}
	}
	t.Fatal("no endpoint of the wanted owner in 30 registrations")
	return ""
}

// cancelTry is one cancel the canceller sent.
type cancelTry struct {
	node     int
	code     int
	body     string
	sent, at time.Time
}

// canceller cancels orders of a load, each by its maker through the API,
// the newest accepted order not yet cancelled every gap, on the load's
// next node.
type canceller struct {
	h      *clustertest.Harness
	key    string
	domain *chain.Domain
	makers map[common.Address]*ecdsa.PrivateKey
	load   *clustertest.Load
	stop   chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex
	tried  map[common.Hash]cancelTry
}

func startCancels(h *clustertest.Harness, c *clustertest.Contracts, key string, makers []*ecdsa.PrivateKey, load *clustertest.Load, gap time.Duration) *canceller {
	cc := &canceller{h: h, key: key, domain: chain.NewRouterDomain(c.ChainID, c.Router), makers: map[common.Address]*ecdsa.PrivateKey{},
		load: load, stop: make(chan struct{}), tried: map[common.Hash]cancelTry{}}
	for _, m := range makers {
		cc.makers[crypto.PubkeyToAddress(m.PublicKey)] = m
	}
	cc.wg.Add(1)
	go func() {
		defer cc.wg.Done()
		for {
			select {
			case <-cc.stop:
				return
			case <-time.After(gap):
			}
			cc.cancelOne()
		}
	}()
	return cc
}

func (cc *canceller) cancelOne() {
	acc := cc.load.Accepted()
	for i := len(acc) - 1; i >= 0; i-- {
		a := acc[i]
		cc.mu.Lock()
		_, done := cc.tried[a.Hash]
		cc.mu.Unlock()
		if done {
			continue
		}
		var o struct {
			Order struct{ Maker common.Address } `json:"order"`
		}
		_ = json.Unmarshal(a.Body, &o)
		d := chain.CancelHash(cc.domain, a.Hash)
		sig, err := crypto.Sign(d[:], cc.makers[o.Order.Maker])
		if err != nil {
			panic(fmt.Sprintf("sign the cancel of %s: %v", a.Hash.Hex(), err))
		}
		sig[64] += 27
		body, _ := json.Marshal(map[string]string{"signature": hexutil.Encode(sig)})
		node := cc.load.Next()
		sent := time.Now()
		code, resp := cc.h.Do(node, http.MethodDelete, "/v1/orders/"+a.Hash.Hex(), cc.key, body)
		cc.mu.Lock()
		cc.tried[a.Hash] = cancelTry{node: node, code: code, body: string(resp), sent: sent, at: time.Now()}
		cc.mu.Unlock()
		return
	}
}

// Stop stops the canceller and returns every cancel it sent.
func (cc *canceller) Stop() map[common.Hash]cancelTry {
	close(cc.stop)
	cc.wg.Wait()
	return cc.tried
}

// checkCancelsDelivered settles which cancels the cluster recorded (200,
// or the order read cancelled on node ref after an answer that left it
// unknown; never 409, as no order is cancelled twice), waits until each has reached the receiver on path, and checks
// that every receipt of an order is signed validly and carries the one
// delivery id of its event. Some recorded cancels must have been answered
// while the killed node was down (between killed and restarting). It logs
// the slowest time from a cancel's answer to its first receipt, for the
// cancels answered before the kill, while the node was down, and after.
func checkCancelsDelivered(t *testing.T, h *clustertest.Harness, key string, ref int, rv *hookReceiver, path string, tried map[common.Hash]cancelTry, killed, restarting time.Time) {
	t.Helper()
	want := map[common.Hash]cancelTry{}
	unknown, during := 0, 0
	codes, recordedAfter := map[int]int{}, map[int]int{}
	for hash, c := range tried {
		codes[c.code]++
		if c.code == http.StatusConflict {
			// Each order is cancelled once, by this test: "already
			// cancelled" would be a wrong answer (its own cancel, repeated
			// after a failover, must be told it took effect).
			t.Errorf("cancel of %s on %s answered 409 %s", hash.Hex(), h.Nodes[c.node].Name, c.body)
		}
		if c.code != http.StatusOK {
			if st, _ := h.Status(ref, key, hash); st != "cancelled" {
				continue
			}
			unknown++
			recordedAfter[c.code]++
			t.Logf("  cancel of %s on %s answered %d %s (took %v), the order read cancelled", hash.Hex(), h.Nodes[c.node].Name,
				c.code, c.body, c.at.Sub(c.sent).Round(time.Millisecond))
		}
		want[hash] = c
		if c.at.After(killed) && c.at.Before(restarting) {
			during++
		}
	}
	if during == 0 {
		t.Fatalf("no cancel recorded while the killed node was down (answers by code %v)", codes)
	}
	got := waitReceipts(t, rv, path, want)
	var slowest [3]time.Duration // before the kill, while down, after the restart
	dups := 0
	for hash, c := range want {
		rs := got[hash]
		first := rs[0].at
		for _, r := range rs {
			if !r.validSig || r.trigger != "order.cancelled" {
				t.Errorf("order %s: a %s receipt with an invalid signature", hash.Hex(), r.trigger)
			}
			if r.delivery != rs[0].delivery {
				t.Errorf("order %s: delivery ids %s and %s", hash.Hex(), rs[0].delivery, r.delivery)
			}
			if r.at.Before(first) {
				first = r.at
			}
		}
		dups += len(rs) - 1
		phase := 1
		if c.at.Before(killed) {
			phase = 0
		} else if !c.at.Before(restarting) {
			phase = 2
		}
		slowest[phase] = max(slowest[phase], first.Sub(c.at))
	}
	extra := 0
	for hash := range got {
		if _, ok := want[hash]; !ok {
			extra++
		}
	}
	if extra > 0 {
		t.Errorf("%d orders delivered cancelled whose cancel was not recorded", extra)
	}
	sent := make([]string, len(h.Nodes))
	for i := range h.Nodes {
		sent[i] = h.Nodes[i].Name + " " + webhookSucceeded(h, i)
	}
	t.Logf("webhooks: %d cancels sent (answers by code %v), %d recorded (%d while the node was down, %d after an answer other than 200: %v), "+
		"each delivered with a valid signature under one delivery id (%d duplicate receipts); slowest cancel answer to first receipt: "+
		"%v before the kill, %v while down, %v after the restart; deliveries succeeded per node since its start: %s",
		len(tried), codes, len(want), during, unknown, recordedAfter, dups, slowest[0].Round(time.Millisecond), slowest[1].Round(time.Millisecond),
		slowest[2].Round(time.Millisecond), strings.Join(sent, ", "))
}

// webhookSucceeded reads node i's count of successful webhook attempts
// from the metrics on its admin listener (which node sent), or says why
// it cannot.
func webhookSucceeded(h *clustertest.Harness, i int) string {
	resp, err := http.Get(h.AdminURL(i) + "/metrics")
	if err != nil {
		return "(metrics: " + err.Error() + ")"
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "(metrics: HTTP " + strconv.Itoa(resp.StatusCode) + ")"
	}
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, "orderengine_webhook_deliveries_succeeded_total "); ok {
			return v
		}
	}
	return "(no counter)"
}

// waitReceipts waits up to 2 minutes until every order of want has a
// receipt on path, and returns the receipts by order.
func waitReceipts(t *testing.T, rv *hookReceiver, path string, want map[common.Hash]cancelTry) map[common.Hash][]hookReceipt {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		got := rv.receipts(path)
		missing := 0
		for hash := range want {
			if len(got[hash]) == 0 {
				missing++
			}
		}
		if missing == 0 {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d recorded cancels never reached the receiver", missing, len(want))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
