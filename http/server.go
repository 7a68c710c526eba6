package http

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/valyala/fasthttp"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/chainsync"
)

// Options configure a Server beyond the engine's configuration.
type Options struct {
	// Services are the capabilities behind the public routes; nil fields
	// answer 501.
	Services Services
	// ChainStatus reports the indexer's progress to GET /readyz (nil: no
	// chain is followed, readiness does not look at it).
	ChainStatus func() chainsync.Status
	// Ready is another readiness check of GET /readyz: an
	// *orderengine.Error while this instance should get no traffic (a
	// cluster node joining, catching up or without quorum); nil: none.
	Ready func() error
	// RemovePeer removes a lost node's name from the cluster's replicated
	// streams (POST /admin/v1/cluster/peers/{node}/remove); nil on one
	// node.
	RemovePeer func(ctx context.Context, node string) error
	// StoreBackup writes a backup of this engine's store to w and
	// returns its header (GET /admin/v1/backup, on one node as on a
	// cluster node).
	StoreBackup func(ctx context.Context, w io.Writer) (any, error)
	// Backup writes a dump of the cluster's streams to w (GET
	// /admin/v1/cluster/backup); Restore republishes one into an empty
	// cluster and describes what it wrote (POST
	// /admin/v1/cluster/restore). Nil on one node.
	Backup  func(ctx context.Context, w io.Writer) error
	Restore func(ctx context.Context, r io.ReadSeeker) (any, error)
	// ClusterStatus answers GET /admin/v1/cluster: what this node sees
	// of its cluster, and where the identity key (when not empty) is
	// placed. Nil on one node.
	ClusterStatus func(ctx context.Context, key string) (any, error)
	// AdminToken guards the admin API. Empty means the caller did not
	// provide one: New then uses Config.HTTP.AdminToken or generates one
	// into <DataDir>/admin.token (see AdminToken).
	AdminToken string
	// ExtraRoutes are appended to the public route table (tests use them to
	// exercise the plumbing, e.g. a handler that panics).
	ExtraRoutes []Route
	// Collectors are subsystem metrics (e.g. webhooks) served on /metrics
	// next to the server's own.
	Collectors []prometheus.Collector
}

// Server is the public API and the admin API of one engine.
type Server struct {
	eng        Engine
	log        *slog.Logger
	cfg        config.Config
	app        *fiber.App
	admin      *fiber.App
	adminToken string
	routes     []Route
	metrics    *metrics
	services   Services
	config     []byte // GET /v1/config body
	errorsJSON []byte
	openapi    []byte
	pages      map[string]*page
	streams    *openStreams
	ridPrefix  string
	ridSeq     atomic.Uint64
	proxies    proxies
	// draining is set when Shutdown starts (GET /readyz answers 503);
	// chainStatus reports the indexer's progress (nil without a chain).
	draining      atomic.Bool
	chainStatus   func() chainsync.Status
	ready         func() error
	removePeer    func(ctx context.Context, node string) error
	clusterStatus func(ctx context.Context, key string) (any, error)
	backup        func(ctx context.Context, w io.Writer) error
	storeBackupFn func(ctx context.Context, w io.Writer) (any, error)
	restore       func(ctx context.Context, r io.ReadSeeker) (any, error)

	mu        sync.Mutex
	publicLn  net.Listener
	adminLn   net.Listener
	serveErrs chan error
}

// New builds the server of eng. It does not listen yet.
func New(eng Engine, opts Options) (*Server, error) {
	token, err := AdminToken(eng.Config, opts.AdminToken)
	if err != nil {
		return nil, err
	}
	var prefix [4]byte
	if _, err := rand.Read(prefix[:]); err != nil {
		return nil, fmt.Errorf("http: request id prefix: %w", err)
	}
	s := &Server{
		eng:           eng,
		log:           eng.Log.With("component", "http"),
		cfg:           eng.Config,
		adminToken:    token,
		routes:        append(publicRoutes(), opts.ExtraRoutes...),
		metrics:       newMetrics(),
		ridPrefix:     hex.EncodeToString(prefix[:]) + "-",
		serveErrs:     make(chan error, 2),
		services:      opts.Services,
		streams:       newOpenStreams(eng.Config.Streams.Resolved().MaxPerKey, eng.Config.Streams.Resolved().Heartbeat),
		config:        buildConfigJSON(eng.Config.Chain, eng.Config.Limits),
		chainStatus:   opts.ChainStatus,
		ready:         opts.Ready,
		removePeer:    opts.RemovePeer,
		clusterStatus: opts.ClusterStatus,
		backup:        opts.Backup,
		storeBackupFn: opts.StoreBackup,
		restore:       opts.Restore,
	}
	for _, r := range s.routes {
		if r.stream != nil {
			s.metrics.streams.WithLabelValues(r.Path) // exported at 0 before the first stream
		}
	}
	for _, c := range append([]prometheus.Collector{eng.Store.Collector(), chainCollector{s}}, opts.Collectors...) {
		if err := s.metrics.reg.Register(c); err != nil {
			return nil, fmt.Errorf("http: register collector: %w", err)
		}
	}
	if s.proxies, err = newProxies(eng.Config.HTTP); err != nil {
		return nil, fmt.Errorf("http: %w", err)
	}
	if s.errorsJSON, err = errorsDocument(); err != nil {
		return nil, err
	}
	if s.openapi, err = OpenAPIDocument(s.routes, eng.Config.HTTP); err != nil {
		return nil, err
	}
	if s.pages, err = pageRoutes(); err != nil {
		return nil, err
	}
	s.app = s.newPublicApp()
	s.admin = s.newAdminApp()
	s.guard(s.app)
	s.guard(s.admin)
	return s, nil
}

// guard runs before Fiber's router on every request of app. A request
// whose framing is ambiguous (framingFault) is answered 400
// INVALID_REQUEST and its connection closed. A method Fiber does not know
// is answered like any other method a route does not serve: 405
// METHOD_NOT_ALLOWED as the error object, with a request id and the
// rate-limit headers (serverError). Fiber itself answers it before any
// middleware runs, with a text/plain 400 "Invalid http method" and none of
// those headers.
func (s *Server) guard(app *fiber.App) {
	srv := app.Server()
	next := srv.Handler
	srv.Handler = func(rctx *fasthttp.RequestCtx) {
		var refusal error
		if fault := framingFault(&rctx.Request.Header); fault != "" {
			rctx.SetConnectionClose()
			refusal = orderengine.Errorf(orderengine.CodeInvalidRequest, "malformed request: %s", fault)
		} else if !knownMethod(rctx.Method()) {
			refusal = fiber.ErrMethodNotAllowed
		} else {
			next(rctx)
			return
		}
		c := app.AcquireCtx(rctx)
		defer app.ReleaseCtx(c)
		_ = s.serverError(c, refusal)
	}
}

// knownMethod reports whether Fiber routes m (its default methods; the
// comparison is case-sensitive, as Fiber's).
func knownMethod(m []byte) bool {
	switch string(m) {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodPost, fiber.MethodPut, fiber.MethodDelete,
		fiber.MethodConnect, fiber.MethodOptions, fiber.MethodTrace, fiber.MethodPatch:
		return true
	}
	return false
}

// Handler returns the public Fiber app (benchmarks drive it in-process).
func (s *Server) Handler() *fiber.App { return s.app }

// AdminTokenValue returns the admin token in force.
func (s *Server) AdminTokenValue() string { return s.adminToken }

func (s *Server) fiberConfig() fiber.Config {
	return fiber.Config{
		AppName:               "orderengine",
		DisableStartupMessage: true,
		// fasthttp allocates a buffer of the announced Content-Length
		// before the body arrives, so its limit is the configured one: a
		// larger one let a client that sends only headers make the server
		// hold up to that much per connection until the read timeout. A
		// body over it is answered 413 PAYLOAD_TOO_LARGE by serverError,
		// before it is read.
		BodyLimit: s.cfg.HTTP.BodyLimit,
		// The request line and headers together must fit in this buffer;
		// a larger request is answered 400 by serverError.
		ReadBufferSize: maxHeaderBytes,
		ReadTimeout:    s.cfg.HTTP.ReadTimeout,
		WriteTimeout:   s.cfg.HTTP.WriteTimeout,
		IdleTimeout:    s.cfg.HTTP.IdleTimeout,
		Network:        fiber.NetworkTCP,
		ErrorHandler:   s.serverError,
		// Only the described paths are served: not /v1/stats/ nor
		// /V1/STATS (Fiber's defaults route both to /v1/stats).
		StrictRouting: true,
		CaseSensitive: true,
	}
}

// maxHeaderBytes bounds the request line and headers of one request.
const maxHeaderBytes = 4096

// serverError handles errors raised outside the middleware chain (fasthttp
// refusing a request, a handler error escaping): same body, own request id.
func (s *Server) serverError(c *fiber.Ctx, err error) error {
	var fe *fiber.Error
	if errors.As(err, &fe) && fe.Code == fiber.StatusRequestTimeout {
		// A read timeout: most often a pooled client connection that never
		// sent a request. Answering would put an unsolicited response on a
		// connection the client thinks is idle, so close it silently.
		s.log.Debug("connection closed on read timeout", "remote", c.Context().RemoteAddr().String())
		return c.Context().Conn().Close()
	}
	rid := s.newRequestID()
	c.Set(headerRequestID, rid)
	answer := err
	if fe != nil {
		switch fe.Code {
		case fiber.StatusRequestEntityTooLarge:
			s.drainBody(c)
			answer = orderengine.Errorf(orderengine.CodePayloadTooLarge, "request body exceeds %d bytes", s.cfg.HTTP.BodyLimit)
		case fiber.StatusRequestHeaderFieldsTooLarge:
			answer = orderengine.Errorf(orderengine.CodeInvalidRequest, "request line and headers exceed %d bytes (a long URL counts)", maxHeaderBytes)
		}
	}
	e := writeError(c, s.limitUncounted(c, answer), rid)
	s.metrics.refused(routeRejected, methodLabel(c.Method()), e.Code)
	s.log.Info("request rejected", "rid", rid, "status", e.Status(), "code", e.Code, "reason", rejectReason(err))
	return nil
}

// routeRejected is the route label of a request refused before routing
// (by fasthttp or Fiber: malformed, headers too large, an unknown method).
const routeRejected = "rejected"

// Draining a refused body: at most drainMax bytes, each read waiting at most
// drainIdle for data.
const (
	drainMax  = 1 << 20
	drainIdle = 500 * time.Millisecond
)

// drainBody reads and drops what the client is still sending of a body
// refused as too large, so that it reads the 413: fasthttp closes the
// connection after the answer, and closing a socket with unread input
// resets it, which can destroy the answer before the client reads it
// (a client that does not send Expect: 100-continue is still writing the
// body). Nothing is kept (one small buffer); it stops at drainMax bytes,
// when no data came for drainIdle, or at the read timeout.
func (s *Server) drainBody(c *fiber.Ctx) {
	conn := c.Context().Conn()
	end := time.Now().Add(s.cfg.HTTP.ReadTimeout)
	var buf [16 << 10]byte
	for left := drainMax; left > 0; {
		deadline := time.Now().Add(drainIdle)
		if deadline.After(end) {
			deadline = end
		}
		_ = conn.SetReadDeadline(deadline)
		n, err := conn.Read(buf[:min(left, len(buf))])
		left -= n
		if err != nil {
			return
		}
	}
}

// rejectReason names why fasthttp refused a request, for the log. It never
// returns the error's own text: for a request it cannot parse, fasthttp's
// error quotes the raw request line and headers (X-API-Key, Authorization
// with an API key or the admin token), and Fiber passes that text on as
// the message of a 400.
func rejectReason(err error) string {
	var fe *fiber.Error
	if errors.As(err, &fe) {
		return strconv.Itoa(fe.Code) + " " + utils.StatusMessage(fe.Code)
	}
	var oe *orderengine.Error
	if errors.As(err, &oe) {
		return oe.Message // the engine's own refusals (guard) never quote the request
	}
	return "unclassified"
}

func (s *Server) newPublicApp() *fiber.App {
	app := fiber.New(s.fiberConfig())
	app.Use(s.outer)
	for i := range s.routes {
		r := &s.routes[i]
		app.Add(r.Method, r.Path, s.routeHandler(r))
		if r.stream != nil {
			// /v1/orders/stream must not fall through to /v1/orders/:hash
			// for the methods it does not serve: 405 as on any path.
			for _, m := range []string{fiber.MethodPost, fiber.MethodPut, fiber.MethodPatch, fiber.MethodDelete, fiber.MethodHead, fiber.MethodOptions} {
				app.Add(m, r.Path, func(*fiber.Ctx) error { return fiber.ErrMethodNotAllowed })
			}
		}
	}
	// Add, not Get: Get would also serve HEAD, which is not described.
	app.Add(fiber.MethodGet, "/healthz", s.probe("/healthz", func(c *fiber.Ctx) error {
		return c.JSON(fiber.Map{"status": "ok"})
	}))
	app.Add(fiber.MethodGet, "/readyz", s.probe("/readyz", s.serveReady))
	s.addPages(app)
	if !s.cfg.HTTP.MetricsOnAdmin {
		app.Add(fiber.MethodGet, "/metrics", s.keylessOps("/metrics", s.metrics.handler()))
	}
	return app
}

// Start listens on the configured public and admin addresses and serves in
// the background. It returns once both listeners are bound, so the server
// is reachable when it returns.
func (s *Server) Start() error {
	if err := config.CheckLoopback(s.cfg.HTTP.AdminListen); err != nil {
		return fmt.Errorf("http: admin listener: %w", err)
	}
	pub, err := net.Listen("tcp", s.cfg.HTTP.Listen)
	if err != nil {
		return fmt.Errorf("http: listen (http.listen) %s: %w", s.cfg.HTTP.Listen, err)
	}
	adm, err := net.Listen("tcp", s.cfg.HTTP.AdminListen)
	if err != nil {
		_ = pub.Close()
		return fmt.Errorf("http: admin listen (http.adminListen) %s: %w", s.cfg.HTTP.AdminListen, err)
	}
	if ip := adm.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		_ = pub.Close()
		_ = adm.Close()
		return fmt.Errorf("http: admin listener bound to non-loopback %s", ip)
	}
	s.mu.Lock()
	s.publicLn, s.adminLn = pub, adm
	s.mu.Unlock()
	go func() { s.serveErrs <- s.app.Listener(pub) }()
	go func() { s.serveErrs <- s.admin.Listener(adm) }()
	s.log.Info("listening", "public", pub.Addr().String(), "admin", adm.Addr().String())
	return nil
}

// Errors delivers the error of a listener that stopped serving on its own
// (not through Shutdown). The binary watches it next to the signals.
func (s *Server) Errors() <-chan error { return s.serveErrs }

// Addr returns the bound public address (useful with port 0).
func (s *Server) Addr() string { return addrOf(&s.mu, &s.publicLn) }

// AdminAddr returns the bound admin address.
func (s *Server) AdminAddr() string { return addrOf(&s.mu, &s.adminLn) }

func addrOf(mu *sync.Mutex, ln *net.Listener) string {
	mu.Lock()
	defer mu.Unlock()
	if *ln == nil {
		return ""
	}
	return (*ln).Addr().String()
}

// OpenStreams reports the Server-Sent Events streams open now.
func (s *Server) OpenStreams() int { return s.streams.open() }

// Drain makes GET /readyz answer 503 while the listeners stay open (the
// start of a shutdown with http.shutdownDelay); Shutdown drains too.
func (s *Server) Drain() { s.draining.Store(true) }

// Shutdown stops accepting connections and waits, until ctx ends, for
// in-flight requests to finish. It does not close the engine.
func (s *Server) Shutdown(ctx context.Context) error {
	s.draining.Store(true)
	s.streams.closeAll() // a stream would hold its connection until ctx ends
	errPub := s.app.ShutdownWithContext(ctx)
	errAdm := s.admin.ShutdownWithContext(ctx)
	return errors.Join(errPub, errAdm)
}

const headerRequestID = "X-Request-ID"

// requestID returns the client's X-Request-ID when it is sane (1 to 64
// characters of [A-Za-z0-9._:-]), else a new one. The result is safe to
// keep after the handler.
func (s *Server) requestID(c *fiber.Ctx) string {
	if v := c.Request().Header.Peek(headerRequestID); len(v) > 0 && len(v) <= 64 && saneID(v) {
		return string(v)
	}
	return s.newRequestID()
}

func (s *Server) newRequestID() string {
	var buf [32]byte // the prefix (9 bytes) and a base-36 uint64 (at most 13)
	return string(strconv.AppendUint(append(buf[:0], s.ridPrefix...), s.ridSeq.Add(1), 36))
}

func saneID(v []byte) bool {
	for _, c := range v {
		ok := (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			c == '-' || c == '_' || c == '.' || c == ':'
		if !ok {
			return false
		}
	}
	return true
}

// reqInfo travels in the request's locals from the outer middleware to the
// route handler and back.
type reqInfo struct {
	rid   string
	route string
	keyID string
}

const localsInfo = "oe.req"

func info(c *fiber.Ctx) *reqInfo {
	if ri, ok := c.Locals(localsInfo).(*reqInfo); ok {
		return ri
	}
	return &reqInfo{}
}

var infoPool = sync.Pool{New: func() any { return new(reqInfo) }}

// outer is the first middleware of every public request: request id,
// body limit, panic recovery, error mapping, metrics and the access log.
func (s *Server) outer(c *fiber.Ctx) (err error) {
	start := time.Now()
	ri := infoPool.Get().(*reqInfo)
	*ri = reqInfo{rid: s.requestID(c), route: "unmatched"}
	c.Locals(localsInfo, ri)
	c.Set(headerRequestID, ri.rid)
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic in handler", "rid", ri.rid, "panic", fmt.Sprint(p), "stack", stack())
			limits := saveLimitHeaders(c)
			c.Response().Reset()
			limits.restore(c)
			c.Set(headerRequestID, ri.rid)
			e := writeError(c, s.limitUncounted(c, errors.New("panic")), ri.rid)
			s.metrics.refused(ri.route, methodLabel(c.Method()), e.Code)
		}
		status := c.Response().StatusCode()
		end := time.Now()
		elapsed := end.Sub(start)
		s.metrics.observe(ri.route, methodLabel(c.Method()), status, elapsed)
		if s.log.Enabled(context.Background(), slog.LevelInfo) {
			// The record goes to the handler as Logger.LogAttrs would pass
			// it, at the request's end, without the caller's program
			// counter (no handler of the engine reports the source): the
			// stack walk that captures it was a fifth of the line's cost.
			r := slog.NewRecord(end, slog.LevelInfo, "request", 0)
			r.AddAttrs(slog.String("rid", ri.rid), slog.String("method", c.Method()), slog.String("path", c.Path()),
				slog.String("route", ri.route), slog.Int("status", status), slog.Duration("dur", elapsed),
				slog.String("ip", s.clientAddr(c).String()), slog.String("key", ri.keyID))
			_ = s.log.Handler().Handle(context.Background(), r)
		}
		c.Locals(localsInfo, nil)
		infoPool.Put(ri)
		err = nil
	}()
	if s.eng.Store.Err() != nil {
		// Fail-stop (persistence/walwatch.go): the store may hold writes
		// that were answered as failed, so nothing is read or written until
		// the restart.
		err = orderengine.Errorf(orderengine.CodeInternal, "storage failure: the service is restarting, retry later")
	} else if len(c.Request().Body()) > s.cfg.HTTP.BodyLimit {
		err = orderengine.Errorf(orderengine.CodePayloadTooLarge, "request body exceeds %d bytes", s.cfg.HTTP.BodyLimit)
	} else {
		err = c.Next()
	}
	if err != nil {
		e := writeError(c, s.limitUncounted(c, err), ri.rid)
		s.metrics.refused(ri.route, methodLabel(c.Method()), e.Code)
		if e.Code == orderengine.CodeInternal {
			s.log.Error("internal error", "rid", ri.rid, "err", err.Error())
		}
	}
	return nil
}

// methodLabel returns a constant string for the metrics label (Fiber's
// strings are only valid in the handler; Prometheus keeps label values).
func methodLabel(m string) string {
	switch m {
	case fiber.MethodGet:
		return fiber.MethodGet
	case fiber.MethodPost:
		return fiber.MethodPost
	case fiber.MethodDelete:
		return fiber.MethodDelete
	case fiber.MethodPut:
		return fiber.MethodPut
	case fiber.MethodPatch:
		return fiber.MethodPatch
	case fiber.MethodHead:
		return fiber.MethodHead
	case fiber.MethodOptions:
		return fiber.MethodOptions
	}
	return "OTHER"
}
