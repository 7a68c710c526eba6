package order

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
)

// The lifecycle API: what the chain indexer and the trigger engine call to
// drive an order from chain events. Each call goes through the order's
// actor, is durable (with its outbox events, contract.md section 3
// "Events") when it returns, and is idempotent: repeating it changes
// nothing and reports Changed false. Unknown hashes are NOT_FOUND.

// Activate records pending → active.
func (r *Registry) Activate(ctx context.Context, h common.Hash, at time.Time) (*Response, error) {
	return r.request(ctx, h, &ActivateRequest{At: at})
}

// RecordFill applies one OrderFilled event (see RecordFillRequest).
func (r *Registry) RecordFill(ctx context.Context, h common.Hash, req RecordFillRequest) (*Response, error) {
	return r.request(ctx, h, &req)
}

// CancelOnChain records an on-chain cancel or nonce invalidation.
func (r *Registry) CancelOnChain(ctx context.Context, h common.Hash, txHash string, at time.Time) (*Response, error) {
	return r.request(ctx, h, &CancelOnChainRequest{TxHash: txHash, At: at})
}

// Resync recomputes order h's chain-derived fields from the chain records
// (see ResyncRequest); the projector calls it for the orders of a rewound
// block.
func (r *Registry) Resync(ctx context.Context, h common.Hash, at time.Time) (*Response, error) {
	return r.request(ctx, h, &ResyncRequest{At: at})
}

// Expire records that the deadline passed before completion.
func (r *Registry) Expire(ctx context.Context, h common.Hash, at time.Time) (*Response, error) {
	return r.request(ctx, h, &ExpireRequest{At: at})
}

// Fail records that the order can no longer execute, with the reason and
// the router's custom error name (revertName, may be empty).
func (r *Registry) Fail(ctx context.Context, h common.Hash, reason, revertName string, at time.Time) (*Response, error) {
	return r.request(ctx, h, &FailRequest{Reason: reason, RevertName: revertName, At: at})
}

// Trigger records a stop/trailing trigger seen at price (first one only).
func (r *Registry) Trigger(ctx context.Context, h common.Hash, price string, at time.Time) (*Response, error) {
	return r.request(ctx, h, &TriggerRequest{Price: price, At: at})
}

// Stall sets or clears a dca order's stalled flag.
func (r *Registry) Stall(ctx context.Context, h common.Hash, stalled bool, at time.Time) (*Response, error) {
	return r.request(ctx, h, &StallRequest{Stalled: stalled, At: at})
}

// transition applies msg to rec (a copy the actor owns) and returns the
// change to commit, or nil when msg changes nothing.
func transition(rec *persistence.OrderRecord, msg any, orders *persistence.Orders) (*persistence.Change, error) {
	open := persistence.OrderStatusOpen(rec.Status)
	switch m := msg.(type) {
	case *ActivateRequest:
		if rec.Status != persistence.StatusPending {
			return nil, nil
		}
		rec.Status, rec.UpdatedAt = persistence.StatusActive, m.At.UTC()
		return &persistence.Change{}, nil
	case *RecordFillRequest:
		return recordFill(rec, m, orders)
	case *CancelOnChainRequest:
		return cancelOnChain(rec, open, m, orders)
	case *ResyncRequest:
		return resync(rec, m, orders)
	case *ExpireRequest:
		if !open {
			return nil, nil
		}
		if ended, err := endedOnChain(rec, orders); err != nil || ended {
			return nil, err
		}
		return closeWith(rec, open, persistence.StatusExpired, persistence.TriggerOrderExpired, "", m.At), nil
	case *FailRequest:
		if !open {
			return nil, nil
		}
		rec.Reason, rec.RevertName = m.Reason, m.RevertName
		c := closeWith(rec, open, persistence.StatusFailed, persistence.TriggerOrderFailed, "", m.At)
		c.Events[0].Data.Reason, c.Events[0].Data.RevertName = m.Reason, m.RevertName
		return c, nil
	case *TriggerRequest:
		if !open || rec.TriggeredAt != nil || (rec.OrderType != "stop_loss" && rec.OrderType != "take_profit" && rec.OrderType != "trailing") {
			return nil, nil
		}
		if ended, err := endedOnChain(rec, orders); err != nil || ended {
			return nil, err
		}
		at := m.At.UTC()
		rec.TriggeredAt, rec.UpdatedAt = &at, at
		ev := event(rec, persistence.TriggerStopTriggered, at)
		ev.Data.TriggerPrice = m.Price
		return &persistence.Change{Events: []persistence.OutboxEvent{ev}}, nil
	case *StallRequest:
		if !open || rec.OrderType != "dca" || rec.Stalled == m.Stalled {
			return nil, nil
		}
		if m.Stalled {
			if ended, err := endedOnChain(rec, orders); err != nil || ended {
				return nil, err
			}
		}
		rec.Stalled, rec.UpdatedAt = m.Stalled, m.At.UTC()
		c := &persistence.Change{}
		if m.Stalled {
			c.Events = []persistence.OutboxEvent{dcaEvent(rec, persistence.TriggerDCAStalled, rec.UpdatedAt)}
		}
		return c, nil
	}
	return nil, fmt.Errorf("order: unknown transition %T", msg)
}

// closeWith moves an open order to a terminal status with its event.
func closeWith(rec *persistence.OrderRecord, open bool, status, trigger, txHash string, at time.Time) *persistence.Change {
	if !open {
		return nil
	}
	rec.Status, rec.UpdatedAt = status, at.UTC()
	ev := event(rec, trigger, rec.UpdatedAt)
	ev.Data.TxHash = txHash
	return &persistence.Change{Events: []persistence.OutboxEvent{ev}}
}

// endedOnChain reports whether the chain records (c/o, c/n) already hold
// the order's end: amountIn fully executed, an on-chain cancel, or its
// nonce invalidated. The trigger engine decides expiry, stop triggers and
// stalls from the indexer's applied blocks, independently of the
// projector, which may not have recorded that outcome yet; the chain's
// outcome came first (a fill cannot execute after the deadline), so the
// engine's transition is refused and the projector records the fill or
// cancel with its own event (docs/lifecycle.md).
func endedOnChain(rec *persistence.OrderRecord, orders *persistence.Orders) (bool, error) {
	if orders == nil {
		return false, nil
	}
	_, traits, err := chain.ParseTraits(rec.Order.MakerTraits)
	if err != nil {
		return false, orderengine.Errorf(orderengine.CodeInternal, "order %s: traits: %v", rec.OrderHash, err)
	}
	v, err := orders.ChainView(common.HexToHash(rec.OrderHash), common.HexToAddress(rec.Order.Maker), traits.Nonce)
	if err != nil {
		return false, orderengine.Errorf(orderengine.CodeInternal, "order %s: chain records: %v", rec.OrderHash, err)
	}
	if v.Order.CancelledBlock != 0 || v.NonceInvalidated {
		return true, nil
	}
	amountIn, ok1 := new(big.Int).SetString(rec.Order.AmountIn, 10)
	filled, ok2 := new(big.Int).SetString(v.Order.FilledAmountIn, 10)
	return ok1 && ok2 && filled.Cmp(amountIn) >= 0, nil
}

// cancelOnChain closes an open order as cancelled by the transaction
// m.TxHash, with order.cancelled unless the ledger shows that this
// transaction's cancel was already announced (a cancel re-mined after a
// reorg).
func cancelOnChain(rec *persistence.OrderRecord, open bool, m *CancelOnChainRequest, orders *persistence.Orders) (*persistence.Change, error) {
	c := closeWith(rec, open, persistence.StatusCancelled, persistence.TriggerOrderCancelled, m.TxHash, m.At)
	if c == nil {
		return nil, nil
	}
	entry := persistence.LedgerEntry{TxHash: common.HexToHash(m.TxHash), LogIndex: persistence.LedgerNoLog, Kind: persistence.LedgerCancel}
	seen, err := ledgerHas(orders, rec, entry)
	if err != nil {
		return nil, err
	}
	if seen {
		c.Events = nil
	}
	c.Ledger = []persistence.LedgerEntry{entry}
	return c, nil
}

// ledgerHas reports whether rec's ledger holds e (false without a store:
// tests of the bare transitions).
func ledgerHas(orders *persistence.Orders, rec *persistence.OrderRecord, e persistence.LedgerEntry) (bool, error) {
	if orders == nil {
		return false, nil
	}
	ok, _, err := orders.LedgerHas(common.HexToHash(rec.OrderHash), e.TxHash, e.LogIndex)
	if err != nil {
		return false, orderengine.Errorf(orderengine.CodeInternal, "order ledger: %v", err)
	}
	return ok, nil
}

func recordFill(rec *persistence.OrderRecord, m *RecordFillRequest, orders *persistence.Orders) (*persistence.Change, error) {
	if m.Executions < rec.Executions || (m.Executions == rec.Executions && m.FilledAmountIn == rec.FilledAmountIn) {
		return nil, nil
	}
	out, ok1 := new(big.Int).SetString(rec.FilledAmountOut, 10)
	add, ok2 := new(big.Int).SetString(m.Fill.AmountOut, 10)
	if !ok1 || !ok2 {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "fill amountOut %q is not a decimal integer", m.Fill.AmountOut)
	}
	at := m.At.UTC()
	rec.FilledAmountIn, rec.FilledAmountOut = m.FilledAmountIn, out.Add(out, add).String()
	rec.Executions, rec.UpdatedAt = m.Executions, at
	if rec.Status == persistence.StatusPending {
		rec.Status = persistence.StatusActive
	}
	if m.Complete && persistence.OrderStatusOpen(rec.Status) {
		rec.Status = persistence.StatusFilled
		rec.Stalled = false // no leg is left to be overdue; the engine no longer sees the order
	}
	entry := persistence.LedgerEntry{TxHash: common.HexToHash(m.Fill.TxHash), LogIndex: m.Fill.LogIndex, Kind: persistence.LedgerFill}
	emitted, err := ledgerHas(orders, rec, entry)
	if err != nil {
		return nil, err
	}
	c := &persistence.Change{Ledger: []persistence.LedgerEntry{entry}}
	if !m.RowStored {
		c.Fills = []persistence.OrderFill{m.Fill}
	}
	switch {
	case emitted:
		// A re-mined fill: its events went out when it was first recorded.
	case rec.OrderType != "dca":
		ev := event(rec, persistence.TriggerOrderFilled, at)
		ev.Data.AmountIn, ev.Data.AmountOut, ev.Data.TxHash = m.Fill.AmountIn, m.Fill.AmountOut, m.Fill.TxHash
		c.Events = append(c.Events, ev)
	case rec.Status == persistence.StatusFilled:
		ev := dcaEvent(rec, persistence.TriggerDCACompleted, at)
		ev.Data.TxHash = m.Fill.TxHash
		c.Events = append(c.Events, ev)
	}
	return c, nil
}

// event is the outbox event of rec with the data fields of specification
// section 6; amountIn/amountOut are the order's totals.
func event(rec *persistence.OrderRecord, trigger string, at time.Time) persistence.OutboxEvent {
	return persistence.OutboxEvent{
		Trigger:   trigger,
		CreatedAt: at,
		Data: persistence.EventData{
			OrderType: rec.OrderType, Pair: rec.Pair,
			TokenIn: rec.Order.TokenIn, TokenOut: rec.Order.TokenOut,
			AmountIn: rec.Order.AmountIn, AmountOut: rec.FilledAmountOut,
			OrderHash: rec.OrderHash,
		},
	}
}

func dcaEvent(rec *persistence.OrderRecord, trigger string, at time.Time) persistence.OutboxEvent {
	ev := event(rec, trigger, at)
	ev.Data.AmountIn = rec.FilledAmountIn
	ev.Data.Executions = strconv.Itoa(rec.Executions)
	if rec.DCA != nil {
		ev.Data.TotalExecutions = strconv.Itoa(int(rec.DCA.TotalExecutions))
	}
	return ev
}
