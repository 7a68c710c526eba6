// Package cluster holds what runs the engine as several `orderengine
// serve` nodes of one cluster; nothing here runs on a single node. The
// composition root (app) builds it when cluster.enabled.
//
//   - cluster/natsjs: the NATS server with JetStream embedded in every node
//     (fsync always, cluster.replicas replicas): the order journal as
//     conditional publishes to partitioned streams, the materialiser that
//     applies every transition to each node's Pebble and feeds its change
//     feed, the one log of shared records (accounts, API keys, webhook
//     endpoints and deliveries) behind persistence's Store.UpdateShared,
//     and the lease whose holder drives the chain lifecycle.
//   - cluster/members: the node's membership and the placement of the
//     cluster kinds' identities, both held as leases in JetStream (a
//     member lease per node, a lease per shard of the identities), so
//     that at most one node holds a shard at any moment whatever the
//     nodes believe of each other, and a node cut off or paused rejoins
//     by itself; calls between members travel as NATS requests over the
//     servers' routes to whoever holds the shard. It implements
//     actors/kind's Placement: the order (by hash), maker (by address)
//     and limiter (by API key id) kinds run each identity's actor on the
//     node that holds its shard, and the webhook endpoint (by id) is sent
//     by that node only.
//
// The layers below know nothing of it: they define the seams its packages
// implement (actors/kind's Placement and Codec, persistence's journal).
// docs/cluster.md describes the model, its guarantees and its limits,
// docs/cluster-durability.md the replication.
package cluster
