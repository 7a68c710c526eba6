// Package orderengine holds the vocabulary every part of the engine shares:
// the configuration (one struct with every default) and the error catalog of
// the public API. It imports no other package of this module, so any package
// may import it.
//
// The subsystems live in their own folders: chain (EIP-712, makerTraits,
// signatures, dev chain), contracts (Solidity and bindings), routing,
// persistence (Pebble), actors (one package per actor kind), cluster, http
// (the Fiber front end) and cmd/orderengine (wiring only).
package orderengine
