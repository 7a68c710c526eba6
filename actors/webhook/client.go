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
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// sender posts deliveries for one endpoint over its own connection pool
// (fasthttp: far less CPU per request than net/http, which matters at
// thousands of deliveries per second). Every connection is dialed through
// the address policy, so the target is checked at each dial.
//
// A pooled connection is closed once it has been idle for
// webhooks.idleConnTimeout, before common servers close theirs (Node's
// http server after 5 s). A receiver may still close one first (Go's
// net/http with a shorter IdleTimeout, a proxy); a request that then fails
// on that reused connection before any byte of an answer came back never
// reached the receiver's application, so it is sent again at once, within
// the same attempt, on a connection of its own (fresh).
type sender struct {
	c *fasthttp.Client
	// fresh sends the requests that met a stale connection again, each on
	// a new connection closed after its answer.
	fresh   *fasthttp.Client
	timeout time.Duration
	// resent counts the requests sent again (the manager's counters).
	resent *atomic.Uint64
	// macs holds keyed MACs for reuse: hmac.New costs two SHA-256 states
	// and the key schedule, per request otherwise. A channel, not a
	// sync.Pool: a pool is emptied by every GC cycle (several a second
	// under load), and an endpoint needs at most two per attempt in
	// flight.
	macs chan *keyedMAC
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
		var km *keyedMAC
		select {
		case km = <-s.macs:
		default:
		}
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
		select {
		case s.macs <- km:
		default:
		}
	}
	return dst
}

// newSender returns the sender of one endpoint.
func (m *Manager) newSender() *sender {
	timeout := m.cfg.Timeout
	d := m.policy.DialContext(&net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second})
	dial := func(addr string) (net.Conn, error) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		return d(ctx, "tcp", addr)
	}
	client := func(dial fasthttp.DialFunc) *fasthttp.Client {
		return &fasthttp.Client{
			Name:                   "orderengine-webhooks/1",
			MaxConnsPerHost:        m.cfg.Concurrency,
			MaxIdleConnDuration:    m.cfg.IdleConnTimeout,
			ReadTimeout:            timeout,
			WriteTimeout:           timeout,
			MaxResponseBodySize:    maxResponseRead,
			DisablePathNormalizing: true,
			// fasthttp retries nothing: a refused target must not be tried
			// on another address (the policy already tried every checked
			// one), and post decides the one case sent again.
			RetryIf: func(*fasthttp.Request) bool { return false },
			Dial:    dial,
		}
	}
	return &sender{
		timeout: timeout,
		resent:  &m.stats.resent,
		macs:    make(chan *keyedMAC, 2*m.cfg.Concurrency),
		c: client(func(addr string) (net.Conn, error) {
			c, err := dial(addr)
			if err != nil {
				return nil, err
			}
			return &trackedConn{Conn: c}, nil
		}),
		fresh: client(dial),
	}
}

// close drops the idle connections.
func (s *sender) close() { s.c.CloseIdleConnections() }

// trackedConn is a pooled connection that knows whether it carried a
// complete exchange, so that a request failing on it can tell a reused
// connection from a new one.
type trackedConn struct {
	net.Conn
	answered atomic.Bool
}

// LocalAddr returns the connection's local address, carrying the
// connection: fasthttp keeps it in the response of every request
// (Response.LocalAddr), which is how post finds the connection a request
// used.
func (c *trackedConn) LocalAddr() net.Addr { return connAddr{Addr: c.Conn.LocalAddr(), conn: c} }

// connAddr is a local address and the connection it belongs to.
type connAddr struct {
	net.Addr
	conn *trackedConn
}

// usedConn returns the pooled connection resp came (or failed to come)
// on, or nil.
func usedConn(resp *fasthttp.Response) *trackedConn {
	if a, ok := resp.LocalAddr().(connAddr); ok {
		return a.conn
	}
	return nil
}

// staleConn reports whether err, from a request on conn, is a reused
// connection that the receiver had closed: conn carried an answer before,
// and the request failed before any byte of its own answer (fasthttp's
// ErrConnectionClosed) or while it was being written.
func staleConn(conn *trackedConn, err error) bool {
	if conn == nil || !conn.answered.Load() {
		return false
	}
	if errors.Is(err, fasthttp.ErrConnectionClosed) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "write"
}

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
	deadline := time.Now().Add(s.timeout)
	err := s.c.DoDeadline(req, resp, deadline)
	if conn := usedConn(resp); err == nil && conn != nil {
		conn.answered.Store(true)
	} else if staleConn(conn, err) {
		s.resent.Add(1)
		req.SetConnectionClose()
		err = s.fresh.DoDeadline(req, resp, deadline)
	}
	if errors.Is(err, fasthttp.ErrBodyTooLarge) {
		err = nil // the status line is what counts; the body is dropped
	}
	if err != nil {
		return 0, 0, err
	}
	return resp.StatusCode(), parseRetryAfter(string(resp.Header.Peek("Retry-After")), at), nil
}
