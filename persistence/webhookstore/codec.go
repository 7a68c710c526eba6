package webhookstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// The delivery record codec: the value of w/r/<eventID>/<endpointID>.
//
// THIS IS THE ON-DISK FORMAT; DO NOT CHANGE codec 1. A new layout gets a
// new codec byte, a decoder next to this one, and a migration (migrate.go)
// when old values must go. The body is not in the record: every delivery
// of an event references the event's one body (w/b/<eventID>).
//
//	field                    encoding
//	-----------------------  --------------------------------------------
//	codec                    1 byte: 1
//	version                  uvarint: attempts made, the journal version
//	                         (0 at creation; each outcome adds one)
//	status                   1 byte: 0 pending, 1 delivered, 2 failed
//	createdAt                varint: unix nanoseconds (UTC)
//	nextAttemptAt            varint: unix nanoseconds, 0 when not pending
//	endpointID, eventID,     each: uvarint length, then the bytes
//	trigger
//	attempts                 version times: uvarint n, varint at (unix
//	                         ns), uvarint statusCode (0: no answer),
//	                         varint latencyMs, uvarint length + error
const deliveryCodec1 byte = 1

// errCorruptDelivery is wrapped by every decoding failure.
var errCorruptDelivery = errors.New("persistence: corrupt delivery record")

var deliveryStatuses = [...]string{DeliveryPending, DeliveryDelivered, DeliveryFailed}

func deliveryStatusByte(s string) (byte, error) {
	for i, v := range deliveryStatuses {
		if v == s {
			return byte(i), nil
		}
	}
	return 0, fmt.Errorf("persistence: unknown delivery status %q", s)
}

// unixNanos encodes t; the zero time is 0.
func unixNanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// fromUnixNanos decodes unixNanos.
func fromUnixNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// appendDelivery appends d's codec-1 encoding to b (nil: a buffer of the
// encoding's size).
func appendDelivery(b []byte, d *Delivery) ([]byte, error) {
	st, err := deliveryStatusByte(d.Status)
	if err != nil {
		return nil, err
	}
	if b == nil {
		n := 1 + 3*binary.MaxVarintLen64 + 1 + 3*binary.MaxVarintLen16 + len(d.EndpointID) + len(d.EventID) + len(d.Trigger)
		for i := range d.Attempts {
			n += 4*binary.MaxVarintLen64 + len(d.Attempts[i].Error)
		}
		b = make([]byte, 0, n)
	}
	b = append(b, deliveryCodec1)
	b = binary.AppendUvarint(b, uint64(len(d.Attempts)))
	b = append(b, st)
	b = binary.AppendVarint(b, unixNanos(d.CreatedAt))
	b = binary.AppendVarint(b, unixNanos(d.NextAttemptAt))
	for _, s := range [...]string{d.EndpointID, d.EventID, d.Trigger} {
		b = appendLenString(b, s)
	}
	for i := range d.Attempts {
		a := &d.Attempts[i]
		b = binary.AppendUvarint(b, uint64(a.N))
		b = binary.AppendVarint(b, unixNanos(a.At))
		b = binary.AppendUvarint(b, uint64(a.StatusCode))
		b = binary.AppendVarint(b, a.LatencyMs)
		b = appendLenString(b, a.Error)
	}
	return b, nil
}

func appendLenString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// deliveryVersion reads the version of an encoded delivery without
// decoding the rest.
func deliveryVersion(v []byte) (uint64, error) {
	if len(v) < 2 || v[0] != deliveryCodec1 {
		return 0, errCorruptDelivery
	}
	n, k := binary.Uvarint(v[1:])
	if k <= 0 {
		return 0, errCorruptDelivery
	}
	return n, nil
}

// deliveryReader decodes codec 1 front to back; the first failure sticks.
type deliveryReader struct {
	v   []byte
	bad bool
}

func (r *deliveryReader) uvarint() uint64 {
	n, k := binary.Uvarint(r.v)
	if k <= 0 {
		r.bad = true
		return 0
	}
	r.v = r.v[k:]
	return n
}

func (r *deliveryReader) varint() int64 {
	n, k := binary.Varint(r.v)
	if k <= 0 {
		r.bad = true
		return 0
	}
	r.v = r.v[k:]
	return n
}

func (r *deliveryReader) byte() byte {
	if len(r.v) == 0 {
		r.bad = true
		return 0
	}
	c := r.v[0]
	r.v = r.v[1:]
	return c
}

func (r *deliveryReader) string() string {
	n := r.uvarint()
	if r.bad || n > uint64(len(r.v)) {
		r.bad = true
		return ""
	}
	s := string(r.v[:n])
	r.v = r.v[n:]
	return s
}

// decodeDelivery decodes a codec-1 delivery record into d.
func decodeDelivery(v []byte, d *Delivery) error {
	r := deliveryReader{v: v}
	if r.byte() != deliveryCodec1 {
		return fmt.Errorf("%w: unknown codec", errCorruptDelivery)
	}
	n := r.uvarint()
	st := r.byte()
	if int(st) >= len(deliveryStatuses) {
		return fmt.Errorf("%w: status %d", errCorruptDelivery, st)
	}
	*d = Delivery{Status: deliveryStatuses[st]}
	d.CreatedAt = fromUnixNanos(r.varint())
	d.NextAttemptAt = fromUnixNanos(r.varint())
	d.EndpointID, d.EventID, d.Trigger = r.string(), r.string(), r.string()
	if r.bad || n > uint64(len(r.v)) { // each attempt takes at least 5 bytes
		return errCorruptDelivery
	}
	if n > 0 {
		d.Attempts = make([]Attempt, n)
	}
	for i := range d.Attempts {
		a := &d.Attempts[i]
		a.N = int(r.uvarint())
		a.At = fromUnixNanos(r.varint())
		a.StatusCode = int(r.uvarint())
		a.LatencyMs = r.varint()
		a.Error = r.string()
	}
	if r.bad || len(r.v) != 0 {
		return errCorruptDelivery
	}
	return nil
}
