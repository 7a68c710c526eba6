// Package cluster will hold the protoactor-go cluster wiring of several
// `orderengine serve` processes. Nothing here runs yet: the engine is single
// node, and every piece a cluster kind can replace is already an actor or
// behind an interface.
//
// The planned wiring:
//
//   - Kinds: order (identity: order hash) and webhook endpoint (identity:
//     endpoint id) become virtual actors placed by identity with the
//     disthash lookup (the only one in the pinned protoactor version).
//     Messages between nodes are protobuf; a kind may carry opaque bytes in
//     cluster.GrainRequest to avoid code generation.
//   - Limiters stay node-local soft state keyed by API key id. A key's
//     budget is then per node; a cluster either routes a key to one node
//     (consistent hashing at the load balancer) or divides the limit by the
//     member count. The choice is made with the cluster, and documented.
//   - Accounts and keys: every node reads Pebble-backed records through
//     persistence.Accounts; disabling a key must then be broadcast to the
//     members' caches (a cluster pub-sub topic) so it takes effect at once
//     everywhere, as it does on one node today.
//   - Providers: automanaged for processes on separate hosts (the
//     docker-compose file's three nodes); the test provider with one shared
//     InMemAgent for multi-member tests in one process.
//   - Durability: an accepted order must survive the loss of the node that
//     accepted it. That rules out node-local Pebble as the only copy; the
//     design (replicated journal, or a shared store) is decided when this
//     package is built.
//
// Startup costs to plan for: StartMember sleeps about a second and a
// graceful leave about two (see the design notes), so tests use the
// in-process provider.
package cluster
