package chain

import (
	"strings"
	"testing"

	"github.com/holiman/uint256"

	orderengine "github.com/orderengine/orderengine"
)

// FuzzTraitsRoundTrip proves the makerTraits codec is a bijection and that no
// input panics:
//
//   - traits built from arbitrary field values either encode and decode back
//     to themselves, or (a field wider than its slot) fail with INVALID_TRAITS;
//   - any 256-bit word decodes and re-encodes to itself, and classification
//     and validation for every class run without panicking;
//   - any string either parses as makerTraits (and prints back to itself
//     without leading zeros) or fails with an error naming the field.
//
// Run it with: go test -run '^$' -fuzz FuzzTraitsRoundTrip ./chain/
func FuzzTraitsRoundTrip(f *testing.F) {
	f.Add([]byte{}, uint64(0), uint64(0), uint32(0), uint32(0), uint32(0), uint16(0), uint8(0), "0")
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, uint64(maxUint40), uint64(maxUint40),
		uint32(maxUint24), uint32(maxUint24), uint32(maxUint24), uint16(0xffff), uint8(0xff),
		"115792089237316195423570985008687907853269984665640564039457584007913129639935")
	f.Add([]byte("abcdefghij"), uint64(1<<40), uint64(7), uint32(PpmOne), uint32(50000), uint32(3600), uint16(10), uint8(FlagDCA|FlagShortCircuit),
		"115792089237316195423570985008687907853269984665640564039457584007913129639936")
	f.Add([]byte{1}, uint64(1893456000), uint64(1), uint32(1<<24), uint32(0), uint32(0), uint16(0), uint8(FlagStopLoss|FlagTakeProfit), "+12")
	f.Fuzz(func(t *testing.T, word []byte, deadline, nonce uint64, slippage, kind, interval uint32, total uint16, flags uint8, s string) {
		// Struct -> word -> struct.
		x := Traits{Deadline: deadline, Nonce: nonce, SlippagePpm: slippage, KindParamPpm: kind,
			IntervalSeconds: interval, TotalExecutions: total, Flags: Flags(flags)}
		copy(x.AllowedSender[:], word)
		enc, err := EncodeTraits(x)
		fits := deadline <= maxUint40 && nonce <= maxUint40 && slippage <= maxUint24 && kind <= maxUint24 && interval <= maxUint24
		switch {
		case fits && err != nil:
			t.Fatalf("EncodeTraits(%v): %v", x, err)
		case !fits && orderengine.AsError(err).Code != orderengine.CodeInvalidTraits:
			t.Fatalf("EncodeTraits(%v) of a too-wide field: %v, want INVALID_TRAITS", x, err)
		case fits:
			if got := DecodeTraits(&enc); got != x {
				t.Fatalf("decode(encode(%v)) = %v", x, got)
			}
		}

		// Word -> struct -> word, for any 256 bits.
		var u uint256.Int
		if len(word) > 32 {
			word = word[:32]
		}
		u.SetBytes(word)
		tr := DecodeTraits(&u)
		back, err := EncodeTraits(tr)
		if err != nil || !back.Eq(&u) {
			t.Fatalf("encode(decode(%s)) = %s, %v", u.Hex(), back.Hex(), err)
		}
		_, _ = tr.Class()
		for c := Class(0); c <= ClassTrailing+1; c++ {
			if err := tr.Validate(c); err != nil && orderengine.AsError(err).Code != orderengine.CodeInvalidTraits {
				t.Fatalf("Validate(%v) returned %v", c, err)
			}
		}

		// Decimal strings.
		pu, pt, err := ParseTraits(s)
		if err != nil {
			if e := orderengine.AsError(err); e.Code != orderengine.CodeInvalidRequest || !strings.HasPrefix(e.Message, "order.makerTraits") {
				t.Fatalf("ParseTraits(%q): %v", s, err)
			}
			return
		}
		if want := strings.TrimLeft(s, "0"); pu.Dec() != want && !(want == "" && pu.IsZero()) {
			t.Fatalf("ParseTraits(%q) = %s", s, pu.Dec())
		}
		if pt != DecodeTraits(&pu) {
			t.Fatalf("ParseTraits(%q) traits differ from DecodeTraits", s)
		}
	})
}
