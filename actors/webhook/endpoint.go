package webhook

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/persistence"
)

// Messages of the endpoint actor.
type (
	// enqueueMsg hands new deliveries (already persisted) to the actor.
	enqueueMsg struct {
		deliveries []*persistence.WebhookDelivery
	}
	// wake makes the actor re-check due deliveries (timer, Manager.Wake,
	// an endpoint change).
	wake struct{}
	// attemptDone reports a finished attempt (already persisted).
	attemptDone struct {
		d  *persistence.WebhookDelivery
		ok bool
		at time.Time
	}
)

var wakeMsg = &wake{}

// endpointActor delivers one endpoint's queue: at most Concurrency attempts
// in flight, each in its own goroutine (the mailbox never blocks on the
// network), due deliveries first. It owns the endpoint's failure streak and
// disables it after the horizon.
type endpointActor struct {
	m      *Manager
	id     string
	guard  *endpoint
	client *sender
	queue  deliveryQueue
	// known holds the event ids queued or in flight: a delivery can arrive
	// both from the start-up reload and from an enqueue racing with it.
	known map[string]bool
	// recent holds the event ids of the last finished deliveries: a
	// delivery can be enqueued after it finished here (its row became
	// visible to the start-up reload before its producer's commit
	// returned and sent it).
	recent   recentIDs
	inFlight int
	timer    *time.Timer
	timerAt  time.Time
	finished int
}

// trimEvery is the number of finished deliveries between two trims of an
// endpoint's history.
const trimEvery = 256

func newEndpointActor(m *Manager, id string, ep *endpoint) *endpointActor {
	// The count starts at a random phase: endpoints under the same load
	// would otherwise all trim at the same moment (a burst of history scans
	// that stalled every endpoint's mailbox at once).
	return &endpointActor{m: m, id: id, guard: ep, known: make(map[string]bool), recent: newRecentIDs(recentFinished),
		finished: rand.IntN(trimEvery)}
}

// recentFinished is how many finished deliveries an endpoint remembers.
const recentFinished = 1024

// recentIDs is a bounded set of the last ids added to it.
type recentIDs struct {
	set  map[string]struct{}
	ring []string
	next int
}

func newRecentIDs(n int) recentIDs {
	return recentIDs{set: make(map[string]struct{}, n), ring: make([]string, n)}
}

func (r *recentIDs) add(id string) {
	if old := r.ring[r.next]; old != "" {
		delete(r.set, old)
	}
	r.ring[r.next] = id
	r.set[id] = struct{}{}
	r.next = (r.next + 1) % len(r.ring)
}

func (r *recentIDs) has(id string) bool {
	_, ok := r.set[id]
	return ok
}

// Receive handles the actor's messages.
func (a *endpointActor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		a.start()
		a.pump(ctx)
	case *enqueueMsg:
		for _, d := range msg.deliveries {
			a.add(d)
		}
		a.pump(ctx)
	case *wake:
		a.pump(ctx)
	case *attemptDone:
		a.done(msg)
		a.pump(ctx)
	case *actor.Stopping:
		if a.timer != nil {
			a.timer.Stop()
		}
		if a.client != nil {
			a.client.close()
		}
	case *actor.Stopped, *actor.Restarting:
	default:
		a.m.log.Warn("webhook: unexpected message", "type", fmt.Sprintf("%T", msg), "endpoint", a.id)
	}
}

// start builds the endpoint's HTTP client (its own connection pool, dialing
// through the address policy) and reloads outstanding deliveries.
func (a *endpointActor) start() {
	a.client = newSender(a.m.policy, a.m.cfg.Concurrency, a.m.cfg.Timeout)
	pending, err := a.m.store.PendingDeliveries(a.id)
	if err != nil {
		a.m.log.Error("webhook: reload outstanding deliveries", "endpoint", a.id, "err", err)
		return
	}
	for _, d := range pending {
		a.add(d)
	}
	if len(pending) > 0 {
		a.m.log.Info("webhook: resumed outstanding deliveries", "endpoint", a.id, "count", len(pending))
	}
}

// add queues d unless it is already queued, in flight or just finished.
func (a *endpointActor) add(d *persistence.WebhookDelivery) {
	if a.known[d.EventID] || a.recent.has(d.EventID) {
		return
	}
	a.known[d.EventID] = true
	heap.Push(&a.queue, d)
}

// pump starts every due delivery the concurrency bound allows and arms the
// timer for the next one.
func (a *endpointActor) pump(ctx actor.Context) {
	rec, secret, ok := a.m.snapshot(a.id)
	if !ok || !rec.Enabled || a.m.closed.Load() {
		return
	}
	now := a.m.clock.Now()
	for a.inFlight < a.m.cfg.Concurrency && a.queue.Len() > 0 && !a.queue[0].NextAttemptAt.After(now) {
		d := heap.Pop(&a.queue).(*persistence.WebhookDelivery)
		a.inFlight++
		go a.m.attempt(ctx.Self(), a.guard, a.client, rec.URL, secret, d)
	}
	if a.inFlight >= a.m.cfg.Concurrency || a.queue.Len() == 0 {
		return
	}
	next := a.queue[0].NextAttemptAt
	if a.timer != nil && a.timerAt.Equal(next) {
		return
	}
	if a.timer != nil {
		a.timer.Stop()
	}
	self, root := ctx.Self(), a.m.system.Root
	a.timerAt = next
	a.timer = time.AfterFunc(max(next.Sub(now), 0), func() { root.Send(self, wakeMsg) })
}

// settle takes d back after an attempt: queued again while pending, else
// forgotten and remembered among the recently finished.
func (a *endpointActor) settle(d *persistence.WebhookDelivery) {
	if d.Status == persistence.DeliveryPending {
		heap.Push(&a.queue, d)
		return
	}
	delete(a.known, d.EventID)
	a.recent.add(d.EventID)
}

// done takes back a finished attempt and updates the failure streak.
func (a *endpointActor) done(msg *attemptDone) {
	a.inFlight--
	a.settle(msg.d)
	if a.finished++; a.finished%trimEvery == 0 {
		if err := a.m.store.TrimDeliveries(a.id, a.m.cfg.History); err != nil {
			a.m.log.Warn("webhook: trim delivery history", "endpoint", a.id, "err", err)
		}
	}
	rec, _, ok := a.m.snapshot(a.id)
	if !ok {
		return
	}
	at := msg.at
	var err error
	switch {
	case msg.ok && (rec.FailingSince != nil || rec.LastSuccessAt == nil || at.Sub(*rec.LastSuccessAt) > time.Minute):
		// Only the end of a failure streak needs an fsync (a lost one could
		// disable a healthy endpoint after a machine crash); the success
		// time is status. Waiting for an fsync here, under the manager's
		// lock, stalled every endpoint at their first successes.
		err = a.m.updateEndpoint(a.id, rec.FailingSince != nil, func(e *persistence.WebhookEndpoint) {
			e.FailingSince, e.LastSuccessAt = nil, &at
		})
	case msg.ok:
	case rec.FailingSince == nil:
		err = a.m.updateEndpoint(a.id, false, func(e *persistence.WebhookEndpoint) { e.FailingSince = &at })
	case rec.Enabled && at.Sub(*rec.FailingSince) >= a.m.cfg.DisableAfter:
		since := *rec.FailingSince
		err = a.m.updateEndpoint(a.id, true, func(e *persistence.WebhookEndpoint) {
			e.Enabled = false
			e.DisabledAt = &at
			e.UpdatedAt = at
			e.DisabledReason = fmt.Sprintf("every delivery failed for %s (since %s) with no success in between; re-create the endpoint to re-enable it",
				a.m.cfg.DisableAfter, since.Format(time.RFC3339))
		})
		if err == nil {
			a.m.log.Warn("webhook: endpoint disabled", "endpoint", a.id, "account", rec.AccountID, "failingSince", since)
		}
	}
	if err != nil && err != errEndpointGone {
		a.m.log.Error("webhook: persist endpoint state", "endpoint", a.id, "err", err)
	}
}

// deliveryQueue is a min-heap of deliveries by next attempt time.
type deliveryQueue []*persistence.WebhookDelivery

func (q deliveryQueue) Len() int { return len(q) }
func (q deliveryQueue) Less(i, j int) bool {
	return q[i].NextAttemptAt.Before(q[j].NextAttemptAt)
}
func (q deliveryQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }

// Push adds x (a *persistence.WebhookDelivery).
func (q *deliveryQueue) Push(x any) { *q = append(*q, x.(*persistence.WebhookDelivery)) }

// Pop removes the last element.
func (q *deliveryQueue) Pop() any {
	old := *q
	d := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	return d
}
