// Package app is the engine's one composition root: New builds every
// subsystem from the configuration, in dependency order, and hands each
// what it needs; Start runs them and opens the listeners; Close stops them
// in reverse order. The model is Tailscale's tsd.System: one struct that
// names every part of the running engine.
//
// Who may import it: cmd/orderengine (serve), bench and tests (app/apptest
// starts a System for a test). No other package imports it
// (internal/layers checks it); the subsystems take the pieces they need as
// arguments and know nothing of each other beyond them.
package app

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/ethereum/go-ethereum/common"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/orderengine/orderengine/accounts"
	"github.com/orderengine/orderengine/actors/limiter"
	"github.com/orderengine/orderengine/actors/maker"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/cluster/members"
	"github.com/orderengine/orderengine/config"
	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/keeper"
	"github.com/orderengine/orderengine/market"
	"github.com/orderengine/orderengine/orders"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/accountstore"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
	"github.com/orderengine/orderengine/persistence/webhookstore"
	"github.com/orderengine/orderengine/platform"
	"github.com/orderengine/orderengine/routing"
)

// Options adjust New. Their zero value is what `serve` runs.
type Options struct {
	// Clock replaces the real clock (tests use clock.Manual).
	Clock clock.Clock
	// FS opens the Pebble store on fs instead of the OS file system (crash
	// tests use vfs.NewCrashableMem); the other files of the data folder
	// stay on the OS file system.
	FS vfs.FS
	// Stdout receives the dev chain's banner and the development API key
	// (nil: not printed).
	Stdout io.Writer
	// Chain is the chain the engine follows, opened by the caller (tests:
	// a simulated backend); nil opens the one the configuration names,
	// unless NoChain.
	Chain *devchain.Conn
	// NoChain runs without a chain: no routing, no lifecycle; orders only
	// when Tokens is set (tests of the API without a chain).
	NoChain bool
	// Tokens replaces the token registry (tests).
	Tokens func() *routing.Tokens
	// KeeperKey runs the reference keeper in-process with it; by default
	// it runs with the key of lifecycle.keeperKeyFile, else with the dev
	// chain's keeper account on the embedded dev chain when
	// lifecycle.devKeeper is set.
	KeeperKey *ecdsa.PrivateKey
	// Doubles replace built services behind the routes: test doubles for
	// what the test cannot provoke otherwise (an HTTP layer test). Nil
	// fields keep the built service.
	Doubles apihttp.Services
	// Routes are appended to the public route table (tests).
	Routes []apihttp.Route
	// ChainStatus replaces the indexer's progress GET /readyz and
	// /v1/stats report: a test double for a lagging or failing indexer.
	ChainStatus func() chainsync.Status
	// Prices replaces the oracle prices the pairs decide at (the bench's
	// synthetic markets, which have no chain).
	Prices pair.Prices
}

// System is the running engine. Its fields are set by New and never
// replaced; a subsystem that the configuration leaves out is nil.
type System struct {
	Config config.Config
	Log    *slog.Logger
	Clock  clock.Clock
	Actors *actor.ActorSystem
	Store  *persistence.Store
	// Orders is the order journal; Outbox the event outbox.
	Orders   *orderstore.Store
	Outbox   *persistence.Outbox
	Chain    *chainstore.Chain
	Accounts *accountstore.Accounts
	// Sessions are the dashboard sessions.
	Sessions *accountstore.Sessions

	// The actors, by kind.
	Limiter     *limiter.Limiter
	Makers      *maker.Makers
	OrderActors *order.Registry
	Pairs       *pair.Pairs
	Webhooks    *webhook.Manager

	// ChainConn is the chain the engine follows (nil without one).
	ChainConn *devchain.Conn
	Routing   *routing.Stack
	OrderAPI  *orders.Service
	Market    *market.Service
	Indexer   *chainsync.Indexer
	Projector *chainsync.Projector
	Keeper    *keeper.Service
	Runner    *keeper.Runner
	// KeeperFeed is the keeper stream's source (nil without a keeper
	// interface); OrderStream the order stream.
	KeeperFeed  *keeper.Feed
	OrderStream *orders.EventStream
	// Attempts records the failed fill attempts (nil without a lifecycle).
	Attempts *keeper.AttemptWatcher
	// AccountAPI is the self-service account API; Platform the referral
	// lists.
	AccountAPI *accounts.Service
	Platform   *platform.Service

	HTTP *apihttp.Server
	// Member is this node's cluster member (nil on a single node).
	Member *members.Member

	opts    Options
	prices  *market.OraclePricer // nil without a chain and an oracle
	cluster *clusterJS           // nil on one node (cluster_jetstream.go)
	seams   seams                // chosen once by chooseSeams (seams.go)
	cancel  context.CancelFunc
	running sync.WaitGroup
	closers []func() error // in the order New made them; Close runs them backwards
	once    sync.Once
}

// New builds the engine from cfg: the store, the actors, the chain
// connection (the embedded dev chain or the configured node, which fills
// cfg's chain section), routing, the order service, the chain lifecycle,
// webhooks and the HTTP server. Nothing runs until Start. On an error,
// what was built is closed.
func New(ctx context.Context, cfg config.Config, log *slog.Logger, opts Options) (sys *System, err error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	s := &System{Config: cfg, Log: log, Clock: opts.Clock, opts: opts}
	defer func() {
		if err != nil {
			_ = s.closeAll()
		}
	}()
	if err := s.openStore(ctx); err != nil {
		return nil, err
	}
	if err := s.openClusterJS(); err != nil {
		return nil, err
	}
	if err := s.openChain(ctx); err != nil {
		return nil, err
	}
	// The store's chain records, once the folder is bound to its chain
	// (bindChain may have cleared them): their filters load what remains.
	if s.Chain, err = chainstore.New(s.Store); err != nil {
		return nil, err
	}
	s.buildMember()
	s.seams = s.chooseSeams()
	s.buildActors()
	s.hostKinds()
	if err := s.buildWebhooks(); err != nil {
		return nil, err
	}
	s.Market = market.NewService(s.Store, s.Clock.Now, market.ServiceOptions{
		Indexer:     s.indexerStatus,
		ActorsAlive: s.actorsAlive,
		Webhooks:    s.Webhooks.Stats,
	})
	if err := s.buildRouting(ctx); err != nil {
		return nil, err
	}
	s.buildPairs()
	if err := s.buildOrders(); err != nil {
		return nil, err
	}
	if err := s.buildLifecycle(); err != nil {
		return nil, err
	}
	s.buildAccounts()
	s.buildStreams()
	if err := s.buildHTTP(); err != nil {
		return nil, err
	}
	return s, nil
}

// closeWith registers f to run at Close, after everything built later.
func (s *System) closeWith(f func() error) { s.closers = append(s.closers, f) }

// storeMigrations are the schema steps of the domain stores, which a store
// written by an older binary needs. The platform records' step reads the
// order records through migratingOrders.
var storeMigrations = slices.Concat(orderstore.Migrations, chainstore.Migrations(migratingOrders), webhookstore.Migrations)

// migratingOrders are the order records of a store being migrated, as the
// platform records' step reads them.
func migratingOrders(s *persistence.Store) chainstore.Orders {
	return platformOrders{orderstore.New(s, nil)}
}

// platformOrders gives the platform records' step (chainstore.Orders) the
// order records: the referee index and bindings are the order store's,
// an order's terms are its record's.
type platformOrders struct{ *orderstore.Store }

// Terms returns the signed order with hash h.
func (o platformOrders) Terms(h common.Hash) (chain.Order, bool, error) {
	rec, ok, err := o.Load(h)
	if err != nil || !ok {
		return chain.Order{}, ok, err
	}
	return rec.Order, true, nil
}

// openStore opens the store; in a cluster it first starts the node's
// embedded server and, when the store is empty or behind the cluster's
// compaction, installs a peer's snapshot (openClusterStore).
func (s *System) openStore(ctx context.Context) error {
	var store *persistence.Store
	var err error
	if s.Config.Cluster.Enabled {
		store, err = s.openClusterStore(ctx)
	} else {
		store, err = persistence.OpenWith(s.Config.DataDir, persistence.Options{FS: s.opts.FS, Log: s.Log, Migrations: storeMigrations})
	}
	if err != nil {
		return err
	}
	s.Store = store
	s.closeWith(store.Close)
	if s.cluster != nil {
		// Registered after the store's: the node (its followers write to
		// the store) stops first.
		s.closeWith(s.cluster.node.Close)
	}
	actorLog := s.Log.With("component", "protoactor")
	s.Actors = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return actorLog }))
	s.closeWith(func() error { s.Actors.Shutdown(); return nil })
	s.Accounts = accountstore.NewAccounts(store, s.Clock.Now)
	s.Outbox = persistence.NewOutbox(store, s.Log, s.Clock.Now)
	s.Outbox.LogKeep = s.Config.Streams.Resolved().OrderEventsPerAccount
	s.Orders = orderstore.New(store, s.Outbox, orderstore.WithLinkedWallets(s.Accounts))
	return nil
}

// buildActors makes the registries of the limiter, maker and order actors
// (placed by this node's member in a cluster) and the change feed that
// links the orders to the rest: every durable change of an order reaches
// its maker (open counts, bindings, synchronously) and its pair (book,
// triggers; buildPairs).
func (s *System) buildActors() {
	cfg, seam := s.Config, s.seams
	s.Limiter = limiter.New(s.Actors, s.Clock, s.Log, limiter.Options{Window: cfg.Limits.Window, Idle: cfg.Limits.LimiterIdle,
		Cluster: seam.limiter})
	s.closeWith(func() error { s.Limiter.Stop(); return nil })
	s.Makers = maker.New(s.Actors, s.Clock, s.Log, maker.Options{
		Submits: cfg.Limits.MakerSubmits, Window: cfg.Limits.MakerWindow, OpenOrders: cfg.Limits.MakerOpenOrders,
		Bindings: s.Orders.Binding, Placement: seam.placement,
	})
	s.closeWith(func() error { s.Makers.Stop(); return nil })
	ocfg := cfg.Orders.Resolved()
	s.OrderActors = order.NewRegistry(s.Actors, order.Options{
		Journal: seam.journal, Clock: s.Clock, Log: s.Log, Idle: ocfg.ActorIdle,
		Feed: seam.feed, Applied: seam.applied, Placement: seam.placement,
	})
	s.closeWith(func() error { s.OrderActors.Stop(); return nil })
}

// orderChanged is the order journal's change feed: every accepted write
// of an order reaches its maker (open count, binding) and its pair (book,
// triggers) in the writer's goroutine (in a cluster: the materialiser's,
// for every node's writes), and at start every stored open order arrives
// through it as new.
func (s *System) orderChanged(prev orderstore.Status, rec *orderstore.Record, bind *common.Address) {
	s.Makers.Changed(prev, rec, bind)
	s.Pairs.Changed(prev, rec)
}

func (s *System) buildWebhooks() error {
	m, err := webhook.New(webhook.Options{
		Config: s.Config.Webhooks, Dev: s.Config.Dev, DataDir: s.Config.DataDir,
		Store: s.Store, Outbox: s.Outbox, System: s.Actors, Clock: s.Clock, Log: s.Log,
		Cluster: s.seams.webhooks,
	})
	if err != nil {
		return err
	}
	s.Webhooks = m
	s.closeWith(func() error { m.Close(); return nil })
	return nil
}

func (s *System) buildHTTP() error {
	services := apihttp.Services{Market: s.Market, Webhooks: apihttp.NewWebhookService(s.Webhooks),
		Accounts: s.AccountAPI, Platform: s.Platform, OrderStream: s.OrderStream}
	if s.KeeperFeed != nil {
		services.KeeperStream = s.KeeperFeed
	}
	if s.Routing != nil {
		services.Routing = apihttp.NewRoutingService(s.Routing.Service)
	}
	if s.OrderAPI != nil {
		services.Orders = s.OrderAPI
	}
	if s.Keeper != nil {
		services.Keeper = s.Keeper
	}
	if d := s.opts.Doubles; d != (apihttp.Services{}) {
		if d.Routing != nil {
			services.Routing = d.Routing
		}
		if d.Orders != nil {
			services.Orders = d.Orders
		}
		if d.Market != nil {
			services.Market = d.Market
		}
		if d.Webhooks != nil {
			services.Webhooks = d.Webhooks
		}
		if d.Keeper != nil {
			services.Keeper = d.Keeper
		}
	}
	collectors := append([]prometheus.Collector{s.Webhooks.Collector(), s.Pairs.Collector(), driverCollector{s}}, s.clusterCollectors()...)
	seam := s.seams
	status := s.opts.ChainStatus
	if status == nil && s.Indexer != nil {
		status = s.Indexer.Status
	}
	srv, err := apihttp.New(apihttp.Engine{Config: s.Config, Log: s.Log, Store: s.Store, Accounts: s.Accounts, Limiter: s.Limiter},
		apihttp.Options{Services: services, ExtraRoutes: s.opts.Routes, Collectors: collectors, ChainStatus: status, Ready: seam.ready, RemovePeer: seam.removePeer, ClusterStatus: seam.status,
			StoreBackup: s.storeBackup, Backup: seam.backup, Restore: seam.restore})
	if err != nil {
		return err
	}
	s.HTTP = srv
	return nil
}

// indexerStatus reports the indexer's progress to /v1/stats (nil without
// a chain; Options.ChainStatus when given).
func (s *System) indexerStatus() *chainsync.Status {
	var st chainsync.Status
	switch {
	case s.opts.ChainStatus != nil:
		st = s.opts.ChainStatus()
	case s.Indexer != nil:
		st = s.Indexer.Status()
	default:
		return nil
	}
	return &st
}

// actorsAlive counts the live actors of every kind for /v1/stats.
func (s *System) actorsAlive() map[string]int {
	return map[string]int{
		"order": s.OrderActors.Live(), "pair": s.Pairs.Live(), "maker": s.Makers.Live(),
		"limiter": s.Limiter.Active(), "webhook": s.Webhooks.Live(),
	}
}

// Start runs the engine: the stored open orders reach their pairs and makers, in a
// cluster the node joins (waiting within ctx for a quorum), then the
// indexer, the projector, the trigger evaluation, the dev keeper and the
// venue follower run, the listeners open, and on the embedded dev chain
// the development API key is printed on the first start of a data folder.
func (s *System) Start(ctx context.Context) error {
	n := 0
	err := s.Orders.OpenOrders(func(rec *orderstore.Record) error {
		n++
		s.orderChanged(0, rec, nil)
		return nil
	})
	if err != nil {
		return fmt.Errorf("app: load the open orders: %w", err)
	}
	s.Log.Info("open orders loaded into their pairs and makers", "count", n)
	if err := s.startClusterJS(ctx); err != nil {
		return err
	}
	if err := s.startMember(ctx); err != nil {
		return err
	}
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.cancel = cancel
	run := func(f func(context.Context)) {
		s.running.Add(1)
		go func() {
			defer s.running.Done()
			f(rctx)
		}()
	}
	run(s.runAccounts)
	run(s.OrderStream.Run)
	if s.KeeperFeed != nil {
		run(s.KeeperFeed.Run)
	}
	if s.Attempts != nil {
		run(s.Attempts.Run)
	}
	if s.Indexer != nil {
		run(s.Indexer.Run)
		run(s.Projector.Run)
		run(s.Pairs.Run)
		if s.cluster != nil {
			s.startLease()
		}
	}
	if s.Runner != nil {
		poll := s.Config.Lifecycle.Resolved().KeeperPoll
		run(func(ctx context.Context) { s.Runner.Run(ctx, poll) })
	}
	if s.Routing != nil {
		period := followPeriod(s.Config.Chain.BlockInterval)
		run(func(ctx context.Context) {
			s.Routing.Venues.Follow(ctx, period, func(err error) { s.Log.Warn("routing: venue refresh failed", "err", err) })
		})
	}
	if err := s.HTTP.Start(); err != nil {
		return err
	}
	if s.ChainConn != nil && s.ChainConn.Dev != nil && s.Config.Dev && s.opts.Stdout != nil {
		// Only with the embedded dev chain, like the dev keeper, and only
		// once the listeners serve: a failed first start keeps the key for
		// the start that works.
		if err := ensureDevKey(s.Accounts, s.opts.Stdout); err != nil {
			return err
		}
	}
	return nil
}

// followPeriod polls for new blocks twice per block interval.
func followPeriod(block time.Duration) time.Duration {
	if block <= 0 {
		return 500 * time.Millisecond
	}
	return block / 2
}

// Shutdown drains the HTTP listeners within ctx; Close then stops the
// rest.
func (s *System) Shutdown(ctx context.Context) error { return s.HTTP.Shutdown(ctx) }

// Close stops the engine after the listeners have drained (Shutdown): the
// background loops, then every subsystem in the reverse order of New, the
// store last. It may be called more than once.
func (s *System) Close() error {
	var err error
	s.once.Do(func() {
		if s.cancel != nil {
			s.cancel()
		}
		s.running.Wait()
		s.stopLease()
		err = s.closeAll()
	})
	return err
}

func (s *System) closeAll() error {
	var errs []error
	for i := len(s.closers) - 1; i >= 0; i-- {
		if err := s.closers[i](); err != nil {
			errs = append(errs, err)
		}
	}
	s.closers = nil
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("app: close: %w", err)
	}
	return nil
}
