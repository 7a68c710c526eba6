package devchain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"

	"github.com/orderengine/orderengine/contracts"
)

// Client is what the engine reads the chain through: blocks, state, calls,
// logs, receipts and sending transactions. Both the dev chain's in-process
// client and an *ethclient.Client dialled to an external node satisfy it.
type Client = simulated.Client

// Defaults applied by Start to zero configuration values.
const (
	DefaultChainID       = 4663
	DefaultBlockInterval = time.Second
	DefaultDevAccounts   = 5
	DefaultOracleMaxAge  = time.Hour
	// BlockGasLimit is the dev chain's block gas limit: generous, so a
	// deployment or a burst of fills never waits for room in a block.
	BlockGasLimit = 100_000_000
)

// Prefunded native balances of the dev accounts, in wei.
var (
	deployerFunds = new(big.Int).Mul(big.NewInt(1_000_000_000), big.NewInt(params.Ether))
	accountFunds  = new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(params.Ether))
)

// DevChain is the embedded dev chain: a simulated go-ethereum node with the
// protocol's contracts deployed. Its methods are safe for concurrent use.
type DevChain struct {
	cfg      config.ChainConfig
	logger   *slog.Logger
	backend  chainNode
	client   Client
	chainID  *big.Int
	accounts Accounts
	rpcURL   string

	feePolicy map[string]map[string]config.FeeCell

	// dataDir keeps the chain on disk (WithDataDir); empty: in memory.
	dataDir string
	// rpcHosts are host names the RPC server answers besides localhost
	// and IP addresses (WithRPCHosts).
	rpcHosts []string
	// resumed is set when Start continued the chain found in dataDir.
	resumed bool
	// mmReady is set once the market-maker account is funded and approved.
	mmReady bool

	// senders holds the one sender of each dev account that sends
	// in-process (senderOf); deployer is the deployer's (faucet, oracle
	// writes).
	sendersMu sync.Mutex
	senders   map[common.Address]*sender
	deployer  *sender
	deploy    *Deployment
	mm        *MarketMaker

	// timer is set, before Start returns, when the mining loop runs.
	timer bool

	commitMu  sync.Mutex // one block sealed at a time
	stop      context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// normalize fills zero values of the chain section with their defaults.
func normalize(cfg config.ChainConfig) config.ChainConfig {
	if cfg.ChainID == 0 {
		cfg.ChainID = DefaultChainID
	}
	if cfg.BlockInterval <= 0 {
		cfg.BlockInterval = DefaultBlockInterval
	}
	if cfg.DevAccounts == 0 {
		cfg.DevAccounts = DefaultDevAccounts
	}
	if cfg.OracleMaxAge <= 0 {
		cfg.OracleMaxAge = DefaultOracleMaxAge
	}
	mm := &cfg.MarketMaker
	if mm.Period <= 0 {
		mm.Period = 5 * time.Second
	}
	if mm.MaxStepPpm == 0 {
		mm.MaxStepPpm = 5000
	}
	if mm.MaxDeviationPpm == 0 {
		mm.MaxDeviationPpm = 100_000
	}
	if mm.Seed == 0 {
		mm.Seed = 1
	}
	return cfg
}

// Option adjusts Start.
type Option func(*DevChain)

// WithFeePolicy writes policy's protocol and keeper legs to the router's fee
// table (the engine passes RoutingConfig.FeePolicy, so the router and the
// route's fee legs agree). Without it the shipped default policy is used.
func WithFeePolicy(policy map[string]map[string]config.FeeCell) Option {
	return func(d *DevChain) { d.feePolicy = policy }
}

// WithRPCHosts lets the JSON-RPC server answer requests addressed to the
// given host names too (the Host header). go-ethereum's server answers
// IP addresses and localhost only, against DNS rebinding; containers
// reach the chain by a service name (`devnet serve --rpc-url
// http://chain:8545`).
func WithRPCHosts(hosts ...string) Option {
	return func(d *DevChain) { d.rpcHosts = append(d.rpcHosts, hosts...) }
}

// Start starts the dev chain described by cfg: a simulated node with chain
// id cfg.ChainID, the dev accounts prefunded, every contract deployed with
// liquidity and oracle prices seeded, JSON-RPC on cfg.DevRPCListen (when
// set), and, unless cfg.ManualMining, a block every cfg.BlockInterval and
// the market maker when enabled. ctx bounds the start only.
func Start(ctx context.Context, cfg config.ChainConfig, logger *slog.Logger, opts ...Option) (*DevChain, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	cfg = normalize(cfg)
	if err := cfg.Validate(true); err != nil {
		return nil, err
	}
	d := &DevChain{
		cfg:       cfg,
		logger:    logger.With("component", "devchain"),
		chainID:   new(big.Int).SetUint64(cfg.ChainID),
		accounts:  DevAccounts(cfg.DevAccounts),
		feePolicy: config.Default().Routing.FeePolicy,
	}
	for _, opt := range opts {
		opt(d)
	}
	var saved savedChain
	var persisted bool
	if d.dataDir != "" {
		var err error
		if saved, persisted, err = d.prepareDataDir(); err != nil {
			return nil, err
		}
	}
	if err := d.startBackend(); err != nil {
		return nil, err
	}
	d.deployer = d.senderOf(d.accounts.Deployer)
	var err error
	if persisted {
		err = d.resume(ctx, saved)
	} else if err = d.setup(ctx); err == nil && d.dataDir != "" {
		err = d.save()
	}
	if err != nil {
		d.closeSenders()
		_ = d.backend.Close()
		return nil, err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	d.stop = cancel
	if !cfg.ManualMining {
		d.timer = true
		d.wg.Add(1)
		go d.mineLoop(runCtx)
		if d.mm != nil {
			d.wg.Add(1)
			go d.mm.loop(runCtx, &d.wg)
		}
	}
	d.logger.Info("dev chain started", "chainId", cfg.ChainID, "rpc", d.rpcURL, "router", d.deploy.Router,
		"manualMining", cfg.ManualMining, "blockInterval", cfg.BlockInterval, "dataDir", d.dataDir, "resumed", d.resumed)
	return d, nil
}

// startBackend creates the simulated node: a private copy of the dev genesis
// config with our chain id, the prefunded accounts, and the HTTP JSON-RPC
// server when configured.
func (d *DevChain) startBackend() (err error) {
	alloc := types.GenesisAlloc{}
	for i, acc := range d.accounts.All() {
		funds := accountFunds
		if i == 0 {
			funds = deployerFunds
		}
		alloc[acc.Address] = types.Account{Balance: new(big.Int).Set(funds)}
	}
	var host string
	var port int
	if d.cfg.DevRPCListen != "" {
		host, port, err = reserveListen(d.cfg.DevRPCListen)
		if err != nil {
			return err
		}
		d.rpcURL = "http://" + net.JoinHostPort(host, strconv.Itoa(port))
	}
	option := func(nodeConf *node.Config, ethConf *ethconfig.Config) {
		ethConf.Genesis.GasLimit = BlockGasLimit
		ethConf.Miner.GasCeil = BlockGasLimit
		if host != "" {
			nodeConf.HTTPHost = host
			nodeConf.HTTPPort = port
			nodeConf.HTTPModules = []string{"eth", "net", "web3", "txpool"}
			// Browser wallets and dapps on other loopback origins call it.
			nodeConf.HTTPCors = []string{"*"}
			if len(d.rpcHosts) > 0 {
				nodeConf.HTTPVirtualHosts = append([]string{"localhost"}, d.rpcHosts...)
			}
		}
	}
	if d.dataDir != "" {
		n, err := openPersistentNode(d.dataDir, d.logger, alloc, contracts.WithChainID(d.chainID.Uint64()), option)
		if errors.Is(err, errGenesisChanged) {
			return fmt.Errorf("%w: chain.devAccounts or the dev chain's genesis changed since it was made; "+
				"start with the settings it was made with, or remove %s to start a new dev chain", err, d.dataDir)
		}
		if err != nil {
			return err
		}
		d.backend, d.client = n, n.Client()
		return nil
	}
	// NewBackend panics when the node cannot start (for instance when the
	// RPC port was taken since reserveListen): report that as an error.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("devchain: start simulated node: %v", r)
		}
	}()
	b := simulated.NewBackend(alloc, contracts.WithChainID(d.chainID.Uint64()), option)
	d.backend, d.client = b, b.Client()
	return nil
}

// reserveListen resolves a listen address to a host and a free port: port 0
// picks one, any other port is checked to be free, so a busy port is a
// clear error rather than a failure deep inside the node.
func reserveListen(addr string) (string, int, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("devchain: dev RPC address (chain.devRPCListen) %q: %w", addr, err)
	}
	if host == "" {
		return "", 0, fmt.Errorf("devchain: dev RPC address (chain.devRPCListen) %q needs a host, such as 127.0.0.1:8545", addr)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", 0, fmt.Errorf("devchain: dev RPC address (chain.devRPCListen) %s: %w", addr, err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		return "", 0, fmt.Errorf("devchain: dev RPC address (chain.devRPCListen) %s: %w", addr, err)
	}
	return host, port, nil
}

// mineLoop seals a block every BlockInterval until ctx ends.
func (d *DevChain) mineLoop(ctx context.Context) {
	defer d.wg.Done()
	t := time.NewTicker(d.cfg.BlockInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			d.Commit()
		}
	}
}

// Commit seals a block with the pending transactions and returns its hash.
// With ManualMining it is the only way blocks are made; with the timer it
// may still be called (a test wanting a block now).
func (d *DevChain) Commit() common.Hash {
	d.commitMu.Lock()
	defer d.commitMu.Unlock()
	return d.backend.Commit()
}

// AdjustTime seals an empty block whose timestamp is dt after the head's,
// for tests of deadlines, DCA intervals and oracle staleness. It fails when
// transactions are pending.
func (d *DevChain) AdjustTime(dt time.Duration) error {
	d.commitMu.Lock()
	defer d.commitMu.Unlock()
	return contracts.AdjustTime(d.backend, dt)
}

// Client is the in-process client of the chain.
func (d *DevChain) Client() Client { return d.client }

// ChainID is the chain's id.
func (d *DevChain) ChainID() uint64 { return d.cfg.ChainID }

// RPCURL is the URL of the JSON-RPC server, empty when DevRPCListen was
// empty.
func (d *DevChain) RPCURL() string { return d.rpcURL }

// Accounts are the prefunded dev accounts.
func (d *DevChain) Accounts() Accounts { return d.accounts }

// Deployment is the deployed contracts, tokens and pools.
func (d *DevChain) Deployment() *Deployment { return d.deploy }

// MarketMaker is the dev market maker, nil when disabled.
func (d *DevChain) MarketMaker() *MarketMaker { return d.mm }

// Config is the chain section the dev chain runs with, defaults applied.
func (d *DevChain) Config() config.ChainConfig { return d.cfg }

// WriteBanner prints the RPC URL, the main addresses and the dev accounts
// with their keys, labelled dev only.
func (d *DevChain) WriteBanner(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "dev chain: chain id %d, JSON-RPC %s, router %s, oracle %s\n",
		d.cfg.ChainID, orNone(d.rpcURL), d.deploy.Router.Hex(), d.deploy.Oracle.Hex()); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(w, "  "+d.persistenceLine()); err != nil {
		return err
	}
	for _, t := range d.deploy.Tokens {
		if _, err := fmt.Fprintf(w, "  token %-5s %s  decimals %d  class %s\n", t.Symbol, t.Address.Hex(), t.Decimals, t.Class); err != nil {
			return err
		}
	}
	return d.accounts.WriteBanner(w)
}

// persistenceLine says where the chain lives and what a restart does.
func (d *DevChain) persistenceLine() string {
	switch {
	case d.dataDir == "":
		return "kept in memory (chain.devPersist=false): a restart starts a new chain and clears the previous run's orders, fills and market data"
	case d.resumed:
		return "continued from " + d.dataDir + " (a restart keeps orders, balances and fills)"
	}
	return "new chain in " + d.dataDir + " (a restart keeps orders, balances and fills)"
}

func orNone(s string) string {
	if s == "" {
		return "(off)"
	}
	return s
}

// Close stops the timers, the market maker and the node (and with it the
// JSON-RPC server). It is safe to call more than once.
func (d *DevChain) Close() error {
	d.closeOnce.Do(func() {
		if d.stop != nil {
			d.stop()
		}
		d.wg.Wait()
		d.closeSenders()
		d.closeErr = d.backend.Close()
		if d.closeErr != nil && errors.Is(d.closeErr, node.ErrNodeStopped) {
			d.closeErr = nil
		}
		d.logger.Info("dev chain stopped")
	})
	return d.closeErr
}

// setup deploys the contracts, funds the keeper and maker accounts, and
// prepares the market maker, mining a block after each stage and checking
// every transaction succeeded.
func (d *DevChain) setup(ctx context.Context) error {
	dep, err := deployDev(ctx, d.client, d.accounts.Deployer.Key, d.cfg, d.feePolicy, d.accounts.FeeVault.Address,
		func() { d.Commit() })
	if err != nil {
		return err
	}
	d.deploy = dep
	var txs []common.Hash
	f := d.faucet()
	for _, acc := range append([]Account{d.accounts.Keeper}, d.accounts.Makers...) {
		hashes, err := f.fundWallet(ctx, acc.Address)
		if err != nil {
			return fmt.Errorf("devchain: fund %s: %w", acc.Name, err)
		}
		txs = append(txs, hashes...)
	}
	if d.cfg.MarketMaker.Enabled {
		d.mm = newMarketMaker(d.cfg.MarketMaker, d.logger, d.client, dep, d.senderOf(d.accounts.MarketMaker), d.deployer)
		hashes, err := d.mm.prepare(ctx, f.send)
		if err != nil {
			return err
		}
		txs = append(txs, hashes...)
		d.mmReady = true
	}
	_, err = d.Mine(ctx, txs...)
	return err
}

// senderOf returns the one sender of acct's transactions, starting it on
// first use: every in-process user of a dev account sends through it, so
// the account's nonces are taken in one place.
func (d *DevChain) senderOf(acct Account) *sender {
	d.sendersMu.Lock()
	defer d.sendersMu.Unlock()
	if d.senders == nil {
		d.senders = map[common.Address]*sender{}
	}
	s, ok := d.senders[acct.Address]
	if !ok {
		s = newSender(d.client, acct.Key, d.chainID)
		d.senders[acct.Address] = s
	}
	return s
}

// closeSenders stops every account's sender (after the timers).
func (d *DevChain) closeSenders() {
	d.sendersMu.Lock()
	defer d.sendersMu.Unlock()
	for _, s := range d.senders {
		s.close()
	}
}

// Mine seals blocks until every transaction of txs is mined (a
// transaction sent just before a block is sometimes left for the next one)
// and returns their receipts; a reverted one is an error wrapping
// ErrReverted. It is the ManualMining way to "send, mine, check"; once the
// mining timer runs it just waits for the timer's blocks.
func (d *DevChain) Mine(ctx context.Context, txs ...common.Hash) ([]*types.Receipt, error) {
	receipts := make([]*types.Receipt, len(txs))
	left := len(txs)
	for {
		if !d.timer {
			d.Commit()
		}
		for i, h := range txs {
			if receipts[i] != nil {
				continue
			}
			r, err := d.client.TransactionReceipt(ctx, h)
			if notYetMined(err) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("devchain: receipt of %s: %w", h.Hex(), err)
			}
			if r.Status != types.ReceiptStatusSuccessful {
				return nil, fmt.Errorf("%w: %s", ErrReverted, h.Hex())
			}
			receipts[i] = r
			left--
		}
		if left == 0 {
			return receipts, nil
		}
		if d.timer {
			// The timer mines: wait for the next head.
			if err := d.waitNextBlock(ctx); err != nil {
				return nil, err
			}
		} else if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("devchain: mining %d transactions: %w", left, err)
		}
	}
}

// waitNextBlock returns when the head moves past the current one.
func (d *DevChain) waitNextBlock(ctx context.Context) error {
	heads := make(chan *types.Header, 1)
	sub, err := d.client.SubscribeNewHead(ctx, heads)
	if err != nil {
		return fmt.Errorf("devchain: subscribe to heads: %w", err)
	}
	defer sub.Unsubscribe()
	select {
	case <-heads:
		return nil
	case err := <-sub.Err():
		return fmt.Errorf("devchain: head subscription: %w", err)
	case <-ctx.Done():
		return fmt.Errorf("devchain: waiting for a block: %w", ctx.Err())
	}
}
