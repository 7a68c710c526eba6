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
)

// devnetCommand is `orderengine devnet <serve|deploy|faucet>`: run the dev
// chain as a process of its own, deploy the protocol's contracts to any
// node, or fund a wallet on a dev node.
func devnetCommand() command {
	return command{summary: "serve the dev chain to several nodes (serve), deploy the contracts to any RPC node (deploy), fund a dev wallet (faucet)", run: runDevnet}
}

func runDevnet(ctx context.Context, env *cliEnv, args []string) error {
	if len(args) == 0 {
		fmt.Fprintln(env.stderr, "usage: orderengine devnet serve [--listen 127.0.0.1:8545] [--data-dir D | --memory] [--config-out F] [--keeper-key-out F]")
		fmt.Fprintln(env.stderr, "       orderengine devnet deploy --rpc-url URL --key-file F [--chain-id N]")
		fmt.Fprintln(env.stderr, "       orderengine devnet faucet --rpc-url URL --to ADDR [--token ADDR] [--amount RAW] [--key-file F]")
		return errors.New("devnet: missing subcommand")
	}
	switch args[0] {
	case "serve":
		return runDevnetServe(ctx, env, args[1:])
	case "deploy":
		return runDevnetDeploy(ctx, env, args[1:])
	case "faucet":
		return runDevnetFaucet(ctx, env, args[1:])
	}
	return fmt.Errorf("devnet: unknown subcommand %q (serve, deploy, faucet)", args[0])
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
