package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orderengine/orderengine/internal/clusterrun"
	"github.com/orderengine/orderengine/internal/syncbuf"
	"github.com/orderengine/orderengine/internal/testport"
)

// portOffset returns an offset that moves every port of `make cluster`
// (clusterrun.LocalPorts) into the range the tests take free ports from
// and leaves them all free now.
func portOffset(t *testing.T) int {
	t.Helper()
	chain, nodes := clusterrun.LocalPorts(3)
	ports := []int{chain}
	for _, n := range nodes {
		ports = append(ports, n.HTTP, n.Admin, n.NATS)
	}
	for range 100 {
		off := 13800 + rand.IntN(23400-13800) // 6222+off ≥ 20022, 8545+off < 32000
		free := true
		for _, p := range ports {
			ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p+off)))
			if err != nil {
				free = false
				break
			}
			_ = ln.Close()
		}
		if free {
			return off
		}
	}
	t.Fatal("no port offset with every port free")
	return 0
}

var (
	clusterPidRe = regexp.MustCompile(`(?m)^  (node\d|chain)\s+http://\S+\s+\S+\s+(\d+)\s`)
	clusterKeyRe = regexp.MustCompile(`export KEY(\d?)=(svc_[0-9A-Za-z]+)`)
)

// clusterRun is a running `orderengine cluster` process.
type clusterRun struct {
	cmd  *exec.Cmd
	out  *syncbuf.Buffer
	done chan struct{} // closed when the command exited; err is its Wait
	err  error
	pids map[string]int
	keys []string
}

// startClusterCommand runs `orderengine cluster` with args and waits until
// it has printed the processes and the keys: one (KEY) in cluster mode, one
// per node (KEY1…KEY3) with --independent.
func startClusterCommand(t *testing.T, args ...string) *clusterRun {
	t.Helper()
	r := &clusterRun{out: &syncbuf.Buffer{}, done: make(chan struct{}), pids: map[string]int{}}
	r.cmd = exec.Command(binary(t), append([]string{"cluster"}, args...)...)
	r.cmd.Env = withoutEngineEnv(os.Environ())
	r.cmd.Stdout, r.cmd.Stderr = r.out, r.out
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r.err = r.cmd.Wait()
		close(r.done)
	}()
	t.Cleanup(func() {
		select {
		case <-r.done:
		default:
			_ = r.cmd.Process.Signal(os.Interrupt)
			<-r.done
		}
	})
	deadline := time.After(3 * time.Minute)
	for !strings.Contains(r.out.String(), "Ctrl-C stops everything") {
		select {
		case <-r.done:
			t.Fatalf("orderengine cluster exited: %v\n%s", r.err, r.out.String())
		case <-deadline:
			t.Fatalf("orderengine cluster did not start:\n%s", r.out.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	for _, m := range clusterPidRe.FindAllStringSubmatch(r.out.String(), -1) {
		r.pids[m[1]], _ = strconv.Atoi(m[2])
	}
	for _, m := range clusterKeyRe.FindAllStringSubmatch(r.out.String(), -1) {
		r.keys = append(r.keys, m[2])
	}
	want := 1
	if slices.Contains(args, "--independent") {
		want = 3
	}
	if len(r.pids) != 4 || len(r.keys) != want {
		t.Fatalf("want 4 processes and %d keys in the output, got %v and %d:\n%s", want, r.pids, len(r.keys), r.out.String())
	}
	return r
}

// interrupt sends SIGINT (Ctrl-C) and checks that the command exits 0
// and that none of its processes is left.
func (r *clusterRun) interrupt(t *testing.T) {
	t.Helper()
	if err := r.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-r.done:
	case <-time.After(time.Minute):
		t.Fatalf("orderengine cluster still running a minute after Ctrl-C:\n%s", r.out.String())
	}
	if r.err != nil || !strings.Contains(r.out.String(), "stopped") {
		t.Fatalf("after Ctrl-C: %v\n%s", r.err, r.out.String())
	}
	for name, pid := range r.pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Fatalf("%s (pid %d) is still there after the cluster stopped: %v", name, pid, err)
		}
	}
}

// TestClusterCommand runs `orderengine cluster` as `make cluster` does
// (cluster mode), on ports moved by --port-offset: it prints one
// development key, created on node1, and every node accepts it (account
// data replicates) while refusing a key that does not exist; Ctrl-C stops
// every process, each node cleanly; a second run on the same folder
// continues the chain (the nodes accept their data folders, which are
// bound to it) and prints the same key, which still works on every node.
func TestClusterCommand(t *testing.T) {
	dir := t.TempDir()
	off := portOffset(t)
	args := []string{"--dir", dir, "--port-offset", strconv.Itoa(off)}
	base := func(i int) string { return fmt.Sprintf("http://127.0.0.1:%d", 8080+2*i+off) }
	binary(t)
	began := time.Now()
	r := startClusterCommand(t, args...)
	t.Logf("started in %v", time.Since(began).Round(time.Millisecond))
	key := r.keys[0]
	for i := range 3 {
		if code := get(t, base(i)+"/v1/stats", key); code != 200 {
			t.Fatalf("node%d with the development key: %d, want 200", i+1, code)
		}
		if code := get(t, base(i)+"/v1/stats", "svc_"+strings.Repeat("0", 40)); code != 401 {
			t.Fatalf("node%d with a key that does not exist: %d, want 401", i+1, code)
		}
	}
	began = time.Now()
	r.interrupt(t)
	t.Logf("stopped in %v", time.Since(began).Round(time.Millisecond))
	for i := range 3 {
		log, err := os.ReadFile(filepath.Join(dir, "logs", clusterrun.NodeName(i)+".log"))
		if err != nil || !strings.Contains(string(log), "engine closed") {
			t.Fatalf("node%d did not shut down cleanly (%v):\n%s", i+1, err, log)
		}
	}

	began = time.Now()
	r = startClusterCommand(t, args...)
	t.Logf("restarted in %v", time.Since(began).Round(time.Millisecond))
	if chain, _ := os.ReadFile(filepath.Join(dir, "logs", "chain.log")); !strings.Contains(string(chain), "continued from") {
		t.Fatalf("the second run did not continue the chain:\n%s", chain)
	}
	if r.keys[0] != key {
		t.Fatal("the second run printed another development key")
	}
	for i := range 3 {
		if code := get(t, base(i)+"/v1/stats", key); code != 200 {
			t.Fatalf("node%d with the key of the first run: %d", i+1, code)
		}
	}
	r.interrupt(t)
}

// runSupervised runs superviseCluster on c until it has printed its keys,
// then cancels it (Ctrl-C) and returns what it printed; it fails the test
// when the cluster does not start or does not stop cleanly.
func runSupervised(t *testing.T, c *clusterrun.Cluster) string {
	t.Helper()
	out := &syncbuf.Buffer{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- superviseCluster(ctx, out, c) }()
	deadline := time.After(2 * time.Minute)
	for !strings.Contains(out.String(), "Ctrl-C stops everything") {
		select {
		case err := <-done:
			t.Fatalf("the cluster stopped: %v\n%s", err, out.String())
		case <-deadline:
			t.Fatalf("the cluster did not start:\n%s", out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("after Ctrl-C: %v\n%s", err, out.String())
	}
	return out.String()
}

// In cluster mode (here one node with one replica) the development key is
// created once, kept in <dir>/dev.key (mode 0600) and printed again by the
// next run; a key disabled since is replaced by a new one.
func TestClusterKeyIsKeptUntilItStopsWorking(t *testing.T) {
	dir := t.TempDir()
	ports := freePortsForCluster(t, 4)
	l := clusterrun.Loopback(dir, ports[0], []clusterrun.NodePorts{{HTTP: ports[1], Admin: ports[2], NATS: ports[3]}})
	l.Env = map[string]string{"ORDERENGINE_CLUSTER_REPLICAS": "1"}
	l.Chain.Extra = []string{"--block-interval", "200ms"}
	c := func() *clusterrun.Cluster {
		return clusterrun.New(l, binary(t), withoutEngineEnv(os.Environ()), filepath.Join(dir, "logs"))
	}
	keyOf := func(out string) string {
		m := regexp.MustCompile(`export KEY=(svc_[0-9A-Za-z]+)\n  It works on every node`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no key for every node printed:\n%s", out)
		}
		return m[1]
	}
	first := keyOf(runSupervised(t, c()))
	st, err := os.Stat(filepath.Join(dir, "dev.key"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("dev.key: %v %v", err, st)
	}
	if again := keyOf(runSupervised(t, c())); again != first {
		t.Fatalf("the second run printed another key")
	}

	// Disable the key through the admin API of a running node.
	running := c()
	ctx := context.Background()
	if err := running.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: io.Discard, lookupEnv: func(string) (string, bool) { return "", false }, reg: registry()}
	admin := []string{"--admin-url", running.AdminURL(0), "--data-dir", l.Nodes[0].DataDir}
	if err := run(ctx, env, append([]string{"admin", "list-accounts"}, admin...)); err != nil {
		t.Fatal(err)
	}
	var accts struct{ Accounts []struct{ ID string } }
	if err := json.Unmarshal(out.Bytes(), &accts); err != nil || len(accts.Accounts) != 1 {
		t.Fatalf("accounts %s: %v", out.String(), err)
	}
	out.Reset()
	if err := run(ctx, env, append([]string{"admin", "list-keys", "--account", accts.Accounts[0].ID}, admin...)); err != nil {
		t.Fatal(err)
	}
	var keys struct{ Keys []struct{ ID string } }
	if err := json.Unmarshal(out.Bytes(), &keys); err != nil || len(keys.Keys) != 1 {
		t.Fatalf("keys %s: %v", out.String(), err)
	}
	if err := run(ctx, env, append([]string{"admin", "disable-key", "--key", keys.Keys[0].ID}, admin...)); err != nil {
		t.Fatal(err)
	}
	if err := running.Stop(time.Minute); err != nil {
		t.Fatal(err)
	}
	if replaced := keyOf(runSupervised(t, c())); replaced == first {
		t.Fatal("a disabled key was printed again")
	}
}

// freePortsForCluster returns n distinct free loopback ports.
func freePortsForCluster(t *testing.T, n int) []int {
	seen := map[int]bool{}
	var out []int
	for len(out) < n {
		if p := testport.Port(t); !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// A node that exits while the cluster runs is reported with its log and
// the rest keep running; the chain exiting ends the cluster with an error
// and every other process is stopped.
func TestClusterReportsExits(t *testing.T) {
	dir := t.TempDir()
	p := freePortsForCluster(t, 7)
	l := clusterrun.Loopback(dir, p[0], []clusterrun.NodePorts{{HTTP: p[1], Admin: p[2], NATS: p[3]},
		{HTTP: p[4], Admin: p[5], NATS: p[6]}})
	l.Cluster = false
	c := clusterrun.New(l, binary(t), withoutEngineEnv(os.Environ()), filepath.Join(dir, "logs"))
	out := &syncbuf.Buffer{}
	done := make(chan error, 1)
	go func() { done <- superviseCluster(context.Background(), out, c) }()
	waitFor := func(what string) {
		t.Helper()
		for deadline := time.Now().Add(2 * time.Minute); !strings.Contains(out.String(), what); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %q:\n%s", what, out.String())
			}
		}
	}
	waitFor("Ctrl-C stops everything")
	if err := c.Nodes[0].Kill(); err != nil {
		t.Fatal(err)
	}
	waitFor("node1 exited (signal: killed); the others keep running")
	if !c.Nodes[1].Running() || !c.Chain.Running() {
		t.Fatal("a node's exit stopped the others")
	}
	if err := c.Chain.Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "the chain exited") {
			t.Fatalf("after the chain's exit: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the cluster went on without its chain")
	}
	if c.Nodes[1].Running() {
		t.Fatal("node2 still runs after the cluster ended")
	}
}
