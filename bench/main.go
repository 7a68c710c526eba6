// Command bench is the engine's load harness:
//
//	go run ./bench <mode> [flags]
//
// Modes (add yours with one entry in modes; `go run ./bench` lists them):
//
//	config        GET /v1/config through the whole engine vs a bare Fiber
//	              handler serving the same bytes, in the same run
//	read          a keyed read endpoint (GET /v1/stats) vs a bare handler;
//	              with -url, keyed GETs against a running server (as route)
//	submit        durable POST /v1/orders with pre-signed v7.1 orders vs bare
//	              Ecrecover × cores, and the floor (HTTP plus one Ecrecover)
//	cluster-submit the submits against one `serve` process, then against
//	              three in cluster mode, or each size of -nodes 3,5 (each
//	              set beside its dev chain): rate, latency, CPU per submit
//	              of every process, RSS, the JetStream and Pebble stores
//	              and the stream replicas each node holds
//	order-read    GET /v1/orders/{hash} vs GET /v1/config
//	jetstream-memory RSS, Go heap and store size of an embedded JetStream
//	              per order, every order on its own subject
//	order-memory  heap and RSS per order at scale (open with actors live,
//	              passivated, closed)
//	restart       store N orders, cancel a share, reopen the engine on the
//	              same directory: time until the first order read
//	bootstrap     a three-node cluster in this process with N orders: time
//	              until a node whose store was deleted is ready again, from
//	              a peer's snapshot and from a replay of the streams
//	triggers      N open orders over P pairs loaded through the order
//	              journal: memory per open order, idle CPU, evaluation
//	              times of blocks with a price move
//	route         GET /v1/route against a running server
//	webhooks      signed deliveries/s and enqueue-to-delivery latency to
//	              100 endpoints on a local receiver
//	streams       trigger-to-fill latency of the streaming keeper against the
//	              polling one on the dev chain; memory per open keeper stream
//	              and CPU per event at 1,000 streams
//
// Results are printed as one line per target and a ratio; docs/performance.md
// records them with the machine they ran on.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
)

// mode is one load scenario.
type mode struct {
	summary string
	run     func(ctx context.Context, out io.Writer, args []string) error
}

// modes is the one place scenarios are registered.
func modes() map[string]mode {
	return map[string]mode{
		"config":           {"GET /v1/config vs a bare Fiber handler", runConfig},
		"read":             {"keyed GET /v1/stats vs a bare Fiber handler; -url: against a running server, as route", runRead},
		"submit":           {"durable POST /v1/orders (pre-signed v7.1 orders) vs bare Ecrecover × cores", runSubmit},
		"cluster-submit":   {"durable POST /v1/orders to one serve process, then to three (or -nodes 3,5) in cluster mode: rate, CPU per node, RSS, stores", runClusterSubmit},
		"order-read":       {"GET /v1/orders/{hash} vs GET /v1/config", runOrderRead},
		"jetstream-memory": {"RSS, heap and store of an embedded JetStream per order, one subject per order", runJetStreamMemory},
		"order-memory":     {"heap and RSS per order at scale: open with actors live, passivated, closed", runOrderMemory},
		"restart":          {"time to reopen the engine on a store of N orders until the first order read", runRestart},
		"bootstrap":        {"time until a replaced cluster node is ready with N orders stored: from a peer's snapshot, then from a replay", runBootstrap},
		"route":            {"GET /v1/route against a running server: rate, percentiles, answers by code", runRouteLoad},
		"triggers":         {"open orders loaded through the journal: memory per open order, idle CPU, evaluation times of price moves", runTriggers},
		"webhooks":         {"signed deliveries/s and enqueue-to-delivery latency, 100 endpoints, local receiver", runWebhooks},
		"streams":          {"keeper stream vs polling: trigger-to-fill blocks and send latency; memory and CPU per event at 1,000 open streams", runStreams},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	all := modes()
	if len(os.Args) < 2 || all[os.Args[1]].run == nil {
		names := make([]string, 0, len(all))
		for n := range all {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintln(os.Stderr, "usage: go run ./bench <mode> [flags]")
		for _, n := range names {
			fmt.Fprintf(os.Stderr, "  %-8s %s\n", n, all[n].summary)
		}
		os.Exit(2)
	}
	err := all[os.Args[1]].run(ctx, os.Stdout, os.Args[2:])
	if errors.Is(err, flag.ErrHelp) {
		return // -h: the flag set printed its usage
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// loadFlags are the flags every comparison mode takes.
type loadFlags struct {
	conns    int
	requests int
	rounds   int
}

func parseLoadFlags(name string, args []string) (loadFlags, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	f := loadFlagSet(fs)
	err := fs.Parse(args)
	return *f, err
}

// loadFlagSet defines the load flags on fs.
func loadFlagSet(fs *flag.FlagSet) *loadFlags {
	var f loadFlags
	fs.IntVar(&f.conns, "conns", 32, "concurrent keep-alive connections")
	fs.IntVar(&f.requests, "requests", 200000, "requests per target per round")
	fs.IntVar(&f.rounds, "rounds", 3, "alternating rounds (the best of each target is reported)")
	return &f
}
