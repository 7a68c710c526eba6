package webhook

import (
	"errors"
	"fmt"
	"time"

	"github.com/orderengine/orderengine/persistence/webhookstore"
)

// attemptDone takes a finished attempt: the actor computes the delivery's
// next state, writes it conditional on the version it holds (a local write
// without an fsync wait: the mailbox waits for the disk, never for the
// network), queues the delivery again while it is outstanding, and updates
// the endpoint's failure streak.
func (a *endpointActor) attemptDone(r *attemptDone) {
	defer a.flying.Add(-1)
	if a.rec == nil {
		return // the endpoint was deleted meanwhile
	}
	p := a.queue.land(r.eventID)
	if p == nil {
		return // deleted meanwhile (and the endpoint re-created)
	}
	if r.skipped != nil && !r.noBody {
		// The body could not be read (the store is failing): no attempt
		// was made; try again later.
		a.m.log.Error("webhook: read event body", "endpoint", a.id, "event", r.eventID, "err", r.skipped)
		a.retryLater(p, r.at)
		return
	}
	next, ok := a.m.outcomeOf(p.d, r)
	conflicts, err := a.m.journal.RecordOutcomes(a.m.ctx, a.rec, []*webhookstore.Delivery{next})
	switch {
	case err != nil:
		// Not written: the stored delivery is still at the version held,
		// so it is attempted again from there.
		a.m.log.Error("webhook: persist an attempt's outcome; the delivery is attempted again", "endpoint", a.id, "event", r.eventID, "err", err)
		a.retryLater(p, r.at)
		return
	case errors.Is(conflicts[0], webhookstore.ErrDeliveryConflict):
		a.m.log.Warn("webhook: a delivery changed under its endpoint's actor; dropped", "endpoint", a.id, "event", r.eventID)
		return
	}
	p.d = next
	if next.Status == webhookstore.DeliveryPending {
		p.body = nil // retries read it back: memory holds first attempts' bodies only
		a.queue.add(p)
	} else if a.finished++; a.finished%trimEvery == 0 {
		if err := a.m.journal.TrimDeliveries(a.m.ctx, a.rec, a.m.cfg.History); err != nil {
			a.m.log.Warn("webhook: trim delivery history", "endpoint", a.id, "err", err)
		}
	}
	if !r.noBody {
		a.streak(ok, r.at)
	}
}

// retryLater queues p again, unchanged, for the first retry delay after at.
func (a *endpointActor) retryLater(p *pending, at time.Time) {
	p.d.NextAttemptAt = at.Add(a.m.cfg.Retry[0])
	a.queue.add(p)
}

// streak updates the endpoint's failure streak after an attempt at at, and
// disables it once every attempt failed for the disable horizon.
func (a *endpointActor) streak(ok bool, at time.Time) {
	rec := a.rec
	switch {
	case ok && (rec.FailingSince != nil || rec.LastSuccessAt == nil || at.Sub(*rec.LastSuccessAt) > time.Minute):
		// Only the end of a failure streak needs an fsync (a lost one
		// could disable a healthy endpoint after a machine crash); the
		// success time is status, written at most once a minute.
		a.update(rec.FailingSince != nil, func(e *webhookstore.Endpoint) {
			e.FailingSince, e.LastSuccessAt = nil, &at
		})
	case ok:
	case rec.FailingSince == nil:
		a.update(false, func(e *webhookstore.Endpoint) { e.FailingSince = &at })
	case rec.Enabled && at.Sub(*rec.FailingSince) >= a.m.cfg.DisableAfter:
		since := *rec.FailingSince
		if a.update(true, func(e *webhookstore.Endpoint) {
			e.Enabled = false
			e.DisabledAt = &at
			e.UpdatedAt = at
			e.DisabledReason = fmt.Sprintf("every delivery failed for %s (since %s) with no success in between; re-create the endpoint to re-enable it",
				a.m.cfg.DisableAfter, since.Format(time.RFC3339))
		}) {
			a.m.log.Warn("webhook: endpoint disabled", "endpoint", a.id, "account", rec.AccountID, "failingSince", since)
		}
	}
}

// update applies f to a copy of the record, writes it (with an fsync when
// durable) and only then makes it the actor's; it reports success. A
// disable is counted before the write, so a reader that sees the endpoint
// disabled in the store sees it counted.
func (a *endpointActor) update(durable bool, f func(*webhookstore.Endpoint)) bool {
	rec := *a.rec
	f(&rec)
	disables := a.rec.Enabled && !rec.Enabled
	if disables {
		a.m.stats.disabledTotal.Add(1)
		a.m.stats.disabledNow.Add(1)
	}
	if err := a.m.journal.UpdateEndpoint(a.m.ctx, &rec, durable, nil); err != nil {
		if disables {
			a.m.stats.disabledTotal.Add(^uint64(0))
			a.m.stats.disabledNow.Add(-1)
		}
		a.m.log.Error("webhook: persist endpoint state", "endpoint", a.id, "err", err)
		return false
	}
	a.rec = &rec
	return true
}
