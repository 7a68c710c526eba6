package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/config"
)

// devnetServeFlags are the settings of `devnet serve`.
type devnetServeFlags struct {
	listen, dataDir, configOut, keeperKeyOut string
	rpcURL, publicRPCURL                     string
	memory, marketMaker                      bool
	blockInterval, mmPeriod                  time.Duration
	chainID                                  uint64
	log                                      config.LogConfig
}

// runDevnetServe is `orderengine devnet serve`: the embedded dev chain as a
// process of its own, serving its JSON-RPC to several engines at once (the
// nodes of a cluster follow it with chain.rpcURL). It deploys the contracts
// on a new chain or continues the one kept in <data-dir>/devchain, runs the
// dev market maker, writes the configuration the nodes need (the chain
// section and the token registry, as `devnet deploy` prints them) to
// --config-out and stdout, and serves until a signal.
func runDevnetServe(ctx context.Context, env *cliEnv, args []string) error {
	f, err := parseDevnetServe(env, args)
	if err != nil {
		return err
	}
	log, err := f.log.NewLogger(env.stderr)
	if err != nil {
		return err
	}
	// A file left by an earlier run describes a chain that is not served
	// yet: whoever waits for the file waits for this start.
	if f.configOut != "" {
		if err := os.Remove(f.configOut); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("devnet serve: %w", err)
		}
	}
	ccfg := config.Default().Chain
	ccfg.DevRPCListen, ccfg.DevPersist, ccfg.BlockInterval = f.listen, !f.memory, f.blockInterval
	ccfg.ChainID, ccfg.MarketMaker.Enabled, ccfg.MarketMaker.Period = f.chainID, f.marketMaker, f.mmPeriod
	opts := []devchain.Option{devchain.WithFeePolicy(config.Default().Routing.FeePolicy), devchain.WithRPCHosts(rpcHosts(f.rpcURL, f.publicRPCURL)...)}
	if !f.memory {
		opts = append(opts, devchain.WithDataDir(filepath.Join(f.dataDir, devchain.DataDirName)))
	}
	d, err := devchain.Start(ctx, ccfg, log, opts...)
	if err != nil {
		return err
	}
	defer func() { _ = d.Close() }()
	if err := d.WriteBanner(env.stdout); err != nil {
		return err
	}
	rpcURL := f.rpcURL
	if rpcURL == "" {
		rpcURL = d.RPCURL()
	}
	snippet := devnetConfig(d, rpcURL, f.publicRPCURL)
	data, err := json.MarshalIndent(snippet, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if f.keeperKeyOut != "" {
		// The dev chain's keeper account, from the public dev seed.
		key := fmt.Sprintf("0x%x\n", crypto.FromECDSA(d.Accounts().Keeper.Key))
		if err := writeFileAtomic(f.keeperKeyOut, []byte(key), 0o600); err != nil {
			return fmt.Errorf("devnet serve: --keeper-key-out: %w", err)
		}
	}
	if f.configOut != "" {
		if err := writeFileAtomic(f.configOut, data, 0o644); err != nil {
			return fmt.Errorf("devnet serve: --config-out: %w", err)
		}
		defer func() { _ = os.Remove(f.configOut) }()
	}
	if _, err := fmt.Fprintf(env.stdout, "\nconfiguration of the nodes that follow this chain (--config-out %s):\n%s\n", orDash(f.configOut), data); err != nil {
		return err
	}
	log.Info("dev chain serving", "rpc", d.RPCURL(), "config", f.configOut, "keeperKey", f.keeperKeyOut)
	<-ctx.Done()
	log.Info("dev chain stopping")
	return nil
}

func parseDevnetServe(env *cliEnv, args []string) (devnetServeFlags, error) {
	def := config.Default()
	var f devnetServeFlags
	fs := flag.NewFlagSet("devnet serve", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.StringVar(&f.listen, "listen", "127.0.0.1:8545", "address of the JSON-RPC server")
	fs.StringVar(&f.dataDir, "data-dir", "./data/devnet", "folder keeping the chain (in <data-dir>/devchain), so a restart continues it")
	fs.BoolVar(&f.memory, "memory", false, "keep the chain in memory: every start is a new chain (the nodes' data folders must then be new too)")
	fs.StringVar(&f.configOut, "config-out", "", "write the nodes' configuration (chain section and token registry) to this file once the chain serves; removed at exit")
	fs.StringVar(&f.keeperKeyOut, "keeper-key-out", "", "write the dev keeper account's key to this file (mode 0600) for the nodes' lifecycle.keeperKeyFile")
	fs.StringVar(&f.rpcURL, "rpc-url", "", "chain.rpcURL written for the nodes: how they reach this server (default: http://<listen>)")
	fs.StringVar(&f.publicRPCURL, "public-rpc-url", "", "chain.publicRPCURL written for the nodes: the URL GET /v1/config gives clients (default: --rpc-url)")
	fs.DurationVar(&f.blockInterval, "block-interval", def.Chain.BlockInterval, "mining period")
	fs.BoolVar(&f.marketMaker, "market-maker", true, "run the dev market maker")
	fs.DurationVar(&f.mmPeriod, "market-maker-period", def.Chain.MarketMaker.Period, "period of the market maker's steps")
	fs.Uint64Var(&f.chainID, "chain-id", def.Chain.ChainID, "chain id of a new chain")
	fs.StringVar(&f.log.Level, "log-level", def.Log.Level, "debug, info, warn or error")
	fs.StringVar(&f.log.Format, "log-format", def.Log.Format, "text or json")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("devnet serve: unexpected argument %q", fs.Arg(0))
	}
	if _, port, err := net.SplitHostPort(f.listen); err != nil || port == "0" {
		return f, fmt.Errorf("devnet serve: --listen %q must be host:port with a fixed port (the nodes are given it)", f.listen)
	}
	for _, u := range []struct{ flag, url string }{{"--rpc-url", f.rpcURL}, {"--public-rpc-url", f.publicRPCURL}} {
		if p, err := url.Parse(u.url); u.url != "" && (err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "") {
			return f, fmt.Errorf("devnet serve: %s %q must be an http(s)://host:port URL", u.flag, u.url)
		}
	}
	if !f.memory && f.dataDir == "" {
		return f, errors.New("devnet serve: --data-dir is required unless --memory")
	}
	return f, nil
}

// rpcHosts are the host names of the URLs the chain is reached at, which
// its RPC server must answer (IP addresses and localhost always are).
func rpcHosts(urls ...string) []string {
	var hosts []string
	for _, s := range urls {
		if u, err := url.Parse(s); err == nil && u.Hostname() != "" && net.ParseIP(u.Hostname()) == nil {
			hosts = append(hosts, u.Hostname())
		}
	}
	return hosts
}

// devnetConfig is the configuration the nodes following d need: the
// deployment as the chain section (rpcURL, contract addresses, pools, the
// deploy block, the block interval the venue refresh follows) and the
// token registry with the deployed addresses.
func devnetConfig(d *devchain.DevChain, rpcURL, publicRPCURL string) devnetSnippet {
	var out devnetSnippet
	out.Chain = d.Deployment().ChainSection(rpcURL)
	out.Chain.PublicRPCURL = publicRPCURL
	if out.Chain.PublicRPCURL == "" {
		out.Chain.PublicRPCURL = rpcURL
	}
	out.Chain.BlockInterval = d.Config().BlockInterval
	out.Routing.Tokens = d.Deployment().RegistryTokens(config.Default().Routing.Tokens)
	return out
}

// writeFileAtomic writes data to path through a temporary file renamed
// over it, so a reader sees the whole file or none.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
