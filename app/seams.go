package app

import (
	"context"
	"io"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/actors/limiter"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// seams are what differs between a single node and a cluster node: each
// domain's replication seam, handed to the domain at construction. They
// are chosen once, by chooseSeams; a nil field is a single node's value
// (the domain then needs no seam). The store's shared log is chosen where
// the store opens (openStore), before anything else exists.
type seams struct {
	// journal is the order registry's journal and feed its change feed
	// at commit: the store's, feeding at commit, on one node; the
	// JetStream journal without a commit-time feed in a cluster (the
	// materialiser feeds every node's writes).
	journal orderstore.Journal
	feed    order.Feed
	// applied is the order registry's read-your-writes wait
	// (order.Options.Applied); settle the order service's Settle.
	applied func(ctx context.Context, rec *orderstore.Record)
	settle  func(ctx context.Context, h common.Hash) (bool, error)
	// placement places the orders, the makers and the limiter's subjects
	// on the members (this node's member); limiter its cluster counting.
	placement kind.Placement
	limiter   *limiter.ClusterOptions
	// webhooks runs the webhook manager as a cluster node's.
	webhooks *webhook.Cluster
	// drive is what the chain lifecycle's parts ask before they act: the
	// lifecycle lease (lease.go).
	drive func() bool
	// The admin and probe hooks of the HTTP server.
	ready      func() error
	removePeer func(ctx context.Context, node string) error
	backup     func(ctx context.Context, w io.Writer) error
	restore    func(ctx context.Context, r io.ReadSeeker) (any, error)
	status     func(ctx context.Context, key string) (any, error)
}

// chooseSeams picks each domain's seam, once: New calls it after the
// store, the node's JetStream part and its member exist, before any
// domain that takes a seam is built.
func (s *System) chooseSeams() seams {
	c := s.cluster
	if c == nil {
		return seams{journal: s.Orders, feed: s.orderChanged}
	}
	m, n := s.Member, c.node
	nodes := len(s.Config.Cluster.NATS.Routes)
	return seams{
		journal:   c.journal,
		applied:   s.orderApplied,
		settle:    c.journal.Settle,
		placement: m,
		limiter: &limiter.ClusterOptions{
			Placement: m,
			// Client addresses: each node protects itself.
			NodeLocal: func(subject string) bool { return strings.HasPrefix(subject, "ip:") },
			// The share a node admits while a key's owner cannot be
			// reached is the limit over the configured nodes, so the
			// shares add up to the limit whatever a node sees.
			Members: func() int { return nodes },
		},
		webhooks:   &webhook.Cluster{Owns: func(id string) bool { return m.Owns(webhook.KindName, id) }},
		drive:      c.lease.Held,
		ready:      s.clusterReady,
		removePeer: n.RemovePeer,
		backup:     n.Backup,
		restore: func(ctx context.Context, r io.ReadSeeker) (any, error) {
			return n.Restore(ctx, r)
		},
		status: s.clusterStatus,
	}
}
