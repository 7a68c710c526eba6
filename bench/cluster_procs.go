package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/clusterrun"
)

// clusterSubmitFlags are the flags of the cluster-submit mode.
type clusterSubmitFlags struct {
	n, conns, makers int
	nodes            []int
	bin, only        string
	keep             bool
	idle             time.Duration
	profileDir       string
	profileFor       time.Duration
	heapDir          string
	nodeEnv          envFlag
}

// runClusterSubmit is the cluster-submit mode: the same pre-signed submits
// against one `serve` process (the Pebble journal) and then against
// `serve` processes in cluster mode (JetStream R3, fsync always), each
// set beside its own `devnet serve` chain on loopback (clusterrun, the
// layout of `make cluster` on free ports), the connections spread
// round-robin over the nodes. `-nodes 3,5` runs a cluster set of each
// size in that order in the one run (repeat sizes to alternate them). It
// reports per set the durable rate and latency, the CPU per submit of
// every process, the nodes' RSS, store sizes (JetStream's and Pebble's)
// and the stream replicas each node holds after the load, and a summary
// of every set.
func runClusterSubmit(ctx context.Context, out io.Writer, args []string) error {
	var f clusterSubmitFlags
	var nodes string
	fl := flag.NewFlagSet("cluster-submit", flag.ContinueOnError)
	fl.IntVar(&f.n, "n", 20000, "orders to submit to each set")
	fl.IntVar(&f.conns, "conns", 48, "concurrent keep-alive connections (spread round-robin over the nodes)")
	fl.IntVar(&f.makers, "makers", 0, "maker wallets (0: n/10, under the per-maker limit of 10 per 10 s)")
	fl.StringVar(&nodes, "nodes", "3", "nodes of the cluster set; a comma-separated list (3,5) runs a cluster set of each size, in that order")
	fl.StringVar(&f.bin, "bin", "", "orderengine binary (empty: go build ./cmd/orderengine into a temporary folder)")
	fl.DurationVar(&f.idle, "idle", 10*time.Second, "how long each process's idle CPU is measured before and after the load (also lets the stores settle before the memory is read)")
	fl.StringVar(&f.only, "only", "", "run one kind of set only: single or cluster (empty: both, single first)")
	fl.BoolVar(&f.keep, "keep", false, "keep the temporary folder (data, logs) and print it")
	fl.StringVar(&f.profileDir, "profile", "", "write each node's CPU profile of the load's first -profile-for to this folder (<set>-<node>.pprof; profiling costs the nodes a little CPU)")
	fl.StringVar(&f.heapDir, "heapprofile", "", "write each node's heap profile after the load and the idle that follows it to this folder (<set>-<node>.heap.pprof; a collection runs first, so it holds what is live)")
	fl.DurationVar(&f.profileFor, "profile-for", 20*time.Second, "length of each node's CPU profile (with -profile)")
	fl.Var(&f.nodeEnv, "node-env", "NAME=VALUE set in every serve process's environment (repeatable; ORDERENGINE_* variables, GOGC, ...)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	var err error
	if f.nodes, err = parseNodeCounts(nodes); err != nil {
		return err
	}
	if f.makers <= 0 {
		f.makers = max(1, (f.n+9)/10)
	}
	for _, d := range []string{f.profileDir, f.heapDir} {
		if d == "" {
			continue
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	dir, err := os.MkdirTemp("", "orderengine-bench-procs-")
	if err != nil {
		return err
	}
	if f.keep {
		fmt.Fprintf(out, "data and logs in %s\n", dir)
	} else {
		defer func() { _ = os.RemoveAll(dir) }()
	}
	if f.bin == "" {
		f.bin = filepath.Join(dir, "orderengine")
		build := exec.CommandContext(ctx, "go", "build", "-o", f.bin, "./cmd/orderengine")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("cluster-submit: build the binary: %w", err)
		}
	}
	fmt.Fprintf(out, "mode cluster-submit: %d orders per set, %d connections, %d makers; every process on this machine (%d CPUs)\n",
		f.n, f.conns, f.makers, runtime.NumCPU())
	var results []setResult
	for _, set := range procSets(f.nodes) {
		if f.only != "" && f.only != set.kind {
			continue
		}
		r, err := submitToProcs(ctx, out, f, filepath.Join(dir, set.name), set.name, set.nodes, set.kind == "cluster")
		if err != nil {
			return fmt.Errorf("cluster-submit %s: %w", set.name, err)
		}
		results = append(results, r)
	}
	summarise(out, results)
	return nil
}

// procSet is one set of processes the mode runs: its name (also its
// folder's), its kind (single or cluster) and its nodes.
type procSet struct {
	name, kind string
	nodes      int
}

// procSets are the sets of a run: single, then a cluster set per entry
// of counts, named cluster when there is one and cluster-<nodes>[-<k>]
// otherwise (k counts the repeats of a size).
func procSets(counts []int) []procSet {
	sets := []procSet{{"single", "single", 1}}
	seen := map[int]int{}
	for _, n := range counts {
		name := "cluster"
		if len(counts) > 1 {
			seen[n]++
			name = fmt.Sprintf("cluster-%d", n)
			if seen[n] > 1 {
				name = fmt.Sprintf("%s-%d", name, seen[n])
			}
		}
		sets = append(sets, procSet{name, "cluster", n})
	}
	return sets
}

// parseNodeCounts parses -nodes: node counts of 3 to 9 (at least the
// streams' three replicas; the loopback layout has ports for any count,
// the machine not), comma-separated.
func parseNodeCounts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 3 || n > 9 {
			return nil, fmt.Errorf("cluster-submit: -nodes %q: each count must be 3 to 9 (cluster.replicas is 3)", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// setResult is what the summary shows of one set.
type setResult struct {
	name             string
	nodes            int
	rate             float64
	p50, p99         time.Duration
	nodeNet          []float64 // net CPU per durable submit of each node, µs
	allNet, chainNet float64   // every process's (harness included) and the chain's, µs
	replicas         []int     // stream replicas each node holds
}

// submitToProcs starts a chain and nodes serve processes under dir, issues
// an enterprise key, submits f.n orders spread over the nodes and prints
// the figures.
func submitToProcs(ctx context.Context, out io.Writer, f clusterSubmitFlags, dir, name string, nodes int, cluster bool) (setResult, error) {
	res := setResult{name: name, nodes: nodes}
	l, err := freeLayout(dir, nodes)
	if err != nil {
		return res, err
	}
	l.Cluster = cluster
	l.Env = f.nodeEnv.vars()
	c := clusterrun.New(l, f.bin, clusterrun.WithoutEngineEnv(os.Environ()), filepath.Join(dir, "logs"))
	defer func() { _ = c.Stop(10 * time.Second) }()
	if err := c.Start(ctx); err != nil {
		return res, err
	}
	limit := 10 * f.n
	key, _, err := c.IssueKey(ctx, 0, "bench", "enterprise", clusterrun.Limits{Quote: limit, Read: limit, Order: limit})
	if err != nil {
		return res, err
	}
	if err := c.WaitKey(ctx, key, time.Minute); err != nil {
		return res, err
	}
	t, err := procsTarget(c, key)
	if err != nil {
		return res, err
	}
	bodies, _, err := signOrders(t, orderFlags{n: f.n, makers: f.makers, ppm: defaultReferralPpm()})
	if err != nil {
		return res, err
	}
	addrs := make([]string, nodes)
	for i := range addrs {
		addrs[i] = strings.TrimPrefix(c.BaseURL(i), "http://")
	}
	procs := append([]*clusterrun.Proc{c.Chain}, c.Nodes...)
	idleBefore := idleCPU(ctx, procs, f.idle)
	profiled := make(chan struct{})
	if f.profileDir != "" {
		go func() { defer close(profiled); profileNodes(ctx, out, c, f.profileDir, name, f.profileFor) }()
	} else {
		close(profiled)
	}
	cpu0 := make([]time.Duration, len(procs))
	for i, p := range procs {
		cpu0[i] = procCPU(p.Pid())
	}
	harness0 := processCPU()
	lat, codes, elapsed := driveSpread(ctx, addrs, f.n, f.conns, 0, postOrder(addrs[0], key, func(i int) []byte { return bodies[i] }))
	harness := processCPU() - harness0
	cpu := make([]time.Duration, len(procs))
	for i, p := range procs {
		cpu[i] = procCPU(p.Pid()) - cpu0[i]
	}
	<-profiled
	idleAfter := idleCPU(ctx, procs, f.idle)
	fmt.Fprintf(out, "\n%s: %d node(s)%s\n", name, nodes, map[bool]string{true: fmt.Sprintf(", cluster mode (JetStream R%d, fsync always)", min(nodes, 3)),
		false: ", the Pebble journal"}[cluster])
	report(out, name+" submit", lat, codes, elapsed) // sorts lat
	res.p50, res.p99 = sortedPercentile(lat, 0.5), sortedPercentile(lat, 0.99)
	durable := codes["201"]
	res.rate = durableRate(codes, elapsed)
	fmt.Fprintf(out, "durable submits: %.0f/s\n", res.rate)
	fmt.Fprintf(out, "  CPU per durable submit; net: less the process's idle rate (the mean of %s before and after the load) over the load\n", f.idle)
	var total, totalNet time.Duration
	for i, p := range procs {
		idle := (idleBefore[i] + idleAfter[i]) / 2
		net := cpu[i] - time.Duration(idle*float64(elapsed))
		total, totalNet = total+cpu[i], totalNet+net
		if i == 0 {
			res.chainNet = perSubmit(net, durable)
		} else {
			res.nodeNet = append(res.nodeNet, perSubmit(net, durable))
		}
		fmt.Fprintf(out, "  CPU %-6s %6.0f µs, net %6.0f µs (%.2f cores busy; idle %.2f before, %.2f after)\n", p.Name,
			perSubmit(cpu[i], durable), perSubmit(net, durable), cpu[i].Seconds()/elapsed.Seconds(), idleBefore[i], idleAfter[i])
	}
	fmt.Fprintf(out, "  CPU %-6s %6.0f µs (%.2f cores busy)\n", "bench", perSubmit(harness, durable), harness.Seconds()/elapsed.Seconds())
	res.allNet = perSubmit(totalNet+harness, durable)
	fmt.Fprintf(out, "  CPU of every process: %.0f µs, net %.0f µs per durable submit\n", perSubmit(total+harness, durable), res.allNet)
	for i, p := range c.Nodes {
		js, _ := dirSize(filepath.Join(l.Nodes[i].DataDir, "jetstream"))
		all, _ := dirSize(l.Nodes[i].DataDir)
		held := streamsHeld(l.Nodes[i].DataDir)
		res.replicas = append(res.replicas, len(held))
		fmt.Fprintf(out, "  %s: RSS %d KiB, Go heap in use %s; JetStream store %s, the rest of its data folder (Pebble) %s; replicas %s\n",
			p.Name, rssKiB(p.Pid()), heapInUse(c.AdminURL(i)), mib(js), mib(all-js), strings.Join(held, " "))
	}
	if f.heapDir != "" {
		heapProfiles(ctx, out, c, f.heapDir, name)
	}
	return res, nil
}

// envFlag collects NAME=VALUE flags.
type envFlag []string

func (e *envFlag) String() string { return strings.Join(*e, " ") }

func (e *envFlag) Set(v string) error {
	if k, _, ok := strings.Cut(v, "="); !ok || k == "" {
		return fmt.Errorf("%q is not NAME=VALUE", v)
	}
	*e = append(*e, v)
	return nil
}

func (e envFlag) vars() map[string]string {
	m := make(map[string]string, len(e))
	for _, kv := range e {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

// idleCPU is the cores each of procs kept busy over d without load.
func idleCPU(ctx context.Context, procs []*clusterrun.Proc, d time.Duration) []float64 {
	before := make([]time.Duration, len(procs))
	for i, p := range procs {
		before[i] = procCPU(p.Pid())
	}
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
	out := make([]float64, len(procs))
	for i, p := range procs {
		out[i] = (procCPU(p.Pid()) - before[i]).Seconds() / d.Seconds()
	}
	return out
}

// heapInUse is go_memstats_heap_inuse_bytes of a node's /metrics on its
// admin listener ("?" when it cannot be read).
func heapInUse(adminURL string) string {
	status, body, err := fetch(strings.TrimPrefix(adminURL, "http://"), "/metrics", nil)
	if err != nil || status != 200 {
		return "?"
	}
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, "go_memstats_heap_inuse_bytes "); ok {
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
				return mib(int64(f))
			}
		}
	}
	return "?"
}

func perSubmit(cpu time.Duration, n int) float64 {
	return float64(cpu.Microseconds()) / float64(max(n, 1))
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// freeLayout is clusterrun.Loopback under dir with nodes nodes on ports
// free when checked.
func freeLayout(dir string, nodes int) (clusterrun.Layout, error) {
	port := func() (int, error) {
		addr, err := freeAddr()
		if err != nil {
			return 0, err
		}
		_, p, _ := net.SplitHostPort(addr)
		return strconv.Atoi(p)
	}
	var ps []int
	for range 1 + 3*nodes {
		p, err := port()
		if err != nil {
			return clusterrun.Layout{}, err
		}
		ps = append(ps, p)
	}
	ports := make([]clusterrun.NodePorts, nodes)
	for i := range ports {
		q := ps[1+3*i:]
		ports[i] = clusterrun.NodePorts{HTTP: q[0], Admin: q[1], NATS: q[2]}
	}
	return clusterrun.Loopback(dir, ps[0], ports), nil
}

// procsTarget is the order target of c's nodes: the chain's domain and
// fee vault from GET /v1/config, a major and a stable token of the
// chain's registry (its configuration file).
func procsTarget(c *clusterrun.Cluster, key string) (*target, error) {
	addr := strings.TrimPrefix(c.BaseURL(0), "http://")
	status, body, err := fetch(addr, "/v1/config", nil)
	if err != nil || status != 200 {
		return nil, fmt.Errorf("GET /v1/config: %d %v", status, err)
	}
	var cfg struct {
		ChainID  uint64 `json:"chainId"`
		Router   string `json:"router"`
		FeeVault string `json:"feeVault"`
	}
	if err := json.Unmarshal(body, &cfg); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(c.Layout.Chain.ConfigFile)
	if err != nil {
		return nil, err
	}
	var file struct {
		Routing struct {
			Tokens []config.TokenConfig `json:"tokens"`
		} `json:"routing"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, err
	}
	var in, out *config.TokenConfig
	for i := range file.Routing.Tokens {
		tk := &file.Routing.Tokens[i]
		switch {
		case tk.Class == config.ClassMajor && in == nil:
			in = tk
		case tk.Class == config.ClassStable && out == nil:
			out = tk
		}
	}
	if in == nil || out == nil {
		return nil, errors.New("the chain's registry has no major and stable token")
	}
	return &target{addr: addr, key: key, domain: chain.NewRouterDomain(cfg.ChainID, common.HexToAddress(cfg.Router)),
		vault: common.HexToAddress(cfg.FeeVault), in: common.HexToAddress(in.Address), out: common.HexToAddress(out.Address),
		decimals: uint8(in.Decimals), close: func() error { return nil }}, nil
}

// procCPU is the user and system CPU pid used so far (/proc/<pid>/stat,
// in clock ticks of 10 ms).
func procCPU(pid int) time.Duration {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces: the fields after it
	// start past its closing parenthesis.
	rest := string(data[strings.LastIndexByte(string(data), ')')+2:])
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// dirSize is the size of the files under dir.
func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a file removed while walking
		}
		if info, err := d.Info(); err == nil && !d.IsDir() {
			n += info.Size()
		}
		return nil
	})
	return n, err
}
