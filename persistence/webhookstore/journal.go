package webhookstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine/persistence"
)

// The delivery journal: the one seam through which every durable change of
// a webhook endpoint and of its deliveries goes. An endpoint's actor is the
// only writer of its endpoint: it creates the record and its deliveries,
// writes each attempt's outcome conditional on the delivery's version it
// holds (the attempts made), trims the history, and deletes the endpoint.
//
// Store implements it on this store (writer.go): each write
// checks its conditions right before it is staged, one writer of its
// account's shard at a time, so a condition and its write are atomic. In a
// cluster the same writers publish each batch through the shared log,
// conditional on the shard's revision (replicated.go), so the
// conditions hold cluster-wide.

// NewDelivery is a delivery to create and the body of its event.
type NewDelivery struct {
	// Delivery is pending, without attempts.
	Delivery *Delivery
	// Body is the event's JSON, sent as is by every attempt of every
	// delivery of the event. It is stored once per event.
	Body []byte
}

// Errors of the delivery journal.
var (
	// ErrDeliveryConflict answers an outcome whose delivery is not stored
	// at the version before it (a newer outcome was written, or the
	// delivery was deleted). Nothing was written for it.
	ErrDeliveryConflict = errors.New("persistence: the delivery changed since it was loaded")
	// ErrEndpointLimit answers CreateEndpoint when the account already
	// has the maximum number of endpoints.
	ErrEndpointLimit = errors.New("persistence: the account has the maximum number of webhook endpoints")
	// ErrEndpointExists answers CreateEndpoint when the id is taken.
	ErrEndpointExists = errors.New("persistence: the webhook endpoint id is taken")
	// ErrEndpointNotFound answers a change of an endpoint that is not
	// stored (deleted meanwhile).
	ErrEndpointNotFound = errors.New("persistence: no such webhook endpoint")
)

// DeliveryJournal makes webhook endpoints and deliveries durable. The
// delivery calls name the endpoint (as its actor holds it) whose
// deliveries they are. Implementations are safe for concurrent use. A
// write that is not durable survives a process crash, not necessarily a
// power loss; every write survives a power loss once a later durable write
// of the journal (or of the store) has returned.
type DeliveryJournal interface {
	// CreateEndpoint stores a new endpoint (durable) unless its account
	// has max endpoints already (ErrEndpointLimit) or the id is taken;
	// idem, when not nil, is the create's answer under its
	// Idempotency-Key, written in the same batch.
	CreateEndpoint(ctx context.Context, ep *Endpoint, max int, idem *IdempotentCreate) error
	// UpdateEndpoint replaces a stored endpoint's record (ErrEndpointNotFound
	// when it is not stored); idem as in CreateEndpoint (a re-enabling
	// create).
	UpdateEndpoint(ctx context.Context, ep *Endpoint, durable bool, idem *IdempotentCreate) error
	// DeleteEndpoint removes an endpoint and its deliveries (durable).
	DeleteEndpoint(ctx context.Context, ep *Endpoint) error
	// CreateDeliveries creates each delivery that is not stored yet, with
	// its event's body; created[i] reports whether ds[i] was new (an
	// endpoint has one delivery of an event: a second create of it writes
	// nothing). cursor, when not 0, is where this create moves the
	// outbox cursor of the endpoint's account, in the same batch: the
	// create hands the events below it on for the last endpoint that
	// needs them.
	CreateDeliveries(ctx context.Context, ep *Endpoint, ds []NewDelivery, durable bool, cursor uint64) (created []bool, err error)
	// RecordOutcomes writes each delivery after one more attempt,
	// conditional on the stored delivery having one attempt fewer;
	// conflicts[i] is ErrDeliveryConflict when it has not (nothing is
	// written for ds[i]). err is a failure of the whole call.
	RecordOutcomes(ctx context.Context, ep *Endpoint, ds []*Delivery) (conflicts []error, err error)
	// ResendDelivery stores d, a stored delivery made outstanding again
	// for one more attempt (pending, its next attempt set, its attempts
	// unchanged), durably, conditional on the stored delivery having the
	// same attempts (ErrDeliveryConflict otherwise, or when it is not
	// stored).
	ResendDelivery(ctx context.Context, ep *Endpoint, d *Delivery) error
	// TrimDeliveries deletes the finished deliveries of an endpoint
	// beyond the newest keep; outstanding ones are never deleted.
	TrimDeliveries(ctx context.Context, ep *Endpoint, keep int) error

	// LoadEndpoint returns an endpoint's record.
	LoadEndpoint(id string) (ep *Endpoint, found bool, err error)
	// PendingDeliveries returns an endpoint's outstanding deliveries.
	PendingDeliveries(endpointID string) ([]*Delivery, error)
	// LoadDelivery returns an endpoint's delivery of an event.
	LoadDelivery(endpointID, eventID string) (d *Delivery, found bool, err error)
	// EventBody returns the body of an event's deliveries to the
	// endpoints of an account.
	EventBody(accountID, eventID string) (body []byte, found bool, err error)
}

var _ DeliveryJournal = (*Store)(nil)

func (w *Store) write(accountID string, durable, alone bool, build func(*webhookTx) error) error {
	return w.webhookWrite(accountID, durable, alone, build)
}

// ofEndpoint checks that every delivery of ds is to ep.
func ofEndpoint(ep *Endpoint, ds []*Delivery) error {
	for _, d := range ds {
		if d.EndpointID != ep.ID {
			return fmt.Errorf("persistence: delivery %s is to %s, not to %s", d.EventID, d.EndpointID, ep.ID)
		}
	}
	return nil
}

// stored returns the shard's index entry of ep, or ErrEndpointNotFound
// when ep is not stored (as an endpoint of its account).
func stored(r *webhookTx, ep *Endpoint) (*endpointIndex, error) {
	e, err := r.endpoint(ep.ID)
	if err != nil {
		return nil, err
	}
	if !e.stored || e.account != ep.AccountID {
		return nil, ErrEndpointNotFound
	}
	return e, nil
}

// CreateEndpoint implements DeliveryJournal. It runs alone in its batch,
// so the endpoints it counts are all there are.
func (w *Store) CreateEndpoint(_ context.Context, ep *Endpoint, max int, idem *IdempotentCreate) error {
	v, err := encodeEndpoint(ep)
	if err != nil {
		return err
	}
	return w.write(ep.AccountID, true, true, func(r *webhookTx) error {
		if _, taken, err := r.get(endpointKey(ep.ID)); err != nil || taken {
			return errors.Join(err, ErrEndpointExists)
		}
		n := 0
		if err := scanKeys(r.db, accountEndpointsPrefix(ep.AccountID), func([]byte) bool { n++; return true }); err != nil {
			return err
		}
		if n >= max {
			return ErrEndpointLimit
		}
		if idem != nil {
			if err := r.setIdempotent(ep.AccountID, idem); err != nil {
				return err
			}
		}
		r.set(endpointKey(ep.ID), v)
		r.set(accountEndpointKey(ep.AccountID, ep.ID), nil)
		r.endpointChanged(ep.ID, ep.AccountID)
		return nil
	})
}

// UpdateEndpoint implements DeliveryJournal. With idem it runs alone (it
// reads the account's idempotency records).
func (w *Store) UpdateEndpoint(_ context.Context, ep *Endpoint, durable bool, idem *IdempotentCreate) error {
	v, err := encodeEndpoint(ep)
	if err != nil {
		return err
	}
	return w.write(ep.AccountID, durable, idem != nil, func(r *webhookTx) error {
		if _, err := stored(r, ep); err != nil {
			return err
		}
		if idem != nil {
			if err := r.setIdempotent(ep.AccountID, idem); err != nil {
				return err
			}
		}
		r.set(endpointKey(ep.ID), v)
		return nil
	})
}

// DeleteEndpoint implements DeliveryJournal. It runs alone in its batch.
func (w *Store) DeleteEndpoint(_ context.Context, ep *Endpoint) error {
	return w.write(ep.AccountID, true, true, func(r *webhookTx) error {
		e, err := stored(r, ep)
		if err != nil {
			return err
		}
		events := make([]string, 0, len(e.events))
		for ev := range e.events {
			events = append(events, ev)
		}
		if err := r.collectBodies(ep.ID, e, events); err != nil {
			return fmt.Errorf("persistence: delete endpoint: %w", err)
		}
		r.del(endpointKey(ep.ID))
		r.del(accountEndpointKey(e.account, ep.ID))
		r.delPrefix(deliveryPrefix(ep.ID))
		r.delPrefix(pendingPrefix(ep.ID))
		r.endpointChanged(ep.ID, e.account)
		return nil
	})
}

// CreateDeliveries implements DeliveryJournal.
func (w *Store) CreateDeliveries(_ context.Context, ep *Endpoint, ds []NewDelivery, durable bool, cursor uint64) ([]bool, error) {
	vals := make([][]byte, len(ds))
	for i, nd := range ds {
		d := nd.Delivery
		if d.Status != DeliveryPending || len(d.Attempts) != 0 || d.EventID == "" || d.EndpointID != ep.ID {
			return nil, fmt.Errorf("persistence: a new delivery is pending, without attempts, of an event to the endpoint: %+v", d)
		}
		v, err := appendDelivery(nil, d)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	created := make([]bool, len(ds))
	err := w.write(ep.AccountID, durable, false, func(r *webhookTx) error {
		clear(created)
		e, err := stored(r, ep)
		if err != nil {
			return err
		}
		for i, nd := range ds {
			d := nd.Delivery
			id := deliveryID{d.EndpointID, d.EventID}
			found, err := r.exists(id)
			if err != nil {
				return err
			}
			if found {
				continue
			}
			r.setRow(id, deliveryKey(d), vals[i], 0)
			r.set(pendingKey(d), nil)
			r.setBody(e.account, d.EventID, nd.Body)
			created[i] = true
		}
		if cursor != 0 {
			r.set(persistence.OutboxCursorKey(e.account), persistence.OutboxCursorValue(cursor))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return created, nil
}

// RecordOutcomes implements DeliveryJournal. Outcomes are written without
// waiting for an fsync: a machine crash can lose only recent outcomes, and
// those deliveries are attempted again under the same delivery id, which
// at-least-once delivery allows.
func (w *Store) RecordOutcomes(_ context.Context, ep *Endpoint, ds []*Delivery) ([]error, error) {
	if err := ofEndpoint(ep, ds); err != nil {
		return nil, err
	}
	vals := make([][]byte, len(ds))
	for i, d := range ds {
		if len(d.Attempts) == 0 {
			return nil, fmt.Errorf("persistence: an outcome of delivery %s to %s without an attempt", d.EventID, d.EndpointID)
		}
		v, err := appendDelivery(nil, d)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	conflicts := make([]error, len(ds))
	err := w.write(ep.AccountID, false, false, func(r *webhookTx) error {
		clear(conflicts)
		for i, d := range ds {
			id, key := deliveryID{d.EndpointID, d.EventID}, deliveryKey(d)
			v, found, err := r.version(id, key)
			if err != nil {
				return err
			}
			if !found || v+1 != uint64(len(d.Attempts)) {
				conflicts[i] = ErrDeliveryConflict
				continue
			}
			r.setRow(id, key, vals[i], int64(len(d.Attempts)))
			if d.Status != DeliveryPending {
				r.delOnce(pendingKey(d))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return conflicts, nil
}

// ResendDelivery implements DeliveryJournal.
func (w *Store) ResendDelivery(_ context.Context, ep *Endpoint, d *Delivery) error {
	if err := ofEndpoint(ep, []*Delivery{d}); err != nil {
		return err
	}
	if d.Status != DeliveryPending || d.NextAttemptAt.IsZero() {
		return fmt.Errorf("persistence: a resent delivery is pending with its next attempt: %s to %s", d.EventID, d.EndpointID)
	}
	val, err := appendDelivery(nil, d)
	if err != nil {
		return err
	}
	return w.write(ep.AccountID, true, false, func(r *webhookTx) error {
		if _, err := stored(r, ep); err != nil {
			return err
		}
		id, key := deliveryID{d.EndpointID, d.EventID}, deliveryKey(d)
		v, found, err := r.version(id, key)
		if err != nil {
			return err
		}
		if !found || v != uint64(len(d.Attempts)) {
			return ErrDeliveryConflict
		}
		r.setRow(id, key, val, int64(len(d.Attempts)))
		// A w/p row is set once between deletions (its final outcome
		// single-deletes it): the row of a delivery resent while still
		// outstanding is deleted before it is set again.
		r.del(pendingKey(d))
		r.set(pendingKey(d), nil)
		return nil
	})
}

// TrimDeliveries implements DeliveryJournal. It runs alone in its batch;
// the body of an event goes with the account's last delivery of it.
func (w *Store) TrimDeliveries(_ context.Context, ep *Endpoint, keep int) error {
	endpointID := ep.ID
	return w.write(ep.AccountID, false, true, func(r *webhookTx) error {
		e, err := stored(r, ep)
		if err != nil || len(e.events) <= keep {
			return err
		}
		pp := pendingPrefix(endpointID)
		pending := make(map[string]bool)
		if err := scanKeys(r.db, pp, func(k []byte) bool { pending[string(k[len(pp):])] = true; return true }); err != nil {
			return fmt.Errorf("persistence: trim deliveries: %w", err)
		}
		p := deliveryPrefix(endpointID)
		it, err := r.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: persistence.PrefixUpperBound(p)})
		if err != nil {
			return fmt.Errorf("persistence: trim deliveries: %w", err)
		}
		// The rows go as range deletions, one per run of them between
		// rows kept, not a tombstone each.
		seen := 0
		var events []string
		var from, to []byte // the run: [from, to)
		endRun := func() {
			if from != nil {
				r.delRange(from, to)
				from, to = nil, nil
			}
		}
		for ok := it.Last(); ok; ok = it.Prev() {
			suffix := it.Key()[len(p):]
			if seen++; seen <= keep || pending[string(suffix)] {
				endRun()
				continue
			}
			from = bytes.Clone(it.Key())
			if to == nil {
				to = append(bytes.Clone(from), 0)
			}
			ev := suffixEvent(suffix)
			r.dropRow(deliveryID{endpointID, ev})
			events = append(events, ev)
		}
		endRun()
		if err := it.Close(); err != nil {
			return fmt.Errorf("persistence: trim deliveries: %w", err)
		}
		if err := r.collectBodies(endpointID, e, events); err != nil {
			return fmt.Errorf("persistence: trim deliveries: %w", err)
		}
		return nil
	})
}
