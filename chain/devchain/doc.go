// Package devchain runs the engine's chain: the embedded dev chain (an
// in-process go-ethereum simulated node, kept in the data folder so that
// it survives restarts, or in memory, with the router, oracle, test
// tokens and pools deployed, liquidity and prices seeded, blocks mined on a
// timer, standard JSON-RPC served on loopback, a faucet and a market maker),
// or a connection to an external node whose chain id is checked at start.
// DeployRemote deploys the same contracts to any node (`orderengine devnet
// deploy`).
//
// Everything here is for development and tests except Open's external-node
// path. The dev accounts' keys derive from a public seed: never send value to
// them on a real network.
//
// Importers: cmd/orderengine (serve, devnet), tests of other packages that
// need a live chain (through Start with ManualMining).
package devchain
