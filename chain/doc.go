// Package chain is the engine's view of the EVM chain: the EIP-712 typed data
// of router generation v7.1 (orders and cancels), the makerTraits codec and
// its per-class validation, and signature verification for externally owned
// accounts (ECDSA, 65-byte and EIP-2098 compact) and contract wallets
// (EIP-1271 through eth_call).
//
// Everything that reaches the public API fails with an *orderengine.Error
// whose message names the offending field.
package chain
