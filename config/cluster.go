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
// JetStream embedded in every node, the actors placed across the nodes by
// the protoactor-go cluster. Off by default: `make run` is one process on
// the Pebble journal, with no NATS and no remote actors.
type ClusterConfig struct {
	// Enabled makes this process a cluster node. It needs chain.rpcURL:
	// the nodes share one chain (three embedded dev chains would
	// disagree).
	Enabled bool `json:"enabled"`
	// Name is the cluster's name (the NATS cluster and the protoactor
	// cluster). Default "orderengine".
	Name string `json:"name"`
	// Node is this node's unique name (its NATS server name). Default: the
	// host name. A node that rejoins with an empty data folder takes a new
	// name (docs/cluster.md, replacing a node).
	Node string `json:"node"`
	// Replicas is the replication factor of every stream and bucket.
	// Default 3.
	Replicas int `json:"replicas"`
	// OrderPartitions is the number of order streams; an order's stream is
	// chosen by its hash, so stream leaders spread over the nodes.
	// Default 4.
	OrderPartitions int `json:"orderPartitions"`
	// LeaseTTL is how long the holder of the chain-lifecycle lease keeps it
	// without renewing; a standby takes over within about this long.
	// Default 5 s.
	LeaseTTL time.Duration `json:"leaseTTL"`
	// NATS is the embedded JetStream server.
	NATS NATSConfig `json:"nats"`
	// Actors is the protoactor-go cluster member.
	Actors ActorsConfig `json:"actors"`
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

// ActorsConfig configures the node's protoactor-go cluster member.
type ActorsConfig struct {
	// Listen is the address of the member's remote listener (actor
	// messages between nodes). Default 127.0.0.1:7222.
	Listen string `json:"listen"`
	// Advertise is the address the other nodes reach this member at.
	// Default: Listen.
	Advertise string `json:"advertise"`
	// ManageListen is the address of the membership provider's health
	// endpoint (protoactor's automanaged provider). Default
	// 127.0.0.1:7322.
	ManageListen string `json:"manageListen"`
	// Peers are the membership endpoints (ManageListen, as host:port) of
	// every node, this one included, comma-separated in a flag or
	// variable.
	Peers []string `json:"peers"`
}

func defaultCluster() ClusterConfig {
	return ClusterConfig{
		Name:            "orderengine",
		Replicas:        3,
		OrderPartitions: 4,
		LeaseTTL:        5 * time.Second,
		NATS:            NATSConfig{Listen: "127.0.0.1:6222"},
		Actors:          ActorsConfig{Listen: "127.0.0.1:7222", ManageListen: "127.0.0.1:7322"},
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
	if c.OrderPartitions < 1 || c.OrderPartitions > 256 {
		errs = append(errs, fmt.Errorf("cluster.orderPartitions must be 1 to 256, got %d", c.OrderPartitions))
	}
	if c.LeaseTTL < time.Second {
		errs = append(errs, fmt.Errorf("cluster.leaseTTL must be at least 1s, got %s", c.LeaseTTL))
	}
	for _, a := range []struct{ path, addr string }{
		{"cluster.nats.listen", c.NATS.Listen}, {"cluster.actors.listen", c.Actors.Listen},
		{"cluster.actors.manageListen", c.Actors.ManageListen},
	} {
		if _, _, err := net.SplitHostPort(a.addr); err != nil {
			errs = append(errs, fmt.Errorf("%s %q: %v", a.path, a.addr, err))
		}
	}
	if len(c.NATS.Routes) < c.Replicas {
		errs = append(errs, fmt.Errorf("cluster.nats.routes lists %d nodes; %d replicas need at least as many", len(c.NATS.Routes), c.Replicas))
	}
	for _, r := range c.NATS.Routes {
		if !strings.HasPrefix(r, "nats://") {
			errs = append(errs, fmt.Errorf("cluster.nats.routes: %q is not a nats://host:port URL", r))
		}
	}
	if len(c.Actors.Peers) == 0 {
		errs = append(errs, errors.New("cluster.actors.peers must list every node's membership endpoint (host:port)"))
	}
	for _, p := range c.Actors.Peers {
		if _, _, err := net.SplitHostPort(p); err != nil {
			errs = append(errs, fmt.Errorf("cluster.actors.peers: %q: %v", p, err))
		}
	}
	return errors.Join(errs...)
}
