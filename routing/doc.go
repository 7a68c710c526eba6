// Package routing prices swaps across the engine's venues and builds the
// calls the router executes.
//
// A venue family is one file: cpmm.go (constant product with a fee tier)
// and stableswap.go (Curve's 2-coin StableSwap) each define a Pool
// implementation whose AmountOut mirrors the family's on-chain
// getAmountOut to the wei, using 256-bit integers (holiman/uint256). Pools
// are immutable values; a Snapshot holds every pool at one block and the
// token graph between them.
//
// Search (search.go, split.go) finds the best route for an amount: direct
// and multi-hop paths through configured connector tokens, split across
// pool-disjoint paths in fixed percentage steps, net of gas converted to
// tokenOut. Calls (calls.go) turns a route into the router's approve + swap
// calls. Fees (fees.go) resolves the fee legs of contract.md section 8; the
// order submission path uses the same FeeLegs function.
package routing
