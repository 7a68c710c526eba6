// Package natsjs is a cluster node's durability: the NATS server with
// JetStream embedded in the process (Start, Setup: fsync after every
// write, cluster.replicas replicas), the order journal as conditional
// publishes per order subject (Journal), the materialiser that applies
// every order stream to the node's Pebble store and feeds the engine
// (Materialiser), the replicated log of account data behind the store's
// shared-records seam (SharedLog), and leases with a TTL (Lease).
// docs/cluster-durability.md describes the model and its guarantees.
package natsjs
