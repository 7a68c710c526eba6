package apptest

import (
	"context"
	"log/slog"
	nethttp "net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/testport"
)

// NewTestCluster starts n engines in this process as the nodes of one
// cluster (cluster.enabled): each with its own data folder and Pebble, an
// embedded JetStream server whose NATS routes listen on a free loopback
// port and reach the others', and its own HTTP listeners. opts apply to
// every node (WithDataDir excepted: each node gets a folder of its own).
// The nodes' members find each other, and call each other, through the
// JetStream servers (cluster/members). The nodes start at once, since each waits for a quorum of the others;
// the test returns once every node answers GET /readyz with 200 and sees
// every node among the cluster's members. The
// account and key are created on node 0, and every node's APIKey,
// AccountID and KeyID are those, once every node authenticates the key.
// The nodes shut down at the end of the test.
func NewTestCluster(t testing.TB, n int, opts ...Option) []*Server {
	t.Helper()
	routes := make([]string, n)
	for i := range routes {
		routes[i] = "nats://" + testport.Addr(t)
	}
	nodes := make([]*Server, n)
	// The nodes leave together: each waits for its leases' releases.
	t.Cleanup(func() {
		var wg sync.WaitGroup
		for _, s := range nodes {
			if s != nil {
				wg.Go(s.Close)
			}
		}
		wg.Wait()
	})
	for i := range nodes {
		o := options{tier: config.TierFree}
		for _, opt := range opts {
			opt(&o)
		}
		o.dataDir = t.TempDir()
		if o.log == nil {
			o.log = slog.New(slog.DiscardHandler)
		}
		o.configure = append(o.configure, func(c *config.Config) {
			c.Cluster.Enabled, c.Cluster.Name, c.Cluster.Node = true, "apptest", "node"+strconv.Itoa(i)
			c.Cluster.NATS.Listen, c.Cluster.NATS.Routes = routes[i][len("nats://"):], routes
		})
		nodes[i] = &Server{t: t, opts: o, client: &nethttp.Client{Timeout: 30 * time.Second}}
	}
	// Every node builds at once: a node's New waits for a quorum of its
	// peers to tell whether its empty store starts from a snapshot.
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, s := range nodes {
		wg.Go(func() { errs[i] = s.tryBuild() })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("testcluster: node %d: %v", i, err)
		}
	}
	for i, s := range nodes {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			errs[i] = s.System.Start(ctx)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("testcluster: start node %d: %v", i, err)
		}
	}
	for _, s := range nodes {
		s.serve()
		s.WaitFor("GET /readyz answering 200", func() bool { return s.Raw(s.URL, "GET", "/readyz", nil, nil).Status == 200 })
	}
	for _, s := range nodes {
		s.WaitFor("every node a member of the cluster", func() bool { return len(s.System.Member.Members()) == n })
	}
	first := nodes[0]
	if first.opts.noAccount {
		return nodes
	}
	acct, err := first.System.Accounts.CreateAccount("test", first.opts.tier, first.opts.limits)
	if err != nil {
		t.Fatalf("testcluster: create account: %v", err)
	}
	key, rec, err := first.System.Accounts.IssueKey(acct.ID)
	if err != nil {
		t.Fatalf("testcluster: issue key: %v", err)
	}
	for _, s := range nodes {
		s.APIKey, s.AccountID, s.KeyID = key, acct.ID, rec.ID
		s.WaitFor("the key of node 0 authenticating", func() bool {
			_, err := s.System.Accounts.Authenticate(key)
			return err == nil
		})
	}
	return nodes
}

// WaitFor polls cond every few milliseconds until it holds, failing the
// test after 20 s, and returns how long it took.
func (s *Server) WaitFor(what string, cond func() bool) time.Duration {
	s.t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > 20*time.Second {
			s.t.Fatalf("%s: timed out waiting for %s", s.Config.Cluster.Node, what)
		}
		time.Sleep(2 * time.Millisecond)
	}
	return time.Since(start)
}
