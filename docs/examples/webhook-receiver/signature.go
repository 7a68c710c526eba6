package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// The headers of a delivery.
const (
	headerSignature = "X-Service-Signature" // t=<unix seconds>,v1=<hex HMAC>
	headerDelivery  = "X-Service-Delivery"  // the event id: dedupe on it
	headerEvent     = "X-Service-Event"     // the trigger, e.g. order.filled
)

// tolerance is how far the signature's timestamp may be from this
// receiver's clock, in either direction.
const tolerance = 5 * time.Minute

// Why a signature is refused. Any of them is answered 400 (anything but
// 2xx makes the engine retry later).
var (
	errMalformed = errors.New("malformed X-Service-Signature header")
	errStale     = errors.New("signature timestamp outside the tolerance")
	errMismatch  = errors.New("no v1 signature matches the body")
)

// verifySignature checks an X-Service-Signature header against the raw
// request body and the endpoint's secret:
//
//	v1 = lowercase hex(HMAC-SHA256(key = secret, message = t + "." + body))
//
// The secret is its literal bytes, whsec_ prefix included. The timestamp t
// must be within tol of now, in the past or the future; every v1 entry is
// compared in constant time and one match suffices (a rotation sends two).
// Entries other than t and v1 are ignored.
func verifySignature(header string, body []byte, secret string, now time.Time, tol time.Duration) error {
	var ts string
	var candidates [][]byte
	for _, part := range strings.Split(header, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return errMalformed
		}
		switch key {
		case "t":
			ts = value
		case "v1":
			sig, err := hex.DecodeString(value)
			if err != nil || len(sig) != sha256.Size {
				return errMalformed
			}
			candidates = append(candidates, sig)
		}
	}
	if ts == "" || len(candidates) == 0 {
		return errMalformed
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errMalformed
	}
	if age := now.Sub(time.Unix(unix, 0)); age > tol || age < -tol {
		return errStale
	}
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte(ts + "."))
	h.Write(body)
	expected := h.Sum(nil)
	match := false
	for _, sig := range candidates {
		// Every candidate is compared, and in constant time, so the
		// answer's timing says nothing about which bytes matched.
		if hmac.Equal(sig, expected) {
			match = true
		}
	}
	if !match {
		return errMismatch
	}
	return nil
}
