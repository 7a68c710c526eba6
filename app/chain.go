package app

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"os"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/keeper"
	"github.com/orderengine/orderengine/market"
	"github.com/orderengine/orderengine/orders"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/platform"
	"github.com/orderengine/orderengine/routing"
)

// openChain connects the engine to its chain: the caller's (Options.Chain),
// or the embedded dev chain with an empty chain.rpcURL, else the external
// node (devchain.Open checks its chain id and router and fills the
// configuration's chain section with the deployment), and binds the data
// folder to it.
func (s *System) openChain(ctx context.Context) error {
	if s.opts.NoChain {
		return nil
	}
	conn := s.opts.Chain
	fresh := false
	if conn == nil {
		c, err := devchain.Open(ctx, &s.Config, s.Log, s.opts.Stdout)
		if err != nil {
			return fmt.Errorf("start chain: %w", err)
		}
		conn, fresh = c, c.Dev != nil && !c.Dev.Persistent()
		s.closeWith(c.Close)
	}
	s.ChainConn = conn
	return s.bindChain(ctx, fresh)
}

// bindChain checks that the data folder's chain-bound records (orders, the
// indexer's state, fills, market data: persistence.Prefixes) belong to the
// chain just opened, named by its id and the hash of the block the indexer
// starts from. A persisted dev chain (chain.devPersist) keeps its identity
// across restarts, so the records stay; when the dev chain is a new one
// (its folder was removed, or this start opened it in memory: fresh) the
// records of the earlier chain are cleared (accounts, keys, referral
// bindings and webhooks stay). With an external node a data folder of
// another chain is refused. It runs before anything reads the store's
// orders.
func (s *System) bindChain(ctx context.Context, fresh bool) error {
	conn := s.ChainConn
	block := s.Config.Chain.DeployBlock
	h, err := conn.Client.HeaderByNumber(ctx, new(big.Int).SetUint64(block))
	if err != nil {
		return fmt.Errorf("read block %d of chain %d: %w", block, conn.ChainID, err)
	}
	id := persistence.ChainIdentity{ChainID: conn.ChainID, Block: block, Hash: h.Hash()}
	store := s.Store
	bound, err := store.HasChainBound()
	if err != nil {
		return err
	}
	stored, known, err := store.ChainIdentity()
	switch {
	case err != nil:
		return err
	case fresh:
		// Every start is a new chain, even when its first blocks hash
		// the same as the last run's (same keys, same second).
		if !bound {
			return store.SetChainIdentity(id)
		}
		s.Log.Warn("the embedded dev chain is kept in memory (chain.devPersist=false) and starts from genesis at every start: clearing the previous run's orders, fills, market data and indexer state (accounts, keys and webhooks are kept)",
			"dataDir", s.Config.DataDir)
		return store.ResetChainBound(id)
	case known && stored == id:
		return nil
	case !bound || !known:
		// Nothing bound yet, or a folder written before identities were
		// recorded, served by the chain it was made with.
		return store.SetChainIdentity(id)
	case conn.Dev != nil:
		s.Log.Warn("a new embedded dev chain: clearing the earlier chain's orders, fills, market data and indexer state (accounts, keys and webhooks are kept)",
			"dataDir", s.Config.DataDir, "was", stored.Hash.Hex(), "now", id.Hash.Hex())
		return store.ResetChainBound(id)
	default:
		return fmt.Errorf("data folder %s holds orders and chain data of another chain (chain %d, block %d has hash %s there; the node at %s has %s): "+
			"serve it with the node it was made with, or start with another data folder",
			s.Config.DataDir, stored.ChainID, stored.Block, stored.Hash.Hex(), devchain.RedactURL(s.Config.Chain.RPCURL), id.Hash.Hex())
	}
}

// buildRouting builds the one routing stack (token registry, fee policy,
// venue cache, searcher, verifier). Its fee legs resolve referral bindings
// through the maker actors, the same the submit check reads, so a route
// and a submit never disagree. Without a chain there is none.
func (s *System) buildRouting(ctx context.Context) error {
	if s.ChainConn == nil {
		return nil
	}
	reader, ok := s.ChainConn.Client.(routing.ChainReader)
	if !ok {
		return fmt.Errorf("routing: the chain client cannot read pools")
	}
	stack, err := routing.Setup(ctx, s.Config, routing.SetupDeps{
		Chain: reader, RPC: s.ChainConn.RPC, Volumes: s.Market, Bindings: s.Makers, Log: s.Log,
	})
	if err != nil {
		return fmt.Errorf("routing: %w", err)
	}
	s.Routing = stack
	return nil
}

// buildOrders builds the order service: the router's signing domain, the
// verifier (EIP-1271 wallets through the chain), the routing stack's fee
// policy and tokens (or the configuration's, without a chain), the funded
// flag from the chain. Without a fee vault there is no order service (the
// order routes answer 501).
func (s *System) buildOrders() error {
	cfg := s.Config
	if cfg.Chain.FeeVault == "" {
		s.Log.Warn("orders disabled: no chain.feeVault (no chain configured)")
		return nil
	}
	if !common.IsHexAddress(cfg.Chain.FeeVault) {
		return fmt.Errorf("orders: chain.feeVault %q is not an address", cfg.Chain.FeeVault)
	}
	var router common.Address
	if cfg.Chain.Router != "" {
		if !common.IsHexAddress(cfg.Chain.Router) {
			return fmt.Errorf("orders: chain.router %q is not an address", cfg.Chain.Router)
		}
		router = common.HexToAddress(cfg.Chain.Router)
	}
	chainID := cfg.Chain.ChainID
	if chainID == 0 {
		chainID = devchain.DefaultChainID
	}
	var backend chain.CodeAndCaller
	var balances orders.Balances
	var multicall common.Address
	if s.ChainConn != nil {
		backend, balances = s.ChainConn.Client, s.ChainConn.Client
		if cfg.Chain.Multicall != "" {
			multicall = common.HexToAddress(cfg.Chain.Multicall)
		}
	}
	tokens := s.opts.Tokens
	var fees *routing.FeePolicy
	switch {
	case tokens == nil && s.Routing != nil:
		tokens = func() *routing.Tokens { return s.Routing.Tokens }
		fees = s.Routing.Fees
	case tokens == nil:
		reg, err := routing.NewTokens(cfg.Routing.Tokens)
		if err != nil {
			return err
		}
		tokens = func() *routing.Tokens { return reg }
	}
	if fees == nil {
		var err error
		fees, err = routing.NewFeePolicy(cfg.Routing.FeePolicy, common.HexToAddress(cfg.Chain.FeeVault), tokens(), s.Makers)
		if err != nil {
			return err
		}
	}
	svc, err := orders.New(orders.Deps{
		Orders: s.Orders, Chain: s.Chain, Registry: s.OrderActors, Pairs: s.Pairs, Makers: s.Makers,
		Clock: s.Clock, Log: s.Log, Verifier: chain.NewVerifier(chain.NewRouterDomain(chainID, router), backend),
		Fees: fees, Tokens: tokens, Balances: balances, FundedTTL: cfg.Orders.Resolved().FundedCacheTTL, Multicall: multicall,
		Evaluated: s.lastEvaluated,
		Settle:    s.seams.settle,
	})
	if err != nil {
		return fmt.Errorf("orders: %w", err)
	}
	s.OrderAPI = svc
	return s.Orders.LoadHashFilter()
}

// buildPairs makes the pair actors' registry: at each applied block they
// decide at the oracle's prices (none without a chain) and the order
// actors receive the transitions.
func (s *System) buildPairs() {
	if s.ChainConn != nil && common.IsHexAddress(s.Config.Chain.Oracle) {
		if hc, ok := s.ChainConn.Client.(market.HashCaller); ok {
			var decimals func(common.Address) (uint8, bool)
			if s.Routing != nil {
				decimals = func(a common.Address) (uint8, bool) {
					t, ok := s.Routing.Tokens.Lookup(a)
					return t.Decimals, ok
				}
			}
			s.prices = market.NewOraclePricer(hc, common.HexToAddress(s.Config.Chain.Oracle), decimals)
		}
	}
	opts := pair.Options{System: s.Actors, Store: s.Store, Chain: s.Chain, Orders: s.Orders, Registry: s.OrderActors, Log: s.Log,
		Drive: s.seams.drive}
	if s.prices != nil {
		opts.Prices = s.prices
	}
	if s.opts.Prices != nil {
		opts.Prices = s.opts.Prices
	}
	s.Pairs = pair.New(opts)
	s.closeWith(func() error { s.Pairs.Stop(); return nil })
}

// lifecycleClient is what the chain lifecycle needs of the node: the
// indexer's reads, eth_call, and calls pinned to a block hash (oracle
// prices at a block).
type lifecycleClient interface {
	chainsync.Backend
	ethereum.ContractCaller
	market.HashCaller
}

// buildLifecycle builds the chain lifecycle: the indexer (with the market
// sink), the projection of the chain into the order records, the pairs'
// oracle prices and decisions, the keeper interface, and on the embedded
// dev chain the reference keeper. Without a chain or an order service
// there is none.
func (s *System) buildLifecycle() error {
	if s.ChainConn == nil || s.OrderAPI == nil {
		s.Log.Warn("lifecycle disabled: no chain or no order service")
		return nil
	}
	cfg := s.Config
	lc := cfg.Lifecycle.Resolved()
	if err := lc.Validate(cfg.Chain); err != nil {
		return err
	}
	if !common.IsHexAddress(cfg.Chain.Router) || !common.IsHexAddress(cfg.Chain.Oracle) {
		return fmt.Errorf("lifecycle: chain.router and chain.oracle must be addresses")
	}
	client, ok := s.ChainConn.Client.(lifecycleClient)
	if !ok {
		return fmt.Errorf("lifecycle: the chain client cannot follow logs or make calls pinned to a block hash")
	}
	router := common.HexToAddress(cfg.Chain.Router)
	s.Projector = chainsync.NewProjector(s.Chain, s.Orders, s.OrderActors, chainsync.ProjectorOptions{Log: s.Log, Drive: s.seams.drive})
	observers := []chainsync.Observer{s.Projector, pairsObserver(s.Pairs)}
	if o := s.buildAttempts(router); o != nil {
		observers = append(observers, o)
	}
	ix, err := chainsync.New(client, s.Store, s.Log, chainsync.Options{
		Router: router, StartBlock: cfg.Chain.DeployBlock, Confirmations: cfg.Chain.Confirmations,
		RecentBlocks: lc.RecentBlocks, MaxBlocksPerStep: lc.MaxBlocksPerStep, Poll: lc.IndexerPoll,
		Sinks:     []chainsync.Sink{market.NewSink(s.Orders, s.prices, s.Log), platform.NewSink(s.Orders)},
		Observers: observers,
	})
	if err != nil {
		return err
	}
	s.Indexer = ix
	if s.Routing != nil {
		s.Keeper = keeper.NewService(keeper.Options{Pairs: s.Pairs, Routes: s.Routing.Service, RouterAddr: router, Chain: client,
			Registry: s.OrderActors, Log: s.Log, Now: s.Clock.Now, Covers: s.OrderAPI.Covers, Prefetch: s.OrderAPI.Prefetch})
	}
	key := s.opts.KeeperKey
	if key == nil && cfg.Lifecycle.KeeperKeyFile != "" {
		if key, err = readKeeperKey(cfg.Lifecycle.KeeperKeyFile); err != nil {
			return err
		}
	}
	if key == nil && s.ChainConn.Dev != nil && cfg.Dev && cfg.Lifecycle.DevKeeper {
		key = devchain.DevKey(2) // the dev chain's keeper account
	}
	if key != nil && s.Keeper != nil {
		kc, ok := s.ChainConn.Client.(keeper.Client)
		if !ok {
			return fmt.Errorf("lifecycle: the chain client cannot send transactions for the keeper")
		}
		s.Runner = keeper.NewRunner(kc, key, keeper.ServiceSource(s.Keeper), keeper.RunnerOptions{Log: s.Log, Drive: s.seams.drive})
	}
	s.Log.Info("lifecycle built", "router", router, "startBlock", cfg.Chain.DeployBlock,
		"confirmations", cfg.Chain.Confirmations, "keeper", s.Runner != nil)
	return nil
}

// pairsObserver attaches the pair actors to the indexer: each applied
// block's order chain records, each rewound block's touched orders.
func pairsObserver(p *pair.Pairs) chainsync.Observer {
	return chainsync.ObserverFuncs{
		OnApplied: func(b *chainsync.Block) {
			p.BlockApplied(pair.BlockRef{Number: b.Number, Hash: b.Hash, Time: b.Time}, b.ChainOrders())
		},
		OnReverted: func(blk chainstore.Block) { p.BlockReverted(blk.Touched) },
	}
}

// readKeeperKey reads the keeper's hex private key (0x optional, space
// around it ignored) from lifecycle.keeperKeyFile. Its errors never quote
// the file's content.
func readKeeperKey(path string) (*ecdsa.PrivateKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("lifecycle.keeperKeyFile: %w", err)
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(strings.TrimSpace(string(data)), "0x"))
	if err != nil {
		return nil, fmt.Errorf("lifecycle.keeperKeyFile %s: not a hex secp256k1 private key", path)
	}
	return key, nil
}
