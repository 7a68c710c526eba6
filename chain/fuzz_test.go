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

// FuzzParsers feeds arbitrary input to every strict parser and to
// ParseSignature: none may panic, every failure must be an API error naming
// its field, and every success must print back to an equivalent value.
func FuzzParsers(f *testing.F) {
	for _, s := range []string{"0", "00042", "0x", "0x0", "0xABCdef", "0x3Ba2B56a0B4bA7F0B85088eF261F8671618e3783",
		"0x3ba2b56a0b4ba7f0b85088ef261f8671618e3783", "-1", "1e18", "0x" + strings.Repeat("f", 64), "0x" + strings.Repeat("1", 130)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		named := func(what string, err error) {
			t.Helper()
			if e := orderengine.AsError(err); e.Code != orderengine.CodeInvalidRequest || !strings.HasPrefix(e.Message, "field ") {
				t.Fatalf("%s(%q): %v", what, s, err)
			}
		}
		if u, err := ParseDecimalUint256("field", s); err != nil {
			named("ParseDecimalUint256", err)
		} else if strings.TrimLeft(s, "0") != u.Dec() && !(u.IsZero() && strings.Trim(s, "0") == "") {
			t.Fatalf("ParseDecimalUint256(%q) = %s", s, u.Dec())
		}
		if u, err := ParseHexUint256("field", s); err != nil {
			named("ParseHexUint256", err)
		} else if v, _ := ParseHexUint256("field", u.Hex()); !v.Eq(&u) {
			t.Fatalf("ParseHexUint256(%q) = %s", s, u.Hex())
		}
		if a, err := ParseAddress("field", s); err != nil {
			named("ParseAddress", err)
		} else if !strings.EqualFold(a.Hex(), s) {
			t.Fatalf("ParseAddress(%q) = %s", s, a.Hex())
		}
		if _, err := ParseHash("field", s); err != nil {
			named("ParseHash", err)
		}
		if b, err := ParseHexBytes("field", s, 65); err != nil {
			named("ParseHexBytes", err)
		} else if sig, err := ParseSignature(b); err == nil {
			if again, err := ParseSignature(sig.Bytes()); err != nil || again != sig {
				t.Fatalf("signature %x does not round-trip: %v", b, err)
			}
		} else if _, ok := SignatureReasonOf(err); !ok {
			t.Fatalf("ParseSignature(%x): %v without a reason", b, err)
		}
	})
}
