package main

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/keeper"
	"github.com/orderengine/orderengine/orders"
)

// startLifecycle starts the chain indexer, the projector into the order
// records, the trigger engine, market data and the keeper interface (and,
// on the embedded dev chain with lifecycle.devKeeper, the reference keeper
// in-process with the dev keeper account). It plugs the market and keeper
// services. The returned stop must run before the chain and the engine
// close. Without a chain or without the order service it does nothing.
func startLifecycle(ctx context.Context, env *serveEnv) (stop func(), err error) {
	nothing := func() {}
	orders, ok := env.Services.Orders.(*orders.Service)
	if env.ChainClient == nil || !ok {
		env.Log.Warn("lifecycle disabled: no chain or no order service")
		return nothing, nil
	}
	client, ok := env.ChainClient.(keeper.ChainClient)
	if !ok {
		return nil, fmt.Errorf("lifecycle: the chain client cannot follow logs")
	}
	stack := env.Routing
	if stack == nil {
		return nil, fmt.Errorf("lifecycle: the keeper interface needs the routing stack")
	}
	cfg := *env.Config
	var key *ecdsa.PrivateKey
	if cfg.Dev && cfg.Chain.RPCURL == "" && cfg.Lifecycle.DevKeeper {
		key = devchain.DevKey(2) // the dev chain's keeper account
	}
	deps := keeper.LifecycleDeps{
		Config: cfg, Store: env.Engine.Store, Orders: orders.Orders(), Registry: orders.Registry(),
		Client: client, Routes: stack.Service, KeeperKey: key, Now: env.Engine.Clock.Now, Log: env.Log,
		Decimals: func(a common.Address) (uint8, bool) {
			t, ok := stack.Tokens.Lookup(a)
			return t.Decimals, ok
		},
		ActorsAlive: func() map[string]int { return map[string]int{"order": orders.Registry().Live()} },
		Covers:      orders.Covers,
		Prefetch:    orders.Prefetch,
	}
	if env.Webhooks != nil {
		deps.Webhooks = env.Webhooks.Stats
	}
	lc, err := keeper.StartLifecycle(ctx, deps)
	if err != nil {
		return nil, err
	}
	env.volumes.set(lc)
	env.Services.Market, env.Services.Keeper = lc.Market, lc.Keeper
	env.HTTP.SetServices(env.Services)
	env.HTTP.SetChainStatus(lc.Indexer.Status)
	if err := env.HTTP.RegisterCollector(lc.Trigger.Collector()); err != nil {
		lc.Stop()
		return nil, err
	}
	var once sync.Once
	return func() { once.Do(lc.Stop) }, nil
}
