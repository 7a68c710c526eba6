package clustertest

import (
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/config"
)

// receiver is a webhook endpoint on loopback: it verifies every delivery's
// signature with the endpoint's secret and records it. While held, it
// keeps requests open until released.
type receiver struct {
	t      *testing.T
	mu     sync.Mutex
	secret string
	got    []receipt
	// inFlight are the attempts held open (not delivered).
	inFlight []receipt
	held     int
	hold     chan struct{} // nil: answer at once
}

type receipt struct {
	delivery, trigger, orderHash string
	validSig                     bool
}

func (rv *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rv.mu.Lock()
	secret, hold := rv.secret, rv.hold
	d := webhook.Receive(r.Header, body, secret, time.Now(), webhook.DefaultTolerance)
	if errors.Is(d.Err, webhook.ErrDeliveryID) {
		rv.t.Errorf("delivery %s: %v", d.ID, d.Err)
	}
	if hold != nil {
		rv.held++
	}
	rv.mu.Unlock()
	rc := receipt{delivery: d.ID, trigger: d.Trigger, orderHash: d.OrderHash.Hex(), validSig: d.Err == nil}
	if hold != nil {
		// Held until released: its sender is gone by then, so this
		// attempt does not count as delivered.
		rv.mu.Lock()
		rv.inFlight = append(rv.inFlight, rc)
		rv.mu.Unlock()
		<-hold
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	rv.mu.Lock()
	rv.got = append(rv.got, rc)
	rv.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// byOrder returns the delivery ids received for each order hash, and
// whether every receipt had a valid signature.
func (rv *receiver) byOrder() (map[string][]string, int, bool) {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	out := map[string][]string{}
	valid := true
	n := 0
	for _, r := range rv.got {
		if r.trigger == "test.ping" {
			continue
		}
		n++
		out[r.orderHash] = append(out[r.orderHash], r.delivery)
		valid = valid && r.validSig && r.trigger == "order.cancelled"
	}
	return out, n, valid
}

// ping returns the receipt of test delivery id, if it arrived.
func (rv *receiver) ping(id string) (receipt, bool) {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	for _, r := range rv.got {
		if r.delivery == id {
			return r, true
		}
	}
	return receipt{}, false
}

// TestWebhooksAcrossNodes runs webhooks on a three-node cluster: an
// endpoint registered on one node is listed by every node; the cancels of
// orders submitted and cancelled on any node are each delivered exactly
// once, signed, under one delivery id, by the endpoint's owner, and every
// node's deliveries log shows them delivered; then, with the owner's
// attempts held open by the receiver, the owner node is closed: another
// node takes the endpoint over and delivers every event, each at least
// once with a valid signature and its delivery id unchanged; a secret
// rotated on one survivor signs the test delivery made on the other; a
// deletion on one is seen by both; one Idempotency-Key sent to both at
// once makes one endpoint, answered alike by both.
func TestWebhooksAcrossNodes(t *testing.T) {
	nodes := apptest.NewTestCluster(t, 3, apptest.WithTokens(testTokens(t)), apptest.WithConfig(func(c *config.Config) {
		big := config.BucketLimits{Quote: 1 << 20, Read: 1 << 20, Order: 1 << 20}
		c.Limits.Free, c.Limits.Builder = big, big
		c.Chain.Router, c.Chain.FeeVault = testRouter.Hex(), testVault.Hex()
		c.Webhooks.Retry = []time.Duration{300 * time.Millisecond, 300 * time.Millisecond, 300 * time.Millisecond, time.Second}
		c.Webhooks.JitterPpm = 0
	}))
	rv := &receiver{t: t}
	srv := httptest.NewServer(rv)
	defer srv.Close()
	auth := map[string]string{"X-API-Key": nodes[0].APIKey}

	// Registered on node 0, listed by every node.
	res := nodes[1].Do("POST", "/v1/webhooks", []byte(`{"url":"`+srv.URL+`/hook","events":["order.cancelled"]}`), auth)
	if res.Status != 201 {
		t.Fatalf("create endpoint: %d %s", res.Status, res.Body)
	}
	var ep struct{ ID, Secret string }
	if err := json.Unmarshal(res.Body, &ep); err != nil || ep.ID == "" || ep.Secret == "" {
		t.Fatalf("create endpoint: %s (%v)", res.Body, err)
	}
	rv.mu.Lock()
	rv.secret = ep.Secret
	rv.mu.Unlock()
	for _, s := range nodes {
		s.WaitFor("the endpoint listed", func() bool {
			var list struct{ Webhooks []struct{ ID string } }
			r := s.Do("GET", "/v1/webhooks", nil, auth)
			_ = json.Unmarshal(r.Body, &list)
			return r.Status == 200 && len(list.Webhooks) == 1 && list.Webhooks[0].ID == ep.ID
		})
	}
	owner := -1
	for i, s := range nodes {
		if s.System.Member.Owns(webhook.KindName, ep.ID) {
			owner = i
		}
	}
	if owner < 0 {
		t.Fatal("no node owns the endpoint")
	}

	// Orders submitted and cancelled on every node: each cancel is
	// delivered once.
	first := submitAndCancel(t, nodes, []int{0, 1, 2, 0, 1, 2})
	waitDelivered(t, nodes[0], rv, first, 0)
	time.Sleep(time.Second) // a second delivery would come within a retry delay
	got, n, valid := rv.byOrder()
	if !valid || n != len(first) {
		t.Fatalf("%d deliveries of %d cancels (valid signatures and triggers: %v): %v", n, len(first), valid, got)
	}
	for _, h := range first {
		if len(got[h]) != 1 {
			t.Fatalf("order %s delivered %d times: %v", h, len(got[h]), got[h])
		}
	}
	for _, s := range nodes {
		s.WaitFor("every delivery logged as delivered", func() bool {
			var log struct{ Deliveries []struct{ ID, Status string } }
			r := s.Do("GET", "/v1/webhooks/"+ep.ID+"/deliveries", nil, auth)
			_ = json.Unmarshal(r.Body, &log)
			delivered := 0
			for _, d := range log.Deliveries {
				if d.Status == "delivered" && slices.ContainsFunc(first, func(h string) bool { return got[h][0] == d.ID }) {
					delivered++
				}
			}
			return delivered == len(first)
		})
	}

	// The owner closed while its attempts are held open: another node
	// delivers every event, under the same delivery ids.
	hold := make(chan struct{})
	rv.mu.Lock()
	rv.hold, rv.held = hold, 0
	rv.mu.Unlock()
	var others []int
	for i := range nodes {
		if i != owner {
			others = append(others, i)
		}
	}
	second := submitAndCancel(t, nodes, []int{others[0], others[1], others[0], others[1]})
	nodes[owner].WaitFor("an attempt held by the receiver", func() bool {
		rv.mu.Lock()
		defer rv.mu.Unlock()
		return rv.held > 0
	})
	nodes[owner].Close()
	rv.mu.Lock()
	rv.hold = nil
	rv.mu.Unlock()
	close(hold)
	survivor := nodes[others[0]]
	waitDelivered(t, survivor, rv, second, len(first))
	got, _, valid = rv.byOrder()
	if !valid {
		t.Fatalf("a delivery with an invalid signature or another trigger: %v", got)
	}
	rv.mu.Lock()
	inFlight := slices.Clone(rv.inFlight)
	rv.mu.Unlock()
	if len(inFlight) == 0 {
		t.Fatal("no attempt was in flight at the owner")
	}
	for _, h := range second {
		ids := slices.Clone(got[h])
		for _, r := range inFlight {
			if !r.validSig {
				t.Fatalf("an attempt in flight with an invalid signature: %+v", r)
			}
			if r.orderHash == h {
				ids = append(ids, r.delivery)
			}
		}
		if ids = slices.Compact(slices.Sorted(slices.Values(ids))); len(ids) != 1 {
			t.Fatalf("order %s sent under %d delivery ids: %v", h, len(ids), ids)
		}
	}
	// The attempts held include the successor's made before the hold
	// ended: the owner's close takes about two seconds.
	t.Logf("the owner (node%d) closed; %d attempts held open, then a successor delivered the %d cancels", owner, len(inFlight), len(second))

	// A rotation on one survivor reaches the sender: a test delivery made
	// on the other is signed with the new secret alone.
	a, b := nodes[others[0]], nodes[others[1]]
	res = a.Do("POST", "/v1/webhooks/"+ep.ID+"/rotate-secret", []byte(`{"overlapSeconds":0}`), auth)
	var rotated struct{ Secret string }
	if err := json.Unmarshal(res.Body, &rotated); res.Status != 200 || err != nil || rotated.Secret == "" || rotated.Secret == ep.Secret {
		t.Fatalf("rotate: %d %s", res.Status, res.Body)
	}
	rv.mu.Lock()
	rv.secret = rotated.Secret
	rv.mu.Unlock()
	res = b.Do("POST", "/v1/webhooks/"+ep.ID+"/test", nil, auth)
	var sent struct{ DeliveryID string }
	if err := json.Unmarshal(res.Body, &sent); res.Status != 200 || err != nil || sent.DeliveryID == "" {
		t.Fatalf("test delivery: %d %s", res.Status, res.Body)
	}
	b.WaitFor("the test delivery", func() bool { _, ok := rv.ping(sent.DeliveryID); return ok })
	if r, _ := rv.ping(sent.DeliveryID); !r.validSig {
		t.Fatal("the test delivery after the rotation is not signed with the new secret")
	}

	// Deleted on one survivor, listed by neither.
	if res = b.Do("DELETE", "/v1/webhooks/"+ep.ID, nil, auth); res.Status != 200 {
		t.Fatalf("delete: %d %s", res.Status, res.Body)
	}
	for _, s := range []*apptest.Server{a, b} {
		s.WaitFor("the endpoint gone", func() bool {
			return s.Do("GET", "/v1/webhooks/"+ep.ID, nil, auth).Status == 404
		})
	}

	// One Idempotency-Key sent to both survivors at once: one endpoint,
	// the same answer on both.
	idem := map[string]string{"X-API-Key": nodes[0].APIKey, "Idempotency-Key": "create-" + ep.ID}
	answers := make([]*apptest.Response, 2)
	var wg sync.WaitGroup
	for i, s := range []*apptest.Server{a, b} {
		wg.Go(func() {
			answers[i] = s.Do("POST", "/v1/webhooks", []byte(`{"url":"`+srv.URL+`/again"}`), idem)
		})
	}
	wg.Wait()
	var views [2]struct{ ID, Secret string }
	for i, r := range answers {
		if err := json.Unmarshal(r.Body, &views[i]); r.Status != 201 || err != nil {
			t.Fatalf("idempotent create %d: %d %s", i, r.Status, r.Body)
		}
	}
	if views[0] != views[1] {
		t.Fatalf("one Idempotency-Key on two nodes answered %+v and %+v", views[0], views[1])
	}
	b.WaitFor("one endpoint listed", func() bool {
		var list struct{ Webhooks []struct{ ID string } }
		_ = json.Unmarshal(b.Do("GET", "/v1/webhooks", nil, auth).Body, &list)
		return len(list.Webhooks) == 1 && list.Webhooks[0].ID == views[0].ID
	})
}

// submitAndCancel submits an order on each node of on and cancels it on
// the next node, and returns the orders' hashes.
func submitAndCancel(t *testing.T, nodes []*apptest.Server, on []int) []string {
	t.Helper()
	domain := chain.NewRouterDomain(4663, testRouter)
	var hashes []string
	for i, n := range on {
		key, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		body, h := signOrder(key, uint64(time.Now().UnixNano())+uint64(i))
		if r := submit(nodes[n], body); r.Status != 201 {
			t.Fatalf("submit on node%d: %d %s", n, r.Status, r.Body)
		}
		canceller := on[(i+1)%len(on)]
		cancelOn(t, nodes[canceller], domain, h, key)
		hashes = append(hashes, h.Hex())
	}
	return hashes
}

// cancelOn cancels an order through node s with its maker's signature.
func cancelOn(t *testing.T, s *apptest.Server, domain *chain.Domain, h common.Hash, key *ecdsa.PrivateKey) {
	t.Helper()
	d := chain.CancelHash(domain, h)
	sig, err := crypto.Sign(d[:], key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	body, _ := json.Marshal(map[string]string{"signature": hexutil.Encode(sig)})
	s.WaitFor("the cancel of "+h.Hex(), func() bool {
		r := s.Do("DELETE", "/v1/orders/"+h.Hex(), body, map[string]string{"X-API-Key": s.APIKey})
		return r.Status == 200
	})
}

// waitDelivered waits until the receiver has a delivery of every order of
// hashes and at least before+len(hashes) receipts.
func waitDelivered(t *testing.T, s *apptest.Server, rv *receiver, hashes []string, before int) {
	t.Helper()
	s.WaitFor("every cancel delivered", func() bool {
		got, n, _ := rv.byOrder()
		for _, h := range hashes {
			if len(got[h]) == 0 {
				return false
			}
		}
		return n >= before+len(hashes)
	})
}

// slowReceiver answers every delivery 204 after delay, and records each
// request: its delivery id and when it was open.
type slowReceiver struct {
	delay time.Duration
	mu    sync.Mutex
	reqs  []slowRequest
}

type slowRequest struct {
	delivery, orderHash string
	from, to            time.Time
}

func (rv *slowReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	from := time.Now()
	body, _ := io.ReadAll(r.Body)
	// The envelope only: the signatures are the other tests' concern.
	d := webhook.Receive(r.Header, body, "", from, webhook.DefaultTolerance)
	rv.mu.Lock()
	delay := rv.delay
	rv.mu.Unlock()
	time.Sleep(delay)
	w.WriteHeader(http.StatusNoContent)
	rv.mu.Lock()
	rv.reqs = append(rv.reqs, slowRequest{delivery: d.ID, orderHash: d.OrderHash.Hex(), from: from, to: time.Now()})
	rv.mu.Unlock()
}

// TestWebhookHandoverSendsNothingTwice: when an endpoint's owner stops,
// and when it comes back and the node that owned the endpoint meanwhile
// hands it back, the old owner lets its attempts in flight finish before
// it lets the endpoint go (none is open when the shard is released) and
// the new owner reads their outcomes before it sends: every delivery is
// sent once, although the receiver holds each attempt open for a quarter
// of a second and events keep coming throughout.
func TestWebhookHandoverSendsNothingTwice(t *testing.T) {
	nodes := apptest.NewTestCluster(t, 3, apptest.WithTokens(testTokens(t)), apptest.WithConfig(func(c *config.Config) {
		big := config.BucketLimits{Quote: 1 << 20, Read: 1 << 20, Order: 1 << 20}
		c.Limits.Free, c.Limits.Builder = big, big
		c.Chain.Router, c.Chain.FeeVault = testRouter.Hex(), testVault.Hex()
		c.Webhooks.JitterPpm = 0
	}))
	rv := &slowReceiver{}
	srv := httptest.NewServer(rv)
	defer srv.Close()
	auth := map[string]string{"X-API-Key": nodes[0].APIKey}
	res := nodes[0].Do("POST", "/v1/webhooks", []byte(`{"url":"`+srv.URL+`/hook","events":["order.cancelled"]}`), auth)
	var ep struct{ ID string }
	if err := json.Unmarshal(res.Body, &ep); res.Status != 201 || err != nil {
		t.Fatalf("create endpoint: %d %s", res.Status, res.Body)
	}
	closed := make([]bool, len(nodes))
	ownerOf := func() int {
		for i, s := range nodes {
			if s.System != nil && !closed[i] && s.System.Member.Owns(webhook.KindName, ep.ID) {
				return i
			}
		}
		return -1
	}
	// The endpoint settled on its preferred member, which it goes back to
	// when that member rejoins.
	var x int
	nodes[0].WaitFor("the endpoint owned by its preferred member", func() bool {
		x = ownerOf()
		_, _, pref := nodes[0].System.Member.Place(ep.ID)
		return x >= 0 && pref == "node"+strconv.Itoa(x)
	})

	// Events keep coming, each attempt held open, while the owner stops
	// (another node takes the endpoint over), comes back, and the
	// endpoint is handed back to it.
	rv.mu.Lock()
	rv.delay = 250 * time.Millisecond
	rv.mu.Unlock()
	var others []int
	for i := range nodes {
		if i != x {
			others = append(others, i)
		}
	}
	stop := make(chan struct{})
	produced := make(chan []string)
	go func() {
		var hashes []string
		defer func() { produced <- hashes }()
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			hashes = append(hashes, submitAndCancel(t, nodes, others)...)
		}
	}()
	time.Sleep(time.Second)
	nodes[x].Close()
	closed[x] = true
	var y int
	nodes[others[0]].WaitFor("a survivor owning the endpoint", func() bool { y = ownerOf(); return y >= 0 })
	var leftAt time.Time // when the survivor released the endpoint's shard
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for nodes[y].System.Member.Owns(webhook.KindName, ep.ID) {
			time.Sleep(time.Millisecond)
		}
		leftAt = time.Now()
	}()
	nodes[x].Restart()
	closed[x] = false
	nodes[x].WaitFor("the node owning the endpoint again", func() bool { return ownerOf() == x })
	<-watched
	time.Sleep(time.Second)
	close(stop)
	hashes := <-produced
	nodes[y].WaitFor("every cancel delivered", func() bool {
		rv.mu.Lock()
		defer rv.mu.Unlock()
		got := map[string]bool{}
		for _, r := range rv.reqs {
			got[r.orderHash] = true
		}
		for _, h := range hashes {
			if !got[h] {
				return false
			}
		}
		return true
	})
	time.Sleep(time.Second) // a second send would come meanwhile

	rv.mu.Lock()
	defer rv.mu.Unlock()
	sent := map[string]int{}
	open, before := 0, 0
	for _, r := range rv.reqs {
		sent[r.delivery]++
		switch {
		case r.from.Before(leftAt) && r.to.After(leftAt):
			open++
		case !r.to.After(leftAt) && leftAt.Sub(r.to) < time.Second:
			before++
		}
	}
	if before == 0 {
		t.Fatalf("no attempt ended in the second before node%d released the endpoint's shard (%d requests)", y, len(rv.reqs))
	}
	if open > 0 {
		t.Fatalf("%d attempts were still open when node%d released the endpoint's shard", open, y)
	}
	for id, n := range sent {
		if n != 1 {
			t.Fatalf("delivery %s sent %d times across the stop and the handover", id, n)
		}
	}
	t.Logf("%d deliveries of %d cancels; %d attempts ended in the second before node%d handed the endpoint back to node%d, none was open then", len(sent), len(hashes), before, y, x)
}
