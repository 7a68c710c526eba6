package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/routing"

	"github.com/gofiber/fiber/v2"

	"github.com/orderengine/orderengine/app"
)

// engineServer is a real engine (Pebble in a temporary directory, actors,
// the Fiber app; no chain) listening on loopback, with one API key.
type engineServer struct {
	addr   string
	apiKey string
	sys    *app.System
	dir    string
	// built and started are how long app.New and Start took.
	built, started time.Duration
}

// engineOptions adjust startEngineAt.
type engineOptions struct {
	// orders runs the order service (bench router, vault and tokens).
	orders bool
	// idle passivates order actors after this long (0: the default).
	idle time.Duration
}

// startEngine starts the engine on a new temporary directory with limits
// raised out of the way: the limiter still runs on every request, it just
// never refuses.
func startEngine(o engineOptions) (*engineServer, error) {
	dir, err := os.MkdirTemp("", "orderengine-bench-")
	if err != nil {
		return nil, err
	}
	return startEngineAt(dir, o)
}

// startEngineAt is startEngine on dir, which may hold a store already.
func startEngineAt(dir string, o engineOptions) (*engineServer, error) {
	cfg, opts, err := benchConfig(dir, o)
	if err != nil {
		return nil, err
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil)) // formatted, then dropped
	start := time.Now()
	sys, err := app.New(context.Background(), cfg, log, opts)
	if err != nil {
		return nil, err
	}
	built := time.Since(start)
	if err := sys.Start(context.Background()); err != nil {
		_ = sys.Close()
		return nil, err
	}
	started := time.Since(start) - built
	acct, err := sys.Accounts.CreateAccount("bench", config.TierFree, config.BucketLimits{})
	if err != nil {
		return nil, err
	}
	key, _, err := sys.Accounts.IssueKey(acct.ID)
	if err != nil {
		return nil, err
	}
	return &engineServer{addr: sys.HTTP.Addr(), apiKey: key, sys: sys, dir: dir, built: built, started: started}, nil
}

// benchConfig is the configuration of a bench engine on dir: limits raised
// out of the way, and with o.orders the order service over the bench
// registry (no chain).
func benchConfig(dir string, o engineOptions) (config.Config, app.Options, error) {
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.HTTP.Listen, cfg.HTTP.AdminListen = "127.0.0.1:0", "127.0.0.1:0"
	big := config.BucketLimits{Quote: 1 << 30, Read: 1 << 30, Order: 1 << 30}
	cfg.Limits.Free, cfg.Limits.Builder = big, big
	opts := app.Options{NoChain: true}
	if o.orders {
		cfg.Chain.Router, cfg.Chain.FeeVault = benchRouter.Hex(), benchVault.Hex()
		cfg.Orders.ActorIdle = o.idle
		reg, err := routing.NewTokens([]config.TokenConfig{
			{Address: benchIn.Hex(), Symbol: "AAA", Decimals: 18, Class: config.ClassMajor},
			{Address: benchOut.Hex(), Symbol: "BBB", Decimals: 6, Class: config.ClassStable},
		})
		if err != nil {
			return cfg, opts, err
		}
		reg = reg.WithOracle(func(common.Address) bool { return true })
		opts.Tokens = func() *routing.Tokens { return reg }
	}
	return cfg, opts, nil
}

// close stops the engine and removes its directory.
func (e *engineServer) close() error {
	err := e.stop()
	_ = os.RemoveAll(e.dir)
	return err
}

// stop stops the server and the engine, keeping the directory.
func (e *engineServer) stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := e.sys.Shutdown(ctx)
	if cerr := e.sys.Close(); err == nil {
		err = cerr
	}
	return err
}

// bareServer serves body with status on path, with no middleware at all.
type bareServer struct {
	app  *fiber.App
	addr string
}

func startBare(path string, status int, body []byte) (*bareServer, error) {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	app.Get(path, func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Status(status).Send(body)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	go func() { _ = app.Listener(ln) }()
	return &bareServer{app: app, addr: ln.Addr().String()}, nil
}

// fetch returns the status and body of one GET.
func fetch(addr, path string, header map[string]string) (int, []byte, error) {
	c := &rawConn{addr: addr}
	defer c.close()
	status, body, err := c.do(getRequest(addr, path, header), 10*time.Second)
	return status, append([]byte(nil), body...), err
}

// getRequest is a GET of path with header, as the raw client sends it.
func getRequest(addr, path string, header map[string]string) []byte {
	pairs := make([]string, 0, 2*len(header))
	for k, v := range header {
		pairs = append(pairs, k, v)
	}
	return httpRequest(nil, addr, "GET", path, nil, pairs...)
}

// result of one load run.
type result struct {
	requests int
	elapsed  time.Duration
}

func (r result) rps() float64 { return float64(r.requests) / r.elapsed.Seconds() }

// load sends n GETs over conns keep-alive connections and checks every
// status is want.
func load(ctx context.Context, addr, path string, header map[string]string, conns, n, want int) (result, error) {
	req := getRequest(addr, path, header)
	var next atomic.Int64
	var once sync.Once
	var failed error
	fail := func(err error) { once.Do(func() { failed = err }) }
	var wg sync.WaitGroup
	start := time.Now()
	for range conns {
		wg.Go(func() {
			c := &rawConn{addr: addr}
			defer c.close()
			for next.Add(1) <= int64(n) && ctx.Err() == nil {
				status, body, err := c.do(req, 30*time.Second)
				if err != nil {
					fail(err)
					return
				}
				if status != want {
					fail(fmt.Errorf("status %d, want %d: %s", status, want, body))
					return
				}
			}
		})
	}
	wg.Wait()
	if failed != nil {
		return result{}, failed
	}
	return result{requests: n, elapsed: time.Since(start)}, ctx.Err()
}

// compare loads the bare server and the engine alternately for the given
// rounds and prints the best run of each and their ratio.
func compare(ctx context.Context, out io.Writer, f loadFlags, path string, header map[string]string, status int, eng, bare string) (float64, error) {
	var bestEngine, bestBare float64
	for round := 0; round < f.rounds; round++ {
		rb, err := load(ctx, bare, path, nil, f.conns, f.requests, status)
		if err != nil {
			return 0, fmt.Errorf("bare: %w", err)
		}
		re, err := load(ctx, eng, path, header, f.conns, f.requests, status)
		if err != nil {
			return 0, fmt.Errorf("engine: %w", err)
		}
		bestBare, bestEngine = max(bestBare, rb.rps()), max(bestEngine, re.rps())
		fmt.Fprintf(out, "round %d: bare %8.0f req/s   engine %8.0f req/s\n", round+1, rb.rps(), re.rps())
	}
	ratio := bestEngine / bestBare
	fmt.Fprintf(out, "best:    bare %8.0f req/s   engine %8.0f req/s   engine/bare %.1f %%  (GOMAXPROCS %d, %d conns, %d req/round)\n",
		bestBare, bestEngine, 100*ratio, runtime.GOMAXPROCS(0), f.conns, f.requests)
	return ratio, nil
}
