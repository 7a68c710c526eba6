// Package webhookstore keeps the webhook records in the persistence store:
// endpoints and their account index, deliveries with their attempts (a
// binary codec without the body), each event's body once per account, and
// the answers of idempotent endpoint creates. Store is the delivery journal
// of the webhook actors (DeliveryJournal): its writes go through a writer
// goroutine per shard of the accounts, which batches them; in a cluster each
// batch is a shared write of the store, replicated and applied on every
// node, and OnShared tells the node's actors what it changed.
//
// The keys are under persistence.PrefixWebhook (persistence/keys.go); the
// key builders are in store.go here. The records' schema step (4 to 5) is
// Migrations, which the engine passes to persistence.OpenWith.
package webhookstore
