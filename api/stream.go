package api

import "context"

// Event is one Server-Sent Event of a stream: its id (the SSE id: line, which
// a client sends back as Last-Event-ID when it reconnects), its name (the
// event: line) and its data, one JSON document.
type Event struct {
	ID, Name string
	Data     []byte
}

// Stream is an open subscription of a Server-Sent Events endpoint. The
// HTTP layer writes what Next returns until the client goes away, the
// server shuts down or Next fails, then calls Close once.
type Stream interface {
	// Next waits until the stream has events, and returns them in order.
	// It returns no events and no error when ctx ends (the HTTP layer then
	// sends a heartbeat, or stops). An error ends the stream.
	Next(ctx context.Context) ([]Event, error)
	// Close releases the subscription.
	Close()
}

// KeeperStreamRequest holds the query of GET /v1/keeper/stream and the
// Last-Event-ID header of a reconnection ("" for a first connection).
type KeeperStreamRequest struct {
	Keeper, Pair string
	LastEventID  string
}

// OrderStreamRequest holds the Last-Event-ID header of a reconnection to
// GET /v1/orders/stream ("" for a first connection).
type OrderStreamRequest struct {
	LastEventID string
}

// MaxLastEventID bounds the Last-Event-ID header a stream accepts: longer
// is 400 INVALID_REQUEST (the ids the engine sends are far shorter).
const MaxLastEventID = 64
