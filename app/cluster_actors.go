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

// leaveTimeout bounds a member's graceful leave at Close (protoactor's
// own takes about two seconds).
const leaveTimeout = 10 * time.Second

// clusterKind is a kind placed by the cluster: its name, how it is placed
// (kind.Registry.Place behind the kind's own API), the handler of the
// requests other members send to the identities this node owns, and how
// long an idle identity's grain lives.
type clusterKind struct {
	name   string
	place  func(kind.Placement) error
	handle members.Handler
	idle   time.Duration
}

// clusterKinds are the kinds this node places in the cluster: the
// limiter by API key id, the maker by address, the order by hash and the
// webhook endpoint by id (only to name the node that sends its
// deliveries: its records travel through the shared log, and it takes no
// remote requests). The pairs stay node-local projections.
func (s *System) clusterKinds(m *members.Member) []clusterKind {
	limits := s.Config.Limits
	return []clusterKind{
		{limiter.KindName, func(p kind.Placement) error {
			return s.Limiter.Place(p, limiter.ClusterOptions{
				// Client addresses: each node protects itself.
				NodeLocal: func(subject string) bool { return strings.HasPrefix(subject, "ip:") },
				Members:   func() int { return len(m.Members()) },
			})
		}, s.Limiter, limits.LimiterIdle},
		{maker.KindName, s.Makers.Place, s.Makers, max(limits.MakerWindow, time.Minute)},
		{order.KindName, s.OrderActors.Place, s.OrderActors, s.Config.Orders.Resolved().ActorIdle},
		{webhook.KindName, func(kind.Placement) error { return nil }, webhook.RemoteHandler{}, 0},
	}
}

// startMember makes this node a member of the cluster (cluster.actors):
// the cluster kinds are placed by the protoactor-go cluster, and the member
// joins. It runs when cluster.enabled, after the actors are built and
// before anything uses them. Close leaves the cluster gracefully.
func (s *System) startMember(ctx context.Context) error {
	c := s.Config.Cluster
	provider := s.opts.ClusterProvider
	if provider == nil {
		provider = members.Automanaged(c.Actors.ManageListen, c.Actors.Peers, 0)
	}
	m := members.New(members.Config{
		Name: c.Name, Listen: c.Actors.Listen, Advertise: c.Actors.Advertise, Provider: provider,
		Log: s.Log.With("node", c.Node),
	})
	for _, k := range s.clusterKinds(m) {
		if err := k.place(m); err != nil {
			return fmt.Errorf("app: cluster kind %s: %w", k.name, err)
		}
		m.Host(k.name, k.handle, k.idle)
	}
	m.OnChange(func(members.Change) {
		if n := s.OrderActors.PassivateMoved(); n > 0 {
			s.Log.Info("cluster: orders that moved to another member were passivated", "count", n)
		}
	})
	if err := m.Start(ctx); err != nil {
		return err
	}
	s.Member = m
	s.closeWith(func() error {
		lctx, cancel := context.WithTimeout(context.Background(), leaveTimeout)
		defer cancel()
		return m.Leave(lctx)
	})
	return nil
}

// clusterCollectors are the cluster's gauges on /metrics (none on one
// node): the members this node's protoactor membership sees, itself
// included, and the other nodes its JetStream server has a route to. A
// node that lists fewer members than its peers is missing from some
// node's cluster.actors.peers (docs/cluster.md, adding a node).
func (s *System) clusterCollectors() []prometheus.Collector {
	var cs []prometheus.Collector
	if m := s.Member; m != nil {
		cs = append(cs, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "orderengine_cluster_members",
			Help: "Members of the actor cluster this node sees, itself included.",
		}, func() float64 { return float64(len(m.Members())) }))
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
// sends the deliveries of the endpoints the members place on it (nil on
// one node).
func (s *System) webhookCluster() *webhook.Cluster {
	m := s.Member
	if m == nil {
		return nil
	}
	return &webhook.Cluster{Owns: func(id string) bool {
		owner := m.Owner(webhook.KindName, id)
		return owner != "" && owner == m.Address()
	}}
}
