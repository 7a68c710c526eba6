package config

import "time"

// OrdersConfig configures the order actors and the order reads.
type OrdersConfig struct {
	// ActorIdle stops an order actor after this long without a request
	// (one sweep every ActorIdle/2 finds it, so between ActorIdle and 1.5 ×
	// ActorIdle); it reloads from Pebble on the next one. Default 1 min;
	// zero means 1 min.
	ActorIdle time.Duration `json:"actorIdle"`
	// FundedCacheTTL is how long a maker's tokenIn balance and router
	// allowance, read for the funded flag of open orders, are reused.
	// Default 1 s; zero means 1 s.
	FundedCacheTTL time.Duration `json:"fundedCacheTTL"`
}

func defaultOrders() OrdersConfig {
	return OrdersConfig{ActorIdle: time.Minute, FundedCacheTTL: time.Second}
}

// Validate rejects negative durations (zero means the default).
func (c OrdersConfig) Validate() error {
	return notNegative(namedDuration{"orders.actorIdle", c.ActorIdle}, namedDuration{"orders.fundedCacheTTL", c.FundedCacheTTL})
}

// Resolved returns the configuration with zero values replaced by their
// defaults (negative durations too).
func (c OrdersConfig) Resolved() OrdersConfig {
	d := defaultOrders()
	if c.ActorIdle <= 0 {
		c.ActorIdle = d.ActorIdle
	}
	if c.FundedCacheTTL <= 0 {
		c.FundedCacheTTL = d.FundedCacheTTL
	}
	return c
}
