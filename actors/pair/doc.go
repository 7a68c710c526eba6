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
//     activation, DCA legs when due, limit orders always), which stop
//     triggered, which DCA stalled, which expired; the trailing peaks are
//     persisted (t/<orderHash>) before the answer.
//
// Pairs (pairs.go) runs them: it routes the change feed and the indexer's
// blocks to the pair actors, evaluates every pair after each applied block
// at the oracle price of the block, sends the decided transitions (with
// the chain facts they were decided on) to the order actors, and publishes
// the executable orders for the keeper interface. Nothing here writes an
// order record: the order actors decide their own transitions.
package pair
