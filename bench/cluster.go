package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/orderengine/orderengine/app"
	"github.com/orderengine/orderengine/config"
)

// clusterTarget starts n engines in this process as one cluster (each its
// own data folder, embedded JetStream server with fsync always, R =
// min(n, 3), HTTP listener) and returns the first node as the target: a
// submit there is verified, admitted, published to a quorum that fsynced,
// and applied to that node's store before its 201.
func clusterTarget(n int) (*target, error) {
	routes := make([]string, n)
	for i := range routes {
		addr, err := freeAddr()
		if err != nil {
			return nil, err
		}
		routes[i] = "nats://" + addr
	}
	nodes := make([]*engineServer, 0, n)
	closeAll := func() error {
		var errs []error
		for _, e := range nodes {
			errs = append(errs, e.close())
		}
		return errors.Join(errs...)
	}
	for i := range n {
		e, err := buildClusterNode(i, routes)
		if err != nil {
			_ = closeAll()
			return nil, err
		}
		nodes = append(nodes, e)
	}
	if err := startAll(nodes); err != nil {
		_ = closeAll()
		return nil, err
	}
	first := nodes[0]
	acct, err := first.sys.Accounts.CreateAccount("bench", config.TierFree, config.BucketLimits{})
	if err == nil {
		first.apiKey, _, err = first.sys.Accounts.IssueKey(acct.ID)
	}
	if err != nil {
		_ = closeAll()
		return nil, err
	}
	first.addr = first.sys.HTTP.Addr()
	t := orderTarget(first)
	t.close = closeAll
	return t, nil
}

// buildClusterNode builds node i of the bench cluster (app.New; Start
// joins the others).
func buildClusterNode(i int, routes []string) (*engineServer, error) {
	dir, err := os.MkdirTemp("", "orderengine-bench-cluster-")
	if err != nil {
		return nil, err
	}
	cfg, opts, err := benchConfig(dir, engineOptions{orders: true})
	if err != nil {
		return nil, err
	}
	c := &cfg.Cluster
	c.Enabled, c.Name, c.Node, c.Replicas = true, "bench", "node"+strconv.Itoa(i), min(len(routes), 3)
	c.NATS.Listen, c.NATS.Routes = routes[i][len("nats://"):], routes
	sys, err := app.New(context.Background(), cfg, slog.New(slog.DiscardHandler), opts)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return &engineServer{sys: sys, dir: dir}, nil
}

// startAll starts the nodes at once (each waits for a quorum of the
// others).
func startAll(nodes []*engineServer) error {
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, e := range nodes {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			errs[i] = e.sys.Start(ctx)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// freeAddr returns a loopback address that was free when checked.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := ln.Addr().String()
	return addr, ln.Close()
}

// clusterNote is printed before a cluster run's figures.
func clusterNote(out io.Writer, n int) {
	fmt.Fprintf(out, "cluster: %d nodes in this process (JetStream R%d, fsync always, loopback routes); submits go to node 0; CPU and RSS are the whole process (every node and the harness)\n", n, min(n, 3))
}
