package order

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
)

// resync is the Resync transition: after the indexer rewound a block, the
// order record must not claim more than the chain records that remain. It
// reads the order's chain record (c/o) and its nonce record (c/n) inside
// the actor, so nothing changes between the read and the commit, and rolls
// back every chain-derived field the record holds beyond them:
//
//   - filledAmountIn, filledAmountOut and executions when the record counts
//     more executions than the chain (the fill rows, f/, were rewound with
//     the block; the record's fill list is those rows);
//   - filled → active (or pending) when the chain's filledAmountIn is below
//     amountIn;
//   - active → pending when the chain no longer shows an activation or fill;
//   - cancelled → active (or pending) when the record was cancelled on-chain
//     (its ledger says so and no off-chain cancel is recorded) and the chain
//     shows neither OrderCancelled nor the nonce's invalidation.
//
// It never moves the record forward: what the chain holds beyond the record
// is the projector's to apply, with its events. Expired and failed orders
// keep their status (only their totals roll back). Resync emits no event:
// an event already sent for an undone fill or cancel cannot be taken back
// (docs/lifecycle.md), and the ledger keeps a re-mined one from being sent
// twice. The status change moves the index keys in the same batch (Commit).
func resync(rec *persistence.OrderRecord, m *ResyncRequest, orders *persistence.Orders) (*persistence.Change, error) {
	if orders == nil {
		return nil, nil
	}
	h := common.HexToHash(rec.OrderHash)
	_, traits, err := chain.ParseTraits(rec.Order.MakerTraits)
	if err != nil {
		return nil, orderengine.Errorf(orderengine.CodeInternal, "order %s: traits: %v", rec.OrderHash, err)
	}
	v, err := orders.ChainView(h, common.HexToAddress(rec.Order.Maker), traits.Nonce)
	if err != nil {
		return nil, orderengine.Errorf(orderengine.CodeInternal, "order %s: chain records: %v", rec.OrderHash, err)
	}
	co := v.Order
	changed := false
	if rec.Executions > int(co.Executions) {
		rec.FilledAmountIn, rec.FilledAmountOut, rec.Executions = co.FilledAmountIn, co.FilledAmountOut, int(co.Executions)
		changed = true
	}
	activated := co.ActivatedBlock != 0 || co.Fills > 0
	reopen := persistence.StatusPending
	if activated {
		reopen = persistence.StatusActive
	}
	switch rec.Status {
	case persistence.StatusActive:
		if !activated {
			rec.Status, changed = persistence.StatusPending, true
		}
	case persistence.StatusFilled:
		amountIn, ok1 := new(big.Int).SetString(rec.Order.AmountIn, 10)
		filled, ok2 := new(big.Int).SetString(co.FilledAmountIn, 10)
		if !ok1 || !ok2 {
			return nil, orderengine.Errorf(orderengine.CodeInternal, "order %s: bad amounts %q / %q", rec.OrderHash, rec.Order.AmountIn, co.FilledAmountIn)
		}
		if filled.Cmp(amountIn) < 0 {
			rec.Status, changed = reopen, true
		}
	case persistence.StatusCancelled:
		if co.CancelledBlock != 0 || v.NonceInvalidated {
			break
		}
		onChain, err := cancelledOnChain(orders, h)
		if err != nil {
			return nil, err
		}
		if onChain {
			rec.Status, changed = reopen, true
		}
	}
	if !changed {
		return nil, nil
	}
	rec.UpdatedAt = m.At.UTC()
	return &persistence.Change{}, nil
}

// cancelledOnChain reports whether order h's cancel came from the chain: its
// ledger holds an on-chain cancel and no off-chain one (an order cancelled
// off-chain stays cancelled whatever the chain does).
func cancelledOnChain(orders *persistence.Orders, h common.Hash) (bool, error) {
	entries, err := orders.Ledger(h)
	if err != nil {
		return false, orderengine.Errorf(orderengine.CodeInternal, "order ledger: %v", err)
	}
	onChain := false
	for _, e := range entries {
		switch e.Kind {
		case persistence.LedgerOffChain:
			return false, nil
		case persistence.LedgerCancel:
			onChain = true
		}
	}
	return onChain, nil
}
