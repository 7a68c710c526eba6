// Package cluster holds the code of cluster mode (`cluster.enabled`), which
// only the composition root (app) builds; a single node builds none of it.
//
// cluster/natsjs embeds a NATS server with JetStream in every node: the
// replicated order journal (one conditional publish per transition, on
// streams partitioned by order hash), the materialiser that applies every
// stream to the node's own Pebble store and change feed, the shared-records
// log of account data, and leases. docs/cluster-durability.md describes it.
//
// Actors are not placed across the nodes in this build: each node runs the
// actors of the requests it receives, and the journal's conditional appends
// keep the writers of one order consistent.
package cluster
