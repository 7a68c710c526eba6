// Package pair holds the pair actors: one per token pair (identity: the
// pair's lower-case "<tokenIn>-<tokenOut>"), the one owner of the pair's
// open orders. A pair actor keeps each open order as the order journal's
// change feed last described it, with the chain's progress on it from the
// indexer's applied blocks, and from that serves
//
//   - the book: GET /v1/orderbook/{pair}, the open orders by ascending
//     trigger price, keyset-paginated (PageRequest);
//   - the trigger decisions at each block (Evaluate): which orders may
//     execute now (stop_loss when price ≤ trigger, take_profit when price ≥
//     trigger, trailing when the price falls trailPpm below its peak since
//     activation, DCA legs when due, limit orders when price ≥ trigger),
//     which stop triggered, which DCA stalled, which expired; the trailing
//     peaks are persisted (t/) before the answer.
//
// A block decides only the orders its time and price may change
// (triggers.go): the book, ordered by trigger price, gives the orders a
// price move crossed; time heaps give the deadlines and DCA schedule
// points a block passed; a trailing order shares its peak with the other
// orders of its peak group (peaks.go), so a new high moves one value per
// group. Every other order keeps its decision, and the executable set is a
// B-tree by order hash that an evaluation's decisions change in place, in
// one step under its lock (exec.go). Pairs does not ask a pair whose
// decisions a block cannot change (evaluate.go). The evaluation that
// decides every order at every block is kept as the reference of a
// differential test (reference_test.go, differential_test.go).
//
// Pairs (pairs.go) runs them: it routes the change feed and the indexer's
// blocks to the pair actors, evaluates the pairs after each applied block
// at the oracle price of the block, serves the executable orders to the
// keeper interface, and sends the decided transitions (with the chain facts
// they were decided on) to the order actors. Nothing here writes an order
// record: the order actors decide their own transitions.
package pair
