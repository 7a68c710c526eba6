package orderstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
)

// The order record codec: the value of o/<orderHash>.
//
// THIS IS THE ON-DISK FORMAT; DO NOT CHANGE codec 1. A new layout gets a
// new codec byte, a decoder next to this one, and a migration (migrate.go)
// when old values must go. The codec is the order's own; the API's JSON is
// rendered from the decoded record and may change without touching it.
//
//	field                    encoding
//	-----------------------  --------------------------------------------
//	codec                    1 byte: 1
//	version                  uvarint: journal version (≥ 1)
//	class, status, flags     1 byte each (flags: orderFlag* below)
//	hash                     32 bytes
//	salt, amountIn,          each a uint256: 1 length byte (0–32), then
//	triggerPrice,            that many big-endian bytes, no leading zeros
//	triggerAmountOut,
//	makerTraits, filledIn,
//	filledOut
//	maker, receiver,         20 bytes each
//	tokenIn, tokenOut,
//	referrer
//	referralFeePpm           uvarint
//	executions               uvarint
//	createdAt, updatedAt     varint: unix nanoseconds (UTC)
//	triggeredAt              varint, only with orderFlagTriggered
//	dca                      only with orderFlagDCA: uvarint interval,
//	                         uvarint totalExecutions, uvarint flexibilityPpm
//	trailing                 only with orderFlagTrailing: uvarint trailPpm,
//	                         then 20 bytes with orderFlagKeeper
//	signature, reason,       each: uvarint length, then the bytes
//	revertName, accountID
const orderCodec1 byte = 1

// Flags of codec 1.
const (
	orderFlagStalled byte = 1 << iota
	orderFlagTriggered
	orderFlagDCA
	orderFlagShortCircuit
	orderFlagPriceGated
	orderFlagTrailing
	orderFlagKeeper
)

// errCorruptOrder is wrapped by every decoding failure.
var errCorruptOrder = errors.New("persistence: corrupt order record")

// appendOrder appends r's codec-1 encoding to b.
func appendOrder(b []byte, r *Record) []byte {
	var flags byte
	if r.Stalled {
		flags |= orderFlagStalled
	}
	if !r.TriggeredAt.IsZero() {
		flags |= orderFlagTriggered
	}
	if d := r.DCA; d != nil {
		flags |= orderFlagDCA
		if d.ShortCircuit {
			flags |= orderFlagShortCircuit
		}
		if d.PriceGated {
			flags |= orderFlagPriceGated
		}
	}
	if t := r.Trailing; t != nil {
		flags |= orderFlagTrailing
		if t.DesignatedKeeper != nil {
			flags |= orderFlagKeeper
		}
	}
	o := &r.Order
	b = append(b, orderCodec1)
	b = binary.AppendUvarint(b, r.Version)
	b = append(b, byte(r.Class), byte(r.Status), flags)
	b = append(b, r.Hash[:]...)
	for _, u := range [...]*uint256.Int{&o.Salt, &o.AmountIn, &o.TriggerPrice, &o.TriggerAmountOut, &o.MakerTraits, &r.FilledIn, &r.FilledOut} {
		b = appendU256(b, u)
	}
	for _, a := range [...]*common.Address{&o.Maker, &o.Receiver, &o.TokenIn, &o.TokenOut, &o.Referrer} {
		b = append(b, a[:]...)
	}
	b = binary.AppendUvarint(b, uint64(o.ReferralFeePpm))
	b = binary.AppendUvarint(b, uint64(r.Executions))
	b = binary.AppendVarint(b, r.CreatedAt.UnixNano())
	b = binary.AppendVarint(b, r.UpdatedAt.UnixNano())
	if flags&orderFlagTriggered != 0 {
		b = binary.AppendVarint(b, r.TriggeredAt.UnixNano())
	}
	if d := r.DCA; d != nil {
		b = binary.AppendUvarint(b, uint64(d.IntervalSeconds))
		b = binary.AppendUvarint(b, uint64(d.TotalExecutions))
		b = binary.AppendUvarint(b, uint64(d.FlexibilityPpm))
	}
	if t := r.Trailing; t != nil {
		b = binary.AppendUvarint(b, uint64(t.TrailPpm))
		if t.DesignatedKeeper != nil {
			b = append(b, t.DesignatedKeeper[:]...)
		}
	}
	b = appendBytes(b, r.Signature)
	b = appendBytes(b, []byte(r.Reason))
	b = appendBytes(b, []byte(r.RevertName))
	return appendBytes(b, []byte(r.AccountID))
}

func appendU256(b []byte, u *uint256.Int) []byte {
	n := u.ByteLen()
	b = append(b, byte(n))
	var buf [32]byte
	u.WriteToSlice(buf[:])
	return append(b, buf[32-n:]...)
}

func appendBytes(b, v []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// decodeOrder decodes a stored record into r.
func decodeOrder(v []byte, r *Record) error {
	if len(v) == 0 || v[0] != orderCodec1 {
		return fmt.Errorf("%w: unknown codec", errCorruptOrder)
	}
	d := orderReader{b: v, i: 1}
	*r = Record{}
	r.Version = d.uvarint()
	r.Class, r.Status = chain.Class(d.byte()), Status(d.byte())
	flags := d.byte()
	d.fixed(r.Hash[:])
	o := &r.Order
	for _, u := range [...]*uint256.Int{&o.Salt, &o.AmountIn, &o.TriggerPrice, &o.TriggerAmountOut, &o.MakerTraits, &r.FilledIn, &r.FilledOut} {
		d.u256(u)
	}
	for _, a := range [...]*common.Address{&o.Maker, &o.Receiver, &o.TokenIn, &o.TokenOut, &o.Referrer} {
		d.fixed(a[:])
	}
	o.ReferralFeePpm = uint32(d.uvarintMax(1<<32 - 1))
	r.Executions = uint32(d.uvarintMax(1<<32 - 1))
	r.CreatedAt = d.time()
	r.UpdatedAt = d.time()
	if flags&orderFlagTriggered != 0 {
		r.TriggeredAt = d.time()
	}
	r.Stalled = flags&orderFlagStalled != 0
	if flags&orderFlagDCA != 0 {
		r.DCA = &DCAParams{
			IntervalSeconds: uint32(d.uvarintMax(1<<32 - 1)),
			TotalExecutions: uint16(d.uvarintMax(1<<16 - 1)),
			FlexibilityPpm:  uint32(d.uvarintMax(1<<32 - 1)),
			ShortCircuit:    flags&orderFlagShortCircuit != 0,
			PriceGated:      flags&orderFlagPriceGated != 0,
		}
	}
	if flags&orderFlagTrailing != 0 {
		r.Trailing = &TrailingParams{TrailPpm: uint32(d.uvarintMax(1<<32 - 1))}
		if flags&orderFlagKeeper != 0 {
			var k common.Address
			d.fixed(k[:])
			r.Trailing.DesignatedKeeper = &k
		}
	}
	r.Signature = d.bytes()
	r.Reason = string(d.bytes())
	r.RevertName = string(d.bytes())
	r.AccountID = string(d.bytes())
	if d.err != nil {
		return d.err
	}
	if d.i != len(v) {
		return fmt.Errorf("%w: %d trailing bytes", errCorruptOrder, len(v)-d.i)
	}
	return r.check()
}

// orderVersion reads the journal version of a stored record without
// decoding the rest.
func orderVersion(v []byte) (uint64, error) {
	if len(v) == 0 || v[0] != orderCodec1 {
		return 0, fmt.Errorf("%w: unknown codec", errCorruptOrder)
	}
	d := orderReader{b: v, i: 1}
	n := d.uvarint()
	return n, d.err
}

// orderHead reads the status and journal version of a stored record
// without decoding the rest.
func orderHead(v []byte) (Status, uint64, error) {
	if len(v) == 0 || v[0] != orderCodec1 {
		return 0, 0, fmt.Errorf("%w: unknown codec", errCorruptOrder)
	}
	d := orderReader{b: v, i: 1}
	n := d.uvarint()
	_ = d.byte() // class
	st := Status(d.byte())
	return st, n, d.err
}

// orderReader reads codec 1; the first failure sticks in err and every
// later read returns zero values.
type orderReader struct {
	b   []byte
	i   int
	err error
}

func (d *orderReader) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: bad %s at byte %d", errCorruptOrder, what, d.i)
	}
	d.i = len(d.b)
}

func (d *orderReader) byte() byte {
	if d.i >= len(d.b) {
		d.fail("byte")
		return 0
	}
	d.i++
	return d.b[d.i-1]
}

func (d *orderReader) fixed(dst []byte) {
	if len(d.b)-d.i < len(dst) {
		d.fail("fixed field")
		return
	}
	d.i += copy(dst, d.b[d.i:])
}

func (d *orderReader) uvarint() uint64 {
	n, k := binary.Uvarint(d.b[d.i:])
	if k <= 0 {
		d.fail("uvarint")
		return 0
	}
	d.i += k
	return n
}

func (d *orderReader) uvarintMax(max uint64) uint64 {
	n := d.uvarint()
	if n > max {
		d.fail("bounded uvarint")
		return 0
	}
	return n
}

func (d *orderReader) time() time.Time {
	n, k := binary.Varint(d.b[d.i:])
	if k <= 0 {
		d.fail("time")
		return time.Time{}
	}
	d.i += k
	return time.Unix(0, n).UTC()
}

func (d *orderReader) u256(u *uint256.Int) {
	n := int(d.byte())
	if n > 32 || len(d.b)-d.i < n {
		d.fail("uint256")
		return
	}
	u.SetBytes(d.b[d.i : d.i+n])
	d.i += n
}

func (d *orderReader) bytes() []byte {
	n := d.uvarint()
	if n > uint64(len(d.b)-d.i) {
		d.fail("length-prefixed field")
		return nil
	}
	if n == 0 {
		return nil
	}
	out := append([]byte(nil), d.b[d.i:d.i+int(n)]...)
	d.i += int(n)
	return out
}
