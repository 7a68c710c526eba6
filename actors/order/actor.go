package order

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/persistence"
)

// orderActor owns one order: its record is loaded from Pebble on the first
// request and every change is committed (Sync) before the reply. The
// registry's bind, first in the mailbox, says which order it is.
type orderActor struct {
	reg    *Registry
	hash   common.Hash
	slot   *slot
	rec    *persistence.OrderRecord
	loaded bool
}

// Receive handles the actor's messages.
func (a *orderActor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *bind:
		a.hash, a.slot = msg.hash, msg.slot
	case *actor.Restarting:
		a.restarting(ctx)
	case *PassivateRequest:
		ctx.Respond(&PassivateResponse{Stopped: a.passivate(ctx)})
	case *CreateRequest:
		ctx.Respond(a.create(msg))
	case *WarmRequest:
		ctx.Respond(a.warm())
	case *CancelRequest:
		ctx.Respond(a.cancel())
	case *ActivateRequest:
		ctx.Respond(a.apply(msg))
	case *RecordFillRequest:
		ctx.Respond(a.apply(msg))
	case *CancelOnChainRequest:
		ctx.Respond(a.apply(msg))
	case *ResyncRequest:
		ctx.Respond(a.apply(msg))
	case *ExpireRequest:
		ctx.Respond(a.apply(msg))
	case *FailRequest:
		ctx.Respond(a.apply(msg))
	case *TriggerRequest:
		ctx.Respond(a.apply(msg))
	case *StallRequest:
		ctx.Respond(a.apply(msg))
	case *actor.Started, *actor.Stopping, *actor.Stopped:
	default:
		a.reg.log.Warn("order: unexpected message", "type", fmt.Sprintf("%T", msg), "order", a.hash.Hex())
	}
}

// passivate stops the actor when no request is in flight to it.
func (a *orderActor) passivate(ctx actor.Context) bool {
	if !a.reg.retire(a.hash, a.slot) {
		return false
	}
	ctx.Stop(ctx.Self())
	return true
}

// restarting handles a panic in Receive: the producer's fresh actor would
// not know its order, so this incarnation leaves the registry and stops;
// the next request starts a new actor, which reloads the durable record.
func (a *orderActor) restarting(ctx actor.Context) {
	a.reg.log.Error("order: actor failed; it stops and reloads on the next request", "order", a.hash.Hex())
	if a.slot != nil {
		a.reg.forget(a.hash, a.slot)
	}
	ctx.Stop(ctx.Self())
}

// load reads the record once per activation.
func (a *orderActor) load() error {
	if a.loaded {
		return nil
	}
	if !a.reg.opts.Orders.MayExist(a.hash) {
		a.loaded = true // certainly absent: no read
		return nil
	}
	rec, ok, err := a.reg.opts.Orders.Load(a.hash)
	if err != nil {
		return err
	}
	if ok {
		a.rec = rec
	}
	a.loaded = true
	return nil
}

func (a *orderActor) create(req *CreateRequest) *Response {
	if err := a.load(); err != nil {
		return &Response{Err: err}
	}
	if a.rec != nil {
		return &Response{Record: a.rec, Err: orderengine.Errorf(orderengine.CodeAlreadyExists,
			"order %s already exists (status %s)", a.hash.Hex(), a.rec.Status)}
	}
	if err := a.commit(persistence.Change{Record: req.Record, BindReferrer: req.BindReferrer}); err != nil {
		return &Response{Err: err}
	}
	return &Response{Record: a.rec, Changed: true}
}

// existing loads the order and answers the error to send when it cannot
// be loaded or does not exist (nil when it exists).
func (a *orderActor) existing() *Response {
	if err := a.load(); err != nil {
		return &Response{Err: err}
	}
	if a.rec == nil {
		return &Response{Err: notFound(a.hash)}
	}
	return nil
}

func (a *orderActor) warm() *Response {
	if res := a.existing(); res != nil {
		return res
	}
	return &Response{Record: a.rec}
}

func (a *orderActor) cancel() *Response {
	if res := a.existing(); res != nil {
		return res
	}
	switch a.rec.Status {
	case persistence.StatusCancelled:
		return &Response{Record: a.rec}
	case persistence.StatusPending:
	default:
		return &Response{Record: a.rec, Err: orderengine.Errorf(orderengine.CodeNotCancellable,
			"order is %s; only pending orders can be cancelled off-chain: cancel it on-chain through the router", a.rec.Status)}
	}
	next := *a.rec
	next.Status = persistence.StatusCancelled
	next.UpdatedAt = a.reg.now()
	ev := event(&next, persistence.TriggerOrderCancelled, next.UpdatedAt)
	// The ledger entry marks the cancel final: a rewind never reopens it.
	off := persistence.LedgerEntry{LogIndex: persistence.LedgerNoLog, Kind: persistence.LedgerOffChain}
	if err := a.commit(persistence.Change{Record: &next, PrevStatus: a.rec.Status, Events: []persistence.OutboxEvent{ev},
		Ledger: []persistence.LedgerEntry{off}}); err != nil {
		return &Response{Err: err}
	}
	return &Response{Record: a.rec, Changed: true}
}

// apply runs a lifecycle transition (lifecycle.go) and commits it.
func (a *orderActor) apply(msg any) *Response {
	if res := a.existing(); res != nil {
		return res
	}
	next := *a.rec
	change, err := transition(&next, msg, a.reg.opts.Orders)
	if err != nil || change == nil {
		return &Response{Record: a.rec, Err: err}
	}
	change.Record = &next
	change.PrevStatus = a.rec.Status
	if err := a.commit(*change); err != nil {
		return &Response{Record: a.rec, Err: err}
	}
	return &Response{Record: a.rec, Changed: true}
}

// commit makes c durable, then adopts the new record and tells the
// registry's listeners.
func (a *orderActor) commit(c persistence.Change) error {
	if _, err := a.reg.opts.Orders.Commit(c); err != nil {
		a.reg.log.Error("order: commit failed", "order", a.hash.Hex(), "err", err)
		return orderengine.Errorf(orderengine.CodeInternal, "the order could not be stored")
	}
	a.rec = c.Record
	a.reg.changed(c.PrevStatus, c.Record)
	return nil
}

func notFound(h common.Hash) error {
	return orderengine.Errorf(orderengine.CodeNotFound, "no order with hash %s", h.Hex())
}
