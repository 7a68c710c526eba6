package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math/big"
	"os"
	"strings"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/persistence"
)

// devnetCommand is `orderengine devnet <deploy|faucet>`: deploy the
// protocol's contracts to any node, or fund a wallet on a dev node.
func devnetCommand() command {
	return command{summary: "deploy the contracts to any RPC node (deploy), fund a dev wallet (faucet)", run: runDevnet}
}

func runDevnet(ctx context.Context, env *cliEnv, args []string) error {
	if len(args) == 0 {
		fmt.Fprintln(env.stderr, "usage: orderengine devnet deploy --rpc-url URL --key-file F [--chain-id N]")
		fmt.Fprintln(env.stderr, "       orderengine devnet faucet --rpc-url URL --to ADDR [--token ADDR] [--amount RAW] [--key-file F]")
		return errors.New("devnet: missing subcommand")
	}
	switch args[0] {
	case "deploy":
		return runDevnetDeploy(ctx, env, args[1:])
	case "faucet":
		return runDevnetFaucet(ctx, env, args[1:])
	}
	return fmt.Errorf("devnet: unknown subcommand %q (deploy, faucet)", args[0])
}

// devnetSnippet is what `devnet deploy` prints: the configuration's chain
// section and the routing token registry with the deployed addresses.
type devnetSnippet struct {
	Chain   config.ChainConfig `json:"chain"`
	Routing struct {
		Tokens []config.TokenConfig `json:"tokens"`
	} `json:"routing"`
}

func runDevnetDeploy(ctx context.Context, env *cliEnv, args []string) error {
	fs := flag.NewFlagSet("devnet deploy", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	rpcURL := fs.String("rpc-url", "", "JSON-RPC URL of the node (required)")
	keyFile := fs.String("key-file", "", "file holding the deployer's hex private key (required; env ORDERENGINE_CHAIN_DEPLOYER_KEY_FILE)")
	chainID := fs.Uint64("chain-id", config.Default().Chain.ChainID, "the node's chain id, checked before deploying")
	feeVault := fs.String("fee-vault", "", "receiver of the protocol fee leg (default: the deployer)")
	divisor := fs.Int64("liquidity-divisor", 1, "divide the seeded liquidity (3,000 native coins are wrapped at 1)")
	maxAge := fs.Duration("oracle-max-age", time.Hour, "oracle staleness bound")
	timeout := fs.Duration("timeout", 5*time.Minute, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *keyFile == "" {
		*keyFile, _ = env.lookupEnv(config.EnvPrefix + "CHAIN_DEPLOYER_KEY_FILE")
	}
	if *rpcURL == "" || *keyFile == "" {
		return errors.New("devnet deploy: --rpc-url and --key-file are required")
	}
	if *feeVault != "" && !common.IsHexAddress(*feeVault) {
		return fmt.Errorf("devnet deploy: --fee-vault %q is not an address", *feeVault)
	}
	key, err := readKeyFile(*keyFile)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	log := slog.New(slog.NewTextHandler(env.stderr, nil))
	dep, err := devchain.DeployRemote(ctx, *rpcURL, key, devchain.RemoteOptions{
		ChainID: *chainID, FeeVault: common.HexToAddress(*feeVault), OracleMaxAge: *maxAge, LiquidityDivisor: *divisor,
	}, log)
	if err != nil {
		return err
	}
	var out devnetSnippet
	out.Chain = dep.ChainSection(*rpcURL)
	out.Routing.Tokens = dep.RegistryTokens(config.Default().Routing.Tokens)
	enc := json.NewEncoder(env.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func runDevnetFaucet(ctx context.Context, env *cliEnv, args []string) error {
	fs := flag.NewFlagSet("devnet faucet", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	rpcURL := fs.String("rpc-url", "http://127.0.0.1:8545", "JSON-RPC URL of the dev node")
	to := fs.String("to", "", "recipient address (required)")
	token := fs.String("token", "", "token address; empty sends native coin")
	amount := fs.String("amount", "", "raw amount (default: 100 coins of native, 1,000 whole tokens otherwise)")
	keyFile := fs.String("key-file", "", "funding key file (default: the dev chain's public deployer key, DEV ONLY)")
	chainID := fs.Uint64("chain-id", config.Default().Chain.ChainID, "the node's chain id, checked first")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if !common.IsHexAddress(*to) || (*token != "" && !common.IsHexAddress(*token)) {
		return errors.New("devnet faucet: --to (and --token when given) must be addresses")
	}
	key := devchain.DevKey(0)
	if *keyFile != "" {
		var err error
		if key, err = readKeyFile(*keyFile); err != nil {
			return err
		}
	}
	var raw *big.Int
	if *amount != "" {
		var ok bool
		if raw, ok = new(big.Int).SetString(*amount, 10); !ok {
			return fmt.Errorf("devnet faucet: --amount %q is not a decimal integer", *amount)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	hash, err := devchain.RemoteFaucet(ctx, *rpcURL, *chainID, key, common.HexToAddress(*to), common.HexToAddress(*token), raw)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(env.stdout, "sent: %s\n", hash.Hex())
	return err
}

// readKeyFile reads a hex private key (0x optional, surrounding space
// ignored).
func readKeyFile(path string) (*ecdsa.PrivateKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("key file: %w", err)
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(strings.TrimSpace(string(data)), "0x"))
	if err != nil {
		return nil, fmt.Errorf("key file %s: %w", path, err)
	}
	return key, nil
}

// startChain is serve's chain hook: it opens the chain (the embedded dev
// chain with an empty chain.rpcURL, else the external node, whose chain id
// and router are checked), hands its client to the services wired after
// it, serves the filled chain section on /v1/config, and stops the chain
// after the HTTP drain.
func startChain(ctx context.Context, env *serveEnv) (func(context.Context) error, error) {
	conn, err := devchain.Open(ctx, env.Config, env.Log, env.Stdout)
	if err != nil {
		return nil, err
	}
	if err := bindChain(ctx, env, conn); err != nil {
		_ = conn.Close()
		return nil, err
	}
	env.ChainClient = conn.Client
	env.ChainRPC = conn.RPC
	env.HTTP.SetChain(env.Config.Chain)
	return func(context.Context) error { return conn.Close() }, nil
}

// bindChain checks that the data folder's chain-bound records (orders, the
// indexer's state, fills, market data: persistence.Prefixes) belong to the
// chain just opened, named by its id and the hash of the block the indexer
// starts from. A persisted dev chain (chain.devPersist) keeps its identity
// across restarts, so the records stay; when the dev chain is a new one
// (its folder was removed, or chain.devPersist is off and the chain lives
// in memory) the records of the earlier chain are cleared (accounts, keys,
// referral bindings and webhooks stay). With an external node a data
// folder of another chain is refused. It runs before the order service and
// the indexer read the store.
func bindChain(ctx context.Context, env *serveEnv, conn *devchain.Conn) error {
	block := env.Config.Chain.DeployBlock
	h, err := conn.Client.HeaderByNumber(ctx, new(big.Int).SetUint64(block))
	if err != nil {
		return fmt.Errorf("read block %d of chain %d: %w", block, conn.ChainID, err)
	}
	id := persistence.ChainIdentity{ChainID: conn.ChainID, Block: block, Hash: h.Hash()}
	store := env.Engine.Store
	bound, err := store.HasChainBound()
	if err != nil {
		return err
	}
	stored, known, err := store.ChainIdentity()
	switch {
	case err != nil:
		return err
	case conn.Dev != nil && !conn.Dev.Persistent():
		// Every start is a new chain, even when its first blocks hash
		// the same as the last run's (same keys, same second).
		if !bound {
			return store.SetChainIdentity(id)
		}
		env.Log.Warn("the embedded dev chain is kept in memory (chain.devPersist=false) and starts from genesis at every start: clearing the previous run's orders, fills, market data and indexer state (accounts, keys and webhooks are kept)",
			"dataDir", env.Config.DataDir)
		return store.ResetChainBound(id)
	case known && stored == id:
		return nil
	case !bound || !known:
		// Nothing bound yet, or a folder written before identities were
		// recorded, served by the chain it was made with.
		return store.SetChainIdentity(id)
	case conn.Dev != nil:
		env.Log.Warn("a new embedded dev chain: clearing the earlier chain's orders, fills, market data and indexer state (accounts, keys and webhooks are kept)",
			"dataDir", env.Config.DataDir, "was", stored.Hash.Hex(), "now", id.Hash.Hex())
		return store.ResetChainBound(id)
	default:
		return fmt.Errorf("data folder %s holds orders and chain data of another chain (chain %d, block %d has hash %s there; the node at %s has %s): "+
			"serve it with the node it was made with, or start with another data folder",
			env.Config.DataDir, stored.ChainID, stored.Block, stored.Hash.Hex(), devchain.RedactURL(env.Config.Chain.RPCURL), id.Hash.Hex())
	}
}
