package main

import (
	"context"
	"fmt"

	"github.com/orderengine/orderengine/orders"
)

// startOrders builds the order service (order and orderbook actors, open
// orders reloaded from Pebble) on the engine, with the configuration the
// chain hook filled and its client for EIP-1271 signatures, funded flags
// and oracle availability, and plugs it behind the order routes.
// Without a fee vault (no chain configured) the order routes stay 501.
func startOrders(ctx context.Context, env *serveEnv) error {
	if env.Config.Chain.FeeVault == "" {
		env.Log.Warn("orders disabled: no chain.feeVault (no chain configured)")
		return nil
	}
	var client orders.ChainClient
	if env.ChainClient != nil {
		client = env.ChainClient
	}
	svc, err := orders.Build(ctx, env.Engine, orders.BuildOptions{Chain: client, Config: env.Config})
	if err != nil {
		return fmt.Errorf("orders: %w", err)
	}
	env.Services.Orders = svc
	env.HTTP.SetServices(env.Services)
	return nil
}
