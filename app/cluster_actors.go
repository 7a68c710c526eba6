package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/orderengine/orderengine/actors/limiter"
	"github.com/orderengine/orderengine/actors/maker"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/cluster/members"
)

// leaveTimeout bounds a member's graceful leave at Close (protoactor's
// own takes about two seconds).
const leaveTimeout = 10 * time.Second

// startMember makes this node a member of the cluster (cluster.actors):
// the limiter (by key id), maker (by address) and order (by hash) kinds
// become cluster kinds placed by the protoactor-go cluster, and the member
// joins. It runs when cluster.enabled, after the actors are built and
// before anything uses them. Close leaves the cluster gracefully.
//
// Client-address limits (keyless routes) stay per node: a load balancer
// spreads one client over the nodes and each protects itself. The pairs
// stay node-local projections, and the webhook endpoints join when their
// codec exists.
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
	err := s.Limiter.Place(m, limiter.ClusterOptions{
		NodeLocal: func(subject string) bool { return strings.HasPrefix(subject, "ip:") },
		Members:   func() int { return len(m.Members()) },
	})
	if err == nil {
		err = s.Makers.Place(m)
	}
	if err == nil {
		err = s.OrderActors.Place(m)
	}
	if err != nil {
		return fmt.Errorf("app: cluster kinds: %w", err)
	}
	limits := s.Config.Limits
	m.Host(limiter.KindName, s.Limiter, limits.LimiterIdle)
	m.Host(maker.KindName, s.Makers, max(limits.MakerWindow, time.Minute))
	m.Host(order.KindName, s.OrderActors, s.Config.Orders.Resolved().ActorIdle)
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
