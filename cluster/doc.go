// Package cluster holds what runs the engine as several `orderengine
// serve` nodes of one cluster; nothing here runs on a single node. The
// composition root (app) builds it when cluster.enabled.
//
//   - cluster/natsjs: the NATS server with JetStream embedded in every node
//     (fsync always, cluster.replicas replicas): the order journal as
//     conditional publishes to partitioned streams, the materialiser that
//     applies every transition to each node's Pebble and feeds its change
//     feed, and the one log of shared records (accounts, API keys) behind
//     persistence's Store.UpdateShared.
//   - cluster/members: the node's member of a protoactor-go cluster
//     (membership through the automanaged provider over a static peer
//     list, or an in-memory agent in tests; placement of the cluster
//     kinds' identities by disthash; our own call path between members,
//     with retries and deadlines). It implements actors/kind's Placement:
//     the order (by hash), maker (by address) and limiter (by API key id)
//     kinds run each identity's actor on the member that owns it.
//
// The layers below know nothing of it: they define the seams its packages
// implement (actors/kind's Placement and Codec, persistence's journal).
// Not covered yet: webhook endpoints and their deliveries stay on the node
// that registered them, and no lease elects one driver of the chain
// lifecycle (every node runs it; conditional appends keep each event
// recorded once). docs/cluster.md describes the model and these limits,
// docs/cluster-durability.md the replication.
package cluster
