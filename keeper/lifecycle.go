package keeper

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"log/slog"
	"math/big"
	"sync"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/actors/trigger"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/market"
	"github.com/orderengine/orderengine/persistence"
)

// ChainClient is what the lifecycle needs of the node: the indexer's reads
// and eth_call. Its dynamic type must also make calls pinned to a block hash
// (market.HashCaller: ethclient.Client and the simulated backend's client
// do) and, for the in-process keeper, send transactions (Client).
type ChainClient interface {
	chainsync.Backend
	ethereum.ContractCaller
}

// LifecycleDeps are the collaborators of StartLifecycle.
type LifecycleDeps struct {
	Config   config.Config
	Store    *persistence.Store
	Orders   *persistence.Orders
	Registry *order.Registry
	Client   ChainClient
	// Routes builds fresh routes for the keeper interface (nil: no keeper
	// interface).
	Routes Router
	// Decimals are the configured token decimals (nil: read from tokens).
	Decimals func(common.Address) (uint8, bool)
	// Covers tells the keeper interface whether a maker can pay a fill
	// (Options.Covers; nil: every order is routed and simulated).
	Covers func(ctx context.Context, token, maker common.Address, amount *big.Int) (covers, known bool)
	// Prefetch reads the funding of the orders a request examines at once
	// (Options.Prefetch; nil: Covers reads each).
	Prefetch func(ctx context.Context, pairs [][2]common.Address)
	// KeeperKey, when set, runs the reference keeper in-process with it
	// (the dev chain's keeper account); Client must then be a keeper Client.
	KeeperKey *ecdsa.PrivateKey
	// ActorsAlive and Webhooks feed /v1/stats (nil: omitted).
	ActorsAlive func() map[string]int
	Webhooks    func() api.WebhookStats
	Now         func() time.Time
	Log         *slog.Logger
}

// Lifecycle is the running lifecycle: indexer, projector, trigger engine,
// market data and keeper interface.
type Lifecycle struct {
	Indexer   *chainsync.Indexer
	Projector *chainsync.Projector
	Trigger   *trigger.Engine
	Market    *market.Service
	Keeper    *Service // nil without Routes
	Runner    *Runner  // nil without KeeperKey

	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once
}

// StartLifecycle builds and starts the lifecycle subsystems on the chain
// and store; Stop ends them.
func StartLifecycle(ctx context.Context, d LifecycleDeps) (*Lifecycle, error) {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	lc := d.Config.Lifecycle.Resolved()
	if err := lc.Validate(d.Config.Chain); err != nil {
		return nil, err
	}
	if !common.IsHexAddress(d.Config.Chain.Router) || !common.IsHexAddress(d.Config.Chain.Oracle) {
		return nil, fmt.Errorf("lifecycle: chain.router and chain.oracle must be addresses")
	}
	router, oracleAddr := common.HexToAddress(d.Config.Chain.Router), common.HexToAddress(d.Config.Chain.Oracle)
	hc, ok := d.Client.(market.HashCaller)
	if !ok {
		return nil, fmt.Errorf("lifecycle: the chain client cannot make calls pinned to a block hash")
	}
	prices := market.NewOraclePricer(hc, oracleAddr, d.Decimals)
	ch := persistence.NewChain(d.Store)
	l := &Lifecycle{}
	l.Projector = chainsync.NewProjector(ch, d.Orders, d.Registry, d.Log)
	l.Trigger = trigger.New(trigger.Options{Store: d.Store, Chain: ch, Orders: d.Orders, Registry: d.Registry, Prices: prices, Log: d.Log})
	ix, err := chainsync.New(d.Client, d.Store, d.Log, chainsync.Options{
		Router: router, StartBlock: d.Config.Chain.DeployBlock, Confirmations: d.Config.Chain.Confirmations,
		RecentBlocks: lc.RecentBlocks, MaxBlocksPerStep: lc.MaxBlocksPerStep, Poll: lc.IndexerPoll,
		Sinks:     []chainsync.Sink{market.NewSink(d.Orders, prices, d.Log)},
		Observers: []chainsync.Observer{l.Projector, l.Trigger},
	})
	if err != nil {
		return nil, err
	}
	l.Indexer = ix
	l.Market = market.NewService(d.Store, d.Now, market.ServiceOptions{
		Indexer: ix.Status, ActorsAlive: d.ActorsAlive, Webhooks: d.Webhooks,
	})
	if d.Routes != nil {
		l.Keeper = NewService(Options{Trigger: l.Trigger, Routes: d.Routes, RouterAddr: router, Chain: d.Client,
			Registry: d.Registry, Log: d.Log, Now: d.Now, Covers: d.Covers, Prefetch: d.Prefetch})
	}
	if d.KeeperKey != nil && l.Keeper != nil {
		kc, ok := d.Client.(Client)
		if !ok {
			return nil, fmt.Errorf("lifecycle: the chain client cannot send transactions for the dev keeper")
		}
		l.Runner = NewRunner(kc, d.KeeperKey, ServiceSource(l.Keeper), d.Log)
	}
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	l.cancel = cancel
	l.goRun(func() { ix.Run(rctx) })
	l.goRun(func() { l.Projector.Run(rctx) })
	l.goRun(func() { l.Trigger.Run(rctx) })
	if l.Runner != nil {
		l.goRun(func() { l.Runner.Run(rctx, lc.KeeperPoll) })
	}
	d.Log.Info("lifecycle started", "router", router, "startBlock", d.Config.Chain.DeployBlock,
		"confirmations", d.Config.Chain.Confirmations, "devKeeper", l.Runner != nil)
	return l, nil
}

func (l *Lifecycle) goRun(f func()) {
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		f()
	}()
}

// Stop ends the lifecycle's goroutines and actors and waits for them. It
// may be called more than once.
func (l *Lifecycle) Stop() {
	if l == nil || l.cancel == nil {
		return
	}
	l.once.Do(func() {
		l.cancel()
		l.wg.Wait()
		l.Trigger.Stop()
	})
}

// Volume30dUSD implements routing.VolumeSource.
func (l *Lifecycle) Volume30dUSD(token common.Address) *big.Int { return l.Market.Volume30dUSD(token) }
