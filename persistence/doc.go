// Package persistence owns the engine's Pebble store: opening it with a
// pinned on-disk format, the layout of the whole key space (keys.go), group
// commit, migrations, the shared writes a cluster replicates (shared.go),
// the WAL watch, snapshots and backups, and the records of the orders
// (with the referee index written with them) and of the outbox. The
// account, webhook and chain-derived records have their own stores over
// this one, persistence/accountstore, persistence/webhookstore and
// persistence/chainstore, which take what they need of the core at
// construction (migration steps through Options.Migrations, the shared
// log, the close of their goroutines through OnClose, state kept once per
// store through Attach); every record kind is under a prefix registered
// in keys.go.
//
// Only actors and the admin path write; the HTTP layer reads through the
// typed methods of the stores and never builds keys itself.
package persistence
