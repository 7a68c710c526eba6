package main

import (
	"context"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"

	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/orders"
	"github.com/orderengine/orderengine/routing"
)

// startRouting builds the one routing stack of the process (token registry,
// fee policy, venue cache, searcher, verifier) and plugs it behind the
// quote, route, preflight, spot and token routes. The fee legs it serves
// resolve referral bindings through the order service's store, the same
// instance submit checks and writes, so a route and a submit never disagree.
// The keeper interface reuses the stack (env.Routing). The returned stop
// ends the venue follower; without a chain it does nothing.
func startRouting(ctx context.Context, env *serveEnv) (stop func(), err error) {
	reader, ok := env.ChainClient.(routing.ChainReader)
	if env.ChainClient == nil || !ok {
		env.Log.Warn("routing disabled: no chain client")
		return func() {}, nil
	}
	deps := routing.SetupDeps{Chain: reader, RPC: env.ChainRPC, Volumes: &env.volumes, Log: env.Log}
	if orders, ok := env.Services.Orders.(*orders.Service); ok {
		deps.Bindings = orders.Orders()
	}
	stack, err := routing.Setup(ctx, *env.Config, deps)
	if err != nil {
		return nil, fmt.Errorf("routing: %w", err)
	}
	fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		stack.Venues.Follow(fctx, followPeriod(env.Config.Chain.BlockInterval), func(err error) {
			env.Log.Warn("routing: venue refresh failed", "err", err)
		})
	}()
	env.Routing = stack
	env.Services.Routing = apihttp.NewRoutingService(stack.Service)
	env.HTTP.SetServices(env.Services)
	var once sync.Once
	return func() { once.Do(func() { cancel(); wg.Wait() }) }, nil
}

// followPeriod polls for new blocks twice per block interval.
func followPeriod(block time.Duration) time.Duration {
	if block <= 0 {
		return 500 * time.Millisecond
	}
	return block / 2
}

// volumeSlot is the token search's volume source: zero volumes until market
// data starts (after routing), then the market's 30-day volumes.
type volumeSlot struct {
	src atomic.Pointer[routing.VolumeSource]
}

// set installs the source once market data runs.
func (v *volumeSlot) set(src routing.VolumeSource) { v.src.Store(&src) }

// Volume30dUSD implements routing.VolumeSource.
func (v *volumeSlot) Volume30dUSD(token common.Address) *big.Int {
	if p := v.src.Load(); p != nil {
		return (*p).Volume30dUSD(token)
	}
	return new(big.Int)
}
