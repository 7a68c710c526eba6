package members

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/orderengine/orderengine/actors/kind"
)

// The methods of a request: a request waits for the handler's answer; a
// tell is acknowledged once handed to the handler.
const (
	methodRequest byte = 0
	methodTell    byte = 1
)

// The statuses of an answer.
const (
	// statusOK: the handler's answer follows.
	statusOK byte = 0
	// statusUnavailable: the member cannot serve the identity now (it
	// does not hold its shard, it is stopping, or it does not host the
	// kind); the caller tries again.
	statusUnavailable byte = 1
	// statusFailed: the handler failed; its message follows.
	statusFailed byte = 2
)

// The backoff between attempts of a call.
const (
	backoffFirst = 5 * time.Millisecond
	backoffMax   = 250 * time.Millisecond
	// noHolderWait: a call whose shard has had no holder serving it
	// (NATS finds no subscriber) for this long gives up at once, so that
	// the caller falls back instead of waiting out its deadline: the
	// holder died or is cut off, and its term has not ended yet. A
	// handover leaves a shard unserved for less than this.
	noHolderWait = 500 * time.Millisecond
)

// breakerOpen is how long, after a call to a shard found no member able to
// answer, further calls to that shard give up at once (the caller falls
// back) rather than each waiting as long again; the first call after it
// tries again.
const breakerOpen = time.Second

// errNoHolder is an attempt that found no member serving the shard.
var errNoHolder = errors.New("no member serves the shard")

// RemoteError is a request the owning member received and failed to
// serve.
type RemoteError struct {
	Member, Message string
}

func (e *RemoteError) Error() string {
	return fmt.Sprintf("members: %s failed the request: %s", e.Member, e.Message)
}

// shardOf returns the shard of an identity: FNV-1a of its key.
func (m *Member) shardOf(key string) *shard {
	return m.shards[fnv1a(key, "")%uint32(len(m.shards))]
}

// Owns implements kind.Placement: whether this member holds the shard of
// identity key now. It is fenced by the shard's lease: true only until
// the term's end by this node's clock.
func (m *Member) Owns(_, key string) bool {
	if m.stopped.Load() || len(m.shards) == 0 {
		return false
	}
	return m.shardOf(key).lease.Held()
}

// Owner returns the name of the node that holds the shard of identity key
// as this member last read the terms ("" when none does).
func (m *Member) Owner(_, key string) string {
	v := m.view.Load()
	if v == nil || len(m.shards) == 0 {
		return ""
	}
	return v.holders[m.shardOf(key).i]
}

// Call implements kind.Placement: it sends req to the holder of key's
// shard and waits for the answer. An attempt that finds no holder, times
// out (Config.Attempt) or reaches a node that does not hold the shard any
// more waits a growing backoff and tries again, until ctx ends; a shard
// this member came to hold meanwhile is served here. A timed-out attempt
// may still be handled: requests must be safe to repeat.
func (m *Member) Call(ctx context.Context, kindName, key string, req kind.Message) (kind.Message, error) {
	return m.call(ctx, methodRequest, kindName, key, req)
}

// Tell implements kind.Placement: it delivers msg to the holder of key's
// shard, retrying like Call until the holder acknowledges it (queued for
// the identity's actor, not yet handled).
func (m *Member) Tell(ctx context.Context, kindName, key string, msg kind.Message) error {
	_, err := m.call(ctx, methodTell, kindName, key, msg)
	return err
}

func (m *Member) call(ctx context.Context, method byte, kindName, key string, req kind.Message) (kind.Message, error) {
	if m.stopped.Load() {
		return kind.Message{}, fmt.Errorf("members: %s %s: %w: this member has stopped", kindName, key, ErrUnreachable)
	}
	s := m.shardOf(key)
	if until := s.unserved.Load(); until != 0 && time.Now().UnixNano() < until && !s.lease.Held() {
		return kind.Message{}, fmt.Errorf("members: %s %s: %w: no member answered for its shard a moment ago", kindName, key, ErrUnreachable)
	}
	res, err := m.callShard(ctx, s, method, kindName, key, req)
	if errors.Is(err, ErrUnreachable) {
		s.unserved.Store(time.Now().Add(breakerOpen).UnixNano())
	}
	return res, err
}

// callShard makes the attempts of a call to shard s.
func (m *Member) callShard(ctx context.Context, s *shard, method byte, kindName, key string, req kind.Message) (kind.Message, error) {
	subject := m.subject(s.i)
	body := encodeRequest(method, kindName, key, req)
	backoff := backoffFirst
	var last error
	var noHolder time.Time // since when attempts found no holder
	for attempt := 1; ; attempt++ {
		if s.lease.Held() {
			h, ok := m.kinds[kindName]
			if !ok {
				return kind.Message{}, fmt.Errorf("members: no handler of kind %s", kindName)
			}
			return h.Serve(ctx, key, req, method == methodTell)
		}
		res, retry, err := m.attempt(ctx, subject, body)
		if err == nil {
			return res, nil
		}
		if !retry {
			return kind.Message{}, err
		}
		last = err
		switch {
		case !errors.Is(err, errNoHolder):
			noHolder = time.Time{}
		case noHolder.IsZero():
			noHolder = time.Now()
		case time.Since(noHolder) >= noHolderWait:
			return kind.Message{}, fmt.Errorf("members: %s %s: %w: %v", kindName, key, ErrUnreachable, err)
		}
		wait := backoff/2 + rand.N(backoff/2+1)
		backoff = min(2*backoff, backoffMax)
		select {
		case <-ctx.Done():
			return kind.Message{}, fmt.Errorf("members: %s %s: %w after %d attempts (%v): %v", kindName, key, ErrUnreachable, attempt, ctx.Err(), last)
		case <-time.After(wait):
		}
		if m.stopped.Load() {
			return kind.Message{}, fmt.Errorf("members: %s %s: %w: this member has stopped: %v", kindName, key, ErrUnreachable, last)
		}
	}
}

// attempt makes one request; retry reports whether another may succeed.
func (m *Member) attempt(ctx context.Context, subject string, body []byte) (res kind.Message, retry bool, err error) {
	timeout := m.cfg.Attempt
	if d, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(d))
	}
	if timeout <= 0 {
		return kind.Message{}, true, context.DeadlineExceeded
	}
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	msg, err := m.nc.RequestWithContext(actx, subject, body)
	if err != nil {
		if errors.Is(err, nats.ErrNoResponders) {
			return kind.Message{}, true, errNoHolder
		}
		return kind.Message{}, true, err
	}
	status, res, text, err := decodeAnswer(msg.Data)
	switch {
	case err != nil:
		return kind.Message{}, false, err
	case status == statusOK:
		return res, false, nil
	case status == statusUnavailable:
		return kind.Message{}, true, fmt.Errorf("unavailable: %s", text)
	default:
		return kind.Message{}, false, &RemoteError{Member: "the shard's holder", Message: text}
	}
}

// subject is the subject shard i's holder serves.
func (m *Member) subject(i int) string { return fmt.Sprintf("oe.%s.shard.%d", m.cfg.Cluster, i) }

// subscribe starts serving shard s (once).
func (m *Member) subscribe(s *shard) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.sub != nil || m.stopped.Load() {
		return
	}
	sub, err := m.nc.Subscribe(m.subject(s.i), m.receive)
	if err != nil {
		m.log.Warn("members: serving a shard failed", "shard", s.i, "err", err)
		return
	}
	s.sub = sub
}

// unsubscribe stops serving shard s.
func (m *Member) unsubscribe(s *shard) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.sub != nil {
		_ = s.sub.Unsubscribe()
		s.sub = nil
	}
}

// receive hands a request to a goroutine of its own (bounded by
// maxServing: past it the request is refused as unavailable).
func (m *Member) receive(msg *nats.Msg) {
	select {
	case m.serving <- struct{}{}:
	default:
		_ = msg.Respond(encodeAnswer(statusUnavailable, kind.Message{}, "the member is serving too many requests"))
		return
	}
	go func() {
		defer func() { <-m.serving }()
		_ = msg.Respond(m.serve(msg.Data))
	}()
}

// serve answers one request: refused unless this member holds the
// identity's shard now, else handed to the kind's handler. A panic in
// the handler answers a failure.
func (m *Member) serve(data []byte) (answer []byte) {
	method, kindName, key, req, err := decodeRequest(data)
	if err != nil {
		return encodeAnswer(statusFailed, kind.Message{}, err.Error())
	}
	if m.stopped.Load() {
		return encodeAnswer(statusUnavailable, kind.Message{}, "the member is stopping")
	}
	if !m.Owns(kindName, key) {
		return encodeAnswer(statusUnavailable, kind.Message{}, "this member does not hold the identity's shard")
	}
	h, ok := m.kinds[kindName]
	if !ok {
		return encodeAnswer(statusUnavailable, kind.Message{}, "this member does not host kind "+kindName)
	}
	defer func() {
		if p := recover(); p != nil {
			m.log.Error("members: a handler panicked", "kind", kindName, "key", key, "panic", fmt.Sprint(p))
			answer = encodeAnswer(statusFailed, kind.Message{}, "the handler of "+kindName+" failed")
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.Serve)
	defer cancel()
	res, err := h.Serve(ctx, key, req, method == methodTell)
	if err != nil {
		return encodeAnswer(statusFailed, kind.Message{}, err.Error())
	}
	return encodeAnswer(statusOK, res, "")
}

// The wire format of requests and answers: a method or status byte, then
// length-prefixed (uvarint) strings, then the message's bytes.
//
//	request: method, kind, key, type, data...
//	answer:  status, type (or the failure's text), data...

func encodeRequest(method byte, kindName, key string, msg kind.Message) []byte {
	b := make([]byte, 0, 1+3*binary.MaxVarintLen16+len(kindName)+len(key)+len(msg.Type)+len(msg.Data))
	b = append(b, method)
	b = appendString(b, kindName)
	b = appendString(b, key)
	b = appendString(b, msg.Type)
	return append(b, msg.Data...)
}

func decodeRequest(b []byte) (method byte, kindName, key string, msg kind.Message, err error) {
	if len(b) < 1 {
		return 0, "", "", kind.Message{}, errors.New("members: empty request")
	}
	method, b = b[0], b[1:]
	if kindName, b, err = readString(b); err == nil {
		if key, b, err = readString(b); err == nil {
			msg.Type, b, err = readString(b)
		}
	}
	if err != nil {
		return 0, "", "", kind.Message{}, fmt.Errorf("members: malformed request: %w", err)
	}
	msg.Data = b
	return method, kindName, key, msg, nil
}

func encodeAnswer(status byte, msg kind.Message, text string) []byte {
	if status != statusOK {
		msg.Type = text
	}
	b := make([]byte, 0, 1+binary.MaxVarintLen16+len(msg.Type)+len(msg.Data))
	b = append(b, status)
	b = appendString(b, msg.Type)
	return append(b, msg.Data...)
}

func decodeAnswer(b []byte) (status byte, msg kind.Message, text string, err error) {
	if len(b) < 1 {
		return 0, kind.Message{}, "", errors.New("members: empty answer")
	}
	status = b[0]
	s, rest, err := readString(b[1:])
	if err != nil {
		return 0, kind.Message{}, "", fmt.Errorf("members: malformed answer: %w", err)
	}
	if status != statusOK {
		return status, kind.Message{}, s, nil
	}
	return status, kind.Message{Type: s, Data: rest}, "", nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func readString(b []byte) (string, []byte, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return "", nil, errors.New("bad length")
	}
	return string(b[k : k+int(n)]), b[k+int(n):], nil
}

// fnv1a is FNV-1a (32 bits) over a then b.
func fnv1a(a, b string) uint32 {
	const (
		offset = 2166136261
		prime  = 16777619
	)
	h := uint32(offset)
	for i := 0; i < len(a); i++ {
		h ^= uint32(a[i])
		h *= prime
	}
	for i := 0; i < len(b); i++ {
		h ^= uint32(b[i])
		h *= prime
	}
	return h
}
