// Package accountstore keeps the account records in the persistence
// store: accounts and their tier applications, API keys (only their
// SHA-256 is stored) and when each was last used, the wallets linked to an
// account, and dashboard sessions. Every write is a shared write of the
// store (persistence.Store.UpdateShared), replicated in a cluster; the
// authentication cache drops what a shared batch changed on every node.
//
// The keys are under the account prefixes of persistence/keys.go; the key
// builders are in keys.go here.
package accountstore
