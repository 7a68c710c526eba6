// Package persistence owns the engine's Pebble store: opening it with a
// pinned on-disk format, the layout of the whole key space (keys.go), group
// commit, migrations, the shared writes a cluster replicates (shared.go),
// the WAL watch, snapshots and backups, and the event outbox with its
// event log. The order, account, webhook and chain-derived records have
// their own stores over this one, persistence/orderstore,
// persistence/accountstore, persistence/webhookstore and
// persistence/chainstore, which take what they need of the core at
// construction (migration steps through Options.Migrations, the shared
// log, the group committer through WriteGroup, the close of their
// goroutines through OnClose, state kept once per store through Attach);
// every record kind is under a prefix registered in keys.go.
//
// The outbox (outbox.go, eventlog.go) stays here as the seam between
// domains: an order transition stages its events in the outbox within the
// batch that writes it (Outbox.Stage, Outbox.Settle), and the webhook
// store consumes them (it moves the account's outbox cursor past the
// events it handed on in its own batches, OutboxCursorKey), while domain
// stores do not import one another. For
// the same reason the storage errors every store answers with
// (ErrStoreClosed, ErrStoreFailed, ErrUnavailable, ErrOutcomeUnknown) and
// the hash sets of the record filters (HashSet) are the core's.
//
// Only actors and the admin path write; the HTTP layer reads through the
// typed methods of the stores and never builds keys itself.
package persistence
