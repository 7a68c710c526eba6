package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// sender posts deliveries for one endpoint over its own connection pool
// (fasthttp: far less CPU per request than net/http, which matters at
// thousands of deliveries per second). Every connection is dialed through
// the address policy, so the target is checked at each dial.
type sender struct {
	c       *fasthttp.Client
	timeout time.Duration
	// macs holds *keyedMAC for reuse: hmac.New costs two SHA-256 states
	// and the key schedule, per request otherwise.
	macs sync.Pool
}

// keyedMAC is an HMAC-SHA256 keyed with secret.
type keyedMAC struct {
	secret string
	h      hash.Hash
}

// signers are the secrets that sign a delivery: the endpoint's, and during
// a rotation's overlap the one it replaced ("" otherwise).
type signers struct{ current, previous string }

// sign appends the X-Service-Signature value of body at time at to dst:
// the same value as Sign, from a pooled HMAC, with a second v1 (of the
// previous secret) during a rotation's overlap.
func (s *sender) sign(dst []byte, secrets signers, at time.Time, body []byte) []byte {
	dst = append(dst, "t="...)
	tsAt := len(dst)
	dst = strconv.AppendInt(dst, at.Unix(), 10)
	tsEnd := len(dst)
	for _, secret := range [2]string{secrets.current, secrets.previous} {
		if secret == "" {
			continue
		}
		km, _ := s.macs.Get().(*keyedMAC)
		if km == nil || km.secret != secret {
			km = &keyedMAC{secret: secret, h: hmac.New(sha256.New, []byte(secret))}
		}
		km.h.Reset()
		km.h.Write(dst[tsAt:tsEnd])
		km.h.Write([]byte{'.'})
		km.h.Write(body)
		var sum [sha256.Size]byte
		dst = append(dst, ",v1="...)
		dst = hex.AppendEncode(dst, km.h.Sum(sum[:0]))
		s.macs.Put(km)
	}
	return dst
}

func newSender(p Policy, concurrency int, timeout time.Duration) *sender {
	d := p.DialContext(&net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second})
	return &sender{timeout: timeout, c: &fasthttp.Client{
		Name:                   "orderengine-webhooks/1",
		MaxConnsPerHost:        concurrency,
		MaxIdleConnDuration:    90 * time.Second,
		ReadTimeout:            timeout,
		WriteTimeout:           timeout,
		MaxResponseBodySize:    maxResponseRead,
		DisablePathNormalizing: true,
		// A refused target must not be retried on another address by
		// fasthttp: the policy already tried every checked address.
		RetryIf: func(*fasthttp.Request) bool { return false },
		Dial: func(addr string) (net.Conn, error) {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			return d(ctx, "tcp", addr)
		},
	}}
}

// close drops the idle connections.
func (s *sender) close() { s.c.CloseIdleConnections() }

// post sends one signed request and returns the status code and the
// receiver's Retry-After (zero when absent). Redirects are not followed: a
// 3xx is returned as is (a failed attempt). It runs in the attempt's own
// goroutine and returns within the timeout; Close does not wait for it
// (see Manager.attempt).
func (s *sender) post(url string, secrets signers, eventID, trigger string, body []byte, at time.Time) (int, time.Duration, error) {
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer func() {
		fasthttp.ReleaseResponse(resp)
		fasthttp.ReleaseRequest(req)
	}()
	req.SetRequestURI(url)
	req.Header.SetMethod(fasthttp.MethodPost)
	req.Header.SetContentType("application/json")
	req.Header.Set(HeaderEvent, trigger)
	req.Header.Set(HeaderDelivery, eventID)
	var sig [192]byte // t=, 10 digits and two v1= of 64 hex characters fit
	req.Header.SetBytesV(HeaderSignature, s.sign(sig[:0], secrets, at, body))
	req.SetBodyRaw(body)
	err := s.c.DoDeadline(req, resp, time.Now().Add(s.timeout))
	if errors.Is(err, fasthttp.ErrBodyTooLarge) {
		err = nil // the status line is what counts; the body is dropped
	}
	if err != nil {
		return 0, 0, err
	}
	return resp.StatusCode(), parseRetryAfter(string(resp.Header.Peek("Retry-After")), at), nil
}
