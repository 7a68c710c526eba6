package chain

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	orderengine "github.com/orderengine/orderengine"
)

// The strict parsers below turn the API's string forms into chain values.
// They accept exactly one spelling of each value class and fail with an
// INVALID_REQUEST *orderengine.Error whose message starts with the field name
// given by the caller (for example "order.amountIn"). Callers that need a
// different code for a field (the catalog files a bad order address under
// INVALID_ORDER) re-code the message.

// maxDecimalDigits is the number of digits of 2^256-1.
const maxDecimalDigits = 78

// ParseDecimalUint256 parses a non-negative decimal integer string of at most
// 2^256-1: digits only, no sign, no spaces, no exponent, no 0x. Leading zeros
// are accepted (they do not change the value that is signed).
func ParseDecimalUint256(field, s string) (uint256.Int, error) {
	var u uint256.Int
	if s == "" {
		return u, fieldErr(field, "must be a decimal integer string, got an empty string")
	}
	// Skip leading zeros so the digit count bounds the value.
	i := 0
	for i < len(s)-1 && s[i] == '0' {
		i++
	}
	digits := s[i:]
	if len(digits) > maxDecimalDigits {
		return u, fieldErr(field, "exceeds 2^256-1")
	}
	// Take up to 19 digits at a time (10^19 < 2^64): at most five 256-bit
	// multiplications for the longest value.
	var scale, chunk uint256.Int
	for len(digits) > 0 {
		n := min(len(digits), 19)
		var v, p uint64 = 0, 1
		for j := 0; j < n; j++ {
			c := digits[j]
			if c < '0' || c > '9' {
				return uint256.Int{}, fieldErr(field, "must be a decimal integer string, got %q", truncate(s))
			}
			v = v*10 + uint64(c-'0')
			p *= 10
		}
		digits = digits[n:]
		if _, overflow := u.MulOverflow(&u, scale.SetUint64(p)); overflow {
			return uint256.Int{}, fieldErr(field, "exceeds 2^256-1")
		}
		if _, overflow := u.AddOverflow(&u, chunk.SetUint64(v)); overflow {
			return uint256.Int{}, fieldErr(field, "exceeds 2^256-1")
		}
	}
	return u, nil
}

// ParseHexUint256 parses a 0x-prefixed hexadecimal uint256 (1 to 64 hex
// digits, either case), the form of order.salt.
func ParseHexUint256(field, s string) (uint256.Int, error) {
	var u uint256.Int
	if len(s) < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return u, fieldErr(field, "must be a 0x-prefixed hex integer, got %q", truncate(s))
	}
	digits := s[2:]
	if len(digits) > 64 {
		return u, fieldErr(field, "has more than 64 hex digits")
	}
	var b [32]byte
	for i := 0; i < len(digits); i++ {
		v, ok := hexNibble(digits[len(digits)-1-i])
		if !ok {
			return u, fieldErr(field, "must be a 0x-prefixed hex integer, got %q", truncate(s))
		}
		if i%2 == 0 {
			b[31-i/2] |= v
		} else {
			b[31-i/2] |= v << 4
		}
	}
	u.SetBytes32(b[:])
	return u, nil
}

// ParseUint256 parses either form: 0x-prefixed hex or decimal.
func ParseUint256(field, s string) (uint256.Int, error) {
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		return ParseHexUint256(field, s)
	}
	return ParseDecimalUint256(field, s)
}

// ParseAddress parses a 0x-prefixed 20-byte address. All-lowercase and
// all-uppercase hex are accepted as is; mixed case must be a valid EIP-55
// checksum (a mistyped checksummed address is refused, not silently used).
func ParseAddress(field, s string) (common.Address, error) {
	var a common.Address
	if len(s) != 42 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return a, fieldErr(field, "must be a 0x-prefixed 20-byte hex address, got %q", truncate(s))
	}
	lower, upper := false, false
	for i := 2; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'f':
			lower = true
		case c >= 'A' && c <= 'F':
			upper = true
		case c >= '0' && c <= '9':
		default:
			return a, fieldErr(field, "must be a 0x-prefixed 20-byte hex address, got %q", truncate(s))
		}
	}
	if !decodeHex(a[:], s[2:]) {
		return common.Address{}, fieldErr(field, "must be a 0x-prefixed 20-byte hex address, got %q", truncate(s))
	}
	if lower && upper && Checksum(a)[2:] != s[2:] {
		return common.Address{}, fieldErr(field, "has an invalid EIP-55 checksum: %s", s)
	}
	return a, nil
}

// ParseHash parses a 0x-prefixed 32-byte hash such as an order hash.
func ParseHash(field, s string) (common.Hash, error) {
	var h common.Hash
	if len(s) != 66 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return h, fieldErr(field, "must be a 0x-prefixed 32-byte hex hash, got %q", truncate(s))
	}
	if !decodeHex(h[:], s[2:]) {
		return common.Hash{}, fieldErr(field, "must be a 0x-prefixed 32-byte hex hash, got %q", truncate(s))
	}
	return h, nil
}

// ParseHexBytes parses 0x-prefixed hex bytes of even length (a signature, for
// instance). maxLen bounds the decoded length; 0 means no bound.
func ParseHexBytes(field, s string, maxLen int) ([]byte, error) {
	if len(s) < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || len(s)%2 != 0 {
		return nil, fieldErr(field, "must be 0x-prefixed hex bytes")
	}
	if maxLen > 0 && (len(s)-2)/2 > maxLen {
		return nil, fieldErr(field, "is longer than %d bytes", maxLen)
	}
	b := make([]byte, (len(s)-2)/2)
	if !decodeHex(b, s[2:]) {
		return nil, fieldErr(field, "must be 0x-prefixed hex bytes")
	}
	return b, nil
}

// decodeHex decodes s, 2 × len(dst) hex digits, into dst (without the
// copy of s that hex.Decode's []byte argument takes); false when a digit
// is not hex.
func decodeHex(dst []byte, s string) bool {
	if len(s) != 2*len(dst) {
		return false
	}
	for i := range dst {
		hi, lo := hexValues[s[2*i]], hexValues[s[2*i+1]]
		if hi|lo > 0xf {
			return false
		}
		dst[i] = hi<<4 | lo
	}
	return true
}

// hexValues maps a hex digit to its value, any other byte to 0xff.
var hexValues = func() (t [256]byte) {
	for c := range t {
		v, ok := hexNibble(byte(c))
		if !ok {
			v = 0xff
		}
		t[c] = v
	}
	return t
}()

func hexNibble(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func fieldErr(field, format string, args ...any) *orderengine.Error {
	e := orderengine.Errorf(orderengine.CodeInvalidRequest, format, args...)
	e.Message = field + " " + e.Message
	return e
}
