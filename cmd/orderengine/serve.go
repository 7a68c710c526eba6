package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/rpc"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/app"
	"github.com/orderengine/orderengine/chain/devchain"
	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/orders"
	"github.com/orderengine/orderengine/routing"
)

// serveEnv is what a serve hook gets: the loaded configuration, the logger,
// the engine and the (not yet listening) HTTP server.
type serveEnv struct {
	Config *config.Config
	Log    *slog.Logger
	Engine *app.Engine
	HTTP   *apihttp.Server
	Stdout io.Writer
	// Services are the services plugged so far; a hook adds its own and
	// calls HTTP.SetServices(Services).
	Services apihttp.Services
	// ChainClient is the chain hook's node client (nil without a chain).
	ChainClient orders.ChainClient
	// ChainRPC is the raw JSON-RPC client (eth_call with state overrides);
	// nil when the chain offers none.
	ChainRPC *rpc.Client
	// Webhooks is the webhook manager (its Stats feed GET /v1/stats).
	Webhooks *webhook.Manager
	// Routing is the routing stack, shared by the routing routes and the
	// keeper interface (nil without a chain).
	Routing *routing.Stack

	volumes volumeSlot
}

// chainStarter starts the chain side before the listeners open. It may
// update the served chain configuration (env.HTTP.SetChain) and plug
// services (env.HTTP.SetServices). The returned stop runs after the HTTP
// drain and before the engine closes; it may be nil.
type chainStarter func(ctx context.Context, env *serveEnv) (stop func(context.Context) error, err error)

func serveCommand() command {
	return command{summary: "run the service (make run)", run: runServe}
}

func runServe(ctx context.Context, env *cliEnv, args []string) (err error) {
	cfg, err := config.LoadConfig(args, env.lookupEnv, env.stderr)
	if err != nil {
		return err
	}
	log, err := cfg.Log.NewLogger(env.stderr)
	if err != nil {
		return err
	}
	if env.environ != nil {
		// A warning, not a refusal: Kubernetes gives every pod
		// <SERVICE>_PORT, <SERVICE>_SERVICE_HOST, ... for each Service, so
		// a Service named orderengine sets ORDERENGINE_* variables that
		// name no setting.
		if err := config.CheckEnv(env.environ()); err != nil {
			log.Warn("environment variables that name no setting are ignored", "err", err)
		}
	}
	eng, err := app.Open(cfg, log)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := eng.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
		log.Info("engine closed")
	}()
	hooks, srvOpts, err := startWebhooks(eng)
	if err != nil {
		return err
	}
	defer hooks.Close() // after the HTTP drain, before the engine closes
	srv, err := apihttp.New(apihttp.Engine{Config: eng.Config, Log: eng.Log, Store: eng.Store, Accounts: eng.Accounts, Limiter: eng.Limiter}, srvOpts)
	if err != nil {
		return err
	}
	if cfg.Dev && cfg.Chain.RPCURL != "" {
		log.Warn("dev mode set explicitly with an external node: webhook targets may be loopback addresses, over plain http too (webhooks.allowLoopbackHTTP); leave dev unset for a network that is not yours",
			"rpc", devchain.RedactURL(cfg.Chain.RPCURL))
	}
	senv := &serveEnv{Config: &cfg, Log: log, Engine: eng, HTTP: srv, Stdout: env.stdout, Services: srvOpts.Services, Webhooks: hooks}
	var stopChain func(context.Context) error
	if env.reg.startChain != nil {
		if stopChain, err = env.reg.startChain(ctx, senv); err != nil {
			return fmt.Errorf("start chain: %w", err)
		}
		if stopChain != nil {
			// A start that fails from here on (a busy port) must stop the
			// chain too: the dev chain's node holds its folder and mines.
			stopChain = stopOnce(stopChain)
			defer func() { _ = stopChain(context.Background()) }()
		}
	}
	if err := startOrders(ctx, senv); err != nil {
		return err
	}
	stopRouting, err := startRouting(ctx, senv)
	if err != nil {
		return err
	}
	defer stopRouting()
	stopLifecycle, err := startLifecycle(ctx, senv)
	if err != nil {
		return err
	}
	defer stopLifecycle() // idempotent; also runs on an early return, before the engine closes
	if err := srv.Start(); err != nil {
		return err
	}
	if err := announceDevKey(cfg, eng, env.stdout); err != nil {
		return err
	}
	if cfg.HTTP.AdminToken == "" {
		log.Info("admin token written", "file", filepath.Join(cfg.DataDir, apihttp.AdminTokenFile))
	}
	var serveErr error
	select {
	case <-ctx.Done():
		if d := cfg.HTTP.ShutdownDelay; d > 0 {
			// Out of rotation first: /readyz answers 503 while the
			// listeners keep serving (a second signal ends the process).
			srv.Drain()
			log.Info("shutting down: not ready, listeners open", "shutdownDelay", d)
			time.Sleep(d)
		}
		log.Info("shutting down: draining in-flight requests", "timeout", cfg.HTTP.ShutdownTimeout)
	case serveErr = <-srv.Errors():
		log.Error("listener stopped", "err", serveErr)
	case <-eng.Store.Failed():
		// Fail-stop (persistence/walwatch.go): requests are refused with
		// 500 from now on; exit non-zero so the supervisor restarts the
		// service, which recovers what was answered as durable.
		serveErr = eng.Store.Err()
		log.Error("storage failed: shutting down", "err", serveErr)
	}
	dctx, cancel := context.WithTimeout(context.Background(), cfg.HTTP.ShutdownTimeout)
	defer cancel()
	errs := []error{serveErr}
	if err := srv.Shutdown(dctx); err != nil {
		errs = append(errs, fmt.Errorf("http: in-flight requests not drained within http.shutdownTimeout (%s): %w", cfg.HTTP.ShutdownTimeout, err))
	}
	stopLifecycle() // before the chain stops
	stopRouting()
	if stopChain != nil {
		errs = append(errs, stopChain(dctx))
	}
	log.Info("http drained")
	return errors.Join(errs...)
}

// stopOnce makes stop idempotent, so that the end of the drain and an early
// return can both call it.
func stopOnce(stop func(context.Context) error) func(context.Context) error {
	var once sync.Once
	var err error
	return func(ctx context.Context) error {
		once.Do(func() { err = stop(ctx) })
		return err
	}
}
