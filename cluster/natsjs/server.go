package natsjs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/crypto/bcrypt"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/config"
)

// Options configure a Node.
type Options struct {
	// Cluster is the node's cluster section (name, node, replicas,
	// partitions, NATS addresses).
	Cluster config.ClusterConfig
	// DataDir is the node's data folder: the JetStream store is
	// <DataDir>/jetstream.
	DataDir string
	// Log receives the node's and the NATS server's log lines.
	Log *slog.Logger
	// WriteTimeout bounds one replicated write: the publish with its
	// retries and the wait for this node's own apply. Default 5 s.
	WriteTimeout time.Duration
}

// Node is the JetStream server embedded in this process, clustered with the
// other nodes' over NATS routes, and the in-process client the engine uses.
// Start it, Setup the streams, then build the journal, the shared log and
// the leases on it.
type Node struct {
	opts   Options
	log    *slog.Logger
	srv    *server.Server
	nc     *nats.Conn
	js     jetstream.JetStream
	health *health

	sysPassword string

	mu        sync.Mutex
	streams   map[string]jetstream.Stream
	followers []*follower
	probes    []*probe
	// probeRound is when the last round of probes ended (unix ns).
	probeRound atomic.Int64
	// partitions is the number of order streams (streams.go,
	// settlePartitions).
	partitions atomic.Int32
	closers    []func()
	isClosed   bool
}

// Default timing of the embedded server.
const (
	defaultWriteTimeout = 5 * time.Second
	// routePing is how often a route is pinged; a peer that misses
	// routeMaxPingsOut pings in a row is dropped, so a dead or paused
	// node is noticed within about routePing × (routeMaxPingsOut + 1).
	routePing        = time.Second
	routeMaxPingsOut = 2
)

// ServerOptions returns the embedded NATS server's options for opts: the
// JetStream file store in <DataDir>/jetstream with an fsync after every
// write (SyncAlways: the default syncs every two minutes, and an
// acknowledged write must be on disk on a quorum), the cluster named
// cluster.name, the server named cluster.node, routes to
// cluster.nats.routes, and clients on cluster.nats.clientListen without
// credentials (else on a random loopback port, with the users' random
// passwords).
func ServerOptions(opts Options) (*server.Options, error) {
	c := opts.Cluster
	host, port, err := splitHostPort(c.NATS.Listen)
	if err != nil {
		return nil, fmt.Errorf("natsjs: cluster.nats.listen: %w", err)
	}
	routes := make([]*url.URL, 0, len(c.NATS.Routes))
	for _, r := range c.NATS.Routes {
		u, err := url.Parse(r)
		if err != nil {
			return nil, fmt.Errorf("natsjs: cluster.nats.routes: %w", err)
		}
		routes = append(routes, u)
	}
	so := &server.Options{
		ServerName: c.Node,
		JetStream:  true,
		StoreDir:   filepath.Join(opts.DataDir, "jetstream"),
		SyncAlways: true,
		Cluster: server.ClusterOpts{
			Name: c.Name, Host: host, Port: port,
			PingInterval: routePing, MaxPingsOut: routeMaxPingsOut,
		},
		Routes: routes,
		NoSigs: true,
		// Memory for the consumers' state; the streams are on disk.
		JetStreamMaxMemory: 256 << 20,
		// The client listener: this version starts its routes only once
		// the client listener is up (DontListen never starts them), so
		// without cluster.nats.clientListen it is a random loopback port.
		Host: "127.0.0.1", Port: server.RANDOM_PORT,
	}
	if len(routes) <= 1 {
		// A cluster of one node (its routes list only itself): this
		// version's clustered JetStream waits for a route to another
		// server before it elects a meta leader, which never comes, so
		// one node runs JetStream unclustered. Its writes are on its own
		// disk with the same fsync; there is no replica to lose.
		so.Cluster, so.Routes = server.ClusterOpts{}, nil
	}
	if c.NATS.ClientListen != "" {
		h, p, err := splitHostPort(c.NATS.ClientListen)
		if err != nil {
			return nil, fmt.Errorf("natsjs: cluster.nats.clientListen: %w", err)
		}
		so.Host, so.Port, so.NoAuthUser = h, p, engineUser
	}
	return so, nil
}

// The server's users: the engine's own (the global account, where the
// streams are) and the system user (peer removal, RemovePeer), both with
// random passwords of this process. A client of
// cluster.nats.clientListen without credentials is the engine's user.
const (
	engineUser = "engine"
	systemUser = "system"
)

// addUsers adds the users to so and returns their passwords. The server
// keeps the system user's bcrypt hash, and the engine user's password as
// it is: a client without credentials on cluster.nats.clientListen is
// logged in as the engine user (NoAuthUser) by the server handing the
// stored password back to its own comparison, which fails against a
// bcrypt hash. The engine's password is random, of this process, and held
// in its memory either way.
func addUsers(so *server.Options) (enginePassword, systemPassword string, err error) {
	sys := server.NewAccount("$SYS")
	so.Accounts, so.SystemAccount = []*server.Account{sys}, sys.Name
	enginePassword, systemPassword = nonce()+nonce(), nonce()+nonce()
	sh, err := bcrypt.GenerateFromPassword([]byte(systemPassword), bcrypt.MinCost)
	if err != nil {
		return "", "", err
	}
	so.Users = []*server.User{
		{Username: engineUser, Password: enginePassword},
		{Username: systemUser, Password: string(sh), Account: sys},
	}
	return enginePassword, systemPassword, nil
}

func splitHostPort(addr string) (string, int, error) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		return "", 0, fmt.Errorf("port %q: %w", p, err)
	}
	return h, port, nil
}

// Start starts the embedded server and connects the in-process client. It
// does not wait for the cluster: Setup does.
func Start(opts Options) (*Node, error) {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = defaultWriteTimeout
	}
	so, err := ServerOptions(opts)
	if err != nil {
		return nil, err
	}
	enginePassword, systemPassword, err := addUsers(so)
	if err != nil {
		return nil, fmt.Errorf("natsjs: users: %w", err)
	}
	srv, err := server.NewServer(so)
	if err != nil {
		return nil, fmt.Errorf("natsjs: %w", err)
	}
	log := opts.Log.With("component", "nats")
	srv.SetLoggerV2(natsLogger{log}, false, false, false)
	srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("natsjs: the embedded server did not start (route listener %s)", opts.Cluster.NATS.Listen)
	}
	nc, err := nats.Connect("", nats.InProcessServer(srv), nats.Name(opts.Cluster.Node), nats.UserInfo(engineUser, enginePassword),
		nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		srv.Shutdown()
		return nil, fmt.Errorf("natsjs: connect in process: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		srv.Shutdown()
		return nil, fmt.Errorf("natsjs: %w", err)
	}
	n := &Node{opts: opts, log: log, srv: srv, nc: nc, js: js, streams: make(map[string]jetstream.Stream),
		sysPassword: systemPassword}
	n.health = newHealth(srv, opts.Cluster.Replicas)
	n.partitions.Store(int32(opts.Cluster.OrderPartitions))
	n.onClose(n.health.stop)
	return n, nil
}

// Server returns the embedded NATS server.
func (n *Node) Server() *server.Server { return n.srv }

// Conn returns the in-process client connection.
func (n *Node) Conn() *nats.Conn { return n.nc }

// onClose registers f to run at Close, before the connection and the
// server stop (in reverse order of registration).
func (n *Node) onClose(f func()) {
	n.mu.Lock()
	n.closers = append(n.closers, f)
	n.mu.Unlock()
}

// Close stops what runs on the node (followers, leases), the client and
// the server. It may be called more than once.
func (n *Node) Close() error {
	n.mu.Lock()
	if n.isClosed {
		n.mu.Unlock()
		return nil
	}
	n.isClosed = true
	closers := n.closers
	n.mu.Unlock()
	for i := len(closers) - 1; i >= 0; i-- {
		closers[i]()
	}
	n.nc.Close()
	n.srv.Shutdown()
	n.srv.WaitForShutdown()
	return nil
}

// addFollower registers f for Ready.
func (n *Node) addFollower(f *follower) {
	n.mu.Lock()
	n.followers = append(n.followers, f)
	n.mu.Unlock()
}

// Fit reports whether the node may hold duties (the chain lifecycle's
// lease, a membership, shards of the placed actors): nil once the streams
// are set up, this node reaches a quorum of replicas, and every follower
// has applied its stream as far as the stream reached when the follower
// started, without failure. Otherwise an *orderengine.Error: NO_QUORUM, or
// SERVICE_UNAVAILABLE while joining and catching up. A stream electing a
// leader does not make a node unfit: every node would be, for the
// election's length.
func (n *Node) Fit() error {
	n.mu.Lock()
	setUp, followers := len(n.streams) > 0, n.followers
	n.mu.Unlock()
	if !setUp || len(followers) == 0 {
		return orderengine.Errorf(orderengine.CodeServiceUnavailable, "joining the cluster: the streams are not set up and followed yet")
	}
	if !n.health.writable() {
		return &orderengine.Error{Code: orderengine.CodeNoQuorum, RetryAfterSeconds: 1,
			Message: fmt.Sprintf("this node reaches %d other nodes; a quorum of %d replicas needs %d", n.Peers(), n.opts.Cluster.Replicas, n.health.quorum-1)}
	}
	for _, f := range followers {
		applied, target, err := f.status()
		if err != nil {
			return orderengine.Errorf(orderengine.CodeServiceUnavailable, "%v", err)
		}
		if applied < target {
			return orderengine.Errorf(orderengine.CodeServiceUnavailable, "catching up: stream %s applied up to %d of %d", f.stream, applied, target)
		}
	}
	return nil
}

// Ready reports whether the node should receive traffic (GET /readyz): it
// is Fit, and (once StartProbe runs) every followed stream has a leader
// this node reaches and this node's store has applied what each had
// acknowledged LagBound ago. Otherwise an *orderengine.Error as Fit's, or
// NO_QUORUM.
func (n *Node) Ready() error {
	if err := n.Fit(); err != nil {
		return err
	}
	if err := n.quorumState(); err != nil {
		return &orderengine.Error{Code: orderengine.CodeNoQuorum, RetryAfterSeconds: 1, Message: err.Error()}
	}
	return nil
}

// RouteNames returns the names of the other nodes this node's server has
// a route to, sorted.
func (n *Node) RouteNames() []string {
	rz, err := n.srv.Routez(nil)
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range rz.Routes {
		if r.RemoteName != "" && !slices.Contains(out, r.RemoteName) {
			out = append(out, r.RemoteName)
		}
	}
	slices.Sort(out)
	return out
}

// RemovePeer removes the server named peer from the JetStream cluster (its
// stream replicas move to the other nodes): the step before a node whose
// data folder was lost rejoins under a new cluster.node name
// (docs/cluster-durability.md). The meta leader answers; ctx bounds the
// wait. This node itself and a node it has a route to (running) are
// refused with INVALID_REQUEST, as is a name that is not a member; no
// answer within ctx is NO_QUORUM.
func (n *Node) RemovePeer(ctx context.Context, peer string) error {
	if peer == n.opts.Cluster.Node {
		return orderengine.Errorf(orderengine.CodeInvalidRequest, "%s is this node: remove a node through another one", peer)
	}
	if rz, err := n.srv.Routez(nil); err == nil {
		for _, r := range rz.Routes {
			if r.RemoteName == peer {
				return orderengine.Errorf(orderengine.CodeInvalidRequest, "node %s is connected to this one: stop it before removing it", peer)
			}
		}
	}
	nc, err := nats.Connect("", nats.InProcessServer(n.srv), nats.UserInfo(systemUser, n.sysPassword))
	if err != nil {
		return fmt.Errorf("natsjs: connect as the system user: %w", err)
	}
	defer nc.Close()
	body, _ := json.Marshal(map[string]string{"peer": peer})
	for backoff := firstBackoff; ; backoff = min(2*backoff, maxBackoff) {
		resp, err := nc.RequestWithContext(ctx, "$JS.API.SERVER.REMOVE", body)
		if err == nil {
			var out struct {
				Success bool                `json:"success"`
				Error   *jetstream.APIError `json:"error"`
			}
			if err := json.Unmarshal(resp.Data, &out); err != nil {
				return fmt.Errorf("natsjs: remove peer %s: %w", peer, err)
			}
			if out.Error == nil {
				return nil
			}
			// A membership change still settling (a replacement node
			// joining, a leader election) is transient: ask again.
			if !strings.Contains(out.Error.Description, "member change is in progress") {
				return orderengine.Errorf(orderengine.CodeInvalidRequest, "remove node %s: %s", peer, out.Error.Description)
			}
			err = errors.New(out.Error.Description)
		}
		select {
		case <-ctx.Done():
			return &orderengine.Error{Code: orderengine.CodeNoQuorum, RetryAfterSeconds: 1,
				Message: fmt.Sprintf("remove node %s: the cluster's meta leader did not answer (%v; last error: %v)", peer, ctx.Err(), err)}
		case <-time.After(backoff):
		}
	}
}

// stream returns the handle of the stream name (Setup made it).
func (n *Node) stream(name string) (jetstream.Stream, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	s, ok := n.streams[name]
	if !ok {
		return nil, fmt.Errorf("natsjs: stream %s is not set up", name)
	}
	return s, nil
}

// writeContext bounds one replicated write by the write timeout (or ctx's
// own deadline when sooner).
func (n *Node) writeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, n.opts.WriteTimeout)
}

// errClosed answers calls after Close.
var errClosed = errors.New("natsjs: the node is closed")

// natsLogger routes the NATS server's log lines into slog.
type natsLogger struct{ log *slog.Logger }

func (l natsLogger) Noticef(format string, v ...any) { l.log.Info(fmt.Sprintf(format, v...)) }
func (l natsLogger) Warnf(format string, v ...any)   { l.log.Warn(fmt.Sprintf(format, v...)) }
func (l natsLogger) Fatalf(format string, v ...any)  { l.log.Error(fmt.Sprintf(format, v...)) }
func (l natsLogger) Errorf(format string, v ...any)  { l.log.Error(fmt.Sprintf(format, v...)) }
func (l natsLogger) Debugf(format string, v ...any)  { l.log.Debug(fmt.Sprintf(format, v...)) }
func (l natsLogger) Tracef(format string, v ...any)  { l.log.Debug(fmt.Sprintf(format, v...)) }
