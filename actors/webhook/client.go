package webhook

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/orderengine/orderengine/persistence"
)

// sender posts deliveries for one endpoint over its own connection pool
// (fasthttp: far less CPU per request than net/http, which matters at
// thousands of deliveries per second). Every connection is dialed through
// the address policy, so the target is checked at each dial.
type sender struct {
	c       *fasthttp.Client
	timeout time.Duration
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
func (s *sender) post(url, secret string, d *persistence.WebhookDelivery, at time.Time) (int, time.Duration, error) {
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer func() {
		fasthttp.ReleaseResponse(resp)
		fasthttp.ReleaseRequest(req)
	}()
	req.SetRequestURI(url)
	req.Header.SetMethod(fasthttp.MethodPost)
	req.Header.SetContentType("application/json")
	req.Header.Set(HeaderEvent, d.Trigger)
	req.Header.Set(HeaderDelivery, d.EventID)
	req.Header.Set(HeaderSignature, Sign(secret, at, d.Body))
	req.SetBodyRaw(d.Body)
	err := s.c.DoDeadline(req, resp, time.Now().Add(s.timeout))
	if errors.Is(err, fasthttp.ErrBodyTooLarge) {
		err = nil // the status line is what counts; the body is dropped
	}
	if err != nil {
		return 0, 0, err
	}
	return resp.StatusCode(), parseRetryAfter(string(resp.Header.Peek("Retry-After")), at), nil
}
