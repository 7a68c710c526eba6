package order

import (
	"context"
	"crypto/rand"
	"fmt"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// The lifecycle API: what the chain projection and the pair actors call
// to drive an order from chain facts. Each call goes through the order's
// actor, which decides from the facts in the message and its own record
// and ledger, and is durable (with its outbox events, contract.md section
// 3 "Events") when it returns. Every call is idempotent: repeating it
// changes nothing and reports Changed false. Unknown hashes are NOT_FOUND.

// Observe applies what the chain records say about the order (see
// ChainObserved).
func (r *Registry) Observe(ctx context.Context, h common.Hash, m ChainObserved) (*Response, error) {
	return r.request(ctx, h, &m)
}

// InvalidateNonce cancels the open order h whose nonce the maker
// invalidated on-chain in transaction tx.
func (r *Registry) InvalidateNonce(ctx context.Context, h, tx common.Hash, at time.Time) (*Response, error) {
	return r.request(ctx, h, &NonceInvalidated{TxHash: tx, At: at})
}

// Resync rolls order h's chain-derived fields back to what the chain
// records say after a rewind (see ResyncRequest).
func (r *Registry) Resync(ctx context.Context, h common.Hash, v chainstore.View, at time.Time) (*Response, error) {
	return r.request(ctx, h, &ResyncRequest{Chain: v, At: at})
}

// Expire records that the deadline passed before completion.
func (r *Registry) Expire(ctx context.Context, h common.Hash, v chainstore.View, at time.Time) (*Response, error) {
	return r.request(ctx, h, &ExpireRequest{Chain: v, At: at})
}

// Fail records that the order can no longer execute, with the reason and
// the router's custom error name (revertName, may be empty).
func (r *Registry) Fail(ctx context.Context, h common.Hash, reason, revertName string, at time.Time) (*Response, error) {
	return r.request(ctx, h, &FailRequest{Reason: reason, RevertName: revertName, At: at})
}

// Trigger records a stop/trailing trigger seen at price (first one only).
func (r *Registry) Trigger(ctx context.Context, h common.Hash, price *uint256.Int, v chainstore.View, at time.Time) (*Response, error) {
	return r.request(ctx, h, &TriggerRequest{Price: *price, Chain: v, At: at})
}

// Stall sets or clears a dca order's stalled flag.
func (r *Registry) Stall(ctx context.Context, h common.Hash, stalled bool, v chainstore.View, at time.Time) (*Response, error) {
	return r.request(ctx, h, &StallRequest{Stalled: stalled, Chain: v, At: at})
}

// Cancel cancels a pending order off-chain (the caller has verified the
// maker's OrderCancel signature). An order in any other status, already
// cancelled included, is NOT_CANCELLABLE (contract.md section 10): a
// cancel is answered 200 only when it took effect.
func (r *Registry) Cancel(ctx context.Context, h common.Hash) error {
	req := &CancelRequest{}
	if _, err := rand.Read(req.ID[:]); err != nil {
		return err
	}
	res, err := r.request(ctx, h, req)
	if err != nil {
		return err
	}
	return res.Err
}

// transition applies msg to rec (a copy the actor owns) and returns the
// transition to append without its record and versions, or nil when msg
// changes nothing.
func transition(rec *orderstore.Record, l *ledger, msg any, now time.Time) (*orderstore.Transition, error) {
	open := rec.Status.Open()
	switch m := msg.(type) {
	case *CancelRequest:
		return cancelOffChain(rec, l, m.ID, now)
	case *ChainObserved:
		return observe(rec, l, m), nil
	case *NonceInvalidated:
		return cancelOnChain(rec, l, m.TxHash, m.At), nil
	case *ResyncRequest:
		return resync(rec, l, m), nil
	case *ExpireRequest:
		if !open || endedOnChain(rec, m.Chain) {
			return nil, nil
		}
		return closeWith(rec, orderstore.StatusExpired, persistence.TriggerOrderExpired, common.Hash{}, m.At), nil
	case *FailRequest:
		if !open {
			return nil, nil
		}
		rec.Reason, rec.RevertName = m.Reason, m.RevertName
		t := closeWith(rec, orderstore.StatusFailed, persistence.TriggerOrderFailed, common.Hash{}, m.At)
		t.Events[0].Data.Reason, t.Events[0].Data.RevertName = m.Reason, m.RevertName
		return t, nil
	case *TriggerRequest:
		switch rec.Class {
		case chain.ClassStopLoss, chain.ClassTakeProfit, chain.ClassTrailing:
		default:
			return nil, nil
		}
		if !open || !rec.TriggeredAt.IsZero() || endedOnChain(rec, m.Chain) {
			return nil, nil
		}
		at := m.At.UTC()
		rec.TriggeredAt, rec.UpdatedAt = at, at
		ev := event(rec, persistence.TriggerStopTriggered, at)
		ev.Data.TriggerPrice = m.Price.Dec()
		return &orderstore.Transition{Events: []persistence.OutboxEvent{ev}}, nil
	case *StallRequest:
		if !open || rec.Class != chain.ClassDCA || rec.Stalled == m.Stalled || (m.Stalled && endedOnChain(rec, m.Chain)) {
			return nil, nil
		}
		rec.Stalled, rec.UpdatedAt = m.Stalled, m.At.UTC()
		t := &orderstore.Transition{}
		if m.Stalled {
			t.Events = []persistence.OutboxEvent{dcaEvent(rec, persistence.TriggerDCAStalled, rec.UpdatedAt)}
		}
		return t, nil
	}
	return nil, fmt.Errorf("order: unknown transition %T", msg)
}

// cancelOffChain cancels a pending order. The ledger entry marks the
// cancel final: a rewind never reopens it.
func cancelOffChain(rec *orderstore.Record, l *ledger, id common.Hash, now time.Time) (*orderstore.Transition, error) {
	mine := orderstore.LedgerEntry{TxHash: id, LogIndex: orderstore.LedgerNoLog, Kind: orderstore.LedgerOffChain}
	switch rec.Status {
	case orderstore.StatusCancelled:
		if id != (common.Hash{}) && l.has(mine) {
			return nil, nil // this request's own cancel, delivered again
		}
		return nil, orderengine.Errorf(orderengine.CodeNotCancellable,
			"order is already cancelled; only pending orders can be cancelled off-chain")
	case orderstore.StatusPending:
	default:
		return nil, orderengine.Errorf(orderengine.CodeNotCancellable,
			"order is %s; only pending orders can be cancelled off-chain: cancel it on-chain through the router", rec.Status)
	}
	t := closeWith(rec, orderstore.StatusCancelled, persistence.TriggerOrderCancelled, common.Hash{}, now)
	t.Ledger = []orderstore.LedgerEntry{mine}
	return t, nil
}

// closeWith moves an open order to a terminal status with its event.
func closeWith(rec *orderstore.Record, status orderstore.Status, trigger string, tx common.Hash, at time.Time) *orderstore.Transition {
	rec.Status, rec.UpdatedAt = status, at.UTC()
	ev := event(rec, trigger, rec.UpdatedAt)
	if tx != (common.Hash{}) {
		ev.Data.TxHash = tx.Hex()
	}
	return &orderstore.Transition{Events: []persistence.OutboxEvent{ev}}
}

// endedOnChain reports whether the chain facts hold the order's end:
// amountIn fully executed, an on-chain cancel, or its nonce invalidated.
// The pair actors decide expiry, stop triggers and stalls from the
// indexer's applied blocks, independently of the chain projection, which
// may not have recorded that outcome yet; the chain's outcome came first
// (a fill cannot execute after the deadline), so the engine's transition
// is refused and the projection records the fill or cancel with its own
// event (docs/lifecycle.md).
func endedOnChain(rec *orderstore.Record, v chainstore.View) bool {
	if v.Order.CancelledBlock != 0 || v.NonceInvalidated {
		return true
	}
	return !v.Order.FilledAmountIn.Lt(&rec.Order.AmountIn)
}

// observe applies the chain's facts: activation, every fill not applied
// yet (in chain order), an on-chain cancel.
func observe(rec *orderstore.Record, l *ledger, m *ChainObserved) *orderstore.Transition {
	t := &orderstore.Transition{}
	changed := false
	if m.Chain.ActivatedBlock != 0 && rec.Status == orderstore.StatusPending && len(m.Fills) == 0 {
		rec.Status, rec.UpdatedAt, changed = orderstore.StatusActive, m.At.UTC(), true
	}
	for i := range m.Fills {
		if applyFill(rec, l, &m.Fills[i], t) {
			changed = true
		}
	}
	if m.Chain.CancelledBlock != 0 {
		if c := cancelOnChain(rec, l, m.Chain.CancelTx, m.At); c != nil {
			t.Events = append(t.Events, c.Events...)
			t.Ledger = append(t.Ledger, c.Ledger...)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return t
}

// applyFill applies one fill the order has not counted yet (the router's
// executions counter is above the record's) and adds its ledger entry and
// events to t. A fill already announced (its chain log is in the ledger: a
// fill re-mined after a reorg) updates the record but emits nothing.
func applyFill(rec *orderstore.Record, l *ledger, f *chainstore.Fill, t *orderstore.Transition) bool {
	if f.Executions <= rec.Executions {
		return false
	}
	at := time.Unix(int64(f.Timestamp), 0).UTC()
	rec.FilledIn = f.FilledAmountIn
	rec.FilledOut.Add(&rec.FilledOut, &f.AmountOut)
	rec.Executions, rec.UpdatedAt = f.Executions, at
	if rec.Status == orderstore.StatusPending {
		rec.Status = orderstore.StatusActive
	}
	if !rec.FilledIn.Lt(&rec.Order.AmountIn) && rec.Status.Open() {
		rec.Status = orderstore.StatusFilled
		rec.Stalled = false // no leg is left to be overdue; the engine no longer sees the order
	}
	entry := orderstore.LedgerEntry{TxHash: f.TxHash, LogIndex: f.LogIndex, Kind: orderstore.LedgerFill}
	announced := l.has(entry) || pendingHas(t, entry)
	t.Ledger = append(t.Ledger, entry)
	switch {
	case announced:
	case rec.Class != chain.ClassDCA:
		ev := event(rec, persistence.TriggerOrderFilled, at)
		ev.Data.AmountIn, ev.Data.AmountOut, ev.Data.TxHash = f.AmountIn.Dec(), f.AmountOut.Dec(), f.TxHash.Hex()
		t.Events = append(t.Events, ev)
	case rec.Status == orderstore.StatusFilled:
		ev := dcaEvent(rec, persistence.TriggerDCACompleted, at)
		ev.Data.TxHash = f.TxHash.Hex()
		t.Events = append(t.Events, ev)
	}
	return true
}

// pendingHas reports whether t already carries e (two observations of the
// same log in one message cannot happen, but a ledger write must be once).
func pendingHas(t *orderstore.Transition, e orderstore.LedgerEntry) bool {
	for _, x := range t.Ledger {
		if x.TxHash == e.TxHash && x.LogIndex == e.LogIndex {
			return true
		}
	}
	return false
}

// cancelOnChain closes an open order as cancelled by transaction tx, with
// order.cancelled unless the ledger shows that this transaction's cancel
// was already announced (a cancel re-mined after a reorg).
func cancelOnChain(rec *orderstore.Record, l *ledger, tx common.Hash, at time.Time) *orderstore.Transition {
	if !rec.Status.Open() {
		return nil
	}
	t := closeWith(rec, orderstore.StatusCancelled, persistence.TriggerOrderCancelled, tx, at)
	entry := orderstore.LedgerEntry{TxHash: tx, LogIndex: orderstore.LedgerNoLog, Kind: orderstore.LedgerCancel}
	if l.has(entry) {
		t.Events = nil
	}
	t.Ledger = []orderstore.LedgerEntry{entry}
	return t
}

// event is the outbox event of rec with the data fields of specification
// section 6; amountIn/amountOut are the order's totals.
func event(rec *orderstore.Record, trigger string, at time.Time) persistence.OutboxEvent {
	o := &rec.Order
	return persistence.OutboxEvent{
		Trigger:   trigger,
		CreatedAt: at,
		Data: persistence.EventData{
			OrderType: rec.Class.String(), Pair: chain.Checksum(o.TokenIn) + "-" + chain.Checksum(o.TokenOut),
			TokenIn: chain.Checksum(o.TokenIn), TokenOut: chain.Checksum(o.TokenOut),
			AmountIn: o.AmountIn.Dec(), AmountOut: rec.FilledOut.Dec(),
			OrderHash: rec.Hash.Hex(),
		},
	}
}

func dcaEvent(rec *orderstore.Record, trigger string, at time.Time) persistence.OutboxEvent {
	ev := event(rec, trigger, at)
	ev.Data.AmountIn = rec.FilledIn.Dec()
	ev.Data.Executions = strconv.FormatUint(uint64(rec.Executions), 10)
	if rec.DCA != nil {
		ev.Data.TotalExecutions = strconv.Itoa(int(rec.DCA.TotalExecutions))
	}
	return ev
}

// ledger is the order's ledger in memory: the chain logs its events were
// emitted for and how it was cancelled.
type ledger struct {
	entries map[ledgerKey]byte
}

type ledgerKey struct {
	tx  common.Hash
	log uint32
}

func newLedger(entries []orderstore.LedgerEntry) ledger {
	l := ledger{}
	l.add(entries...)
	return l
}

func (l *ledger) add(entries ...orderstore.LedgerEntry) {
	if len(entries) == 0 {
		return
	}
	if l.entries == nil {
		l.entries = make(map[ledgerKey]byte, len(entries))
	}
	for _, e := range entries {
		l.entries[ledgerKey{e.TxHash, e.LogIndex}] = e.Kind
	}
}

func (l *ledger) has(e orderstore.LedgerEntry) bool {
	_, ok := l.entries[ledgerKey{e.TxHash, e.LogIndex}]
	return ok
}

// cancelledOnChain reports whether the order's cancel came from the chain:
// its ledger holds an on-chain cancel and no off-chain one (an order
// cancelled off-chain stays cancelled whatever the chain does).
func (l *ledger) cancelledOnChain() bool {
	onChain := false
	for _, kind := range l.entries {
		switch kind {
		case orderstore.LedgerOffChain:
			return false
		case orderstore.LedgerCancel:
			onChain = true
		}
	}
	return onChain
}
