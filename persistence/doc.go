// Package persistence owns the engine's Pebble store: opening it with a
// pinned on-disk format, the layout of the whole key space (keys.go), and the
// records kept in it. This file set holds accounts and API keys; the orders,
// indexes and webhooks issues add their records next to them, each under a
// prefix registered in keys.go.
//
// Only actors and the admin path write; the HTTP layer reads through the
// typed methods here and never builds keys itself.
package persistence
