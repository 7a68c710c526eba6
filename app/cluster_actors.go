package app

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/orderengine/orderengine/actors/limiter"
	"github.com/orderengine/orderengine/actors/maker"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/cluster/members"
)

// leaveTimeout bounds a member's graceful leave at Close (the releases of
// its leases).
const leaveTimeout = 10 * time.Second

// buildMember makes a cluster node's member of the cluster (none on one
// node), before the actors it places (chooseSeams hands it to them as
// their placement); Start runs it once the streams are followed
// (startMember). Close leaves the cluster gracefully. When the members
// change, the orders this node no longer owns are passivated.
func (s *System) buildMember() {
	if s.cluster == nil {
		return
	}
	c := s.Config.Cluster
	node := s.cluster.node
	m := members.New(members.Config{
		Node: node, Cluster: c.Name, Name: c.Node, Shards: c.Shards, TTL: c.MembershipTTL,
		Fit: func() bool { return node.Fit() == nil },
		Log: s.Log.With("node", c.Node),
		OnChange: func(members.Change) {
			if n := s.OrderActors.PassivateMoved(); n > 0 {
				s.Log.Info("cluster: orders that moved to another member were passivated", "count", n)
			}
		},
		// A shard handed over lets its webhook endpoints' attempts in
		// flight finish first: the new owner would send them again.
		Drain: func(ctx context.Context, leaving func(string) bool) {
			if w := s.Webhooks; w != nil {
				w.Drain(ctx, leaving)
			}
		},
	})
	s.Member = m
	s.closeWith(func() error {
		lctx, cancel := context.WithTimeout(context.Background(), leaveTimeout)
		defer cancel()
		return m.Leave(lctx)
	})
}

// hostKinds makes this node's member serve the kinds the cluster places,
// once their registries are built: the limiter by API key id, the maker
// by address, the order by hash and the webhook endpoint by id (only to
// name the node that sends its deliveries: its records travel through the
// shared log, and it takes no remote requests). The pairs stay node-local
// projections.
func (s *System) hostKinds() {
	m := s.Member
	if m == nil {
		return
	}
	m.Host(limiter.KindName, s.Limiter)
	m.Host(maker.KindName, s.Makers)
	m.Host(order.KindName, s.OrderActors)
	m.Host(webhook.KindName, webhook.RemoteHandler{})
}

// startMember runs the member (Start calls it once the node follows the
// streams): it waits, within ctx, until the node holds its member lease.
func (s *System) startMember(ctx context.Context) error {
	if s.Member == nil {
		return nil
	}
	return s.Member.Start(ctx)
}

// clusterCollectors are the cluster's gauges on /metrics (none on one
// node): the members this node sees, itself included, the shards it
// holds, and the other nodes its JetStream server has a route to.
func (s *System) clusterCollectors() []prometheus.Collector {
	var cs []prometheus.Collector
	if m := s.Member; m != nil {
		cs = append(cs, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "orderengine_cluster_members",
			Help: "Members of the cluster this node sees (live member leases), itself included.",
		}, func() float64 { return float64(len(m.Members())) }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{
				Name: "orderengine_cluster_shards_held",
				Help: "Shards of the placed actors this node holds the lease of.",
			}, func() float64 { return float64(m.HeldShards()) }))
	}
	if s.cluster != nil {
		n := s.cluster.node
		cs = append(cs, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "orderengine_cluster_nats_routes",
			Help: "Other nodes this node's JetStream server has a route to.",
		}, func() float64 { return float64(n.Peers()) }))
	}
	return cs
}
