package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/orderengine/orderengine/internal/clusterrun"
)

// clusterCommand is `orderengine cluster` (`make cluster`): a cluster of
// this binary's processes on loopback for development.
func clusterCommand() command {
	return command{summary: "run the shared dev chain and three cluster nodes on loopback (make cluster)", run: runCluster}
}

// clusterStopGrace bounds each process's shutdown after SIGTERM: serve's
// default drain (http.shutdownTimeout 15 s) and its store's close.
const clusterStopGrace = 30 * time.Second

// clusterKeyWait bounds the wait for the development key to work on every
// node (it is created on the first and replicated).
const clusterKeyWait = 30 * time.Second

// runCluster starts `devnet serve` and three `serve` nodes with cluster
// mode on (clusterrun.Local: ports in docs/cluster.md), prints one
// development API key that works on every node and the URLs, and runs
// until a signal, then stops every process. A node that exits is
// reported and the others keep running; the chain exiting stops all.
func runCluster(ctx context.Context, env *cliEnv, args []string) error {
	fs := flag.NewFlagSet("cluster", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	dir := fs.String("dir", "./data/cluster", "folder of the chain's and the nodes' data, the logs and the development key")
	offset := fs.Int("port-offset", 0, "add this to every port (a second cluster, or ports in use)")
	independent := fs.Bool("independent", false, "cluster mode off: three independent engines on the shared chain, each with its own orders and its own key")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("cluster: unexpected argument %q", fs.Arg(0))
	}
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cluster: the binary to run: %w", err)
	}
	chainPort, ports := clusterrun.LocalPorts(3)
	for i := range ports {
		p := &ports[i]
		p.HTTP, p.Admin, p.NATS = p.HTTP+*offset, p.Admin+*offset, p.NATS+*offset
	}
	l := clusterrun.Loopback(*dir, chainPort+*offset, ports)
	l.Cluster = !*independent
	var environ []string
	if env.environ != nil {
		environ = env.environ()
	}
	err = superviseCluster(ctx, env.stdout, clusterrun.New(l, bin, environ, filepath.Join(*dir, "logs")))
	if err != nil && strings.Contains(err.Error(), "address already in use") {
		// `make run` holds 8080, 8081 and 8545 itself.
		err = fmt.Errorf("%w\na port is in use (is `make run` running?): stop that process, or move every port with --port-offset (make cluster CLUSTER_FLAGS=--port-offset=100)", err)
	}
	return err
}

// superviseCluster starts c, prints how to use it, and supervises it until
// ctx ends; then it stops every process.
func superviseCluster(ctx context.Context, out io.Writer, c *clusterrun.Cluster) (err error) {
	l := c.Layout
	mode := "cluster mode"
	if !l.Cluster {
		mode = "independent nodes (cluster mode off)"
	}
	fmt.Fprintf(out, "starting the dev chain on %s and %d nodes, %s; logs in %s\n", l.Chain.RPCURL, len(l.Nodes), mode, c.LogDir)
	defer func() {
		fmt.Fprintln(out, "stopping every node, then the chain")
		if serr := c.Stop(clusterStopGrace); serr != nil && err == nil && ctx.Err() != nil {
			err = serr
		}
		fmt.Fprintln(out, "stopped")
	}()
	if err := c.Start(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while starting
		}
		return err
	}
	keys, err := clusterKeys(ctx, c)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	printCluster(out, c, keys)
	return watchCluster(ctx, out, c)
}

// clusterKeys returns the development key of each node: in cluster mode
// one key for all, kept in <dir>/dev.key and created through the first
// node's admin API when there is none that still works; with independent
// nodes a new key per node.
func clusterKeys(ctx context.Context, c *clusterrun.Cluster) ([]string, error) {
	keys := make([]string, len(c.Nodes))
	if !c.Layout.Cluster {
		for i := range c.Nodes {
			k, _, err := c.IssueKey(ctx, i, "dev", "free", clusterrun.Limits{})
			if err != nil {
				return nil, err
			}
			keys[i] = k
		}
		return keys, nil
	}
	file := filepath.Join(filepath.Dir(c.Layout.Chain.ConfigFile), "dev.key")
	key := ""
	if data, err := os.ReadFile(file); err == nil {
		key = strings.TrimSpace(string(data))
		if err := c.KeyWorks(ctx, 0, key); err != nil {
			if !errors.Is(err, clusterrun.ErrKeyRefused) {
				return nil, err
			}
			key = "" // disabled or reissued since: a new one
		}
	}
	if key == "" {
		var err error
		if key, _, err = c.IssueKey(ctx, 0, "dev", "free", clusterrun.Limits{}); err != nil {
			return nil, err
		}
		if err := writeFileAtomic(file, []byte(key+"\n"), 0o600); err != nil {
			return nil, err
		}
	}
	if err := c.WaitKey(ctx, key, clusterKeyWait); err != nil {
		return nil, fmt.Errorf("cluster: %w (the key was created on %s; accounts reach the other nodes through the cluster's replication)", err, c.Layout.Nodes[0].Name)
	}
	for i := range keys {
		keys[i] = key
	}
	return keys, nil
}

// printCluster prints the processes, their URLs and logs, and the key.
func printCluster(out io.Writer, c *clusterrun.Cluster, keys []string) {
	dir := filepath.Dir(c.Layout.Chain.ConfigFile)
	fmt.Fprintf(out, "\n  %-6s %-24s %-24s %-8s %s\n", "", "API", "admin API", "pid", "log")
	for i, n := range c.Layout.Nodes {
		fmt.Fprintf(out, "  %-6s %-24s %-24s %-8d %s\n", n.Name, c.BaseURL(i), c.AdminURL(i), c.Nodes[i].Pid(), c.Nodes[i].Log)
	}
	fmt.Fprintf(out, "  %-6s %-24s %-24s %-8d %s\n", "chain", c.Layout.Chain.RPCURL, "(JSON-RPC)", c.Chain.Pid(), c.Chain.Log)
	fmt.Fprintf(out, "  The chain's log lists the dev accounts with their keys. Admin: orderengine admin <command> --admin-url %s --data-dir %s\n",
		c.AdminURL(0), c.Layout.Nodes[0].DataDir)
	fmt.Fprintln(out, "\n==================== DEVELOPMENT API KEY ====================")
	if c.Layout.Cluster {
		fmt.Fprintf(out, "  export KEY=%s\n  It works on every node; kept in %s.\n", keys[0], filepath.Join(dir, "dev.key"))
		fmt.Fprintf(out, "  curl -H \"X-API-Key: $KEY\" %s/v1/orders\n", c.BaseURL(0))
	} else {
		for i, k := range keys {
			fmt.Fprintf(out, "  %s only: export KEY%d=%s\n", c.Layout.Nodes[i].Name, i+1, k)
		}
		fmt.Fprintf(out, "  curl -H \"X-API-Key: $KEY1\" %s/v1/orders\n", c.BaseURL(0))
	}
	fmt.Fprintln(out, "=============================================================")
	fmt.Fprintf(out, "Ctrl-C stops everything. The data stays in %s (remove it to start over).\n", dir)
}

// watchCluster waits for ctx; a node that exits meanwhile is reported (the
// others go on), the chain exiting ends the cluster with an error.
func watchCluster(ctx context.Context, out io.Writer, c *clusterrun.Cluster) error {
	reported := make([]bool, len(c.Nodes))
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-c.Chain.Done():
			return fmt.Errorf("cluster: the chain exited (%v); the end of %s:\n%s", c.Chain.Err(), c.Chain.Log, c.Chain.Tail(20))
		case <-tick.C:
		}
		for i, p := range c.Nodes {
			if !reported[i] && !p.Running() {
				reported[i] = true
				fmt.Fprintf(out, "%s exited (%v); the others keep running. The end of %s:\n%s\n", p.Name, p.Err(), p.Log, p.Tail(10))
			}
		}
	}
}
