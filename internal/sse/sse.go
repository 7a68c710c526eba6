// Package sse reads a text/event-stream (Server-Sent Events) as the
// WHATWG EventSource does: "field: value" lines, events ended by a blank
// line, several data lines joined with a newline, comments (lines starting
// with a colon) and the retry field skipped, the last id remembered for a
// reconnection's Last-Event-ID. The engine's keeper reads its streams with
// it, and so do the tests.
package sse

import (
	"bufio"
	"bytes"
	"io"
)

// Event is one event of a stream.
type Event struct {
	// ID is the event's id (the stream's last id when the event had none).
	ID string
	// Name is the event field ("message" when absent, as for EventSource).
	Name string
	Data []byte
}

// MaxLine bounds one line of a stream (a keeper stream's snapshot of a
// large executable set is one data line).
const MaxLine = 64 << 20

// Reader reads events from a stream.
type Reader struct {
	sc *bufio.Scanner
	// LastID is the id of the last event read: send it as Last-Event-ID
	// when reconnecting.
	LastID string
}

// NewReader returns a reader of r.
func NewReader(r io.Reader) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	return &Reader{sc: sc}
}

// Next returns the next event; io.EOF when the stream ended.
func (r *Reader) Next() (Event, error) {
	var ev Event
	var data [][]byte
	seen := false
	for r.sc.Scan() {
		line := r.sc.Bytes()
		if len(line) == 0 {
			if !seen {
				continue
			}
			ev.Data = bytes.Join(data, []byte{'\n'})
			if ev.Name == "" {
				ev.Name = "message"
			}
			ev.ID = r.LastID
			return ev, nil
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte{':'})
		value = bytes.TrimPrefix(value, []byte{' '})
		switch string(field) {
		case "event":
			ev.Name, seen = string(value), true
		case "data":
			data, seen = append(data, bytes.Clone(value)), true
		case "id":
			r.LastID, seen = string(value), true
		}
	}
	if err := r.sc.Err(); err != nil {
		return Event{}, err
	}
	return Event{}, io.EOF
}
