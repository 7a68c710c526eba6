package chain

import (
	"errors"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	orderengine "github.com/orderengine/orderengine"
)

// Signature is a parsed secp256k1 signature in canonical form: r and s
// big-endian, V the recovery id (0 or 1), s in the lower half of the curve
// order.
type Signature struct {
	R [32]byte
	S [32]byte
	V byte
}

// The secp256k1 curve order N and N/2, as 32 big-endian bytes. Comparing
// equal-length big-endian strings compares the numbers.
const (
	secpN     = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xba\xae\xdc\xe6\xaf\x48\xa0\x3b\xbf\xd2\x5e\x8c\xd0\x36\x41\x41"
	secpHalfN = "\x7f\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x5d\x57\x6e\x73\x57\xa4\x50\x1d\xdf\xe9\x2f\x46\x68\x1b\x20\xa0"
	zeroWord  = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
)

// SignatureReason says why a signature was refused. The orders layer
// branches on it: ReasonSignedV70 is FEE_PARAMS_MISMATCH for a referred
// wallet (contract.md section 6), BAD_SIGNATURE otherwise.
type SignatureReason uint8

// The reasons a signature is refused.
const (
	// ReasonMalformed: wrong length, bad v, r or s out of range.
	ReasonMalformed SignatureReason = iota + 1
	// ReasonHighS: s is in the upper half of the curve order (malleable).
	ReasonHighS
	// ReasonWrongSigner: the signature is valid but recovers to another
	// address than the maker.
	ReasonWrongSigner
	// ReasonSignedV70: the signature recovers to the maker under the v7.0
	// Order type (without triggerAmountOut).
	ReasonSignedV70
	// ReasonEIP1271Rejected: the maker has code and isValidSignature did not
	// return the magic value.
	ReasonEIP1271Rejected
)

// String names the reason.
func (r SignatureReason) String() string {
	switch r {
	case ReasonMalformed:
		return "malformed"
	case ReasonHighS:
		return "high_s"
	case ReasonWrongSigner:
		return "wrong_signer"
	case ReasonSignedV70:
		return "signed_v7.0"
	case ReasonEIP1271Rejected:
		return "eip1271_rejected"
	default:
		return "unknown"
	}
}

// SignatureError is a refused signature: a typed reason and the API error
// (code BAD_SIGNATURE) it unwraps to, so orderengine.AsError serves it.
type SignatureError struct {
	Reason SignatureReason
	Err    *orderengine.Error
}

// Error implements error.
func (e *SignatureError) Error() string { return e.Err.Error() }

// Unwrap returns the API error.
func (e *SignatureError) Unwrap() error { return e.Err }

// SignatureReasonOf returns the reason of a *SignatureError in err's chain.
func SignatureReasonOf(err error) (SignatureReason, bool) {
	var se *SignatureError
	if errors.As(err, &se) {
		return se.Reason, true
	}
	return 0, false
}

// V70Message is the message of a signature made for router v7.0.
const V70Message = "signed for router v7.0: re-sign including triggerAmountOut"

func sigErr(reason SignatureReason, format string, args ...any) *SignatureError {
	return &SignatureError{Reason: reason, Err: orderengine.Errorf(orderengine.CodeBadSignature, format, args...)}
}

// ParseSignature parses a 65-byte r||s||v signature (v 0, 1, 27 or 28) or a
// 64-byte EIP-2098 compact signature r||yParityAndS. It rejects a bad v, r or
// s of zero or not below the curve order, and high s, each with a
// *SignatureError (BAD_SIGNATURE).
func ParseSignature(b []byte) (Signature, error) {
	var sig Signature
	switch len(b) {
	case 65:
		copy(sig.R[:], b[:32])
		copy(sig.S[:], b[32:64])
		switch v := b[64]; v {
		case 0, 1:
			sig.V = v
		case 27, 28:
			sig.V = v - 27
		default:
			return Signature{}, sigErr(ReasonMalformed, "signature v is %d; want 27, 28, 0 or 1", v)
		}
	case 64:
		copy(sig.R[:], b[:32])
		copy(sig.S[:], b[32:64])
		sig.V = sig.S[0] >> 7
		sig.S[0] &= 0x7f
	default:
		return Signature{}, sigErr(ReasonMalformed, "signature is %d bytes; want 65 (r||s||v) or 64 (EIP-2098)", len(b))
	}
	r, s := string(sig.R[:]), string(sig.S[:])
	switch {
	case r == zeroWord || r >= secpN:
		return Signature{}, sigErr(ReasonMalformed, "signature r is out of range")
	case s == zeroWord:
		return Signature{}, sigErr(ReasonMalformed, "signature s is zero")
	case s > secpHalfN:
		return Signature{}, sigErr(ReasonHighS, "signature s is in the upper half of the curve order (malleable); normalise to low s")
	}
	return sig, nil
}

// Bytes returns the 65-byte r||s||v form with v in {27, 28}, as wallets
// produce it.
func (s Signature) Bytes() []byte {
	out := make([]byte, 65)
	copy(out, s.R[:])
	copy(out[32:], s.S[:])
	out[64] = s.V + 27
	return out
}

// Compact returns the 64-byte EIP-2098 form.
func (s Signature) Compact() []byte {
	out := make([]byte, 64)
	copy(out, s.R[:])
	copy(out[32:], s.S[:])
	out[32] |= s.V << 7
	return out
}

// RecoverSigner returns the address whose key made sig over digest, with
// crypto.Ecrecover (libsecp256k1 when cgo is on, see RecoveryBackend).
func RecoverSigner(digest common.Hash, sig Signature) (common.Address, error) {
	var buf [65]byte
	copy(buf[:32], sig.R[:])
	copy(buf[32:64], sig.S[:])
	buf[64] = sig.V
	pub, err := crypto.Ecrecover(digest[:], buf[:])
	if err != nil {
		return common.Address{}, sigErr(ReasonMalformed, "signature does not recover to any key")
	}
	h := crypto.Keccak256Hash(pub[1:])
	return common.BytesToAddress(h[12:]), nil
}
