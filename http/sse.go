package http

import (
	"bufio"
	"bytes"
	"context"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/api"
)

// Server-Sent Events (the keeper stream and the order stream). A stream
// route authenticates and counts in its bucket like any route, once per
// connection; the service opens an api.Stream (a refusal is the usual JSON
// error answer), and the answer is text/event-stream: the events Next
// returns, each written and flushed, and a comment line every
// streams.heartbeat while there is none, until the client goes away, the
// server shuts down or the stream fails. Each write must complete within
// http.writeTimeout (a client that stops reading is dropped), and the
// connection closes with the stream.

// streamFunc opens the stream of a route.
type streamFunc func(ctx context.Context, s *Services, in *input) (api.Stream, error)

// sseRetryMillis is the reconnection delay the streams ask of EventSource
// clients (the retry: field of their first line).
const sseRetryMillis = "1000"

// openStreams tracks the open streams: how many each key (or dashboard
// session's account) holds, and the context that ends them all at
// shutdown.
type openStreams struct {
	max       int
	heartbeat time.Duration

	mu     sync.Mutex
	perKey map[string]int
	ctx    context.Context
	cancel context.CancelFunc
}

func newOpenStreams(max int, heartbeat time.Duration) *openStreams {
	ctx, cancel := context.WithCancel(context.Background())
	return &openStreams{max: max, heartbeat: heartbeat, perKey: map[string]int{}, ctx: ctx, cancel: cancel}
}

// acquire counts one more stream of subject, or refuses it over the cap.
func (o *openStreams) acquire(subject string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ctx.Err() != nil {
		return orderengine.Errorf(orderengine.CodeServiceUnavailable, "the server is shutting down: reconnect to another instance")
	}
	if o.perKey[subject] >= o.max {
		return orderengine.Errorf(orderengine.CodeLimitReached,
			"this key already holds %d open streams, the most a key may hold (streams.maxPerKey): close one first", o.max)
	}
	o.perKey[subject]++
	return nil
}

func (o *openStreams) release(subject string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.perKey[subject]--; o.perKey[subject] <= 0 {
		delete(o.perKey, subject)
	}
}

// open reports the streams open now.
func (o *openStreams) open() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for _, c := range o.perKey {
		n += c
	}
	return n
}

// closeAll ends every stream (Shutdown) and refuses new ones.
func (o *openStreams) closeAll() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.cancel()
}

// serveStream answers a stream route: subject is the caller's key id (or
// acct:<id> for a session), the unit of streams.maxPerKey.
func (s *Server) serveStream(c *fiber.Ctx, r *Route, in *input, subject string) error {
	if err := s.streams.acquire(subject); err != nil {
		return err
	}
	st, err := r.stream(c.UserContext(), &s.services, in)
	if err != nil {
		s.streams.release(subject)
		return err
	}
	c.Status(fiber.StatusOK)
	c.Set(fiber.HeaderContentType, "text/event-stream; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set("X-Accel-Buffering", "no") // nginx: pass each event on at once
	rctx := c.Context()
	rctx.SetConnectionClose()
	// The stream lasts: no deadline for the whole answer, one per write,
	// set on the connection itself: the writer runs on after the server
	// gave the request context back when the client went away.
	_ = rctx.SetWriteDeadline(time.Time{})
	conn := rctx.Conn()
	writeTimeout := s.cfg.HTTP.WriteTimeout
	route := r.Path
	rctx.SetBodyStreamWriter(func(w *bufio.Writer) {
		defer s.streams.release(subject)
		defer st.Close()
		s.metrics.streamOpened(route)
		defer s.metrics.streamClosed(route)
		write := func(b []byte) bool {
			if writeTimeout > 0 && conn != nil {
				_ = conn.SetWriteDeadline(time.Now().Add(writeTimeout))
			}
			if _, err := w.Write(b); err != nil {
				return false
			}
			return w.Flush() == nil
		}
		if !write([]byte("retry: " + sseRetryMillis + "\n\n")) {
			return
		}
		var buf []byte
		for {
			ctx, cancel := context.WithTimeout(s.streams.ctx, s.streams.heartbeat)
			events, err := st.Next(ctx)
			cancel()
			if s.streams.ctx.Err() != nil {
				return
			}
			if err != nil {
				s.log.Warn("stream ended by its service", "route", route, "err", err)
				return
			}
			buf = buf[:0]
			if len(events) == 0 {
				buf = append(buf, ": heartbeat\n\n"...)
			}
			for _, e := range events {
				buf = appendEvent(buf, e)
			}
			if !write(buf) {
				return
			}
		}
	})
	return nil
}

// appendEvent appends one event in the text/event-stream format: id,
// event, then the data one data: line per line of it, and a blank line.
func appendEvent(b []byte, e api.Event) []byte {
	if e.ID != "" {
		b = append(b, "id: "...)
		b = append(b, e.ID...)
		b = append(b, '\n')
	}
	if e.Name != "" {
		b = append(b, "event: "...)
		b = append(b, e.Name...)
		b = append(b, '\n')
	}
	data := e.Data
	for {
		line, rest, more := bytes.Cut(data, []byte{'\n'})
		b = append(b, "data: "...)
		b = append(b, line...)
		b = append(b, '\n')
		if !more {
			break
		}
		data = rest
	}
	return append(b, '\n')
}

// lastEventID returns the request's Last-Event-ID header (a copy), or
// INVALID_REQUEST when it is longer than any id the streams send.
func (in *input) lastEventID() (string, error) {
	v := in.c.Get("Last-Event-ID")
	if len(v) > api.MaxLastEventID {
		return "", orderengine.Errorf(orderengine.CodeInvalidRequest,
			"Last-Event-ID is %d bytes, more than any event id (%d): send back the id of the last event received", len(v), api.MaxLastEventID)
	}
	return string([]byte(v)), nil
}
