package webhook

import (
	"bytes"
	"container/heap"
	"time"

	"github.com/orderengine/orderengine/persistence/webhookstore"
)

// queue holds an endpoint actor's outstanding deliveries, waiting or in
// flight, and keeps each order's events in sequence: at most one delivery
// of an order is in flight, and the next one of that order becomes due only
// once it is settled (delivered, given up or scheduled for a retry, and
// then still first). Deliveries of other orders, and those of no order
// (test.ping), are not held back.
//
// A delivery's place in its order's sequence is its creation: the actor
// creates an endpoint's deliveries in the order of their events in the
// account's outbox, with strictly increasing creation times
// (endpointActor.createdAt), and the store lists outstanding deliveries by
// creation time (the key w/p/<endpoint>/<at>/<event>), so the sequence
// survives a restart.
type queue struct {
	// due holds the deliveries that may be attempted once their time
	// comes: the first of each order not in flight, and those of no order.
	due dueHeap
	// lines holds each order's deliveries that are not in flight, oldest
	// first, by order hash.
	lines map[string]*orderLine
	// flying holds the deliveries in an attempt, by event id.
	flying map[string]*pending
}

// orderLine is the outstanding deliveries of one order.
type orderLine struct {
	// waiting are the deliveries not in flight, oldest first; waiting[0]
	// is in due unless busy.
	waiting []*pending
	// busy is set while a delivery of the order is in flight.
	busy bool
}

// pending is an outstanding delivery the actor holds.
type pending struct {
	d *webhookstore.Delivery
	// body is the event's body while the first attempt is to come (the
	// fan-out's bytes); nil: the attempt reads it from the store.
	body []byte
	// order is the hash of the order the event is about ("" for none).
	order string
	// index is the delivery's place in due, -1 when it is not there.
	index int
}

func newQueue() queue {
	return queue{lines: make(map[string]*orderLine), flying: make(map[string]*pending)}
}

// before reports whether a comes before b in their order's sequence.
func before(a, b *pending) bool {
	if !a.d.CreatedAt.Equal(b.d.CreatedAt) {
		return a.d.CreatedAt.Before(b.d.CreatedAt)
	}
	return a.d.EventID < b.d.EventID
}

// add holds p, an outstanding delivery that is not in flight.
func (q *queue) add(p *pending) {
	p.index = -1
	if p.order == "" {
		heap.Push(&q.due, p)
		return
	}
	l := q.lines[p.order]
	if l == nil {
		l = &orderLine{}
		q.lines[p.order] = l
	}
	i := len(l.waiting)
	for i > 0 && before(p, l.waiting[i-1]) {
		i--
	}
	l.waiting = append(l.waiting, nil)
	copy(l.waiting[i+1:], l.waiting[i:])
	l.waiting[i] = p
	if i != 0 || l.busy {
		return
	}
	if len(l.waiting) > 1 && l.waiting[1].index >= 0 {
		heap.Remove(&q.due, l.waiting[1].index) // no longer first
	}
	heap.Push(&q.due, p)
}

// nextAt returns the next attempt time of the first due delivery.
func (q *queue) nextAt() (time.Time, bool) {
	if len(q.due) == 0 {
		return time.Time{}, false
	}
	return q.due[0].d.NextAttemptAt, true
}

// take removes the first due delivery when its time has come by now and
// holds it in flight; nil when none is due.
func (q *queue) take(now time.Time) *pending {
	if len(q.due) == 0 || q.due[0].d.NextAttemptAt.After(now) {
		return nil
	}
	p := heap.Pop(&q.due).(*pending)
	if l := q.lines[p.order]; p.order != "" && l != nil {
		l.waiting = l.waiting[1:] // p was first
		l.busy = true
	}
	q.flying[p.d.EventID] = p
	return p
}

// land ends the flight of eventID's delivery and returns it (nil when it
// is not in flight); the next delivery of its order becomes due. The
// caller adds it again when it stays outstanding.
func (q *queue) land(eventID string) *pending {
	p := q.flying[eventID]
	if p == nil {
		return nil
	}
	delete(q.flying, eventID)
	q.release(p.order)
	return p
}

// release ends the flight of order's delivery: its next one becomes due.
func (q *queue) release(order string) {
	l := q.lines[order]
	if order == "" || l == nil {
		return
	}
	l.busy = false
	if len(l.waiting) == 0 {
		delete(q.lines, order)
		return
	}
	heap.Push(&q.due, l.waiting[0])
}

// find returns the held delivery of eventID, and whether it is in flight.
func (q *queue) find(eventID string) (p *pending, flying bool) {
	if p := q.flying[eventID]; p != nil {
		return p, true
	}
	for _, p := range q.due {
		if p.d.EventID == eventID {
			return p, false
		}
	}
	for _, l := range q.lines {
		for _, p := range l.waiting {
			if p.d.EventID == eventID {
				return p, false
			}
		}
	}
	return nil, false
}

// rescheduled takes p's new next attempt time into account (p is held,
// not in flight).
func (q *queue) rescheduled(p *pending) {
	if p.index >= 0 {
		heap.Fix(&q.due, p.index)
	}
}

// inFlight returns the number of deliveries in flight.
func (q *queue) inFlight() int { return len(q.flying) }

// orders returns the order of every delivery held, by event id.
func (q *queue) orders() map[string]string {
	out := make(map[string]string, len(q.flying)+len(q.due))
	for id, p := range q.flying {
		out[id] = p.order
	}
	for _, p := range q.due {
		out[p.d.EventID] = p.order
	}
	for _, l := range q.lines {
		for _, p := range l.waiting {
			out[p.d.EventID] = p.order
		}
	}
	return out
}

// reset drops every delivery, those in flight included.
func (q *queue) reset() { *q = newQueue() }

// replace holds ps instead of the deliveries held that are not in flight;
// those of ps in flight stay with their attempts.
func (q *queue) replace(ps []*pending) {
	flying := q.flying
	*q = newQueue()
	q.flying = flying
	for _, p := range flying {
		if p.order != "" {
			q.lines[p.order] = &orderLine{busy: true}
		}
	}
	for _, p := range ps {
		if flying[p.d.EventID] == nil {
			q.add(p)
		}
	}
	for order, l := range q.lines {
		if len(l.waiting) == 0 && !l.busy {
			delete(q.lines, order)
		}
	}
}

// orderHashKey is how an event body names its order (persistence.OutboxEvent.AppendJSON).
var orderHashKey = []byte(`"orderHash":"`)

// orderOf returns the order hash an event body names, "" when none. The
// body is an OutboxEvent's JSON, whose string values escape every '"', so
// the key can only appear as data.orderHash's; the hash is hex.
func orderOf(body []byte) string {
	i := bytes.Index(body, orderHashKey)
	if i < 0 {
		return ""
	}
	rest := body[i+len(orderHashKey):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}

// dueHeap is a min-heap of deliveries by next attempt time; each knows
// its index.
type dueHeap []*pending

func (q dueHeap) Len() int { return len(q) }
func (q dueHeap) Less(i, j int) bool {
	return q[i].d.NextAttemptAt.Before(q[j].d.NextAttemptAt)
}

func (q dueHeap) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}

// Push adds x (a *pending).
func (q *dueHeap) Push(x any) {
	p := x.(*pending)
	p.index = len(*q)
	*q = append(*q, p)
}

// Pop removes the last element.
func (q *dueHeap) Pop() any {
	old := *q
	p := old[len(old)-1]
	old[len(old)-1] = nil
	p.index = -1
	*q = old[:len(old)-1]
	return p
}
