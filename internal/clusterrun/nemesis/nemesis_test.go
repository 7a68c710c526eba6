package nemesis_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/internal/clusterrun"
	"github.com/orderengine/orderengine/internal/clusterrun/clustertest"
	"github.com/orderengine/orderengine/internal/clusterrun/nemesis"
)

func TestMain(m *testing.M) { clustertest.Main(m) }

// The limits the campaign's probes run against: a ten-second window, so
// that windows without a fault fit between the faults.
const (
	limitWindow = 10 * time.Second
	freeOrders  = 10 // the free tier's orders per window
	makerOrders = 10 // one maker's submits per window
)

// step is one fault of a campaign: what it does, how long it lasts.
type step struct {
	class string
	hold  time.Duration
}

// TestNemesis runs one round of every fault class on a three-node cluster
// whose nodes each run in a network namespace of their own, under a
// workload of submits, cancels and reads spread over every node, rate
// limit probes, a webhook endpoint and a readiness prober; then checks the
// history (nemesis.Check) and each order's submits and cancels for
// linearizability (Porcupine). The faults: kill -9 of the node leading
// the most order streams (restarted 10 s later), SIGSTOP of a node for
// 10 s, the node leading the most streams cut off from the others for
// 15 s, then a node leading none, a ring partition (two nodes cut from
// each other, both reaching the third) and 10 % packet loss between all
// nodes, each followed by 15 s of quiet (the bound of the membership's
// convergence after a node was cut off). It logs each fault's failover
// window and the time the membership took to converge after its heal.
func TestNemesis(t *testing.T) {
	steps := []step{
		{"kill", 10 * time.Second}, {"pause", 10 * time.Second}, {"isolate-leader", 15 * time.Second},
		{"isolate-follower", 15 * time.Second}, {"ring", 15 * time.Second}, {"loss", 15 * time.Second},
	}
	if only := os.Getenv("NEMESIS_ONLY"); only != "" {
		// A subset of the classes, comma-separated, to look into one.
		steps = slices.DeleteFunc(steps, func(s step) bool { return !slices.Contains(strings.Split(only, ","), s.class) })
	}
	campaign(t, steps, 15*time.Second)
}

// TestNemesisCampaign is the long campaign (`make nemesis`, not part of
// `make test`): NEMESIS_ROUNDS rounds (default 3) of every fault class in
// random order with longer faults: pauses of 10 to 60 s, partitions of 20
// to 120 s, loss for 30 s.
func TestNemesisCampaign(t *testing.T) {
	if os.Getenv("NEMESIS_CAMPAIGN") == "" {
		t.Skip("the long campaign runs with NEMESIS_CAMPAIGN=1 (make nemesis)")
	}
	rounds := 3
	if n, err := fmt.Sscan(os.Getenv("NEMESIS_ROUNDS"), &rounds); n != 1 || err != nil {
		rounds = 3
	}
	var steps []step
	for range rounds {
		round := []step{
			{"kill", time.Duration(10+rand.N(20)) * time.Second},
			{"pause", time.Duration(10+rand.N(51)) * time.Second},
			{"isolate-leader", time.Duration(20+rand.N(101)) * time.Second},
			{"isolate-follower", time.Duration(20+rand.N(101)) * time.Second},
			{"ring", time.Duration(20+rand.N(61)) * time.Second},
			{"loss", 30 * time.Second},
		}
		rand.Shuffle(len(round), func(i, j int) { round[i], round[j] = round[j], round[i] })
		steps = append(steps, round...)
	}
	campaign(t, steps, 15*time.Second)
}

func campaign(t *testing.T, steps []step, quiet time.Duration) {
	clustertest.Binary(t)
	began := time.Now()
	env := map[string]string{
		"ORDERENGINE_LIMITS_WINDOW":        limitWindow.String(),
		"ORDERENGINE_LIMITS_FREE_ORDER":    fmt.Sprint(freeOrders),
		"ORDERENGINE_LIMITS_MAKER_SUBMITS": fmt.Sprint(makerOrders),
		"ORDERENGINE_LIMITS_MAKER_WINDOW":  limitWindow.String(),
	}
	h := clustertest.Start(t, clustertest.Options{Cluster: true, Namespaces: true, Env: env})
	ctx := context.Background()
	key := h.Key(0)
	freeKey, _, err := h.IssueKey(ctx, 0, "free", "free", clusterrun.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{key, freeKey} {
		if err := h.WaitKey(ctx, k, 30*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("cluster up and keys issued in %v", time.Since(began).Round(time.Millisecond))

	rv, err := nemesis.NewReceiver(net.JoinHostPort(h.Net.Gateway.String(), "0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rv.Close() })
	register(t, h, rv, key)

	c := h.Contracts()
	domain := chain.NewRouterDomain(c.ChainID, c.Router)
	urls := make([]string, len(h.Nodes))
	for i := range urls {
		urls[i] = h.BaseURL(i)
	}
	w := nemesis.NewWorkload(nemesis.Target{URLs: urls,
		Sign: func(maker *ecdsa.PrivateKey, salt uint64) ([]byte, common.Hash) {
			return c.Sign(t, clustertest.Resting(maker, salt))
		},
		CancelDigest: func(h common.Hash) common.Hash { return chain.CancelHash(domain, h) },
	}, key, freeKey)
	sampling, stopSampling := context.WithCancel(ctx)
	samples := nemesis.Members(sampling, len(h.Nodes), 250*time.Millisecond, metricsOf(h))
	w.Start()

	var faults []nemesis.Fault
	time.Sleep(quiet / 2)
	for _, s := range steps {
		f := inject(t, h, s)
		faults = append(faults, f)
		t.Logf("%s of %v on node%v healed at +%v", f.Class, s.hold, plusOne(f.Nodes), f.End.Sub(began).Round(time.Millisecond))
		time.Sleep(quiet)
	}
	w.Stop()
	stopSampling()
	for i := range h.Nodes {
		h.WaitReady(i)
	}
	ops := w.History.Ops()
	waitDeliveries(t, rv, ops, time.Minute)
	final := readBack(t, h, key, ops)
	members := <-samples

	b := nemesis.Bounds{Handover: 10 * time.Second, Converge: 10 * time.Second, ConvergeCutOff: 15 * time.Second,
		KeyLimit: freeOrders, MakerLimit: makerOrders,
		KeyWindow: limitWindow, MakerWindow: limitWindow, Nodes: len(h.Nodes)}
	r := nemesis.Check(b, ops, faults, rv.Receipts(), members, final)
	logReport(t, ops, r)
	keepHistory(t, ops, faults, rv.Receipts(), members)
	for _, v := range r.Violations {
		t.Error(v)
	}
	res, n := nemesis.Linearizable(ops, time.Minute)
	t.Logf("porcupine: %d submits and cancels: %s", n, res)
	if res != "Ok" {
		t.Errorf("the orders' submits and cancels are not linearizable: %s", res)
	}
}

// register registers a webhook endpoint for order.cancelled on the
// receiver through node1.
func register(t *testing.T, h *clustertest.Harness, rv *nemesis.Receiver, key string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"url": rv.URL, "events": []string{"order.cancelled"}})
	code, resp := h.Do(0, http.MethodPost, "/v1/webhooks", key, body)
	if code != http.StatusCreated {
		t.Fatalf("register the webhook endpoint: %d %s", code, resp)
	}
	var ep struct{ Secret string }
	if err := json.Unmarshal(resp, &ep); err != nil {
		t.Fatal(err)
	}
	rv.SetSecret(ep.Secret)
}

// metricsOf GETs node i's /metrics on its admin listener, inside its
// namespace.
func metricsOf(h *clustertest.Harness) func(ctx context.Context, i int) (io.ReadCloser, error) {
	return func(ctx context.Context, i int) (io.ReadCloser, error) {
		token, err := os.ReadFile(filepath.Join(h.Layout.Nodes[i].DataDir, "admin.token"))
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.AdminURL(i)+"/metrics", nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
		resp, err := h.Client(i).Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusOK {
			_ = resp.Body.Close()
			return nil, fmt.Errorf("metrics: %d", resp.StatusCode)
		}
		return resp.Body, nil
	}
}

// inject runs one fault and returns it once healed: for a kill, once the
// node is ready again. Its start is when the fault is in place (the
// signal sent, the rules applied), its end when it is gone.
func inject(t *testing.T, h *clustertest.Harness, s step) nemesis.Fault {
	t.Helper()
	led := leading(h)
	most, least := led[0], led[len(led)-1]
	f := nemesis.Fault{Class: s.class}
	switch s.class {
	case "kill":
		f.Nodes = []int{most}
		h.Kill(most)
		f.Start = time.Now()
		time.Sleep(s.hold)
		h.Restart(most)
	case "pause":
		f.Nodes = []int{most}
		h.Pause(most)
		f.Start = time.Now()
		time.Sleep(s.hold)
		h.Resume(most)
	case "isolate-leader", "isolate-follower":
		n := most
		if s.class == "isolate-follower" {
			n = least
		}
		f.Nodes, f.Minority = []int{n}, []int{n}
		h.Isolate(n)
		f.Start = time.Now()
		time.Sleep(s.hold)
		h.Heal()
	case "ring":
		other := led[1]
		f.Nodes = []int{most, other}
		h.Cut(most, other)
		f.Start = time.Now()
		time.Sleep(s.hold)
		h.Heal()
	case "loss":
		f.Nodes = []int{0, 1, 2}
		h.Loss(10)
		f.Start = time.Now()
		time.Sleep(s.hold)
		h.Heal()
	default:
		t.Fatalf("unknown fault %s", s.class)
	}
	f.End = time.Now()
	return f
}

// leading returns the nodes ordered by how many order streams they lead,
// most first (asked through any node that answers).
func leading(h *clustertest.Harness) []int {
	count := h.OrderStreamsLed(0)
	idx := []int{0, 1, 2}
	slices.SortStableFunc(idx, func(a, b int) int { return count[b] - count[a] })
	return idx
}

// waitDeliveries waits until every order cancelled (200) has an
// order.cancelled receipt, or timeout.
func waitDeliveries(t *testing.T, rv *nemesis.Receiver, ops []nemesis.Op, timeout time.Duration) {
	t.Helper()
	want := map[common.Hash]bool{}
	for _, o := range ops {
		if o.Kind == nemesis.OpCancel && o.Status == http.StatusOK {
			want[o.Hash] = true
		}
	}
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		got := map[common.Hash]bool{}
		for _, r := range rv.Receipts() {
			got[r.Order] = true
		}
		missing := 0
		for h := range want {
			if !got[h] {
				missing++
			}
		}
		if missing == 0 {
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// readBack reads every order a submit may have stored on every node.
func readBack(t *testing.T, h *clustertest.Harness, key string, ops []nemesis.Op) nemesis.Final {
	t.Helper()
	final := nemesis.Final{}
	for _, o := range ops {
		if o.Kind != nemesis.OpSubmit || final[o.Hash] != nil {
			continue
		}
		reads := make([]nemesis.FinalRead, len(h.Nodes))
		for i := range h.Nodes {
			code, body := h.Do(i, http.MethodGet, "/v1/orders/"+o.Hash.Hex(), key, nil)
			reads[i] = nemesis.FinalRead{Status: code, Body: body}
		}
		final[o.Hash] = reads
	}
	return final
}

// logReport logs what the campaign measured: answers by kind, each
// fault's failures on the nodes that kept a quorum, and the membership's
// convergence.
func logReport(t *testing.T, ops []nemesis.Op, r *nemesis.Report) {
	t.Helper()
	counts := map[string]map[int]int{}
	for _, o := range ops {
		if counts[o.Kind] == nil {
			counts[o.Kind] = map[int]int{}
		}
		counts[o.Kind][o.Status]++
	}
	for kind, by := range counts {
		t.Logf("%-7s %v", kind, by)
	}
	for k, st := range r.Failover {
		conv := "never"
		if k < len(r.Converged) && r.Converged[k] >= 0 {
			conv = r.Converged[k].Round(time.Millisecond).String()
		}
		t.Logf("%-16s held %-7v  submits of the majority %4d, failed %3d, window %-8v  membership converged %s after the heal",
			st.Fault.Class, st.Fault.End.Sub(st.Fault.Start).Round(100*time.Millisecond), st.Submits, st.Failures,
			st.Window().Round(time.Millisecond), conv)
	}
}

// keepHistory writes the campaign's history as JSON lines to
// $CLUSTERTEST_KEEP_LOGS/<test>/history.jsonl, when that variable names a
// folder, for a look after a failure.
func keepHistory(t *testing.T, ops []nemesis.Op, faults []nemesis.Fault, receipts []nemesis.Receipt, samples []nemesis.Sample) {
	keep := os.Getenv("CLUSTERTEST_KEEP_LOGS")
	if keep == "" {
		return
	}
	dir := filepath.Join(keep, strings.ReplaceAll(t.Name(), "/", "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Log(err)
		return
	}
	f, err := os.Create(filepath.Join(dir, "history.jsonl"))
	if err != nil {
		t.Log(err)
		return
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, x := range faults {
		_ = enc.Encode(map[string]any{"fault": x})
	}
	for _, o := range ops {
		o.Body = nil
		_ = enc.Encode(map[string]any{"op": o})
	}
	for _, r := range receipts {
		_ = enc.Encode(map[string]any{"receipt": r})
	}
	for _, s := range samples {
		_ = enc.Encode(map[string]any{"sample": s})
	}
	t.Logf("the history is kept in %s", f.Name())
}

func plusOne(nodes []int) []int {
	out := make([]int, len(nodes))
	for i, n := range nodes {
		out[i] = n + 1
	}
	return out
}
