package clustertest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/routing"
)

// Addresses of the cluster nodes' token registry: no chain behind it, the
// order path runs up to and including the replicated commit.
var (
	testRouter = common.HexToAddress("0x00000000000000000000000000000000000A11CE")
	testVault  = common.HexToAddress("0x000000000000000000000000000000000000FEE5")
	testIn     = common.HexToAddress("0x1000000000000000000000000000000000000001")
	testOut    = common.HexToAddress("0x2000000000000000000000000000000000000002")
)

// clusterPartitions is the test cluster's cluster.orderPartitions (not the
// default, so the test sees the setting taken).
const clusterPartitions = 3

// startTestCluster starts three engines in this process as one cluster,
// with the order service over the test registry and limits out of the way.
func startTestCluster(t *testing.T) []*apptest.Server {
	t.Helper()
	return apptest.NewTestCluster(t, 3, apptest.WithTokens(testTokens(t)), apptest.WithConfig(func(c *config.Config) {
		big := config.BucketLimits{Quote: 1 << 20, Read: 1 << 20, Order: 1 << 20}
		c.Limits.Free, c.Limits.Builder = big, big
		c.Chain.Router, c.Chain.FeeVault = testRouter.Hex(), testVault.Hex()
		c.Cluster.OrderPartitions = clusterPartitions
	}))
}

func testTokens(t *testing.T) func() *routing.Tokens {
	reg, err := routing.NewTokens([]config.TokenConfig{
		{Address: testIn.Hex(), Symbol: "AAA", Decimals: 18, Class: config.ClassMajor},
		{Address: testOut.Hex(), Symbol: "BBB", Decimals: 6, Class: config.ClassStable},
	})
	if err != nil {
		t.Fatal(err)
	}
	reg = reg.WithOracle(func(common.Address) bool { return true })
	return func() *routing.Tokens { return reg }
}

// signedOrder is a v7.1 limit order of a fresh maker, signed, as the body
// of POST /v1/orders, with its hash and maker.
func signedOrder(t *testing.T, salt uint64) ([]byte, common.Hash, common.Address) {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	body, h := signOrder(key, salt)
	return body, h, crypto.PubkeyToAddress(key.PublicKey)
}

func signOrder(key *ecdsa.PrivateKey, salt uint64) ([]byte, common.Hash) {
	maker := crypto.PubkeyToAddress(key.PublicKey)
	ppm := config.Default().Routing.FeePolicy["limit"][config.ClassMajor].ReferralPpm
	traits, _ := chain.EncodeTraits(chain.Traits{SlippagePpm: 5000})
	o := chain.Order{Maker: maker, Receiver: maker, TokenIn: testIn, TokenOut: testOut, Referrer: testVault,
		ReferralFeePpm: ppm, MakerTraits: traits}
	o.Salt.SetUint64(salt)
	o.AmountIn.SetUint64(1_000_000_000_000_000_000)
	o.TriggerPrice.SetUint64(2_000_000_000)
	o.TriggerAmountOut, _ = chain.DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, 18)
	h := chain.OrderHash(chain.NewRouterDomain(4663, testRouter), &o)
	sig, _ := crypto.Sign(h[:], key)
	sig[64] += 27
	body := fmt.Sprintf(`{"orderType":"limit","signature":"0x%s","orderHash":"%s","order":{"salt":"0x%s","maker":"%s","receiver":"%s",`+
		`"tokenIn":"%s","tokenOut":"%s","amountIn":"%s","triggerPrice":"%s","makerTraits":"%s","referrer":"%s","referralFeePpm":%d}}`,
		hex.EncodeToString(sig), h.Hex(), hex.EncodeToString(o.Salt.Bytes()), maker.Hex(), maker.Hex(), testIn.Hex(), testOut.Hex(),
		o.AmountIn.Dec(), o.TriggerPrice.Dec(), uint256.NewInt(0).Set(&traits).Dec(), testVault.Hex(), ppm)
	return []byte(body), h
}

// submit posts body to s with s's key.
func submit(s *apptest.Server, body []byte) *apptest.Response {
	return s.Do("POST", "/v1/orders", body, map[string]string{"X-API-Key": s.APIKey})
}

// assertWiring checks that with cluster.enabled, app.New embedded a
// JetStream server that fsyncs every write, with the streams made for
// cluster.orderPartitions partitions and cluster.replicas replicas.
func assertWiring(t *testing.T, nodes []*apptest.Server) {
	t.Helper()
	for _, s := range nodes {
		n := s.System.ClusterNode()
		if n == nil {
			t.Fatal("a cluster node without its JetStream node")
		}
		if jc := n.Server().JetStreamConfig(); jc == nil || !jc.SyncAlways {
			t.Fatalf("%s: JetStream config %+v: not SyncAlways", s.Config.Cluster.Node, jc)
		}
	}
	js, err := jetstream.New(nodes[0].System.ClusterNode().Conn())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	names := map[string]bool{}
	for name := range js.StreamNames(ctx).Name() {
		names[name] = true
		s, err := js.Stream(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if c := s.CachedInfo().Config; c.Replicas != nodes[0].Config.Cluster.Replicas || c.Storage != jetstream.FileStorage {
			t.Fatalf("stream %s: %d replicas in %v", name, c.Replicas, c.Storage)
		}
	}
	want := map[string]bool{"SHARED": true, "LEASES": true}
	for p := range clusterPartitions {
		want[fmt.Sprintf("ORDERS_%d", p)] = true
	}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Fatalf("streams %v, want %v", names, want)
	}
}

// TestClusterOfThreeSystems runs three engines as a cluster in one process
// (assertWiring: fsync always, partitions and replicas as configured),
// over HTTP: an order accepted by node A is readable at once on A
// (read-your-writes) and soon on B and C with the same body; every node's
// maker actor counts it once (the materialiser is the one change feed); the
// same signed order sent to two nodes at once is accepted once (201 and 409
// ALREADY_EXISTS); a key created on one node authenticates on the others
// and, once disabled, is refused by them (the delays are logged:
// docs/cluster-durability.md states the bound); a node left without a
// quorum answers 503 NO_QUORUM with Retry-After to a submit and keeps
// serving reads of what it holds, and answers 503 NO_QUORUM (not 404) for
// an order it does not hold.
func TestClusterOfThreeSystems(t *testing.T) {
	nodes := startTestCluster(t)
	assertWiring(t, nodes)
	a, b, c := nodes[0], nodes[1], nodes[2]

	body, h, maker := signedOrder(t, 1)
	if r := submit(a, body); r.Status != 201 {
		t.Fatalf("submit on A: %d %s", r.Status, r.Body)
	}
	want := a.Get("/v1/orders/" + h.Hex())
	if want.Status != 200 || !bytes.Contains(want.Body, []byte(`"status":"pending"`)) {
		t.Fatalf("read on A right after its 201: %d %s", want.Status, want.Body)
	}
	if n := a.System.Makers.OpenOrders(maker); n != 1 {
		t.Fatalf("node A counts %d open orders of the maker after its 201, want 1", n)
	}
	for _, n := range []*apptest.Server{b, c} {
		var got *apptest.Response
		n.WaitFor("the order", func() bool { got = n.Get("/v1/orders/" + h.Hex()); return got.Status == 200 })
		if !bytes.Equal(got.Body, want.Body) {
			t.Fatalf("%s reads\n%s\nnode A reads\n%s", n.Config.Cluster.Node, got.Body, want.Body)
		}
		n.WaitFor("the maker's open order counted", func() bool { return n.System.Makers.OpenOrders(maker) == 1 })
	}
	if r := submit(b, body); r.Status != 409 || r.Code() != "ALREADY_EXISTS" {
		t.Fatalf("the same order again on B: %d %s", r.Status, r.Body)
	}
	for round := range 5 {
		body, _, _ := signedOrder(t, uint64(100+round))
		codes := make([]string, 2)
		var wg sync.WaitGroup
		for i, n := range []*apptest.Server{b, c} {
			wg.Go(func() { r := submit(n, body); codes[i] = fmt.Sprint(r.Status, r.Code()) })
		}
		wg.Wait()
		if !(codes[0] == "201" && codes[1] == "409ALREADY_EXISTS" || codes[0] == "409ALREADY_EXISTS" && codes[1] == "201") {
			t.Fatalf("round %d: the same order on two nodes at once answered %v", round, codes)
		}
	}
	for _, n := range nodes {
		if got := n.System.Makers.OpenOrders(maker); got != 1 {
			t.Fatalf("%s counts %d open orders of the maker, want 1", n.Config.Cluster.Node, got)
		}
	}

	keyRounds(t, nodes)

	// C stops and is removed from the streams' peers through A's admin
	// API; A itself, a running node and an unknown name are refused (the
	// last by the meta leader, which may be C: NO_QUORUM until another
	// leads).
	c.Close()
	for _, node := range []string{a.Config.Cluster.Node, b.Config.Cluster.Node, "nosuch"} {
		var r *apptest.Response
		a.WaitFor("the meta leader's answer", func() bool {
			r = a.Admin("POST", "/admin/v1/cluster/peers/"+node+"/remove", nil)
			return r.Status != 503
		})
		if r.Status != 400 || r.Code() != "INVALID_REQUEST" {
			t.Fatalf("remove %s: %d %s", node, r.Status, r.Body)
		}
	}
	var removed *apptest.Response
	a.WaitFor("C's routes to drop", func() bool {
		removed = a.Admin("POST", "/admin/v1/cluster/peers/"+c.Config.Cluster.Node+"/remove", nil)
		return removed.Status != 400 || !bytes.Contains(removed.Body, []byte("is connected"))
	})
	if removed.Status != 200 {
		t.Fatalf("remove the stopped node: %d %s", removed.Status, removed.Body)
	}

	// B stops too: A reaches no quorum, refuses writes, serves reads of
	// what its store holds, and cannot tell whether an order it does not
	// hold exists: 503, not 404.
	b.Close()
	a.WaitFor("GET /readyz answering NO_QUORUM", func() bool {
		r := a.Raw(a.URL, "GET", "/readyz", nil, nil)
		return r.Status == 503 && r.Code() == "NO_QUORUM"
	})
	body, h2, _ := signedOrder(t, 2)
	r := submit(a, body)
	if r.Status != 503 || r.Code() != "NO_QUORUM" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("submit without a quorum: %d %v %s", r.Status, r.Header, r.Body)
	}
	if r := a.Get("/v1/orders/" + h.Hex()); r.Status != 200 || !bytes.Equal(r.Body, want.Body) {
		t.Fatalf("read without a quorum: %d %s", r.Status, r.Body)
	}
	if r := a.Get("/v1/orders/" + h2.Hex()); r.Status != 503 || r.Code() != "NO_QUORUM" || r.Header.Get("Retry-After") == "" {
		t.Fatalf("an order this node does not hold, without a quorum: %d %v %s", r.Status, r.Header, r.Body)
	}
}

// keyRounds creates a key on one node and disables it there, round after
// round on each node in turn, and logs how long the others took to accept
// it and then to refuse it (the bound docs/cluster-durability.md states).
func keyRounds(t *testing.T, nodes []*apptest.Server) {
	t.Helper()
	var worstCreate, worstDisable time.Duration
	for round := range 3 * len(nodes) {
		w := nodes[round%len(nodes)]
		r := w.Admin("POST", "/admin/v1/accounts/"+w.AccountID+"/keys", nil)
		var issued struct {
			Key    string `json:"key"`
			Record struct {
				ID string `json:"id"`
			} `json:"record"`
		}
		if r.Status != 201 || json.Unmarshal(r.Body, &issued) != nil {
			t.Fatalf("issue a key on %s: %d %s", w.Config.Cluster.Node, r.Status, r.Body)
		}
		get := func(n *apptest.Server) *apptest.Response {
			return n.Do("GET", "/v1/orders?limit=1", nil, map[string]string{"X-API-Key": issued.Key})
		}
		if r := get(w); r.Status != 200 {
			t.Fatalf("the new key on the node that made it: %d %s", r.Status, r.Body)
		}
		for _, n := range nodes {
			if n != w {
				worstCreate = max(worstCreate, n.WaitFor("the new key accepted", func() bool { return get(n).Status == 200 }))
			}
		}
		if r := w.Admin("POST", "/admin/v1/keys/"+issued.Record.ID+"/disable", nil); r.Status != 200 {
			t.Fatalf("disable on %s: %d %s", w.Config.Cluster.Node, r.Status, r.Body)
		}
		if r := get(w); r.Status != 401 || r.Code() != "KEY_DISABLED" {
			t.Fatalf("the disabled key on the node that disabled it: %d %s", r.Status, r.Body)
		}
		for _, n := range nodes {
			if n != w {
				worstDisable = max(worstDisable, n.WaitFor("the disabled key refused", func() bool {
					r := get(n)
					return r.Status == 401 && r.Code() == "KEY_DISABLED"
				}))
			}
		}
	}
	t.Logf("%d rounds: a new key accepted by the other nodes within %v, a disabled key refused within %v (the slowest)",
		3*len(nodes), worstCreate, worstDisable)
}
