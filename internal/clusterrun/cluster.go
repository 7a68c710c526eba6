package clusterrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/orderengine/orderengine/internal/netns"
)

// Cluster is the processes of a layout: the chain and the nodes, each
// with its log file in LogDir.
type Cluster struct {
	Layout Layout
	// Bin is the orderengine binary every process runs.
	Bin string
	// Env is the environment the processes start from (os.Environ form);
	// each node's layout variables are set over it.
	Env []string
	// LogDir holds <name>.log of every process.
	LogDir string
	Chain  *Proc
	Nodes  []*Proc

	clientsOnce sync.Once
	clients     []*http.Client
}

// New prepares the processes of l; nothing starts yet.
func New(l Layout, bin string, env []string, logDir string) *Cluster {
	c := &Cluster{Layout: l, Bin: bin, Env: env, LogDir: logDir}
	c.Chain = &Proc{Name: "chain", Path: bin, Args: l.ChainArgs(), Env: env, Log: filepath.Join(logDir, "chain.log")}
	for i := range l.Nodes {
		c.Nodes = append(c.Nodes, &Proc{Path: bin})
		c.Renew(i)
	}
	return c
}

// Renew sets node i's process from the layout's current entry (after a
// test changed its name or data folder); it takes effect at the next
// start.
func (c *Cluster) Renew(i int) {
	n := c.Layout.Nodes[i]
	p := c.Nodes[i]
	p.Name, p.Path, p.Args = n.Name, c.Bin, c.Layout.NodeArgs()
	if n.NetNS != "" {
		p.Path, p.Args = "ip", append([]string{"netns", "exec", n.NetNS, c.Bin}, p.Args...)
	}
	p.Env = Environ(c.Env, c.Layout.NodeEnv(i))
	p.Log = filepath.Join(c.LogDir, n.Name+".log")
}

// Client is the HTTP client that reaches node i's listeners, its admin
// API included: the default client, or for a node in a network namespace
// one that dials from inside it.
func (c *Cluster) Client(i int) *http.Client {
	c.clientsOnce.Do(func() {
		c.clients = make([]*http.Client, len(c.Layout.Nodes))
		for k, n := range c.Layout.Nodes {
			c.clients[k] = http.DefaultClient
			if n.NetNS != "" {
				c.clients[k] = &http.Client{Transport: &http.Transport{DialContext: netns.Dialer(n.NetNS), MaxIdleConnsPerHost: 4}}
			}
		}
	})
	return c.clients[i]
}

// BaseURL is node i's public API as this machine reaches it.
func (c *Cluster) BaseURL(i int) string { return "http://" + reachable(c.Layout.Nodes[i].HTTP) }

// AdminURL is node i's admin API.
func (c *Cluster) AdminURL(i int) string { return "http://" + reachable(c.Layout.Nodes[i].Admin) }

// reachable turns a listen address on every interface into the loopback
// address of the same port.
func reachable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// Start starts the chain, waits until it has written the nodes'
// configuration, then starts every node and waits until each is ready.
func (c *Cluster) Start(ctx context.Context) error {
	if err := c.StartChain(ctx); err != nil {
		return err
	}
	all := make([]int, len(c.Nodes))
	for i := range all {
		all[i] = i
	}
	return c.StartNodes(ctx, all...)
}

// StartChain starts the chain and waits until it serves and its
// configuration file is written (it removes an earlier run's first).
func (c *Cluster) StartChain(ctx context.Context) error {
	if err := os.Remove(c.Layout.Chain.ConfigFile); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := c.Chain.Start(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	for {
		if data, err := os.ReadFile(c.Layout.Chain.ConfigFile); err == nil && json.Valid(data) {
			return nil
		}
		if err := c.pause(ctx, c.Chain); err != nil {
			return err
		}
	}
}

// StartNodes starts the nodes idx at once (cluster nodes wait for each
// other) and waits until every one answers GET /readyz with 200.
func (c *Cluster) StartNodes(ctx context.Context, idx ...int) error {
	for _, i := range idx {
		if err := c.Nodes[i].Start(); err != nil {
			return err
		}
	}
	errs := make([]error, len(idx))
	var wg sync.WaitGroup
	for k, i := range idx {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[k] = c.WaitReady(ctx, i)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// WaitReady waits until node i answers GET /readyz with 200. It fails
// when the node exits first (naming its log's last lines) or after
// readyTimeout.
func (c *Cluster) WaitReady(ctx context.Context, i int) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	url := c.BaseURL(i) + "/readyz"
	for {
		if status(ctx, url) == http.StatusOK {
			return nil
		}
		if err := c.pause(ctx, c.Nodes[i]); err != nil {
			return err
		}
	}
}

// pause waits a moment between two polls; it fails when p has exited or
// ctx ended.
func (c *Cluster) pause(ctx context.Context, p *Proc) error {
	select {
	case <-p.Done():
		return fmt.Errorf("clusterrun: %s exited (%v) before it was ready; the end of %s:\n%s", p.Name, p.Err(), p.Log, p.Tail(20))
	case <-ctx.Done():
		return fmt.Errorf("clusterrun: %s not ready: %w; the end of %s:\n%s", p.Name, ctx.Err(), p.Log, p.Tail(20))
	case <-time.After(50 * time.Millisecond):
		return nil
	}
}

// status is the status code of a GET of url, 0 when it fails.
func status(ctx context.Context, url string) int {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// Stop stops every running node at once (SIGTERM, killed after grace),
// then the chain. It returns how each process it stopped ended, joined
// (nil when each exited 0); a process that had exited already is left
// out.
func (c *Cluster) Stop(grace time.Duration) error {
	errs := make([]error, len(c.Nodes)+1)
	var wg sync.WaitGroup
	for i, p := range c.Nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if p.Running() {
				if err := p.Stop(grace); err != nil {
					errs[i] = fmt.Errorf("%s: %w", p.Name, err)
				}
			}
		}()
	}
	wg.Wait()
	if c.Chain.Running() {
		if err := c.Chain.Stop(grace); err != nil {
			errs[len(c.Nodes)] = fmt.Errorf("chain: %w", err)
		}
	}
	return errors.Join(errs...)
}
