package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Signature errors returned by Verify. Receivers should answer 400 (or
// simply not 2xx) for any of them.
var (
	ErrSignatureMalformed = errors.New("webhook: malformed X-Service-Signature header")
	ErrSignatureTimestamp = errors.New("webhook: signature timestamp outside the tolerance")
	ErrSignatureMismatch  = errors.New("webhook: no v1 signature matches the body")
)

// DefaultTolerance is the replay window a receiver should allow on either
// side of its clock (specification section 8: about 5 minutes).
const DefaultTolerance = 5 * time.Minute

// Sign returns the X-Service-Signature value for body signed at time t:
// "t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<body>")>".
// The secret is used as its raw UTF-8 bytes (whsec_ prefix included), which
// is what the stripe verifier does too.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac(secret, ts, body))
}

func mac(secret, ts string, body []byte) []byte {
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte(ts))
	h.Write([]byte{'.'})
	h.Write(body)
	return h.Sum(nil)
}

// Verify checks header (the X-Service-Signature value) against the raw
// request body and the endpoint's secret. The timestamp must lie within
// tolerance of now in BOTH directions (a stale or a future-dated header is
// refused); the v1 value is compared in constant time. Several v1 entries
// are allowed (for secret rotation); one match suffices.
func Verify(header string, body []byte, secret string, now time.Time, tolerance time.Duration) error {
	var ts string
	var sigs [][]byte
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return ErrSignatureMalformed
		}
		switch k {
		case "t":
			ts = v
		case "v1":
			b, err := hex.DecodeString(v)
			if err != nil || len(b) != sha256.Size {
				return ErrSignatureMalformed
			}
			sigs = append(sigs, b)
		}
	}
	if ts == "" || len(sigs) == 0 {
		return ErrSignatureMalformed
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return ErrSignatureMalformed
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return ErrSignatureTimestamp
	}
	want := mac(secret, ts, body)
	for _, s := range sigs {
		if hmac.Equal(s, want) {
			return nil
		}
	}
	return ErrSignatureMismatch
}
