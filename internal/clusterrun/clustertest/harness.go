// Package clustertest runs a cluster as separate processes for a test:
// the shared dev chain (`orderengine devnet serve`) and several
// `orderengine serve` nodes on loopback, on free ports, in the test's
// temporary folder, with the commands and environment of `make cluster`
// and the compose file (clusterrun.Layout). A test can kill a node with
// SIGKILL, pause and resume it (SIGSTOP, SIGCONT), restart it, or restart
// it with an empty data folder under a new name; it can issue keys,
// sign orders with the dev chain's funded makers and wait for their
// statuses.
//
// A package using it calls Main from its TestMain, which removes the
// binary built for the processes once the package's tests are done:
//
//	func TestMain(m *testing.M) { clustertest.Main(m) }
package clustertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orderengine/orderengine/internal/clusterrun"
	"github.com/orderengine/orderengine/internal/netns"
	"github.com/orderengine/orderengine/internal/testport"
)

// The orderengine binary, built once per test binary.
var (
	mainCalled bool
	binOnce    sync.Once
	binDir     string
	binPath    string
	binErr     error
)

// Main runs the package's tests and removes the binary built for them.
func Main(m *testing.M) {
	mainCalled = true
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// Binary builds cmd/orderengine once for the test binary and returns its
// path (the go command of the environment builds it: `make test` sets
// GOTOOLCHAIN).
func Binary(t testing.TB) string {
	t.Helper()
	if !mainCalled {
		t.Fatal("clustertest: call clustertest.Main(m) from the package's TestMain (it removes the binary)")
	}
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "orderengine-cluster-bin")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "orderengine")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/orderengine/orderengine/cmd/orderengine").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// Options shape a harness cluster. The zero value is three nodes with
// cluster mode off (independent engines on the one chain).
type Options struct {
	// Nodes is the number of nodes; default 3.
	Nodes int
	// Cluster sets cluster.enabled on every node.
	Cluster bool
	// BlockInterval is the chain's; default 200 ms, so fills take a
	// fraction of a second.
	BlockInterval time.Duration
	// Env are further ORDERENGINE_* variables of every node.
	Env map[string]string
	// Joining is how many of the last nodes join later: Start leaves them
	// stopped and out of the others' routes and peers; Join starts one.
	Joining int
	// Namespaces runs each node in a network namespace of its own, on a
	// bridge (internal/netns), so that a test can cut the network between
	// nodes (Isolate, Cut, Loss, Heal); the chain and the test stay in the
	// test's namespace, which reaches every node whatever the faults, and
	// which the nodes may send webhooks to (its address is added to
	// webhooks.allowTargets). It needs root and nftables.
	Namespaces bool
}

// Harness is a running cluster of processes owned by a test. Its methods
// fail the test on an error.
type Harness struct {
	*clusterrun.Cluster
	t   testing.TB
	ctx context.Context
	// Dir is the cluster's folder: the chain's and the nodes' data
	// folders, chain.json, keeper.key and logs/.
	Dir string
	// Net is the nodes' network with Options.Namespaces (nil without).
	Net *netns.Network
}

// Start builds the binary, starts the chain and the nodes on free
// loopback ports and waits until every node is ready; the test's cleanup
// stops them (and prints the end of every log when the test failed). A
// start that fails because a port was taken in the meantime is tried
// again on new ports.
func Start(t testing.TB, opts Options) *Harness {
	t.Helper()
	if opts.Nodes == 0 {
		opts.Nodes = 3
	}
	if opts.BlockInterval == 0 {
		opts.BlockInterval = 200 * time.Millisecond
	}
	bin := Binary(t)
	ctx := context.Background()
	var nw *netns.Network
	if opts.Namespaces {
		var err error
		if nw, err = netns.New(opts.Nodes); err != nil {
			t.Fatalf("clustertest: %v", err)
		}
		t.Cleanup(func() {
			if err := nw.Close(); err != nil {
				t.Errorf("clustertest: %v", err)
			}
		})
	}
	for attempt := 1; ; attempt++ {
		dir := t.TempDir()
		h := &Harness{t: t, ctx: ctx, Dir: dir, Net: nw}
		free := freePorts(t, 1+4*opts.Nodes)
		var l clusterrun.Layout
		if nw != nil {
			hosts, names := make([]string, opts.Nodes), make([]string, opts.Nodes)
			for i, host := range nw.Hosts {
				hosts[i], names[i] = host.Addr.String(), host.NS
			}
			l = clusterrun.Hosts(dir, fmt.Sprintf("%s:%d", nw.Gateway, free[0]), hosts, names)
			opts.Env = maps.Clone(opts.Env)
			if opts.Env == nil {
				opts.Env = map[string]string{}
			}
			opts.Env["ORDERENGINE_WEBHOOKS_ALLOW_TARGETS"] = nw.Gateway.String() + "/32"
		} else {
			ports := make([]clusterrun.NodePorts, opts.Nodes)
			for i := range ports {
				p := free[1+4*i:]
				ports[i] = clusterrun.NodePorts{HTTP: p[0], Admin: p[1], NATS: p[2]}
			}
			l = clusterrun.Loopback(dir, free[0], ports)
			for i := range l.Nodes {
				// The embedded server's client listener: StreamLeaders asks it.
				l.Nodes[i].NATSClient = fmt.Sprintf("127.0.0.1:%d", free[4+4*i])
			}
		}
		l.Cluster = opts.Cluster
		l.Chain.Extra = []string{"--block-interval", opts.BlockInterval.String()}
		l.Env = opts.Env
		h.Cluster = clusterrun.New(l, bin, clusterrun.WithoutEngineEnv(os.Environ()), filepath.Join(dir, "logs"))
		first := opts.Nodes - opts.Joining
		founders := l
		founders.Nodes = l.Nodes[:first]
		for i := range founders.Nodes {
			h.Nodes[i].Env = clusterrun.Environ(h.Env, founders.NodeEnv(i))
		}
		err := h.StartChain(ctx)
		if err == nil {
			idx := make([]int, first)
			for i := range idx {
				idx[i] = i
			}
			err = h.StartNodes(ctx, idx...)
		}
		if err == nil {
			t.Cleanup(h.cleanup)
			return h
		}
		_ = h.Cluster.Stop(5 * time.Second)
		if !strings.Contains(err.Error(), "address already in use") || attempt == 3 {
			t.Fatalf("clustertest: start: %v", err)
		}
	}
}

// freePorts returns n distinct free loopback ports.
func freePorts(t testing.TB, n int) []int {
	seen := map[int]bool{}
	out := make([]int, 0, n)
	for len(out) < n {
		if p := testport.Port(t); !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// cleanup stops every process, copies the logs to
// $CLUSTERTEST_KEEP_LOGS/<test> when that variable names a folder, and
// when the test failed shows the end of each log, each node's membership
// lines (joins, leases renewed late or lost, shards taken and handed
// over), which say who owned what when, and its order lines (an order
// served on a node that could not reach its owner, a node that could not
// tell whether an order exists).
func (h *Harness) cleanup() {
	err := h.Cluster.Stop(15 * time.Second)
	if keep := os.Getenv("CLUSTERTEST_KEEP_LOGS"); keep != "" {
		dst := filepath.Join(keep, strings.ReplaceAll(h.t.Name(), "/", "_"))
		if err := os.CopyFS(dst, os.DirFS(filepath.Join(h.Dir, "logs"))); err != nil {
			h.t.Logf("keeping the logs: %v", err)
		} else {
			h.t.Logf("the logs are kept in %s", dst)
		}
	}
	if !h.t.Failed() {
		return
	}
	if err != nil {
		h.t.Logf("stopping the cluster: %v", err)
	}
	for _, p := range append([]*clusterrun.Proc{h.Chain}, h.Nodes...) {
		h.t.Logf("---- the end of %s:\n%s", p.Log, p.Tail(40))
	}
	for _, p := range h.Nodes {
		h.t.Logf("---- the membership lines of %s:\n%s", p.Log, p.Lines("members: ", 300))
		h.t.Logf("---- the order lines of %s:\n%s", p.Log, p.Lines(`msg="order`, 200))
	}
}

// Isolate cuts node i off from the other nodes (Options.Namespaces); the
// test and the chain still reach it.
func (h *Harness) Isolate(i int) {
	h.t.Helper()
	if err := h.network().Isolate(h.Net.Hosts[i]); err != nil {
		h.t.Fatal(err)
	}
}

// Cut drops the packets between nodes i and j (Options.Namespaces): with
// three nodes, a ring partition.
func (h *Harness) Cut(i, j int) {
	h.t.Helper()
	if err := h.network().Cut(h.Net.Hosts[i], h.Net.Hosts[j]); err != nil {
		h.t.Fatal(err)
	}
}

// Loss makes every node drop percent of its packets from and to the other
// nodes (Options.Namespaces).
func (h *Harness) Loss(percent int) {
	h.t.Helper()
	if err := h.network().Loss(percent); err != nil {
		h.t.Fatal(err)
	}
}

// Heal ends every partition and loss (Options.Namespaces).
func (h *Harness) Heal() {
	h.t.Helper()
	if err := h.network().Heal(); err != nil {
		h.t.Fatal(err)
	}
}

func (h *Harness) network() *netns.Network {
	if h.Net == nil {
		h.t.Fatal("clustertest: network faults need Options.Namespaces")
	}
	return h.Net
}

// Kill ends node i with SIGKILL (no shutdown) and waits for it.
func (h *Harness) Kill(i int) {
	h.t.Helper()
	if err := h.Nodes[i].Kill(); err != nil {
		h.t.Fatal(err)
	}
}

// Stop stops node i with SIGTERM (a graceful shutdown) and checks it
// exited 0.
func (h *Harness) Stop(i int) {
	h.t.Helper()
	if err := h.Nodes[i].Stop(30 * time.Second); err != nil {
		h.t.Fatalf("%s: %v\n%s", h.Nodes[i].Name, err, h.Nodes[i].Tail(20))
	}
}

// Pause freezes node i with SIGSTOP: its sockets stay open, it answers
// nothing, until Resume.
func (h *Harness) Pause(i int) {
	h.t.Helper()
	if err := h.Nodes[i].Pause(); err != nil {
		h.t.Fatal(err)
	}
	waitStopped(h.Nodes[i].Pid())
}

// waitStopped waits up to 5 s until the kernel reports every thread of
// process pid stopped: SIGSTOP takes effect asynchronously, and a thread
// still running on another core could answer one more request. Without
// Linux's /proc it returns at once.
func waitStopped(pid int) {
	tasks := fmt.Sprintf("/proc/%d/task", pid)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		entries, err := os.ReadDir(tasks)
		if err != nil {
			return
		}
		running := false
		for _, e := range entries {
			stat, err := os.ReadFile(filepath.Join(tasks, e.Name(), "stat"))
			// The state follows the command's name in parentheses.
			j := bytes.LastIndexByte(stat, ')')
			if err == nil && j >= 0 && j+2 < len(stat) && stat[j+2] != 'T' && stat[j+2] != 't' {
				running = true
			}
		}
		if !running {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Resume continues node i with SIGCONT.
func (h *Harness) Resume(i int) {
	h.t.Helper()
	if err := h.Nodes[i].Resume(); err != nil {
		h.t.Fatal(err)
	}
}

// Restart starts node i again on its data folder (after Kill or Stop)
// and waits until it is ready.
func (h *Harness) Restart(i int) {
	h.t.Helper()
	if h.Nodes[i].Running() {
		h.t.Fatalf("%s is still running: Kill or Stop it first", h.Nodes[i].Name)
	}
	if err := h.StartNodes(h.ctx, i); err != nil {
		h.t.Fatal(err)
	}
}

// RestartEmpty replaces node i by a node with an empty data folder under
// the new name (a replaced machine; docs/cluster.md: a node that rejoins
// without its data takes a new name) on the same addresses, and waits
// until it is ready. The old folder is left as it was.
func (h *Harness) RestartEmpty(i int, name string) {
	h.t.Helper()
	if h.Nodes[i].Running() {
		h.t.Fatalf("%s is still running: Kill or Stop it first", h.Nodes[i].Name)
	}
	n := &h.Layout.Nodes[i]
	n.Name, n.DataDir = name, filepath.Join(h.Dir, name)
	if _, err := os.Stat(n.DataDir); !errors.Is(err, os.ErrNotExist) {
		h.t.Fatalf("clustertest: %s exists already: pick a new name", n.DataDir)
	}
	h.Renew(i)
	if err := h.StartNodes(h.ctx, i); err != nil {
		h.t.Fatal(err)
	}
}

// Join starts node i, one of Options.Joining, with every node in its
// routes and peers, and waits until it is ready. The nodes started before
// it still leave it out of their lists until Rejoin restarts them.
func (h *Harness) Join(i int) {
	h.t.Helper()
	if err := h.StartNodes(h.ctx, i); err != nil {
		h.t.Fatal(err)
	}
}

// Rejoin restarts node i gracefully (SIGTERM) with the whole layout's
// routes and peers, the rolling restart that makes every node list a
// joined one, and waits until it is ready.
func (h *Harness) Rejoin(i int) {
	h.t.Helper()
	h.Stop(i)
	h.Renew(i)
	h.Restart(i)
}

// Ready reports whether node i answers GET /readyz with 200 within a
// second (a paused node does not answer).
func (h *Harness) Ready(i int) bool {
	ctx, cancel := context.WithTimeout(h.ctx, time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.BaseURL(i)+"/readyz", nil)
	if err != nil {
		h.t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// WaitReady waits until node i is ready (after Resume), failing the test
// when it exits or stays unready past the start timeout.
func (h *Harness) WaitReady(i int) {
	h.t.Helper()
	if err := h.Cluster.WaitReady(h.ctx, i); err != nil {
		h.t.Fatal(err)
	}
}

// Key creates an enterprise account through node i's admin API with
// limits no test reaches, and returns a key of it. In cluster mode the
// key works on every node (WaitKey); without it only on node i.
func (h *Harness) Key(i int) string {
	h.t.Helper()
	key, _, err := h.IssueKey(h.ctx, i, "test", "enterprise", clusterrun.Limits{Quote: 1_000_000, Read: 1_000_000, Order: 1_000_000})
	if err != nil {
		h.t.Fatal(err)
	}
	return key
}
