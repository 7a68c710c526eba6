package webhook

import (
	"container/heap"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/persistence"
)

// outcome is a finished attempt: the delivery as the actor holds it and
// its state after the attempt.
type outcome struct {
	p    *pending
	next *persistence.WebhookDelivery
	// ok: answered 2xx; counted: the attempt reached the receiver (or
	// tried to), so it counts for the endpoint's failure streak.
	ok, counted bool
	at          time.Time
}

// attemptDone takes a finished attempt: the actor computes the delivery's
// next state and queues its write.
func (a *endpointActor) attemptDone(ctx actor.Context, r *attemptDone) {
	p := a.flying[r.eventID]
	if p == nil || a.rec == nil {
		return // the endpoint was deleted meanwhile
	}
	if r.skipped != nil && !r.noBody {
		// The body could not be read (the store is failing): no attempt
		// was made; try again later.
		a.m.log.Error("webhook: read event body", "endpoint", a.id, "event", r.eventID, "err", r.skipped)
		delete(a.flying, r.eventID)
		p.d.NextAttemptAt = a.m.clock.Now().Add(a.m.cfg.Retry[0])
		heap.Push(&a.queue, p)
		return
	}
	next, ok := a.m.outcomeOf(p.d, r)
	a.outcomes = append(a.outcomes, &outcome{p: p, next: next, ok: ok, counted: !r.noBody, at: r.at})
	a.writeOutcomes(ctx)
}

// writeOutcomes starts the write of the outcomes waiting, unless one is in
// flight: one write at a time per endpoint, so its outcomes are written in
// order, each group in one journal call. The wait for the store happens
// off the mailbox; the result comes back as outcomesWritten.
func (a *endpointActor) writeOutcomes(ctx actor.Context) {
	if a.writing || len(a.outcomes) == 0 {
		return
	}
	batch := a.outcomes
	a.outcomes = nil
	a.writing = true
	trim := a.trimDue
	a.trimDue = false
	ds := make([]*persistence.WebhookDelivery, len(batch))
	for i, o := range batch {
		ds[i] = o.next
	}
	m, rec, self := a.m, a.rec, ctx.Self()
	m.writes.Add(1)
	go func() {
		defer m.writes.Done()
		conflicts, err := m.journal.RecordOutcomes(m.ctx, rec, ds)
		if trim && err == nil {
			if err := m.journal.TrimDeliveries(m.ctx, rec, m.cfg.History); err != nil {
				m.log.Warn("webhook: trim delivery history", "endpoint", rec.ID, "err", err)
			}
		}
		m.system.Root.Send(self, &outcomesWritten{batch: batch, conflicts: conflicts, err: err})
	}()
}

// outcomesWritten settles the outcomes of a write: each delivery is queued
// again while outstanding, else forgotten, and the endpoint's failure
// streak follows the attempts.
func (a *endpointActor) outcomesWritten(ctx actor.Context, w *outcomesWritten) {
	a.writing = false
	if a.rec == nil {
		return // deleted meanwhile: nothing is left to settle
	}
	if w.err != nil {
		a.m.log.Error("webhook: persist attempt outcomes; the deliveries are attempted again", "endpoint", a.id, "count", len(w.batch), "err", w.err)
	}
	for i, o := range w.batch {
		if a.flying[o.p.d.EventID] != o.p {
			continue
		}
		delete(a.flying, o.p.d.EventID)
		switch {
		case w.err != nil:
			// Not written: the stored delivery is still at the version
			// held, so it is attempted again from there.
			o.p.d.NextAttemptAt = o.at.Add(a.m.cfg.Retry[0])
			heap.Push(&a.queue, o.p)
			continue
		case errors.Is(w.conflicts[i], persistence.ErrDeliveryConflict):
			a.m.log.Warn("webhook: a delivery changed under its endpoint's actor; dropped", "endpoint", a.id, "event", o.p.d.EventID)
			continue
		}
		o.p.d = o.next
		if o.next.Status == persistence.DeliveryPending {
			o.p.body = nil // retries read it back: memory holds first attempts' bodies only
			heap.Push(&a.queue, o.p)
		} else if a.finished++; a.finished%trimEvery == 0 {
			a.trimDue = true
		}
		if o.counted {
			a.streak(o.ok, o.at)
		}
	}
	a.writeOutcomes(ctx)
}

// streak updates the endpoint's failure streak after an attempt at at, and
// disables it once every attempt failed for the disable horizon.
func (a *endpointActor) streak(ok bool, at time.Time) {
	rec := a.rec
	if rec == nil {
		return
	}
	switch {
	case ok && (rec.FailingSince != nil || rec.LastSuccessAt == nil || at.Sub(*rec.LastSuccessAt) > time.Minute):
		// Only the end of a failure streak needs an fsync (a lost one
		// could disable a healthy endpoint after a machine crash); the
		// success time is status, written at most once a minute.
		a.update(rec.FailingSince != nil, func(e *persistence.WebhookEndpoint) {
			e.FailingSince, e.LastSuccessAt = nil, &at
		})
	case ok:
	case rec.FailingSince == nil:
		a.update(false, func(e *persistence.WebhookEndpoint) { e.FailingSince = &at })
	case rec.Enabled && at.Sub(*rec.FailingSince) >= a.m.cfg.DisableAfter:
		since := *rec.FailingSince
		if a.update(true, func(e *persistence.WebhookEndpoint) {
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
func (a *endpointActor) update(durable bool, f func(*persistence.WebhookEndpoint)) bool {
	rec := *a.rec
	f(&rec)
	disables := a.rec.Enabled && !rec.Enabled
	if disables {
		a.m.stats.disabledTotal.Add(1)
		a.m.stats.disabledNow.Add(1)
	}
	if err := a.m.journal.UpdateEndpoint(a.m.ctx, &rec, durable); err != nil {
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
