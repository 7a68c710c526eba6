package order

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// orderActor owns one order: its record (and ledger) is loaded from the
// journal on the first request and every change is appended to the
// journal, conditional on the version loaded, before the reply. The
// registry (actors/kind) makes it knowing its hash, and passivates it.
type orderActor struct {
	reg    *Registry
	hash   common.Hash
	rec    *orderstore.Record
	ledger ledger
	loaded bool
}

// Receive handles the actor's messages.
func (a *orderActor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *CreateRequest:
		ctx.Respond(a.create(msg))
	case *WarmRequest:
		ctx.Respond(a.warm())
	case *CancelRequest, *ChainObserved, *NonceInvalidated, *ResyncRequest,
		*ExpireRequest, *FailRequest, *TriggerRequest, *StallRequest:
		ctx.Respond(a.apply(msg))
	case *kind.Activated, *actor.Stopping, *actor.Stopped:
	default:
		a.reg.log.Warn("order: unexpected message", "type", fmt.Sprintf("%T", msg), "order", a.hash.Hex())
	}
}

// load reads the record and its ledger once per activation (again after a
// version conflict).
func (a *orderActor) load() error {
	if a.loaded {
		return nil
	}
	j := a.reg.opts.Journal
	if !j.MayExist(a.hash) {
		a.loaded = true // certainly absent: no read
		return nil
	}
	rec, ok, err := j.LoadOrder(a.hash)
	if err != nil {
		return loadError(err)
	}
	if !ok {
		a.loaded = true
		return nil
	}
	entries, err := j.LoadLedger(a.hash)
	if err != nil {
		return loadError(err)
	}
	a.rec, a.ledger, a.loaded = rec, newLedger(entries), true
	return nil
}

func (a *orderActor) create(req *CreateRequest) *Response {
	if err := a.load(); err != nil {
		return &Response{Err: err}
	}
	if a.rec != nil {
		return &Response{Record: a.rec, Err: alreadyExists(a.rec)}
	}
	if err := a.reg.commit(&orderstore.Transition{Record: req.Record, Bind: req.BindReferrer}); err != nil {
		if errors.Is(err, errTaken) {
			a.loaded = false // another writer stored it: read it next time
		}
		return &Response{Err: err}
	}
	a.rec, a.ledger = req.Record, ledger{}
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

// apply decides a transition (lifecycle.go) on a copy of the record and
// appends it. A version conflict (another writer appended meanwhile) makes
// the actor reload and decide once more on the new version.
func (a *orderActor) apply(msg any) *Response {
	for attempt := 0; ; attempt++ {
		if res := a.existing(); res != nil {
			return res
		}
		next := a.rec.Clone()
		t, err := transition(next, &a.ledger, msg, a.reg.now())
		if err != nil || t == nil {
			return &Response{Record: a.rec, Err: err}
		}
		next.Version = a.rec.Version + 1
		t.Record, t.Expect, t.Prev = next, a.rec.Version, a.rec.Status
		err = a.reg.commit(t)
		if errors.Is(err, errTaken) && attempt == 0 {
			a.loaded = false
			continue
		}
		if err != nil {
			return &Response{Record: a.rec, Err: err}
		}
		a.rec = next
		a.ledger.add(t.Ledger...)
		return &Response{Record: a.rec, Changed: true}
	}
}

// errTaken is the version conflict of an append: the stored version is not
// the one loaded (for a new order: the hash is taken).
var errTaken = errors.New("order: the stored version moved")

// commit appends t to the journal and, once durable, tells the change
// listeners. It is the one write path of orders: the actor's and the fast
// create's (create.go). The error is an *orderengine.Error for the client,
// wrapping errTaken on a version conflict.
func (r *Registry) commit(t *orderstore.Transition) error {
	err := r.opts.Journal.AppendOrder(context.Background(), t)
	switch {
	case err == nil:
		r.changed(t.Prev, t.Record, t.Bind)
		return nil
	case errors.Is(err, orderstore.ErrVersionConflict):
		if t.Expect == 0 {
			return &takenError{orderengine.Errorf(orderengine.CodeAlreadyExists, "order %s already exists", t.Record.Hash.Hex())}
		}
		r.log.Warn("order: version conflict; reloading", "order", t.Record.Hash.Hex(), "loaded", t.Expect)
		return &takenError{orderengine.Errorf(orderengine.CodeInternal, "the order changed while this request was applied; retry it")}
	case errors.Is(err, persistence.ErrUnavailable):
		return noQuorum(t, err, r.log)
	case errors.Is(err, persistence.ErrOutcomeUnknown):
		r.log.Error("order: commit outcome unknown", "order", t.Record.Hash.Hex(), "err", err)
		if t.Expect == 0 {
			return orderengine.Errorf(orderengine.CodeInternal, "the order may or may not have been stored: the store failed while making it durable. "+
				"Resubmitting the same signed order is safe: 201 or 409 ALREADY_EXISTS both mean it is stored")
		}
		return orderengine.Errorf(orderengine.CodeInternal, "the change may or may not have been stored: the store failed while making it durable; read the order to see its state")
	default:
		r.log.Error("order: commit failed", "order", t.Record.Hash.Hex(), "err", err)
		return orderengine.Errorf(orderengine.CodeInternal, "the order could not be stored")
	}
}

// takenError is the client error of a version conflict; it matches
// errTaken with errors.Is.
type takenError struct{ err error }

func (e *takenError) Error() string        { return e.err.Error() }
func (e *takenError) Unwrap() error        { return e.err }
func (e *takenError) Is(target error) bool { return target == errTaken }

func alreadyExists(rec *orderstore.Record) error {
	return orderengine.Errorf(orderengine.CodeAlreadyExists, "order %s already exists (status %s)", rec.Hash.Hex(), rec.Status)
}

func notFound(h common.Hash) error {
	return orderengine.Errorf(orderengine.CodeNotFound, "no order with hash %s", h.Hex())
}

// loadError is the client error of a failed load: NO_QUORUM when the
// replicated journal could not be read for want of a quorum (cluster
// mode), else err.
func loadError(err error) error {
	if errors.Is(err, persistence.ErrUnavailable) {
		return &orderengine.Error{Code: orderengine.CodeNoQuorum, RetryAfterSeconds: 1,
			Message: "the cluster cannot answer for this order now (no quorum): retry after Retry-After"}
	}
	return err
}

// noQuorum is the client error of an append the replicated journal could
// not make durable for want of a quorum (cluster mode): 503 NO_QUORUM with
// Retry-After; when the publish may have landed, the message says so.
func noQuorum(t *orderstore.Transition, err error, log *slog.Logger) error {
	log.Warn("order: no quorum for the write", "order", t.Record.Hash.Hex(), "err", err)
	e := &orderengine.Error{Code: orderengine.CodeNoQuorum, RetryAfterSeconds: 1}
	switch {
	case !errors.Is(err, persistence.ErrOutcomeUnknown):
		e.Message = "the cluster cannot make writes durable now (no quorum); nothing was stored: retry after Retry-After"
	case t.Expect == 0:
		e.Message = "the order may or may not have been stored: the cluster did not confirm it in time. " +
			"Resubmitting the same signed order is safe: 201 or 409 ALREADY_EXISTS both mean it is stored"
	default:
		e.Message = "the change may or may not have been stored: the cluster did not confirm it in time; read the order to see its state"
	}
	return e
}
