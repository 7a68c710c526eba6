// Package apptest starts the real engine for tests, built by the one
// composition root (app.New): the Fiber app on 127.0.0.1:0, the admin API
// on another loopback port, Pebble in t.TempDir(), the actor system, a
// ready account and API key, and a client that validates every response
// against the server's own OpenAPI document. A test gives the engine a
// chain (WithChain: a simulated backend or a dev chain) and other pieces
// through options; without WithChain the engine runs without one.
package apptest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	nethttp "net/http"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/routing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/app"
	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/internal/sse"
)

// Option adjusts a test server.
type Option func(*options)

type options struct {
	configure   []func(*config.Config)
	clock       clock.Clock
	services    apihttp.Services
	routes      []apihttp.Route
	dataDir     string
	fs          vfs.FS
	tier        config.Tier
	limits      config.BucketLimits
	beforeStart []func(*Server) error
	log         *slog.Logger
	chain       func() *devchain.Conn
	tokens      func() *routing.Tokens
	keeperKey   *ecdsa.PrivateKey
	chainStatus func() chainsync.Status
	noAccount   bool
}

// WithConfig edits the configuration before the engine is built.
func WithConfig(f func(*config.Config)) Option {
	return func(o *options) { o.configure = append(o.configure, f) }
}

// WithoutAccount makes NewTestCluster leave its cluster empty: no test
// account or key (APIKey stays empty), as a cluster a backup is restored
// into.
func WithoutAccount() Option { return func(o *options) { o.noAccount = true } }

// WithClock replaces the real clock, e.g. with a clock.Manual.
func WithClock(c clock.Clock) Option { return func(o *options) { o.clock = c } }

// WithServices puts test doubles behind the public routes in place of the
// built services (app.Options.Doubles): for what a test cannot provoke
// through the real ones.
func WithServices(s apihttp.Services) Option { return func(o *options) { o.services = s } }

// WithRoutes appends routes to the public table.
func WithRoutes(r ...apihttp.Route) Option {
	return func(o *options) { o.routes = append(o.routes, r...) }
}

// WithDataDir uses dir for Pebble instead of a fresh t.TempDir().
func WithDataDir(dir string) Option { return func(o *options) { o.dataDir = dir } }

// WithFS opens the engine's Pebble store on fs (app.Options.FS), e.g. a
// vfs.NewCrashableMem whose CrashClone a later server opens.
func WithFS(fs vfs.FS) Option { return func(o *options) { o.fs = fs } }

// FS is the file system of the engine's Pebble store given by WithFS (nil:
// the OS one).
func (s *Server) FS() vfs.FS { return s.opts.fs }

// WithTier sets the tier (and enterprise limits) of the ready account.
func WithTier(t config.Tier, enterprise config.BucketLimits) Option {
	return func(o *options) { o.tier, o.limits = t, enterprise }
}

// WithLogger sends the server's logs to log (default: discarded).
func WithLogger(log *slog.Logger) Option { return func(o *options) { o.log = log } }

// WithChain gives the engine a chain: conn is called at every start (also
// after Restart) and the connection it returns is the caller's to close.
// Without it the engine runs without a chain (no routing, no lifecycle).
func WithChain(conn func() *devchain.Conn) Option { return func(o *options) { o.chain = conn } }

// WithTokens replaces the engine's token registry (app.Options.Tokens):
// with a fee vault configured, the order service runs without a chain.
func WithTokens(tokens func() *routing.Tokens) Option { return func(o *options) { o.tokens = tokens } }

// WithKeeperKey runs the reference keeper in-process with key.
func WithKeeperKey(key *ecdsa.PrivateKey) Option { return func(o *options) { o.keeperKey = key } }

// WithChainStatus makes GET /readyz report f's indexer progress
// (app.Options.ChainStatus): a double for a lagging or failing indexer.
func WithChainStatus(f func() chainsync.Status) Option {
	return func(o *options) { o.chainStatus = f }
}

// WithBeforeStart runs f after the engine is built and before it starts
// (its listeners open): the place for checks and cleanups that need the
// built engine.
func WithBeforeStart(f func(*Server) error) Option {
	return func(o *options) { o.beforeStart = append(o.beforeStart, f) }
}

// Server is a running test server.
type Server struct {
	// URL is the public base URL, AdminURL the admin one.
	URL, AdminURL string
	AdminToken    string
	// APIKey is a ready key of AccountID (tier per WithTier, default free).
	APIKey, AccountID, KeyID string
	// System is the engine; HTTP and Webhooks are its parts (Wake the
	// webhook manager after moving a manual clock).
	System   *app.System
	HTTP     *apihttp.Server
	Webhooks *webhook.Manager
	Config   config.Config

	t      testing.TB
	opts   options
	client *nethttp.Client
	check  *Validator
	closed bool
}

// NewTestServer starts a server and registers its shutdown with t.Cleanup.
func NewTestServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	o := options{tier: config.TierFree}
	for _, opt := range opts {
		opt(&o)
	}
	if o.dataDir == "" {
		o.dataDir = t.TempDir()
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	s := &Server{t: t, opts: o, client: &nethttp.Client{Timeout: 30 * time.Second}}
	s.start()
	acct, err := s.System.Accounts.CreateAccount("test", o.tier, o.limits)
	if err != nil {
		t.Fatalf("testserver: create account: %v", err)
	}
	key, rec, err := s.System.Accounts.IssueKey(acct.ID)
	if err != nil {
		t.Fatalf("testserver: issue key: %v", err)
	}
	s.APIKey, s.AccountID, s.KeyID = key, acct.ID, rec.ID
	t.Cleanup(s.Close)
	return s
}

func (s *Server) start() {
	s.build()
	if err := s.System.Start(context.Background()); err != nil {
		_ = s.System.Close()
		s.t.Fatalf("testserver: start: %v", err)
	}
	s.serve()
}

// build makes the engine (app.New) and runs the before-start hooks.
func (s *Server) build() {
	if err := s.tryBuild(); err != nil {
		s.t.Fatalf("testserver: %v", err)
	}
}

// tryBuild is build returning its error instead of failing the test (a
// cluster's nodes build at once: a node's New waits for its peers).
func (s *Server) tryBuild() error {
	cfg := config.Default()
	cfg.DataDir = s.opts.dataDir
	cfg.HTTP.Listen = "127.0.0.1:0"
	cfg.HTTP.AdminListen = "127.0.0.1:0"
	cfg.HTTP.ShutdownTimeout = 5 * time.Second
	for _, f := range s.opts.configure {
		f(&cfg)
	}
	appOpts := app.Options{Clock: s.opts.clock, FS: s.opts.fs, Tokens: s.opts.tokens, KeeperKey: s.opts.keeperKey,
		Doubles: s.opts.services, Routes: s.opts.routes, ChainStatus: s.opts.chainStatus}
	if s.opts.chain != nil {
		appOpts.Chain = s.opts.chain()
	} else {
		appOpts.NoChain = true
	}
	sys, err := app.New(context.Background(), cfg, s.opts.log, appOpts)
	if err != nil {
		return fmt.Errorf("build the engine: %w", err)
	}
	s.System, s.HTTP, s.Webhooks, s.Config, s.closed = sys, sys.HTTP, sys.Webhooks, sys.Config, false
	for _, f := range s.opts.beforeStart {
		if err := f(s); err != nil {
			_ = sys.Close()
			return fmt.Errorf("before start: %w", err)
		}
	}
	return nil
}

// serve records the started engine's listeners and waits until it answers.
func (s *Server) serve() {
	t := s.t
	srv := s.System.HTTP
	s.URL, s.AdminURL, s.AdminToken = "http://"+srv.Addr(), "http://"+srv.AdminAddr(), srv.AdminTokenValue()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.waitReady(ctx); err != nil {
		t.Fatalf("testserver: not ready: %v", err)
	}
	if s.check == nil {
		check, err := NewValidator(ctx, s.URL)
		if err != nil {
			t.Fatalf("testserver: OpenAPI document: %v", err)
		}
		s.check = check
	} else {
		s.check.SetServer(s.URL)
	}
}

// waitReady polls /healthz until it answers 200 or ctx ends.
func (s *Server) waitReady(ctx context.Context) error {
	for {
		req, _ := nethttp.NewRequestWithContext(ctx, "GET", s.URL+"/healthz", nil)
		resp, err := s.client.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last error %v)", ctx.Err(), err)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Close shuts the server down (draining requests) and closes the engine.
// It is idempotent.
func (s *Server) Close() {
	if s.closed || s.System == nil {
		return
	}
	s.closed = true
	// The test is done with its connections: closing the client's idle ones
	// ends them on the server at once, instead of leaving the drain to
	// fasthttp's idle tracking (a connection the client dialled but never
	// used counts as idle only after 5 s).
	s.client.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.System.Shutdown(ctx); err != nil {
		s.t.Errorf("testserver: shutdown: %v", err)
	}
	// A store failed on purpose (persistence.Store.Err) reports its
	// failure again on close; the test that caused it checks it.
	if err := s.System.Close(); err != nil && s.System.Store.Err() == nil {
		s.t.Errorf("testserver: close engine: %v", err)
	}
}

// Restart closes the server and starts it again on the same data directory
// (new ports, same accounts and keys).
func (s *Server) Restart() {
	s.t.Helper()
	s.Close()
	s.start()
}

// Response is a received answer.
type Response struct {
	Status int
	Header nethttp.Header
	Body   []byte
}

// Code returns the error code of an error body ("" otherwise).
func (r *Response) Code() string {
	var e struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(r.Body, &e)
	return e.Code
}

// Get sends a GET to the public API with the ready API key.
func (s *Server) Get(path string) *Response {
	return s.Do("GET", path, nil, map[string]string{"X-API-Key": s.APIKey})
}

// Do sends a request to the public API and validates the answer against the
// OpenAPI document (failing the test on a mismatch).
func (s *Server) Do(method, path string, body []byte, header map[string]string) *Response {
	s.t.Helper()
	req := s.request(s.URL, method, path, body, header)
	resp := s.send(req)
	if err := s.check.Check(req, resp.Status, resp.Header, resp.Body); err != nil {
		s.t.Errorf("%s %s: response does not match the OpenAPI document: %v\nbody: %s", method, path, err, resp.Body)
	}
	return resp
}

// CheckEvent fails the test unless ev, an event of the stream at path
// (GET), matches the OpenAPI document's event schema of that stream.
func (s *Server) CheckEvent(path string, ev sse.Event) {
	s.t.Helper()
	if err := s.check.CheckEvent(s.URL+path, ev); err != nil {
		s.t.Errorf("GET %s: event %s (id %s) does not match the OpenAPI document: %v\ndata: %.400s", path, ev.Name, ev.ID, err, ev.Data)
	}
}

// Admin sends a request to the admin API with the admin token.
func (s *Server) Admin(method, path string, body any) *Response {
	s.t.Helper()
	var data []byte
	if body != nil {
		var err error
		if data, err = json.Marshal(body); err != nil {
			s.t.Fatal(err)
		}
	}
	return s.send(s.request(s.AdminURL, method, path, data, map[string]string{"Authorization": "Bearer " + s.AdminToken}))
}

// Raw sends a request to base (URL or AdminURL) without validation.
func (s *Server) Raw(base, method, path string, body []byte, header map[string]string) *Response {
	s.t.Helper()
	return s.send(s.request(base, method, path, body, header))
}

func (s *Server) request(base, method, path string, body []byte, header map[string]string) *nethttp.Request {
	s.t.Helper()
	req, err := nethttp.NewRequest(method, base+path, bytes.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return req
}

func (s *Server) send(req *nethttp.Request) *Response {
	s.t.Helper()
	resp, err := s.client.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer func() { _ = resp.Body.Close() }()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), eventStream) {
		// A stream does not end: what it sends at once (its retry:
		// line), then the connection is closed.
		return &Response{Status: resp.StatusCode, Header: resp.Header, Body: streamPreface(resp.Body)}
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatalf("%s %s: read body: %v", req.Method, req.URL, err)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// For returns a copy of s that reports to t: the same engine, listeners
// and client, for a test other than the one that started s (an engine
// shared by the subtests of a run). Closing the copy does nothing; the
// cleanup of the test that started s closes the engine.
func (s *Server) For(t testing.TB) *Server {
	c := *s
	c.t, c.closed = t, true
	return &c
}

// streamPreface reads a stream's first lines, up to its first blank line
// (at most 64 KiB, within 10 s).
func streamPreface(body io.Reader) []byte {
	out := make(chan []byte, 1)
	go func() {
		var buf []byte
		chunk := make([]byte, 4096)
		for len(buf) < 64<<10 && !bytes.Contains(buf, []byte("\n\n")) {
			n, err := body.Read(chunk)
			buf = append(buf, chunk[:n]...)
			if err != nil {
				break
			}
		}
		out <- buf
	}()
	select {
	case b := <-out:
		return b
	case <-time.After(10 * time.Second):
		return nil
	}
}
