// Package app builds the engine's running parts: the protoactor actor
// system, the Pebble store, the clock, the logger, the configuration and the
// engine-wide actors built on them.
//
// Who may import it: cmd/orderengine, bench and tests (internal/layers
// enforces it). Package http and the actor-kind packages must not import
// it; they take the pieces they need (system, clock, logger, store) as
// arguments (http.Engine for the server).
package app

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/orderengine/orderengine/config"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/orderengine/orderengine/actors/limiter"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence"
)

// Engine is the engine's running state shared by the front ends. Its fields
// are set by Open and must not be replaced afterwards; later issues add
// their subsystems as fields.
type Engine struct {
	Config config.Config
	Log    *slog.Logger
	Clock  clock.Clock
	System *actor.ActorSystem
	Store  *persistence.Store
	// Accounts manages accounts and API keys.
	Accounts *persistence.Accounts
	// Limiter holds the per-key and per-address limiter actors.
	Limiter *limiter.Limiter
	// Makers is the per-maker submit limiter the order path calls.
	Makers *limiter.Makers
	// Outbox is the per-account event outbox (persistence/outbox.go): one
	// per store, shared by every event producer and the webhook fan-out.
	Outbox *persistence.Outbox
}

// Option adjusts Open.
type Option func(*openOptions)

type openOptions struct {
	clock clock.Clock
	fs    vfs.FS
}

// WithClock replaces the real clock (tests use clock.Manual).
func WithClock(c clock.Clock) Option { return func(o *openOptions) { o.clock = c } }

// WithFS opens the Pebble store in cfg.DataDir on fs instead of the OS file
// system (crash tests use vfs.NewCrashableMem); the other files of the data
// folder stay on the OS file system.
func WithFS(fs vfs.FS) Option { return func(o *openOptions) { o.fs = fs } }

// Open opens the store in cfg.DataDir, starts the actor system and the
// engine-wide actors. Close releases them in reverse order.
func Open(cfg config.Config, log *slog.Logger, opts ...Option) (*Engine, error) {
	o := openOptions{clock: clock.Real{}}
	for _, opt := range opts {
		opt(&o)
	}
	store, err := persistence.OpenFS(cfg.DataDir, o.fs, log)
	if err != nil {
		return nil, err
	}
	actorLog := log.With("component", "protoactor")
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return actorLog }))
	e := &Engine{
		Config:   cfg,
		Log:      log,
		Clock:    o.clock,
		System:   system,
		Store:    store,
		Accounts: persistence.NewAccounts(store, o.clock.Now),
		Limiter: limiter.New(system, o.clock, log, limiter.Options{
			Window: cfg.Limits.Window,
			Idle:   cfg.Limits.LimiterIdle,
		}),
		Makers: limiter.NewMakers(system, o.clock, log, limiter.MakerOptions{
			Submits:    cfg.Limits.MakerSubmits,
			Window:     cfg.Limits.MakerWindow,
			OpenOrders: cfg.Limits.MakerOpenOrders,
		}),
		Outbox: persistence.NewOutbox(store, log, o.clock.Now),
	}
	return e, nil
}

// Close stops the actor system, then closes the store. Call it after the
// front ends have drained.
func (e *Engine) Close() error {
	if e == nil {
		return nil
	}
	e.System.Shutdown()
	if err := e.Store.Close(); err != nil {
		return errors.Join(fmt.Errorf("actors: close engine: %w", err))
	}
	return nil
}
