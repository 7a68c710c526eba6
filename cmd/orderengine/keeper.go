package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/keeper"
)

// keeperCommand is the reference keeper: it follows GET /v1/keeper/stream
// (polling GET /v1/keeper/executable while the stream is down, or always
// with --stream=false) and executes the listed orders with its own key,
// simulating each transaction first and never sending one the simulation
// says reverts.
func keeperCommand() command {
	return command{summary: "run the reference keeper (--rpc-url, --key-file, --api-url, --api-key)", run: runKeeper}
}

func runKeeper(ctx context.Context, env *cliEnv, args []string) error {
	fs := flag.NewFlagSet("keeper", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	rpcURL := fs.String("rpc-url", "", "JSON-RPC URL of the node (required)")
	keyFile := fs.String("key-file", "", "file holding the keeper's hex private key (required)")
	apiURL := fs.String("api-url", "http://127.0.0.1:8080", "base URL of the engine's public API")
	apiKey := fs.String("api-key", "", "API key (env ORDERENGINE_API_KEY)")
	poll := fs.Duration("poll", 500*time.Millisecond, "polling period of the executable list")
	once := fs.Bool("once", false, "execute every page of what is listed now, then exit")
	rpcTimeout := fs.Duration("rpc-timeout", keeper.DefaultCallTimeout, "deadline of each call to the node")
	stream := fs.Bool("stream", true, "follow the keeper stream (GET /v1/keeper/stream) and act at each block; poll while it is down")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *apiKey == "" {
		*apiKey, _ = env.lookupEnv(config.EnvPrefix + "API_KEY")
	}
	if *rpcURL == "" || *keyFile == "" || *apiKey == "" {
		return errors.New("keeper: --rpc-url, --key-file and --api-key are required")
	}
	if *poll <= 0 || *rpcTimeout <= 0 {
		return errors.New("keeper: --poll and --rpc-timeout must be positive durations")
	}
	key, err := readKeyFile(*keyFile)
	if err != nil {
		return err
	}
	client, err := ethclient.DialContext(ctx, *rpcURL)
	if err != nil {
		return fmt.Errorf("keeper: dial %s: %w", devchain.RedactURL(*rpcURL), err)
	}
	defer client.Close()
	log := slog.New(slog.NewTextHandler(env.stderr, nil))
	r := keeper.NewRunner(client, key, keeper.HTTPSource(*apiURL, *apiKey, nil), keeper.RunnerOptions{Log: log})
	r.CallTimeout = *rpcTimeout
	if *stream && !*once {
		r.Follow = keeper.NewFollower(*apiURL, *apiKey, r.Address(), nil, log)
	}
	log.Info("keeper started", "address", r.Address(), "api", *apiURL, "rpc", devchain.RedactURL(*rpcURL), "stream", r.Follow != nil)
	if *once {
		sent, err := r.Sweep(ctx)
		fmt.Fprintf(env.stdout, "sent %d transactions\n", len(sent))
		return err
	}
	r.Run(ctx, *poll)
	return nil
}
