package chain

import (
	"strings"
	"testing"

	orderengine "github.com/orderengine/orderengine"
)

func TestParseDecimalUint256(t *testing.T) {
	ok := map[string]string{
		"0": "0", "000": "0", "1": "1", "0042": "42",
		"115792089237316195423570985008687907853269984665640564039457584007913129639935": "115792089237316195423570985008687907853269984665640564039457584007913129639935",
	}
	for in, want := range ok {
		u, err := ParseDecimalUint256("order.amountIn", in)
		if err != nil || u.Dec() != want {
			t.Errorf("%q: %s, %v; want %s", in, u.Dec(), err, want)
		}
	}
	bad := []string{"", "-1", "+1", " 1", "1 ", "1e3", "0x10", "1.0", "١",
		"115792089237316195423570985008687907853269984665640564039457584007913129639936",
		"1" + strings.Repeat("0", 78)}
	for _, in := range bad {
		_, err := ParseDecimalUint256("order.amountIn", in)
		if e := orderengine.AsError(err); err == nil || e.Code != orderengine.CodeInvalidRequest || !strings.HasPrefix(e.Message, "order.amountIn ") {
			t.Errorf("%q: err %v; want INVALID_REQUEST starting with the field", in, err)
		}
	}
}

func TestParseHexUint256(t *testing.T) {
	u, err := ParseHexUint256("order.salt", "0xABCdef0123")
	if err != nil || u.Hex() != "0xabcdef0123" {
		t.Fatalf("got %s, %v", u.Hex(), err)
	}
	u, err = ParseHexUint256("order.salt", "0x"+strings.Repeat("f", 64))
	if err != nil || !u.Eq(u.Clone().SetAllOne()) {
		t.Fatalf("max: %s, %v", u.Hex(), err)
	}
	for _, in := range []string{"", "0x", "123", "0x" + strings.Repeat("1", 65), "0xg1", "x12", "0x-1"} {
		if _, err := ParseHexUint256("order.salt", in); err == nil || !strings.HasPrefix(orderengine.AsError(err).Message, "order.salt ") {
			t.Errorf("%q: err %v, want an error naming order.salt", in, err)
		}
	}
	if u, err := ParseUint256("x", "0x10"); err != nil || u.Uint64() != 16 {
		t.Errorf("ParseUint256 hex: %v %v", u, err)
	}
	if u, err := ParseUint256("x", "10"); err != nil || u.Uint64() != 10 {
		t.Errorf("ParseUint256 decimal: %v %v", u, err)
	}
}

func TestParseAddress(t *testing.T) {
	const sum = "0x3Ba2B56a0B4bA7F0B85088eF261F8671618e3783"
	for _, in := range []string{sum, strings.ToLower(sum), "0x" + strings.ToUpper(sum[2:])} {
		a, err := ParseAddress("order.maker", in)
		if err != nil || a.Hex() != sum {
			t.Errorf("%q: %s, %v", in, a.Hex(), err)
		}
	}
	bad := []string{"", "0x", sum[:41], sum + "0", "3Ba2B56a0B4bA7F0B85088eF261F8671618e378300",
		"0x3ba2B56a0B4bA7F0B85088eF261F8671618e3783", // checksum broken
		"0xzz a2B56a0B4bA7F0B85088eF261F8671618e3783"[:42]}
	for _, in := range bad {
		_, err := ParseAddress("order.maker", in)
		if e := orderengine.AsError(err); err == nil || !strings.HasPrefix(e.Message, "order.maker ") {
			t.Errorf("%q: err %v, want an error naming order.maker", in, err)
		}
	}
}

func TestParseHashAndBytes(t *testing.T) {
	h, err := ParseHash("orderHash", "0x"+strings.Repeat("ab", 32))
	if err != nil || h[0] != 0xab || h[31] != 0xab {
		t.Fatalf("ParseHash: %x %v", h, err)
	}
	if _, err := ParseHash("orderHash", "0x"+strings.Repeat("ab", 31)); err == nil {
		t.Error("short hash accepted")
	}
	b, err := ParseHexBytes("signature", "0x0102", 65)
	if err != nil || len(b) != 2 || b[1] != 2 {
		t.Fatalf("ParseHexBytes: %x %v", b, err)
	}
	for _, in := range []string{"0102", "0x012", "0xzz", "0x" + strings.Repeat("00", 66)} {
		if _, err := ParseHexBytes("signature", in, 65); err == nil || !strings.HasPrefix(orderengine.AsError(err).Message, "signature ") {
			t.Errorf("%q: err %v", in, err)
		}
	}
}
