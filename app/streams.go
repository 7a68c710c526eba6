package app

import (
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/keeper"
	"github.com/orderengine/orderengine/orders"
)

// The Server-Sent Events streams: the keeper stream's feed of the
// executable set (every node computes its own from its pairs) and the
// order stream over the outbox's event log.

// clusterResumeOverlap is how far before the event a client resumes after
// the order stream replays in a cluster, where the nodes may log events of
// different orders in a slightly different order (materialisation, not
// the events' times).
const clusterResumeOverlap = 5 * time.Second

// buildStreams makes the order stream and, with a keeper interface, the
// keeper stream's feed (which watches the pairs' executable set).
func (s *System) buildStreams() {
	overlap := time.Duration(0)
	if s.Config.Cluster.Enabled {
		overlap = clusterResumeOverlap
	}
	s.OrderStream = orders.NewEventStream(orders.EventStreamOptions{
		Outbox: s.Outbox, ResumeOverlap: overlap, Retention: s.Config.Webhooks.OrderEventRetention(), Now: s.Clock.Now, Log: s.Log,
	})
	if s.Keeper == nil {
		return
	}
	opts := keeper.FeedOptions{Pairs: s.Pairs, Service: s.Keeper, Chain: s.Chain, Config: s.Config.Streams, Log: s.Log}
	if s.OrderAPI != nil {
		opts.Funding = s.OrderAPI.FundingAt
	}
	s.KeeperFeed = keeper.NewFeed(opts)
}

// lastEvaluated returns the last block the pairs evaluated (ok false:
// none yet).
func (s *System) lastEvaluated() (pair.BlockRef, bool) {
	t := s.Pairs.LastTick()
	return t.Block, t.Block != (pair.BlockRef{})
}

// buildAttempts makes the failed fill attempt watcher, an observer of the
// indexer (nil when the chain client cannot read blocks and receipts).
func (s *System) buildAttempts(router common.Address) chainsync.Observer {
	client, ok := s.ChainConn.Client.(keeper.AttemptsClient)
	if !ok {
		s.Log.Warn("lifecycle: the chain client cannot read blocks and receipts: failed fill attempts are not recorded")
		return nil
	}
	chainID := s.Config.Chain.ChainID
	if chainID == 0 {
		chainID = devchain.DefaultChainID
	}
	s.Attempts = keeper.NewAttemptWatcher(keeper.AttemptsOptions{
		Client: client, Router: router, Domain: chain.NewRouterDomain(chainID, router), Chain: s.Chain, Log: s.Log,
		Known: func(h common.Hash) bool { ok, err := s.Orders.Exists(h); return err == nil && ok },
	})
	return chainsync.ObserverFuncs{OnApplied: func(b *chainsync.Block) { s.Attempts.Applied(b.Number, b.Hash, b.Time) }}
}
