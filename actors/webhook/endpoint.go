package webhook

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/webhookstore"
)

// Messages of the endpoint actor. The management requests (manage.go) are
// answered with an answer, createDeliveries on its reply channel.
type (
	// createDeliveries asks for the deliveries the endpoint wants of
	// outbox rows (the fan-out); the answer goes to reply. last: the
	// endpoint is the only one the rows are handed to, so its write also
	// moves the account's outbox cursor past them.
	createDeliveries struct {
		rows  []persistence.OutboxRow
		reply chan created
		last  bool
	}
	// created answers createDeliveries.
	created struct {
		endpoint string
		err      error
	}
	// wake makes the actor re-check due deliveries (its timer,
	// Manager.Wake).
	wake struct{}
	// attemptDone reports a finished attempt from its goroutine.
	attemptDone struct {
		eventID    string
		at         time.Time
		code       int
		retryAfter time.Duration
		err        error
		latency    time.Duration
		// skipped is set when no request was made: the body could not
		// be read (noBody: it is not stored).
		skipped error
		noBody  bool
	}
)

// answer is the reply to every request to an endpoint actor.
type answer struct {
	v   any
	err error
}

var wakeMsg = &wake{}

// Answers of an endpoint actor that the manager turns into NOT_FOUND.
var (
	// errGone: the actor's endpoint does not exist (deleted, or never
	// created); the actor can be retired.
	errGone = errors.New("webhook: no such endpoint")
	// errForeign: the endpoint belongs to another account.
	errForeign = errors.New("webhook: the endpoint belongs to another account")
)

// endpointActor is the only owner of one endpoint: its record (enabled,
// failure streak, last success, disabled reason, secret), its queue and
// its deliveries. It writes all of them through the delivery journal. At
// most Concurrency attempts are in flight, each in its own goroutine (the
// mailbox never waits for the network), due deliveries first; each reports
// back as a message, and the actor writes its outcome.
type endpointActor struct {
	m  *Manager
	id string
	// rec is the endpoint's record; nil when there is no endpoint (not
	// created yet, or deleted).
	rec    *webhookstore.Endpoint
	secret string
	// previous is the secret a rotation replaced while it signs too
	// (until rec.PreviousSecretUntil), else "".
	previous string
	client   *sender
	// queue holds the outstanding deliveries, waiting for their next
	// attempt or in one, each order's in sequence (queue.go).
	queue   queue
	timer   *time.Timer
	timerAt time.Time
	// created is the creation time of the newest delivery the actor
	// created or loaded: the next one is created after it (createdAt).
	created time.Time
	// finished counts finished deliveries (a trim every trimEvery).
	finished int
	// refreshedAt and refreshTimer pace the reloads after replicated
	// writes in a cluster (cluster.go).
	refreshedAt  time.Time
	refreshTimer *time.Timer
	// sending: on a cluster node, whether this node owned the endpoint
	// at the actor's last pump (cluster.go, catchUp).
	sending bool
	// flying counts the endpoint's attempts in flight, with their
	// outcomes' writes (Manager.Drain).
	flying *atomic.Int64
}

// trimEvery is the number of finished deliveries between two trims of an
// endpoint's history.
const trimEvery = 256

func newEndpointActor(m *Manager, id string) *endpointActor {
	// The count starts at a random phase: endpoints under the same load
	// would otherwise all trim at the same moment.
	return &endpointActor{m: m, id: id, queue: newQueue(), finished: rand.IntN(trimEvery), flying: m.flyingOf(id)}
}

// Receive handles the actor's messages.
func (a *endpointActor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *kind.Activated:
		a.activate()
	case *createDeliveries:
		msg.reply <- created{endpoint: a.id, err: a.createDeliveries(msg.rows, msg.last)}
	case *wake:
	case *refreshMsg:
		a.refresh(ctx)
	case *attemptDone:
		a.attemptDone(msg)
	case *createEndpoint, *reenable, *deleteEndpoint, *sendTest, *rotateSecret, *resendDelivery:
		ctx.Respond(a.manage(msg))
		// The write waited until this node applied the endpoint's earlier
		// writes (another node's rotation among them): their refresh is
		// taken now, not after the throttle, so that what this write
		// queued is sent with the record as it stands.
		a.refreshPending()
	case *actor.Stopping:
		a.stopTimer()
		if a.refreshTimer != nil {
			a.refreshTimer.Stop()
		}
		if a.client != nil {
			a.client.close()
		}
		return
	case *actor.Stopped:
		return
	default:
		a.m.log.Warn("webhook: unexpected message", "type", fmt.Sprintf("%T", msg), "endpoint", a.id)
		return
	}
	a.pump(ctx)
}

// activate loads the endpoint's record and its outstanding deliveries.
func (a *endpointActor) activate() {
	rec, found, err := a.m.journal.LoadEndpoint(a.id)
	if err != nil {
		a.m.log.Error("webhook: load endpoint", "endpoint", a.id, "err", err)
		return
	}
	if !found {
		return // created by the next message, or deleted
	}
	secret, err := a.m.sealer.open(rec.ID, rec.SealedSecret)
	if err != nil {
		a.m.log.Error("webhook: endpoint secret", "endpoint", a.id, "err", err)
		return
	}
	a.rec, a.secret = rec, secret
	if rec.PreviousSecretUntil != nil && rec.PreviousSecretUntil.After(a.m.clock.Now()) {
		if a.previous, err = a.m.sealer.open(rec.ID, rec.PreviousSealedSecret); err != nil {
			a.m.log.Error("webhook: endpoint's previous secret", "endpoint", a.id, "err", err)
			a.previous = ""
		}
	}
	if a.client == nil {
		a.client = a.m.newSender()
	}
	if n := a.reload(); n > 0 {
		a.m.log.Info("webhook: resumed outstanding deliveries", "endpoint", a.id, "count", n)
	}
}

// reload holds the endpoint's outstanding deliveries as stored instead of
// those the actor held, except those in flight, and returns their number.
// The order of a delivery it did not hold is read from its event's body.
func (a *endpointActor) reload() int {
	ds, err := a.m.journal.PendingDeliveries(a.id)
	if err != nil {
		a.m.log.Error("webhook: reload outstanding deliveries", "endpoint", a.id, "err", err)
		return 0
	}
	known := a.queue.orders()
	ps := make([]*pending, len(ds))
	for i, d := range ds {
		ps[i] = &pending{d: d}
		if order, ok := known[d.EventID]; ok {
			ps[i].order = order
		} else {
			ps[i].order = a.orderOf(d.EventID)
		}
		if d.CreatedAt.After(a.created) {
			a.created = d.CreatedAt
		}
	}
	a.queue.replace(ps)
	return len(ps)
}

// orderOf returns the order the stored body of an event names ("" when
// none, or when the body cannot be read: the attempt then reports it).
func (a *endpointActor) orderOf(eventID string) string {
	body, ok, err := a.m.journal.EventBody(a.rec.AccountID, eventID)
	if err != nil {
		a.m.log.Error("webhook: read an event's body for its order; it is sent out of sequence", "endpoint", a.id, "event", eventID, "err", err)
	}
	if !ok {
		return ""
	}
	return orderOf(body)
}

// createdAt returns the creation time of the next delivery the actor
// creates at now: now, or just after the newest it created or loaded, so
// that creation times follow the order of creation (queue.go).
func (a *endpointActor) createdAt(now time.Time) time.Time {
	if !now.After(a.created) {
		now = a.created.Add(time.Nanosecond)
	}
	a.created = now
	return now
}

// createdSlack allows for the clocks of two nodes of a cluster: the
// node that recorded an event's transition, and the one that created the
// endpoint.
const createdSlack = time.Second

// happenedBefore reports whether row's event happened before an endpoint
// created at created (createdSlack earlier): an endpoint gets the events
// of the transitions recorded from its creation on. An event handed on
// late (a node's fan-out that resumed after an outage) does not reach an
// endpoint registered since.
func happenedBefore(row *persistence.OutboxRow, created time.Time) bool {
	return !row.CreatedAt.IsZero() && !created.IsZero() && row.CreatedAt.Before(created.Add(-createdSlack))
}

// createDeliveries creates the deliveries the endpoint wants of rows
// (enabled, subscribed; test.ping is never fanned out) and queues those
// that are new. When last, the same write moves the account's outbox
// cursor past the rows: the endpoint is the only one of its account they
// go to.
func (a *endpointActor) createDeliveries(rows []persistence.OutboxRow, last bool) error {
	if a.rec == nil {
		return errGone
	}
	var cursor uint64
	if last && len(rows) > 0 {
		cursor = rows[len(rows)-1].Seq + 1
	}
	var nds []webhookstore.NewDelivery
	if a.rec.Enabled {
		now := a.m.clock.Now().UTC()
		for i := range rows {
			r := &rows[i]
			if r.Trigger == persistence.TriggerTestPing || !a.rec.Subscribed(r.Trigger) || happenedBefore(r, a.rec.CreatedAt) {
				continue
			}
			d := newDelivery(a.id, r.ID, r.Trigger, now)
			d.CreatedAt = a.createdAt(now)
			nds = append(nds, webhookstore.NewDelivery{Delivery: d, Body: r.JSON})
		}
	}
	if len(nds) == 0 && cursor == 0 {
		return nil
	}
	// Without an fsync wait: a power loss before a later synced write
	// drops them, and the cursor's move with them (it is in the same
	// batch, or comes later in the WAL), so the events are handed on
	// again.
	created, err := a.m.journal.CreateDeliveries(a.m.ctx, a.rec, nds, false, cursor)
	if err != nil {
		return err
	}
	if cursor != 0 {
		a.m.outbox.Consumed(a.rec.AccountID, cursor)
	}
	for i, nd := range nds {
		if created[i] {
			a.queue.add(&pending{d: nd.Delivery, body: nd.Body, order: orderOf(nd.Body)})
		}
	}
	return nil
}

// newDelivery returns the outstanding delivery of an event to an endpoint,
// due now.
func newDelivery(endpointID, eventID, trigger string, now time.Time) *webhookstore.Delivery {
	return &webhookstore.Delivery{
		EndpointID: endpointID, EventID: eventID, Trigger: trigger,
		CreatedAt: now, Status: webhookstore.DeliveryPending, NextAttemptAt: now,
	}
}

// pump starts every due delivery the concurrency bound allows and arms the
// timer for the next one.
func (a *endpointActor) pump(ctx actor.Context) {
	if a.rec == nil || !a.rec.Enabled || a.m.draining.Load() {
		return
	}
	if !a.m.sends(a.id) {
		a.sending = false
		return
	}
	if !a.sending && a.m.owns != nil {
		// This node has just come to own the endpoint: what is
		// outstanding here may trail the previous owner's last outcomes.
		a.sending = true
		if _, waiting := a.queue.nextAt(); waiting {
			if a.catchUp(); a.rec == nil || !a.rec.Enabled {
				return
			}
		}
	}
	now := a.m.clock.Now()
	if a.previous != "" && !a.rec.PreviousSecretUntil.After(now) {
		a.previous = "" // the rotation's overlap is over
	}
	for a.queue.inFlight() < a.m.cfg.Concurrency {
		p := a.queue.take(now)
		if p == nil {
			break
		}
		a.flying.Add(1)
		go a.m.attempt(ctx.Self(), a.flying, a.client, a.rec.AccountID, a.rec.URL, signers{a.secret, a.previous}, p.d.EventID, p.d.Trigger, p.body)
	}
	next, ok := a.queue.nextAt()
	if !ok || a.queue.inFlight() >= a.m.cfg.Concurrency {
		return
	}
	if a.timer != nil && a.timerAt.Equal(next) {
		return
	}
	a.stopTimer()
	self, root := ctx.Self(), a.m.system.Root
	a.timerAt = next
	a.timer = time.AfterFunc(max(next.Sub(now), 0), func() { root.Send(self, wakeMsg) })
}

func (a *endpointActor) stopTimer() {
	if a.timer != nil {
		a.timer.Stop()
		a.timer = nil
	}
}
