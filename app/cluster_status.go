package app

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/cluster/natsjs"
)

// clusterReady is GET /readyz's cluster check (a cluster node's seam): the
// node's JetStream is ready (natsjs.Node.Ready: a quorum reached, no
// stream without a leader it reaches for longer than an election, its
// store within natsjs.LagBound of every stream), it is a member of the
// cluster (it holds its member lease and sees itself among the
// members), and its membership agrees with
// its NATS routes: no other member renewed its membership after this
// node lost its route to it (a partial partition, a ring: that member
// reaches a quorum, this node cannot reach it or the actors it holds). A
// member that died or was cut off stops renewing before the routes to it
// drop, so it does not count against the nodes that keep going.
func (s *System) clusterReady() error {
	if err := s.cluster.node.Ready(); err != nil {
		return err
	}
	return s.memberReady()
}

// routeSlack allows for the polls of the routes (every 200 ms) and of the
// terms (every 250 ms) between a route's loss and a renewal seen.
const routeSlack = 500 * time.Millisecond

// memberReady is the membership part of clusterReady.
func (s *System) memberReady() error {
	m := s.Member
	if m == nil {
		return nil
	}
	if !m.Joined() {
		return orderengine.Errorf(orderengine.CodeServiceUnavailable, "this node is not a member of the cluster (it does not hold its member lease yet)")
	}
	if !slices.Contains(m.Members(), s.Config.Cluster.Node) {
		return orderengine.Errorf(orderengine.CodeServiceUnavailable, "this node does not see itself among the members yet")
	}
	n := s.cluster.node
	routes := n.RouteNames()
	for _, name := range m.Members() {
		if name == s.Config.Cluster.Node || slices.Contains(routes, name) {
			continue
		}
		if renewed := m.Renewed(name); renewed.After(n.RouteSeen(name).Add(routeSlack)) {
			return &orderengine.Error{Code: orderengine.CodeNoQuorum, RetryAfterSeconds: 1,
				Message: fmt.Sprintf("member %s renews its membership but this node has no route to it (a partial partition): it cannot reach the actors %s holds", name, name)}
		}
	}
	return nil
}

// ClusterStatus is GET /admin/v1/cluster: what a node sees of its
// cluster.
type ClusterStatus struct {
	// Node is this node's name, Member its member id (name/incarnation),
	// Joined whether it holds its member lease.
	Node   string `json:"node"`
	Member string `json:"member"`
	Joined bool   `json:"joined"`
	// Ready is whether GET /readyz answers 200, NotReady why not.
	Ready    bool   `json:"ready"`
	NotReady string `json:"notReady,omitempty"`
	// Members are the live members this node sees; Routes the nodes its
	// JetStream server has a route to.
	Members []string `json:"members"`
	Routes  []string `json:"routes"`
	// Shards are the holders of the placed actors' shards as this node
	// last read them ("" none), by shard; Held the shards this node holds.
	Shards []string `json:"shards"`
	Held   []int    `json:"held"`
	// Streams are the replicated streams as this node's probe last saw
	// them, with how far this node applied each.
	Streams []natsjs.StreamState `json:"streams"`
	// Key is where the identity asked for is placed.
	Key *KeyPlacement `json:"key,omitempty"`
}

// KeyPlacement is where an identity of the placed actors lives: its
// shard, that shard's holder, and the member it prefers (where it
// settles while the members stay as they are).
type KeyPlacement struct {
	Key       string `json:"key"`
	Shard     int    `json:"shard"`
	Holder    string `json:"holder"`
	Preferred string `json:"preferred"`
}

// clusterStatus is the admin API's cluster status (a cluster node's
// seam).
func (s *System) clusterStatus(_ context.Context, key string) (any, error) {
	m, n := s.Member, s.cluster.node
	st := &ClusterStatus{Node: s.Config.Cluster.Node, Member: m.ID(), Joined: m.Joined(), Members: m.Members(),
		Routes: n.RouteNames(), Shards: m.Holders(), Held: m.Held(), Streams: n.Streams()}
	if err := s.clusterReady(); err != nil {
		st.NotReady = err.Error()
	} else {
		st.Ready = true
	}
	if key != "" {
		shard, holder, preferred := m.Place(key)
		st.Key = &KeyPlacement{Key: key, Shard: shard, Holder: holder, Preferred: preferred}
	}
	return st, nil
}
