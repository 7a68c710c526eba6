package config

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"time"
)

// ClusterConfig runs the engine as one node of a cluster (docs/cluster.md):
// the order journal, accounts, keys and webhooks replicated by NATS
// JetStream embedded in every node, the actors placed on the nodes by
// leases in it. Off by default: `make run` is one process on the Pebble
// journal, with no NATS and no remote actors.
type ClusterConfig struct {
	// Enabled makes this process a cluster node. It needs chain.rpcURL:
	// the nodes share one chain (three embedded dev chains would
	// disagree).
	Enabled bool `json:"enabled"`
	// Name is the cluster's name (the NATS cluster's, and the prefix of
	// the members' subjects). Default "orderengine".
	Name string `json:"name"`
	// Node is this node's unique name (its NATS server name). Default: the
	// host name. A node that rejoins with an empty data folder takes a new
	// name (docs/cluster.md, replacing a node).
	Node string `json:"node"`
	// Replicas is the replication factor of every stream and bucket.
	// Default 3.
	Replicas int `json:"replicas"`
	// OrderPartitions is the number of order streams; an order's stream is
	// chosen by its hash. It is fixed when the cluster makes its streams.
	// Default 0: the number the cluster's order streams were made for, and
	// 1 for a new cluster (one Raft group appends more transitions per
	// entry: docs/performance.md, "Where a cluster submit's CPU goes"). A
	// number other than 0 must be the one the streams were made for.
	OrderPartitions int `json:"orderPartitions"`
	// LeaseTTL is how long the holder of the chain lifecycle's lease
	// keeps it without renewing; a standby takes over within about this
	// long. Default 5 s.
	LeaseTTL time.Duration `json:"leaseTTL"`
	// MembershipTTL is how long a node keeps its membership and the
	// shards of the placed actors it holds without renewing them: a node
	// that stops (killed, paused, cut off from a quorum) is dropped, and
	// its shards taken over, within about this long. A node renews every
	// fifth of it, so it keeps them through a leader election of the
	// lease stream (up to about 10 s) as long as four fifths of it is
	// longer. Default 15 s.
	MembershipTTL time.Duration `json:"membershipTTL"`
	// Retention is how long a closed order stays in its replicated stream
	// (and a shared record's older writes in theirs) before the
	// compaction removes it, once every node applied it: JetStream holds
	// the open orders and this window, every node's store the whole
	// history. Default 24 h.
	Retention time.Duration `json:"retention"`
	// CompactionInterval spaces the compaction's rounds (on the node
	// holding its lease). Default 1 m.
	CompactionInterval time.Duration `json:"compactionInterval"`
	// Shards is the number of shards the placed actors' identities (orders,
	// makers, API keys, webhook endpoints) are spread over, each held by
	// one node at a time; every node of a cluster must use the same.
	// Default 16.
	Shards int `json:"shards"`
	// NATS is the embedded JetStream server.
	NATS NATSConfig `json:"nats"`
}

// NATSConfig configures the JetStream server embedded in a node.
type NATSConfig struct {
	// Listen is the address of this node's cluster route listener.
	// Default 127.0.0.1:6222.
	Listen string `json:"listen"`
	// Routes are the route URLs of every node, this one included
	// (nats://host:port), comma-separated in a flag or variable.
	Routes []string `json:"routes"`
	// ClientListen, when set, also serves NATS clients on this address
	// (the nats CLI, monitoring); the engine itself connects in process.
	// Default: none.
	ClientListen string `json:"clientListen"`
}

func defaultCluster() ClusterConfig {
	return ClusterConfig{
		Name:               "orderengine",
		Replicas:           3,
		LeaseTTL:           5 * time.Second,
		MembershipTTL:      15 * time.Second,
		Retention:          24 * time.Hour,
		CompactionInterval: time.Minute,
		Shards:             16,
		NATS:               NATSConfig{Listen: "127.0.0.1:6222"},
	}
}

// Validate checks a cluster node's settings; a disabled section is not
// checked.
func (c ClusterConfig) Validate() error {
	if !c.Enabled {
		return nil
	}
	var errs []error
	if c.Name == "" || strings.ContainsAny(c.Name, " \t.*>") {
		errs = append(errs, fmt.Errorf("cluster.name %q must be a non-empty name without spaces, dots or wildcards", c.Name))
	}
	if strings.ContainsAny(c.Node, " \t.*>") {
		errs = append(errs, fmt.Errorf("cluster.node %q must not hold spaces, dots or wildcards", c.Node))
	}
	if c.Replicas < 1 || c.Replicas > 5 {
		errs = append(errs, fmt.Errorf("cluster.replicas must be 1 to 5 (JetStream's limit), got %d", c.Replicas))
	}
	if c.OrderPartitions < 0 || c.OrderPartitions > 256 {
		errs = append(errs, fmt.Errorf("cluster.orderPartitions must be 0 (the cluster's) or 1 to 256, got %d", c.OrderPartitions))
	}
	if c.LeaseTTL < time.Second {
		errs = append(errs, fmt.Errorf("cluster.leaseTTL must be at least 1s, got %s", c.LeaseTTL))
	}
	if c.MembershipTTL < 2*time.Second {
		errs = append(errs, fmt.Errorf("cluster.membershipTTL must be at least 2s, got %s", c.MembershipTTL))
	}
	if c.Retention < time.Minute {
		errs = append(errs, fmt.Errorf("cluster.retention must be at least 1m, got %s", c.Retention))
	}
	if c.CompactionInterval < time.Second {
		errs = append(errs, fmt.Errorf("cluster.compactionInterval must be at least 1s, got %s", c.CompactionInterval))
	}
	if c.Shards < 1 || c.Shards > 1024 {
		errs = append(errs, fmt.Errorf("cluster.shards must be 1 to 1024, got %d", c.Shards))
	}
	if _, _, err := net.SplitHostPort(c.NATS.Listen); err != nil {
		errs = append(errs, fmt.Errorf("cluster.nats.listen %q: %v", c.NATS.Listen, err))
	}
	if len(c.NATS.Routes) < c.Replicas {
		errs = append(errs, fmt.Errorf("cluster.nats.routes lists %d nodes; %d replicas need at least as many", len(c.NATS.Routes), c.Replicas))
	}
	for _, r := range c.NATS.Routes {
		if !strings.HasPrefix(r, "nats://") {
			errs = append(errs, fmt.Errorf("cluster.nats.routes: %q is not a nats://host:port URL", r))
		}
	}
	return errors.Join(errs...)
}
