// Package contracts holds the orderengine's Solidity contracts and what the
// Go side needs of them.
//
// Layout:
//
//	src/         Solidity sources (pragma 0.8.37, evm cancun)
//	build/       committed artifacts: <Name>.abi and <Name>.bin per contract
//	bindings/    committed abigen --v2 bindings, one package per contract:
//	             bindings/<lowercase name>, type <Name> (e.g. servicerouter.ServiceRouter)
//	scripts/     compile.js (pinned solc-js, standard JSON) and generate.sh
//
// Regenerate with `make contracts` (runs `npm ci` in contracts/ first, then
// scripts/generate.sh). TestArtifactsFresh fails when the committed artifacts
// or bindings differ from what the pinned compiler produces.
//
// Deploy (deploy.go) deploys the whole dev-chain set of contracts through the
// generic bind/v2 backend interfaces. docs/protocol.md is the specification
// the router, pools and oracle implement.
package contracts
