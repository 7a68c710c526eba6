package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/orderengine/orderengine/app"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/config"
	apihttp "github.com/orderengine/orderengine/http"
)

func serveCommand() command {
	return command{summary: "run the service (make run)", run: runServe}
}

// runServe loads the configuration, builds the engine (app.New), runs it
// until a signal, a listener failure or a storage failure, and shuts it
// down: /readyz turns 503 for http.shutdownDelay, the listeners drain for
// up to http.shutdownTimeout, then the engine stops.
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
	if cfg.Dev && cfg.Chain.RPCURL != "" {
		log.Warn("dev mode set explicitly with an external node: webhook targets may be loopback addresses, over plain http too (webhooks.allowLoopbackHTTP); leave dev unset for a network that is not yours",
			"rpc", devchain.RedactURL(cfg.Chain.RPCURL))
	}
	sys, err := app.New(ctx, cfg, log, app.Options{Stdout: env.stdout})
	if err != nil {
		return err
	}
	defer func() {
		if cerr := sys.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
		log.Info("engine closed")
	}()
	if err := sys.Start(ctx); err != nil {
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
			sys.HTTP.Drain()
			log.Info("shutting down: not ready, listeners open", "shutdownDelay", d)
			time.Sleep(d)
		}
		log.Info("shutting down: draining in-flight requests", "timeout", cfg.HTTP.ShutdownTimeout)
	case serveErr = <-sys.HTTP.Errors():
		log.Error("listener stopped", "err", serveErr)
	case <-sys.Store.Failed():
		// Fail-stop (persistence/walwatch.go): requests are refused with
		// 500 from now on; exit non-zero so the supervisor restarts the
		// service, which recovers what was answered as durable.
		serveErr = sys.Store.Err()
		log.Error("storage failed: shutting down", "err", serveErr)
	}
	dctx, cancel := context.WithTimeout(context.Background(), cfg.HTTP.ShutdownTimeout)
	defer cancel()
	errs := []error{serveErr}
	if err := sys.Shutdown(dctx); err != nil {
		errs = append(errs, fmt.Errorf("http: in-flight requests not drained within http.shutdownTimeout (%s): %w", cfg.HTTP.ShutdownTimeout, err))
	}
	log.Info("http drained")
	return errors.Join(errs...)
}
