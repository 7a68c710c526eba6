package config

import (
	"fmt"
	"time"
)

// StreamsConfig configures the Server-Sent Events streams: the keeper
// stream of the executable set (GET /v1/keeper/stream) and the order
// stream of an account's events (GET /v1/orders/stream). Zero values mean
// the defaults named on each field.
type StreamsConfig struct {
	// MaxPerKey caps the streams one API key (or dashboard session) holds
	// open at once on a node, both kinds together: one more is answered
	// 409 LIMIT_REACHED. Default 4.
	MaxPerKey int `json:"maxPerKey"`
	// Heartbeat is the period of the comment lines a stream sends while it
	// has no event to send, so that proxies keep an idle stream open and a
	// client notices a dead connection. Default 15 s.
	Heartbeat time.Duration `json:"heartbeat"`
	// KeeperResumeBlocks is how many evaluated blocks of changes a node
	// keeps for keepers that reconnect with Last-Event-ID; an id older than
	// that is answered with a resync event. A node keeps recording that
	// many blocks after its last keeper stream closed, then stops until
	// the next one opens. Default 600 (10 minutes of 1 s blocks).
	KeeperResumeBlocks int `json:"keeperResumeBlocks"`
	// RoutesPerBlock bounds the routes the keeper stream builds per block
	// (one per order that became executable, or whose route is older than
	// RouteRefreshBlocks); an order beyond it is announced without its
	// transaction, which follows in a later block. Default 64.
	RoutesPerBlock int `json:"routesPerBlock"`
	// RouteRefreshBlocks is the age in blocks after which the keeper stream
	// builds an executable order's route again and announces the order with
	// it. Default 10.
	RouteRefreshBlocks int `json:"routeRefreshBlocks"`
	// FundingPairsPerBlock bounds the (token, maker) pairs whose balance and
	// router allowance the keeper stream reads at each block (in multicalls
	// pinned to the block's hash). Beyond it the pairs are read in turns,
	// a window that moves with the block number. Default 4096.
	FundingPairsPerBlock int `json:"fundingPairsPerBlock"`
	// OrderEventsPerAccount caps the events an account's order stream keeps
	// for clients that resume with Last-Event-ID (the oldest are dropped
	// first); besides, an event is kept as long as a webhook delivery of it
	// may still be retried (the sum of webhooks.retry). Default 10000.
	OrderEventsPerAccount int `json:"orderEventsPerAccount"`
}

func defaultStreams() StreamsConfig {
	return StreamsConfig{
		MaxPerKey:             4,
		Heartbeat:             15 * time.Second,
		KeeperResumeBlocks:    600,
		RoutesPerBlock:        64,
		RouteRefreshBlocks:    10,
		FundingPairsPerBlock:  4096,
		OrderEventsPerAccount: 10_000,
	}
}

// Validate rejects negative values (zero means the default).
func (c StreamsConfig) Validate() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"streams.maxPerKey", c.MaxPerKey}, {"streams.keeperResumeBlocks", c.KeeperResumeBlocks},
		{"streams.routesPerBlock", c.RoutesPerBlock}, {"streams.routeRefreshBlocks", c.RouteRefreshBlocks},
		{"streams.fundingPairsPerBlock", c.FundingPairsPerBlock}, {"streams.orderEventsPerAccount", c.OrderEventsPerAccount}} {
		if f.v < 0 {
			return fmt.Errorf("%s must not be negative, got %d", f.name, f.v)
		}
	}
	return notNegative(namedDuration{"streams.heartbeat", c.Heartbeat})
}

// Resolved returns the configuration with zero (and negative) values
// replaced by their defaults.
func (c StreamsConfig) Resolved() StreamsConfig {
	d := defaultStreams()
	for _, f := range []struct{ v, def *int }{{&c.MaxPerKey, &d.MaxPerKey}, {&c.KeeperResumeBlocks, &d.KeeperResumeBlocks},
		{&c.RoutesPerBlock, &d.RoutesPerBlock}, {&c.RouteRefreshBlocks, &d.RouteRefreshBlocks},
		{&c.FundingPairsPerBlock, &d.FundingPairsPerBlock}, {&c.OrderEventsPerAccount, &d.OrderEventsPerAccount}} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	if c.Heartbeat <= 0 {
		c.Heartbeat = d.Heartbeat
	}
	return c
}

// OrderEventRetention is how long an account's order stream keeps an event
// for a client that resumes: as long as a webhook delivery of it may still
// be retried, the sum of the retry delays (about 28 hours by default).
func (w WebhooksConfig) OrderEventRetention() time.Duration {
	var total time.Duration
	for _, d := range w.Retry {
		total += d
	}
	return total
}
