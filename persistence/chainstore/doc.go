// Package chainstore keeps the chain-derived records in the persistence
// store: the indexer's cursor, recent blocks, undo records and applied
// logs (chain.go); each order's cumulative chain state, its fills and the
// invalidated nonces (orders.go); the router's swaps, hourly volume and
// counters (market.go); the referral accruals and referees' filled volume
// (platform.go); the last failed fill attempt of each order (attempts.go).
// The indexer writes them through one Batch per block, which records what
// every key held before so that a reorg rewinds the block.
//
// A store has one Chain: New returns the same one at every call over a
// store (persistence.Store.Attach keeps it), and it holds the in-memory
// filters of the c/o and c/n records (filter.go), loaded when it is made
// and kept current by every write through it. Every reader and writer of
// the chain records over one store (the engine, the indexer, the order
// service, tests building their own) therefore shares those filters, and
// a filter never answers "absent" for a record another handle wrote.
//
// The keys are under the chain prefixes of persistence/keys.go
// (persistence.PrefixChain, PrefixFill, PrefixSwap, PrefixVolume,
// PrefixPlatform, PrefixAttempt). The platform records' schema step (3 to
// 4) is Migrations, which the engine passes to persistence.OpenWith; it
// reads the order records, another store's, through Orders, which the
// engine gives.
package chainstore
