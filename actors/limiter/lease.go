package limiter

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/orderengine/orderengine/actors/kind"
)

// A member that does not own a subject admits its requests from a lease:
// a few tokens the owner's ledger counted for it, usable until the lease
// expires. The member asks for the next lease when its tokens run out or
// expire, and gives back the unused tokens of an expired lease with that
// request, so that they count no more. Tokens are lost (counted, never
// used) only when a member stops receiving a subject's requests with a
// lease in hand: at most maxLease tokens per member, until they leave the
// window; the limit errs on the safe side.
//
// A lease asks for twice what the member used of its previous lease (at
// least one token, at most maxLease): a member that sees one request a
// minute asks for one token at a time and strands none; a busy one asks
// for up to limit/32 per round trip.

// maxLease is the largest lease for limit.
func maxLease(limit int) int { return max(1, limit/32) }

// lease is a member's lease of one bucket of a subject it does not own.
type lease struct {
	tokens  int   // usable tokens left
	used    int   // tokens used from the present lease
	expires int64 // unix nanoseconds, by this member's clock
	slot    int64 // the owner's ledger slot of the present lease
	// remaining and reset are the owner's figures at the grant (reset as
	// an absolute time).
	remaining int
	reset     int64
	// refusedUntil: the owner had nothing left; requests are refused here
	// until then without asking again.
	refusedUntil int64
	// fallbackUntil: the owner could not be reached; requests are counted
	// against this member's share until then.
	fallbackUntil int64
	// fetching is closed when the lease request in flight has been
	// answered (nil: none).
	fetching chan struct{}
}

// take admits one request from the lease; ok is false when the lease has
// no usable token.
func (ls *lease) take(now int64, limit int) (Decision, bool) {
	if ls.tokens <= 0 || now >= ls.expires {
		return Decision{}, false
	}
	ls.tokens--
	ls.used++
	return Decision{Allowed: true, Limit: limit, Remaining: min(limit, ls.remaining+ls.tokens),
		Reset: time.Duration(max(0, ls.reset-now))}, true
}

// next returns the size of the next lease and the unused tokens of the
// present one to give back, and empties it.
func (ls *lease) next(limit int) (want int, back LeaseReturn) {
	want = min(maxLease(limit), max(1, 2*ls.used))
	if ls.tokens > 0 {
		back = LeaseReturn{Slot: ls.slot, Tokens: ls.tokens}
	}
	ls.tokens, ls.used = 0, 0
	return want, back
}

// install takes the owner's grant, asked for at sent (this member's
// clock). A refusal is remembered for the owner's reset, at most one
// ledger slot q: tokens given back by other members free capacity
// before the reset.
func (ls *lease) install(sent, q int64, g *LeaseGrant) {
	ls.tokens, ls.used, ls.slot = g.Granted, 0, g.Slot
	ls.expires = sent + int64(g.Valid)
	ls.remaining, ls.reset = g.Remaining, sent+int64(g.Reset)
	if g.Granted == 0 {
		ls.refusedUntil = sent + min(max(int64(g.Reset), int64(time.Millisecond)), q)
	}
}

// LeaseRequest asks a subject's owner for tokens of one bucket (a member
// that does not own the subject sends it; see lease.go).
type LeaseRequest struct {
	Bucket Bucket
	Limit  int
	Want   int
	// Return gives back the unused tokens of the member's expired lease.
	Return LeaseReturn
}

// LeaseReturn names the unused tokens of a lease: its ledger slot and
// their number.
type LeaseReturn struct {
	Slot   int64
	Tokens int
}

// LeaseGrant answers a LeaseRequest.
type LeaseGrant leaseGrant

// The codec of the limiter's cluster kind: the subject is the identity;
// lease requests and grants cross members as varints.
var codec = &kind.Codec[string]{
	Key:    func(subject string) string { return subject },
	Parse:  func(key string) (string, error) { return key, nil },
	Encode: encodeMessage,
	Decode: decodeMessage,
}

const (
	typeLeaseRequest = "limiter.lease"
	typeLeaseGrant   = "limiter.grant"
)

func encodeMessage(msg any) (kind.Message, error) {
	var b []byte
	switch m := msg.(type) {
	case *LeaseRequest:
		b = binary.AppendUvarint(b, uint64(m.Bucket))
		b = binary.AppendVarint(b, int64(m.Limit))
		b = binary.AppendVarint(b, int64(m.Want))
		b = binary.AppendVarint(b, m.Return.Slot)
		b = binary.AppendVarint(b, int64(m.Return.Tokens))
		return kind.Message{Type: typeLeaseRequest, Data: b}, nil
	case *LeaseGrant:
		b = binary.AppendVarint(b, int64(m.Granted))
		b = binary.AppendVarint(b, m.Slot)
		b = binary.AppendVarint(b, int64(m.Valid))
		b = binary.AppendVarint(b, int64(m.Remaining))
		b = binary.AppendVarint(b, int64(m.Reset))
		return kind.Message{Type: typeLeaseGrant, Data: b}, nil
	}
	return kind.Message{}, fmt.Errorf("limiter: %T does not cross members", msg)
}

func decodeMessage(m kind.Message) (any, error) {
	r := varints{b: m.Data}
	switch m.Type {
	case typeLeaseRequest:
		req := &LeaseRequest{Bucket: Bucket(r.uvarint()), Limit: int(r.varint()), Want: int(r.varint()),
			Return: LeaseReturn{Slot: r.varint(), Tokens: int(r.varint())}}
		if req.Bucket >= numBuckets {
			r.err = fmt.Errorf("limiter: unknown bucket %d", req.Bucket)
		}
		return req, r.err
	case typeLeaseGrant:
		g := &LeaseGrant{Granted: int(r.varint()), Slot: r.varint(), Valid: time.Duration(r.varint()),
			Remaining: int(r.varint()), Reset: time.Duration(r.varint())}
		return g, r.err
	}
	return nil, fmt.Errorf("limiter: unknown message %q", m.Type)
}

// varints reads varints until the first error.
type varints struct {
	b   []byte
	err error
}

var errShort = errors.New("limiter: truncated message")

func (r *varints) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *varints) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}
