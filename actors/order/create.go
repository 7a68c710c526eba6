package order

import (
	"context"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Create stores a new, fully checked order as pending. It returns
// ALREADY_EXISTS when the hash is taken. It returns once the order is
// durable.
//
// A hash that is certainly new (no live actor, absent from the journal's
// hash filter) is stored by the calling goroutine, not by an actor: the
// caller claims the hash in the registry, commits, tells the feed and
// releases the claim. The write is the actor's own (Registry.commit): one
// append to the journal, one error mapping. The order's actor then starts
// on its first request, loading the record from the journal, exactly as
// after a passivation: a new order starts passivated. This saves a submit
// the actor's spawn and request round trip (two goroutine hand-offs, a
// future, a mailbox run), which were a tenth of its CPU
// (docs/performance.md).
//
// The claim keeps the actor's guarantees: every other request for the hash
// (a duplicate submit, a cancel, a chain event) waits until the claim is
// released, after the commit and after the feed, so transitions of an
// order are still committed and announced one at a time, in order. A hash
// that may exist goes to its actor, which answers ALREADY_EXISTS or, for a
// filter false positive, stores it.
//
// In a cluster (cluster.go) the accepting member always stores a new order
// itself unless it runs the order's actor: the journal's create is
// conditional across the cluster (a hash taken anywhere is ALREADY_EXISTS),
// and a hash filter on one member proves nothing about the others.
func (r *Registry) Create(ctx context.Context, rec *orderstore.Record, bind *common.Address) error {
	h := rec.Hash
	var release func()
	if r.opts.Placement != nil || !r.opts.Journal.MayExist(h) {
		release = r.reg.Claim(h)
	}
	if release == nil {
		res, err := r.request(ctx, h, &CreateRequest{Record: rec, BindReferrer: bind})
		if err != nil {
			return err
		}
		return res.Err
	}
	defer release()
	return r.commit(&orderstore.Transition{Record: rec, Bind: bind})
}

// Warm starts the actor of h, if it is not running, with its record
// loaded; NOT_FOUND when there is no such order.
func (r *Registry) Warm(ctx context.Context, h common.Hash) error {
	res, err := r.request(ctx, h, &WarmRequest{})
	if err != nil {
		return err
	}
	return res.Err
}
