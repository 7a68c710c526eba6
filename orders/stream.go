package orders

import (
	"context"
	"log/slog"
	"time"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/persistence"
)

// EventStream serves GET /v1/orders/stream: the events of the caller's
// account (the orders submitted with its keys and those of its linked
// wallets), as its webhook endpoints receive them: each event's name is
// its trigger, its data the delivery body, its id the delivery id. It
// reads the outbox's event log (persistence/eventlog.go), written in the
// batch of each transition, so the stream and the webhooks carry the same
// events under the same ids.
type EventStream struct {
	outbox *persistence.Outbox
	// overlap is how far before the resumed event a resumption replays
	// (a cluster: another node may have logged events of different orders
	// in a slightly different order); zero on one node.
	overlap time.Duration
	// retention is how long an event stays in the log (the webhook retry
	// horizon).
	retention time.Duration
	now       func() time.Time
	log       *slog.Logger
}

// EventStreamOptions configure an EventStream.
type EventStreamOptions struct {
	Outbox *persistence.Outbox
	// ResumeOverlap, in a cluster, replays the events logged this long
	// before the one a client resumes after (it dedupes them by id).
	ResumeOverlap time.Duration
	// Retention is how long the log keeps an event.
	Retention time.Duration
	Now       func() time.Time
	Log       *slog.Logger
}

// NewEventStream returns the order stream service.
func NewEventStream(o EventStreamOptions) *EventStream {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &EventStream{outbox: o.Outbox, overlap: o.ResumeOverlap, retention: o.Retention, now: o.Now, log: o.Log.With("component", "order-stream")}
}

// streamBatch is the most events one Next returns.
const streamBatch = 256

// trimEvery is the period of the event log's trim by age.
const trimEvery = 10 * time.Minute

// Run trims the event log by age every trimEvery until ctx ends.
func (s *EventStream) Run(ctx context.Context) {
	t := time.NewTicker(trimEvery)
	defer t.Stop()
	for {
		if s.retention > 0 {
			if n, err := s.outbox.TrimLog(s.now().Add(-s.retention)); err != nil {
				s.log.Warn("order stream: trim the event log", "err", err)
			} else if n > 0 {
				s.log.Debug("order stream: trimmed the event log", "events", n)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Subscribe implements http.OrderStreamService. Without Last-Event-ID the
// stream starts with the next event; with one, after that event (and, in a
// cluster, the overlap before it). An id the log does not hold (older than
// the retention) replays every event it holds: dedupe on the id.
func (s *EventStream) Subscribe(_ context.Context, caller api.Caller, req api.OrderStreamRequest) (api.Stream, error) {
	if caller.AccountID == "" {
		return nil, orderengine.Errorf(orderengine.CodeUnauthorized, "the order stream follows an account: authenticate with its API key or its session")
	}
	sub := &eventSub{s: s, account: caller.AccountID}
	if req.LastEventID == "" {
		next, err := s.outbox.LogNext(sub.account)
		if err != nil {
			return nil, err
		}
		sub.next = next
		return sub, nil
	}
	if !eventIDShape(req.LastEventID) {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest,
			"Last-Event-ID %q is not an event id (evt_…): send back the id of the last event received", req.LastEventID)
	}
	row, from, found, err := s.outbox.LogFind(sub.account, req.LastEventID, s.overlap)
	if err != nil {
		return nil, err
	}
	switch {
	case !found:
		sub.next = 0
	case from < row.Seq:
		sub.next = from // the overlap: events logged just before it, sent again
	default:
		sub.next = row.Seq + 1
	}
	return sub, nil
}

// eventIDShape reports whether v looks like an event id: evt_ and base62.
func eventIDShape(v string) bool {
	const prefix = "evt_"
	if len(v) <= len(prefix) || len(v) > api.MaxLastEventID || v[:len(prefix)] != prefix {
		return false
	}
	for _, c := range v[len(prefix):] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// eventSub is one open order stream.
type eventSub struct {
	s       *EventStream
	account string
	next    uint64 // the next log seq to send
}

// Next implements api.Stream.
func (e *eventSub) Next(ctx context.Context) ([]api.Event, error) {
	for {
		wait := e.s.outbox.LogWatch(e.account)
		rows, err := e.s.outbox.LogFrom(e.account, e.next, streamBatch)
		if err != nil {
			return nil, err
		}
		if len(rows) > 0 {
			events := make([]api.Event, len(rows))
			for i, r := range rows {
				events[i] = api.Event{ID: r.ID(), Name: r.Trigger(), Data: r.JSON}
			}
			e.next = rows[len(rows)-1].Seq + 1
			return events, nil
		}
		select {
		case <-ctx.Done():
			return nil, nil
		case <-wait:
		}
	}
}

// Close implements api.Stream.
func (e *eventSub) Close() {}
