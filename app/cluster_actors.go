package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/actors/limiter"
	"github.com/orderengine/orderengine/actors/maker"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/cluster/members"
)

// leaveTimeout bounds a member's graceful leave at Close (the releases of
// its leases).
const leaveTimeout = 10 * time.Second

// clusterKind is a kind placed by the cluster: its name, how it is placed
// (kind.Registry.Place behind the kind's own API) and the handler of the
// requests other members send to the identities this node owns.
type clusterKind struct {
	name   string
	place  func(kind.Placement) error
	handle members.Handler
}

// clusterKinds are the kinds this node places in the cluster: the
// limiter by API key id, the maker by address, the order by hash and the
// webhook endpoint by id (only to name the node that sends its
// deliveries: its records travel through the shared log, and it takes no
// remote requests). The pairs stay node-local projections.
func (s *System) clusterKinds() []clusterKind {
	nodes := len(s.Config.Cluster.NATS.Routes)
	return []clusterKind{
		{limiter.KindName, func(p kind.Placement) error {
			return s.Limiter.Place(p, limiter.ClusterOptions{
				// Client addresses: each node protects itself.
				NodeLocal: func(subject string) bool { return strings.HasPrefix(subject, "ip:") },
				// The share a node admits while a key's owner cannot be
				// reached is the limit over the configured nodes, so
				// the shares add up to the limit whatever a node sees.
				Members: func() int { return nodes },
			})
		}, s.Limiter},
		{maker.KindName, s.Makers.Place, s.Makers},
		{order.KindName, s.OrderActors.Place, s.OrderActors},
		{webhook.KindName, func(kind.Placement) error { return nil }, webhook.RemoteHandler{}},
	}
}

// buildMember makes this node's member of the cluster and places the
// cluster kinds on it (New calls it after the actors are built, before
// anything uses them); Start runs it once the streams are followed
// (startMember). Close leaves the cluster gracefully.
func (s *System) buildMember() error {
	c := s.Config.Cluster
	node := s.cluster.node
	m := members.New(members.Config{
		Node: node, Cluster: c.Name, Name: c.Node, Shards: c.Shards, TTL: c.MembershipTTL,
		Fit: func() bool { return node.Fit() == nil },
		Log: s.Log.With("node", c.Node),
	})
	for _, k := range s.clusterKinds() {
		if err := k.place(m); err != nil {
			return fmt.Errorf("app: cluster kind %s: %w", k.name, err)
		}
		m.Host(k.name, k.handle)
	}
	m.OnChange(func(members.Change) {
		if n := s.OrderActors.PassivateMoved(); n > 0 {
			s.Log.Info("cluster: orders that moved to another member were passivated", "count", n)
		}
	})
	s.Member = m
	s.closeWith(func() error {
		lctx, cancel := context.WithTimeout(context.Background(), leaveTimeout)
		defer cancel()
		return m.Leave(lctx)
	})
	return nil
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

// webhookCluster runs the webhook manager as a cluster node's: this node
// sends the deliveries of the endpoints whose shard it holds (nil on one
// node).
func (s *System) webhookCluster() *webhook.Cluster {
	m := s.Member
	if m == nil {
		return nil
	}
	return &webhook.Cluster{Owns: func(id string) bool { return m.Owns(webhook.KindName, id) }}
}
