package order

import (
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// resync is the Resync transition: after the indexer rewound a block, the
// order record must not claim more than the chain facts that remain
// (m.Chain, read by the chain projection after the rewind). It rolls back
// every chain-derived field the record holds beyond them:
//
//   - filledIn, filledOut and executions when the record counts more
//     executions than the chain (the fill rows were rewound with the block);
//   - filled → active (or pending) when the chain's filledAmountIn is below
//     amountIn;
//   - active → pending when the chain no longer shows an activation or fill;
//   - cancelled → active (or pending) when the record was cancelled on-chain
//     (its ledger says so and no off-chain cancel is recorded) and the chain
//     shows neither OrderCancelled nor the nonce's invalidation.
//
// It never moves the record forward: what the chain holds beyond the record
// is the projection's to apply, with its events. Expired and failed orders
// keep their status (only their totals roll back). Resync emits no event:
// an event already sent for an undone fill or cancel cannot be taken back
// (docs/lifecycle.md), and the ledger keeps a re-mined one from being sent
// twice. The status change moves the index keys in the same write.
func resync(rec *orderstore.Record, l *ledger, m *ResyncRequest) *orderstore.Transition {
	co := &m.Chain.Order
	changed := false
	if rec.Executions > co.Executions {
		rec.FilledIn, rec.FilledOut, rec.Executions = co.FilledAmountIn, co.FilledAmountOut, co.Executions
		changed = true
	}
	activated := co.ActivatedBlock != 0 || co.Fills > 0
	reopen := orderstore.StatusPending
	if activated {
		reopen = orderstore.StatusActive
	}
	switch rec.Status {
	case orderstore.StatusActive:
		if !activated {
			rec.Status, changed = orderstore.StatusPending, true
		}
	case orderstore.StatusFilled:
		if co.FilledAmountIn.Lt(&rec.Order.AmountIn) {
			rec.Status, changed = reopen, true
		}
	case orderstore.StatusCancelled:
		if co.CancelledBlock == 0 && !m.Chain.NonceInvalidated && l.cancelledOnChain() {
			rec.Status, changed = reopen, true
		}
	}
	if !changed {
		return nil
	}
	rec.UpdatedAt = m.At.UTC()
	return &orderstore.Transition{}
}
