package natsjs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine/persistence"
)

// Conditional publishes and authoritative reads.
//
// A write is one message, published with an expected last sequence on its
// subject (compare-and-set: 0 means "no message yet") and a message id
// that names this one write. JetStream checks the id before the expected
// sequence, so a retry of a write that landed is acknowledged with the
// sequence it got (not refused), and a different write is refused with
// JetStream's "wrong last sequence" (10071): that, and only that, is a
// conflict. A write whose attempts timed out may have landed: it is
// resolved by reading the subject's first message after the expected
// sequence; if that cannot be read before the deadline the outcome is
// unknown (persistence.ErrOutcomeUnknown).

// JetStream API error codes the publisher tells apart.
const (
	codeWrongLastSeq     jetstream.ErrorCode = 10071 // the subject's last sequence is another
	codeSubjectInFlight  jetstream.ErrorCode = 10164 // a conditional write on the subject is in flight
	codeDupInProcess     jetstream.ErrorCode = 10158 // this message id is being written
	codeClusterNotAvail  jetstream.ErrorCode = 10008
	codeNotLeader        jetstream.ErrorCode = 10009
	codeInsufficientRes  jetstream.ErrorCode = 10023
	codeStreamOffline    jetstream.ErrorCode = 10118
	codeStreamOfflineWhy jetstream.ErrorCode = 10194
	codeNoMessageFound   jetstream.ErrorCode = 10037
	attemptTimeout                           = 2 * time.Second
	firstBackoff                             = 25 * time.Millisecond
	maxBackoff                               = 400 * time.Millisecond
)

// errCASConflict is returned by publishCAS when the subject's last
// sequence was not the expected one: nothing was written.
var errCASConflict = errors.New("natsjs: the subject moved past the expected sequence")

// publishCAS publishes data on subj of stream as message msgID if the
// subject's last sequence is expect, retrying with the same id until the
// write timeout, and returns the message's stream sequence. Errors:
// errCASConflict (nothing written), persistence.ErrUnavailable (nothing
// written: no quorum or no leader), persistence.ErrOutcomeUnknown (with
// ErrUnavailable: it may have landed), or another error (refused by the
// stream, nothing written).
func (n *Node) publishCAS(ctx context.Context, stream, subj, msgID string, expect uint64, data []byte) (uint64, error) {
	return n.publishCASOpts(ctx, stream, subj, msgID, expect, data)
}

// publishCASOpts is publishCAS with more publish options (a message TTL).
func (n *Node) publishCASOpts(ctx context.Context, stream, subj, msgID string, expect uint64, data []byte, more ...jetstream.PublishOpt) (uint64, error) {
	if !n.health.writable() {
		return 0, fmt.Errorf("%w: this node reaches %d other nodes, a quorum of %d replicas needs %d", persistence.ErrUnavailable,
			n.health.peers.Load(), n.opts.Cluster.Replicas, n.health.quorum-1)
	}
	ctx, cancel := n.writeContext(ctx)
	defer cancel()
	maybeLanded := false
	var last error
	for backoff := firstBackoff; ; backoff = min(2*backoff, maxBackoff) {
		seq, err := n.publishOnce(ctx, stream, subj, msgID, expect, data, more)
		retry, landed := classify(err)
		switch {
		case err == nil:
			return seq, nil
		case errors.Is(err, errCASConflict) && maybeLanded:
			// Refused now; an earlier attempt may be the write that moved
			// the subject.
			return n.resolve(ctx, stream, subj, msgID, expect)
		case !retry:
			return 0, err
		}
		maybeLanded = maybeLanded || landed
		last = err
		select {
		case <-ctx.Done():
			return n.giveUp(ctx, stream, subj, msgID, expect, maybeLanded, last)
		case <-time.After(backoff):
		}
	}
}

// publishOnce makes one attempt; errCASConflict on a wrong last sequence.
func (n *Node) publishOnce(ctx context.Context, stream, subj, msgID string, expect uint64, data []byte, more []jetstream.PublishOpt) (uint64, error) {
	actx, cancel := context.WithTimeout(ctx, attemptTimeout)
	defer cancel()
	opts := append([]jetstream.PublishOpt{jetstream.WithMsgID(msgID), jetstream.WithExpectStream(stream),
		jetstream.WithExpectLastSequencePerSubject(expect), jetstream.WithRetryAttempts(0)}, more...)
	ack, err := n.js.PublishMsg(actx, &nats.Msg{Subject: subj, Data: data}, opts...)
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode == codeWrongLastSeq {
		return 0, fmt.Errorf("%w: %s: %s", errCASConflict, subj, apiErr.Description)
	}
	if err != nil {
		return 0, err
	}
	return ack.Sequence, nil
}

// classify says whether a failed attempt may be retried and whether it may
// have landed.
func classify(err error) (retry, maybeLanded bool) {
	if err == nil || errors.Is(err, errCASConflict) {
		return false, false
	}
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.ErrorCode {
		case codeSubjectInFlight, codeClusterNotAvail, codeNotLeader, codeInsufficientRes, codeStreamOffline, codeStreamOfflineWhy:
			return true, false
		case codeDupInProcess:
			return true, true
		}
		return false, false
	}
	// "No response from stream" is no proof that nothing was stored: while
	// a killed leader's stream elects a new one, an attempt answered so
	// was seen stored afterwards (a resubmit refused as ALREADY_EXISTS
	// after "nothing was stored"). The last look at the subject decides.
	if errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, nats.ErrNoResponders) {
		return true, true
	}
	// A timeout or a connection failure after the request went out.
	return true, true
}

// giveUp answers a write whose deadline passed: if it may have landed, one
// last look at the subject decides, else it is unavailable.
func (n *Node) giveUp(ctx context.Context, stream, subj, msgID string, expect uint64, maybeLanded bool, last error) (uint64, error) {
	if !maybeLanded {
		return 0, fmt.Errorf("%w: publish %s: %v", persistence.ErrUnavailable, subj, last)
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), attemptTimeout)
	defer cancel()
	seq, err := n.resolve(rctx, stream, subj, msgID, expect)
	if err == nil || errors.Is(err, errCASConflict) {
		return seq, err
	}
	return 0, fmt.Errorf("%w: %w: publish %s: %v", persistence.ErrOutcomeUnknown, persistence.ErrUnavailable, subj, last)
}

// resolve decides a write that may have landed: the subject's first message
// after expect is the one that won the compare-and-set. Ours (its message
// id is msgID): its sequence. Another: errCASConflict. None yet, or the
// stream cannot be read: outcome unknown.
func (n *Node) resolve(ctx context.Context, stream, subj, msgID string, expect uint64) (uint64, error) {
	m, found, err := n.leaderGet(ctx, stream, subj, expect+1)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%w: %w: resolve %s: %v", persistence.ErrOutcomeUnknown, persistence.ErrUnavailable, subj, err)
	case !found:
		return 0, fmt.Errorf("%w: %w: resolve %s: no message after %d yet", persistence.ErrOutcomeUnknown, persistence.ErrUnavailable, subj, expect)
	case m.Header.Get(jetstream.MsgIDHeader) == msgID:
		return m.Seq, nil
	}
	return 0, fmt.Errorf("%w: %s: another write followed sequence %d", errCASConflict, subj, expect)
}

// storedMsg is a message read from a stream.
type storedMsg struct {
	Subject string      `json:"subject"`
	Seq     uint64      `json:"seq"`
	Hdrs    []byte      `json:"hdrs"`
	Data    []byte      `json:"data"`
	Time    time.Time   `json:"time"`
	Header  nats.Header `json:"-"`
}

// msgGetRequest is the body of a stream's MSG.GET request.
type msgGetRequest struct {
	Seq        uint64 `json:"seq,omitempty"`
	LastBySubj string `json:"last_by_subj,omitempty"`
	NextBySubj string `json:"next_by_subj,omitempty"`
}

// leaderGet reads from the stream's leader (the authoritative copy: a
// direct get may be answered by a replica that has not applied the
// latest writes): with from 0 the last message of subj, else the first
// message of subj at or after sequence from. found is false when there is
// none. No leader (an election) is retried until ctx ends. Without a
// quorum it fails at once (persistence.ErrUnavailable): a leader needs
// one, and a lone node's answer might be stale.
func (n *Node) leaderGet(ctx context.Context, stream, subj string, from uint64) (*storedMsg, bool, error) {
	if !n.health.writable() {
		return nil, false, fmt.Errorf("%w: read %s: this node reaches %d other nodes, a quorum of %d replicas needs %d",
			persistence.ErrUnavailable, subj, n.health.peers.Load(), n.opts.Cluster.Replicas, n.health.quorum-1)
	}
	req := msgGetRequest{LastBySubj: subj}
	if from > 0 {
		req = msgGetRequest{Seq: from, NextBySubj: subj}
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, false, err
	}
	for backoff := firstBackoff; ; backoff = min(2*backoff, maxBackoff) {
		m, found, err := n.leaderGetOnce(ctx, "$JS.API.STREAM.MSG.GET."+stream, body)
		retry, _ := classify(err)
		if err == nil || !retry {
			return m, found, err
		}
		select {
		case <-ctx.Done():
			return nil, false, fmt.Errorf("natsjs: read %s: %w (last error: %v)", subj, ctx.Err(), err)
		case <-time.After(backoff):
		}
	}
}

func (n *Node) leaderGetOnce(ctx context.Context, api string, body []byte) (*storedMsg, bool, error) {
	actx, cancel := context.WithTimeout(ctx, attemptTimeout)
	defer cancel()
	resp, err := n.nc.RequestWithContext(actx, api, body)
	if err != nil {
		return nil, false, err
	}
	var out struct {
		Message *storedMsg          `json:"message"`
		Error   *jetstream.APIError `json:"error"`
	}
	if err := json.Unmarshal(resp.Data, &out); err != nil {
		return nil, false, fmt.Errorf("natsjs: message get answer: %w", err)
	}
	switch {
	case out.Error != nil && out.Error.ErrorCode == codeNoMessageFound:
		return nil, false, nil
	case out.Error != nil:
		return nil, false, out.Error
	case out.Message == nil:
		return nil, false, errors.New("natsjs: message get answered nothing")
	}
	if len(out.Message.Hdrs) > 0 {
		h, err := nats.DecodeHeadersMsg(out.Message.Hdrs)
		if err != nil {
			return nil, false, fmt.Errorf("natsjs: message headers: %w", err)
		}
		out.Message.Header = h
	}
	return out.Message, true, nil
}
