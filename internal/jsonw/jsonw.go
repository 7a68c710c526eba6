// Package jsonw appends JSON values to a byte slice without reflection, for
// the hot paths that render the API's bodies by hand (an order, a list
// page, a webhook event). Every function produces exactly what
// encoding/json would for the same Go value (strings HTML-escaped, times
// in RFC 3339 with nanoseconds), so a hand-rendered body and a marshalled
// one never differ; jsonw_test.go checks each against encoding/json.
package jsonw

import (
	"encoding/hex"
	"encoding/json"
	"math/bits"
	"strconv"
	"time"

	"github.com/holiman/uint256"
)

// String appends s quoted. Printable ASCII that encoding/json leaves alone
// is copied; anything else takes encoding/json's own path.
func String(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// Time appends t as time.Time.MarshalJSON does: quoted strict RFC 3339
// with nanoseconds. It fails for a time MarshalJSON refuses (a year
// outside 0–9999).
func Time(b []byte, t time.Time) ([]byte, error) {
	b = append(b, '"')
	b, err := t.AppendText(b)
	if err != nil {
		return nil, err
	}
	return append(b, '"'), nil
}

// Uint appends n as a JSON number.
func Uint(b []byte, n uint64) []byte { return strconv.AppendUint(b, n, 10) }

// Bool appends true or false.
func Bool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// Dec appends u as a quoted decimal string (the API's amounts), without
// the allocations of uint256.Int.Dec.
func Dec(b []byte, u *uint256.Int) []byte {
	b = append(b, '"')
	b = AppendDec(b, u)
	return append(b, '"')
}

// AppendDec appends the decimal digits of u (no quotes).
func AppendDec(b []byte, u *uint256.Int) []byte {
	if u.IsUint64() {
		return strconv.AppendUint(b, u.Uint64(), 10)
	}
	// Divide by 10^19 until the quotient fits a uint64, collecting the
	// remainders (19 digits each, least significant first).
	const chunk = 10_000_000_000_000_000_000
	var parts [4]uint64 // 2^256 < 10^78: at most four 19-digit remainders
	n := 0
	x := *u
	for !x.IsUint64() {
		var rem uint64
		for i := 3; i >= 0; i-- {
			x[i], rem = bits.Div64(rem, x[i], chunk)
		}
		parts[n] = rem
		n++
	}
	b = strconv.AppendUint(b, x.Uint64(), 10)
	for i := n - 1; i >= 0; i-- {
		var digits [19]byte
		v := parts[i]
		for j := 18; j >= 0; j-- {
			digits[j] = byte('0' + v%10)
			v /= 10
		}
		b = append(b, digits[:]...)
	}
	return b
}

// Hex appends raw as a quoted 0x-prefixed lower-case hex string.
func Hex(b []byte, raw []byte) []byte {
	b = append(b, '"', '0', 'x')
	b = hex.AppendEncode(b, raw)
	return append(b, '"')
}

// Null appends null.
func Null(b []byte) []byte { return append(b, "null"...) }
