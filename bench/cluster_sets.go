package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/orderengine/orderengine/internal/clusterrun"
)

// streamsHeld are the JetStream streams a node's embedded server holds a
// replica of: the folders under <data>/jetstream/jetstream/<account>/streams
// (nats-server's file store keeps each replica there; a node that holds
// none of a stream has no folder for it), sorted.
func streamsHeld(dataDir string) []string {
	dirs, _ := filepath.Glob(filepath.Join(dataDir, "jetstream", "jetstream", "*", "streams", "*"))
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		out = append(out, filepath.Base(d))
	}
	slices.Sort(out)
	return out
}

// profileNodes writes a CPU profile of every node of c, taken at once for
// d, to dir/<set>-<node>.pprof (the admin API's /admin/v1/debug/pprof/profile).
func profileNodes(ctx context.Context, out io.Writer, c *clusterrun.Cluster, dir, set string, d time.Duration) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range c.Nodes {
		wg.Go(func() {
			pctx, cancel := context.WithTimeout(ctx, d+30*time.Second)
			defer cancel()
			path := fmt.Sprintf("/admin/v1/debug/pprof/profile?seconds=%d", max(1, int(d.Seconds())))
			data, err := c.AdminFetch(pctx, i, path)
			file := filepath.Join(dir, set+"-"+c.Nodes[i].Name+".pprof")
			if err == nil {
				err = os.WriteFile(file, data, 0o644)
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				fmt.Fprintf(out, "profile of %s: %v\n", c.Nodes[i].Name, err)
				return
			}
			fmt.Fprintf(out, "profile of %s: %s\n", c.Nodes[i].Name, file)
		})
	}
	wg.Wait()
}

// heapProfiles writes each node's heap profile, after a collection
// (gc=1), to dir as <set>-<node>.heap.pprof.
func heapProfiles(ctx context.Context, out io.Writer, c *clusterrun.Cluster, dir, set string) {
	for i, n := range c.Nodes {
		pctx, cancel := context.WithTimeout(ctx, time.Minute)
		data, err := c.AdminFetch(pctx, i, "/admin/v1/debug/pprof/heap?gc=1")
		cancel()
		file := filepath.Join(dir, set+"-"+n.Name+".heap.pprof")
		if err == nil {
			err = os.WriteFile(file, data, 0o644)
		}
		if err != nil {
			fmt.Fprintf(out, "heap profile of %s: %v\n", n.Name, err)
			continue
		}
		fmt.Fprintf(out, "heap profile of %s: %s\n", n.Name, file)
	}
}

// sortedPercentile is the p-quantile of sorted lat (0 when empty).
func sortedPercentile(lat []time.Duration, p float64) time.Duration {
	if len(lat) == 0 {
		return 0
	}
	return lat[min(len(lat)-1, max(0, int(math.Ceil(p*float64(len(lat))))-1))]
}

// summarise prints one line per set: the figures a comparison of node
// counts reads, each node's net CPU per durable submit as its range and
// mean, and every node's net CPU added up (what the cluster spends per
// submit, chain and harness excluded).
func summarise(out io.Writer, results []setResult) {
	if len(results) < 2 {
		return
	}
	fmt.Fprintf(out, "\nsummary (net CPU per durable submit, µs)\n")
	fmt.Fprintf(out, "%-12s %5s %9s %9s %9s %17s %9s %9s %9s  %s\n",
		"set", "nodes", "submits/s", "p50", "p99", "node min–max", "node mean", "nodes sum", "all procs", "replicas per node")
	for _, r := range results {
		lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
		for _, v := range r.nodeNet {
			lo, hi, sum = math.Min(lo, v), math.Max(hi, v), sum+v
		}
		reps := make([]string, len(r.replicas))
		for i, n := range r.replicas {
			reps[i] = fmt.Sprint(n)
		}
		fmt.Fprintf(out, "%-12s %5d %9.0f %9s %9s %17s %9.0f %9.0f %9.0f  %s\n", r.name, r.nodes, r.rate,
			r.p50.Round(100*time.Microsecond), r.p99.Round(100*time.Microsecond),
			fmt.Sprintf("%.0f–%.0f", lo, hi), sum/float64(max(1, len(r.nodeNet))), sum, r.allNet, strings.Join(reps, " "))
	}
}
