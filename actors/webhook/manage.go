package webhook

import (
	"errors"
	"fmt"
	"time"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/webhookstore"
)

// The management requests an endpoint actor answers (the manager's api.go
// sends them): the changes of its record, and the test delivery.
type (
	// createEndpoint writes the record of a new endpoint, within its
	// account's limit.
	createEndpoint struct {
		rec    *webhookstore.Endpoint
		secret string
		idem   *idemRequest
	}
	// reenable re-enables a disabled endpoint of account with url, with a
	// new secret and subscription.
	reenable struct {
		account, url string
		events       []string
		secret       string
		now          time.Time
		idem         *idemRequest
	}
	// deleteEndpoint deletes the endpoint and its deliveries.
	deleteEndpoint struct{ account string }
	// sendTest creates and queues a test.ping delivery.
	sendTest struct{ account string }
	// rotateSecret replaces the signing secret; the old one keeps signing
	// until now+overlap.
	rotateSecret struct {
		account, secret string
		now             time.Time
		overlap         time.Duration
	}
	// resendDelivery makes a delivery outstanding again for an attempt now.
	resendDelivery struct{ account, event string }
)

// errNotDisabled answers reenable when the endpoint is enabled or has
// another URL.
var errNotDisabled = errors.New("webhook: the endpoint is not a disabled one with this URL")

// manage answers a management request.
func (a *endpointActor) manage(msg any) answer {
	if a.m.owns != nil && a.rec != nil {
		// In a cluster another node may have changed the endpoint (a
		// rotation) since the last paced reload, or this node may not
		// have applied it yet: decide on the cluster's latest state.
		if err := a.m.store.Sync(a.m.ctx, a.rec.AccountID); err != nil {
			return answer{err: persistence.SharedError(err)}
		}
		a.refreshed()
	}
	if c, ok := msg.(*createEndpoint); ok {
		return a.create(c)
	}
	var account string
	switch msg := msg.(type) {
	case *reenable:
		account = msg.account
	case *deleteEndpoint:
		account = msg.account
	case *sendTest:
		account = msg.account
	case *rotateSecret:
		account = msg.account
	case *resendDelivery:
		account = msg.account
	}
	switch {
	case a.rec == nil:
		return answer{err: errGone}
	case a.rec.AccountID != account:
		return answer{err: errForeign}
	}
	switch msg := msg.(type) {
	case *reenable:
		return a.reenable(msg)
	case *deleteEndpoint:
		return a.delete()
	case *sendTest:
		return a.test()
	case *rotateSecret:
		return a.rotate(msg)
	case *resendDelivery:
		return a.resend(msg.event)
	}
	return answer{err: fmt.Errorf("webhook: unknown request %T", msg)}
}

func (a *endpointActor) create(msg *createEndpoint) answer {
	if a.rec != nil || msg.rec.ID != a.id {
		return answer{err: webhookstore.ErrEndpointExists}
	}
	rec := *msg.rec
	sealed, err := a.m.sealer.seal(rec.ID, msg.secret)
	if err != nil {
		return answer{err: err}
	}
	rec.SealedSecret = sealed
	created := &CreatedView{EndpointView: view(&rec, rec.CreatedAt), Secret: msg.secret}
	idem, err := a.m.idempotentAnswer(msg.idem, &rec, created)
	if err != nil {
		return answer{err: err}
	}
	if err := a.m.journal.CreateEndpoint(a.m.ctx, &rec, a.m.cfg.MaxEndpoints, idem); err != nil {
		return answer{err: err}
	}
	a.rec, a.secret = &rec, msg.secret
	if a.client == nil {
		a.client = a.m.newSender()
	}
	return answer{v: created}
}

func (a *endpointActor) reenable(msg *reenable) answer {
	if a.rec.URL != msg.url || a.rec.Enabled {
		return answer{err: errNotDisabled}
	}
	rec := *a.rec
	sealed, err := a.m.sealer.seal(rec.ID, msg.secret)
	if err != nil {
		return answer{err: err}
	}
	rec.SealedSecret, rec.Events, rec.Enabled, rec.UpdatedAt = sealed, msg.events, true, msg.now
	rec.DisabledReason, rec.DisabledAt, rec.FailingSince = "", nil, nil
	rec.PreviousSealedSecret, rec.PreviousSecretUntil = nil, nil
	created := &CreatedView{EndpointView: view(&rec, msg.now), Secret: msg.secret}
	idem, err := a.m.idempotentAnswer(msg.idem, &rec, created)
	if err != nil {
		return answer{err: err}
	}
	a.m.stats.disabledNow.Add(-1) // before the write: see update
	if err := a.m.journal.UpdateEndpoint(a.m.ctx, &rec, true, idem); err != nil {
		a.m.stats.disabledNow.Add(1)
		return answer{err: err}
	}
	a.rec, a.secret, a.previous = &rec, msg.secret, ""
	return answer{v: created}
}

// rotate replaces the signing secret, durably; the old one signs too
// until the overlap ends (a second rotation within it drops the oldest).
func (a *endpointActor) rotate(msg *rotateSecret) answer {
	rec := *a.rec
	sealed, err := a.m.sealer.seal(rec.ID, msg.secret)
	if err != nil {
		return answer{err: err}
	}
	rec.PreviousSealedSecret, rec.PreviousSecretUntil = nil, nil
	if msg.overlap > 0 {
		until := msg.now.Add(msg.overlap)
		rec.PreviousSealedSecret, rec.PreviousSecretUntil = rec.SealedSecret, &until
	}
	rec.SealedSecret, rec.UpdatedAt = sealed, msg.now
	if err := a.m.journal.UpdateEndpoint(a.m.ctx, &rec, true, nil); err != nil {
		return answer{err: err}
	}
	a.previous = ""
	if msg.overlap > 0 {
		a.previous = a.secret
	}
	a.rec, a.secret = &rec, msg.secret
	return answer{v: &CreatedView{EndpointView: view(&rec, msg.now), Secret: msg.secret}}
}

// resend makes the endpoint's delivery of event outstanding again, due
// now, durably: one more attempt under the same delivery id, after which
// the retry schedule goes on from its attempt count. A delivery waiting
// for its next attempt is moved to now; one in flight is left to its
// attempt.
func (a *endpointActor) resend(event string) answer {
	now := a.m.clock.Now().UTC()
	if p, flying := a.queue.find(event); flying {
		v := deliveryView(p.d)
		return answer{v: &v}
	} else if p != nil {
		next := *p.d
		next.NextAttemptAt = now
		if err := a.m.journal.ResendDelivery(a.m.ctx, a.rec, &next); err != nil {
			return answer{err: err}
		}
		p.d = &next
		a.queue.rescheduled(p)
		v := deliveryView(&next)
		return answer{v: &v}
	}
	d, found, err := a.m.journal.LoadDelivery(a.id, event)
	if err != nil {
		return answer{err: err}
	}
	if !found {
		return answer{err: errNoDelivery}
	}
	if _, ok, err := a.m.journal.EventBody(a.rec.AccountID, event); err != nil {
		return answer{err: err}
	} else if !ok {
		return answer{err: errNoBody}
	}
	next := *d
	next.Status, next.NextAttemptAt = webhookstore.DeliveryPending, now
	if err := a.m.journal.ResendDelivery(a.m.ctx, a.rec, &next); err != nil {
		return answer{err: err}
	}
	a.queue.add(&pending{d: &next, order: a.orderOf(event)})
	v := deliveryView(&next)
	return answer{v: &v}
}

// Answers of resendDelivery that the manager turns into NOT_FOUND.
var (
	errNoDelivery = errors.New("webhook: the endpoint has no such delivery")
	errNoBody     = errors.New("webhook: the delivery's event body is no longer stored")
)

// delete deletes the endpoint; its attempts in flight are forgotten (their
// outcomes would find no delivery to write).
func (a *endpointActor) delete() answer {
	if !a.rec.Enabled {
		a.m.stats.disabledNow.Add(-1) // before the write: see update
	}
	if err := a.m.journal.DeleteEndpoint(a.m.ctx, a.rec); err != nil {
		if !a.rec.Enabled {
			a.m.stats.disabledNow.Add(1)
		}
		return answer{err: err}
	}
	a.rec, a.secret = nil, ""
	a.queue.reset()
	a.stopTimer()
	return answer{}
}

// test creates a test.ping delivery, durably (the API answers with its id),
// and queues it.
func (a *endpointActor) test() answer {
	now := a.m.clock.Now().UTC()
	ev := persistence.OutboxEvent{
		ID: persistence.NewEventID(), Trigger: persistence.TriggerTestPing, CreatedAt: now,
		Data: persistence.EventData{Message: "test delivery from orderengine"},
	}
	body, err := ev.AppendJSON(nil)
	if err != nil {
		return answer{err: fmt.Errorf("webhook: test delivery: %w", err)}
	}
	d := newDelivery(a.id, ev.ID, ev.Trigger, now)
	if _, err := a.m.journal.CreateDeliveries(a.m.ctx, a.rec, []webhookstore.NewDelivery{{Delivery: d, Body: body}}, true, 0); err != nil {
		return answer{err: fmt.Errorf("webhook: test delivery: %w", err)}
	}
	a.queue.add(&pending{d: d, body: body})
	return answer{v: &TestResult{DeliveryID: ev.ID}}
}
