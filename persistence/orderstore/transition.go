package orderstore

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/persistence"
)

// The transition codec: one Transition as the payload of one message of a
// replicated order journal (cluster/natsjs). Every node decodes the same
// bytes and applies them with an ApplyBatch (apply.go), so the encoding
// carries everything a node writes: the record, the events with their ids
// and times, the ledger entries and the binding.
//
// THIS IS A DURABLE FORMAT (the replicated log keeps it for ever); DO NOT
// CHANGE codec 1. A new layout gets a new codec byte and a decoder next to
// this one.
//
//	field        encoding
//	-----------  ---------------------------------------------------------
//	codec        1 byte: 1
//	expect       uvarint: the version the writer loaded (0: a new order)
//	prev         1 byte: the status of that version (0 for a new order)
//	record       uvarint length, then the order codec's bytes (codec.go)
//	bind         1 byte: 0 none, 1 then 20 bytes: the referrer bound
//	ledger       uvarint count, then per entry: txHash 32, logIndex BE4, kind 1
//	events       uvarint count, then per event: uvarint length, then the
//	             event's JSON (OutboxEvent.AppendJSON: id and createdAt set)
const transitionCodec1 byte = 1

// errCorruptTransition is wrapped by every transition decoding failure.
var errCorruptTransition = errors.New("persistence: corrupt order transition")

// EncodeTransition checks t as AppendOrder does and returns its codec-1
// encoding. Events without an id or a time get them here (in t as well),
// so every node that applies the encoding writes the same event.
func EncodeTransition(t *Transition, now time.Time) ([]byte, error) {
	if err := checkTransition(t); err != nil {
		return nil, err
	}
	b := make([]byte, 0, 512)
	b = append(b, transitionCodec1)
	b = binary.AppendUvarint(b, t.Expect)
	b = append(b, byte(t.Prev))
	b = appendBytes(b, appendOrder(make([]byte, 0, 384), t.Record))
	if t.Bind != nil {
		b = append(b, 1)
		b = append(b, t.Bind[:]...)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(t.Ledger)))
	for _, e := range t.Ledger {
		b = append(b, e.TxHash[:]...)
		b = binary.BigEndian.AppendUint32(b, e.LogIndex)
		b = append(b, e.Kind)
	}
	b = binary.AppendUvarint(b, uint64(len(t.Events)))
	for i := range t.Events {
		ev := &t.Events[i]
		if ev.ID == "" {
			ev.ID = persistence.NewEventID()
		}
		if ev.CreatedAt.IsZero() {
			ev.CreatedAt = now.UTC()
		}
		js, err := ev.AppendJSON(nil)
		if err != nil {
			return nil, fmt.Errorf("persistence: encode event: %w", err)
		}
		b = appendBytes(b, js)
	}
	return b, nil
}

// checkTransition refuses what no store could apply: a record that is not
// valid, a version that does not follow Expect, events without a trigger
// or an account.
func checkTransition(t *Transition) error {
	rec := t.Record
	if rec == nil {
		return errors.New("persistence: transition without a record")
	}
	if err := rec.check(); err != nil {
		return err
	}
	if rec.Version != t.Expect+1 {
		return fmt.Errorf("persistence: order %s: version %d does not follow %d", rec.Hash.Hex(), rec.Version, t.Expect)
	}
	for _, ev := range t.Events {
		if ev.Trigger == "" {
			return errors.New("persistence: outbox event without a trigger")
		}
	}
	if len(t.Events) > 0 && rec.AccountID == "" {
		return errors.New("persistence: outbox events need an account")
	}
	return nil
}

// DecodeTransition decodes a codec-1 transition.
func DecodeTransition(v []byte) (*Transition, error) {
	if len(v) == 0 || v[0] != transitionCodec1 {
		return nil, fmt.Errorf("%w: unknown codec", errCorruptTransition)
	}
	d := orderReader{b: v, i: 1}
	t := &Transition{Expect: d.uvarint(), Prev: Status(d.byte())}
	rec := d.bytes()
	if d.byte() == 1 {
		var a common.Address
		d.fixed(a[:])
		t.Bind = &a
	}
	t.Ledger = decodeLedgerEntries(&d)
	events, err := decodeEvents(&d)
	if err != nil {
		return nil, err
	}
	t.Events = events
	if d.err != nil {
		return nil, fmt.Errorf("%w: %w", errCorruptTransition, d.err)
	}
	if d.i != len(v) {
		return nil, fmt.Errorf("%w: %d trailing bytes", errCorruptTransition, len(v)-d.i)
	}
	t.Record = new(Record)
	if err := decodeOrder(rec, t.Record); err != nil {
		return nil, fmt.Errorf("%w: %w", errCorruptTransition, err)
	}
	return t, nil
}

// decodeLedgerEntries reads the ledger part of a transition.
func decodeLedgerEntries(d *orderReader) []LedgerEntry {
	n := d.uvarintMax(uint64(len(d.b)) / 37)
	if n == 0 {
		return nil
	}
	out := make([]LedgerEntry, n)
	for i := range out {
		d.fixed(out[i].TxHash[:])
		var idx [4]byte
		d.fixed(idx[:])
		out[i].LogIndex = binary.BigEndian.Uint32(idx[:])
		out[i].Kind = d.byte()
	}
	return out
}

// decodeEvents reads the events part of a transition.
func decodeEvents(d *orderReader) ([]persistence.OutboxEvent, error) {
	n := d.uvarintMax(uint64(len(d.b)))
	if n == 0 {
		return nil, nil
	}
	out := make([]persistence.OutboxEvent, 0, min(n, 16))
	for range n {
		js := d.bytes()
		if d.err != nil {
			return nil, fmt.Errorf("%w: %w", errCorruptTransition, d.err)
		}
		var ev persistence.OutboxEvent
		if err := json.Unmarshal(js, &ev); err != nil {
			return nil, fmt.Errorf("%w: event: %w", errCorruptTransition, err)
		}
		out = append(out, ev)
	}
	return out, nil
}
