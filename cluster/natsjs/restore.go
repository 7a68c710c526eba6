package natsjs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine"
)

// RestoreResult is what a restore wrote: the messages per stream and in
// all.
type RestoreResult struct {
	Cluster  string            `json:"cluster"`
	Created  time.Time         `json:"created"`
	Streams  map[string]uint64 `json:"streams"`
	Messages uint64            `json:"messages"`
}

// restoreLogEvery spaces a restore's progress lines.
const restoreLogEvery = 5 * time.Second

// Restore republishes a backup (r, read twice) into this cluster's
// streams, each message on its subject with its headers (its message id
// among them) and at its original sequence, so every node's materialiser
// then rebuilds the same records and the sequences the records refer to
// stay the same. Nothing is written unless the whole file reads back with
// its checksum (INVALID_REQUEST otherwise), the backup's orderPartitions
// is this cluster's and this cluster has every stream of the backup
// (INVALID_REQUEST), and every one of those streams, the order streams and
// the shared log are empty (ALREADY_EXISTS). Each message is published on
// the condition that its stream's last sequence is the one before it (up
// to restoreWindow of them in flight), so a retried publish is never
// doubled and a write by anyone else during the restore stops it
// (INVALID_REQUEST naming the stream and sequence).
func (n *Node) Restore(ctx context.Context, r io.ReadSeeker) (*RestoreResult, error) {
	if !n.health.writable() {
		return nil, &orderengine.Error{Code: orderengine.CodeNoQuorum, RetryAfterSeconds: 1,
			Message: "restore: this node does not reach a quorum of the cluster's nodes"}
	}
	h, err := checkBackup(r)
	if err != nil {
		return nil, err
	}
	if h.OrderPartitions != n.OrderPartitions() {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest,
			"restore: the backup was made with %d order streams (cluster.orderPartitions); this cluster has %d (they must be equal: make the cluster with cluster.orderPartitions %d)",
			h.OrderPartitions, n.OrderPartitions(), h.OrderPartitions)
	}
	if err := n.checkEmpty(ctx, h); err != nil {
		return nil, err
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("natsjs: restore: %w", err)
	}
	res := &RestoreResult{Cluster: h.Cluster, Created: h.Created, Streams: make(map[string]uint64, len(h.Streams))}
	logged := time.Now()
	var window []*BackupMessage
	_, err = ReadBackup(r, func(m *BackupMessage) error {
		if len(window) > 0 && (window[0].Stream != m.Stream || len(window) == restoreWindow) {
			if err := n.republishWindow(ctx, window); err != nil {
				return err
			}
			window = window[:0]
		}
		window = append(window, m)
		res.Streams[m.Stream]++
		res.Messages++
		if time.Since(logged) >= restoreLogEvery {
			n.log.Info("natsjs: restoring", "stream", m.Stream, "seq", m.Seq, "messages", res.Messages)
			logged = time.Now()
		}
		return nil
	})
	if err == nil {
		err = n.republishWindow(ctx, window)
	}
	if err != nil {
		return nil, err
	}
	n.log.Info("natsjs: restored a backup", "cluster", h.Cluster, "created", h.Created, "messages", res.Messages)
	return res, nil
}

// checkBackup reads the whole backup and checks that every stream's
// messages are numbered 1, 2, 3, ... up to its last sequence, which a
// restore into an empty stream reproduces.
func checkBackup(r io.Reader) (*BackupHeader, error) {
	next := make(map[string]uint64)
	h, err := ReadBackup(r, func(m *BackupMessage) error {
		want := next[m.Stream] + 1
		if m.Seq != want {
			return badBackup("stream %s has no message %d (messages numbered with gaps cannot be restored at their sequences)", m.Stream, want)
		}
		next[m.Stream] = want
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, s := range h.Streams {
		if next[s.Name] != s.LastSeq {
			return nil, badBackup("stream %s holds %d messages, its last sequence is %d", s.Name, next[s.Name], s.LastSeq)
		}
	}
	return h, nil
}

// checkEmpty refuses a restore into a cluster that holds data, or lacks a
// stream of the backup.
func (n *Node) checkEmpty(ctx context.Context, h *BackupHeader) error {
	names := []string{sharedStream}
	for p := range n.OrderPartitions() {
		names = append(names, orderStream(p))
	}
	for _, s := range h.Streams {
		names = append(names, s.Name)
	}
	for _, name := range names {
		actx, cancel := context.WithTimeout(ctx, apiTimeout)
		s, err := n.js.Stream(actx, name)
		cancel()
		if errors.Is(err, jetstream.ErrStreamNotFound) {
			return orderengine.Errorf(orderengine.CodeInvalidRequest,
				"restore: the backup holds stream %s, which this cluster does not have (restore with the engine version that made the backup)", name)
		}
		if err != nil {
			return &orderengine.Error{Code: orderengine.CodeServiceUnavailable, RetryAfterSeconds: 1,
				Message: fmt.Sprintf("restore: read stream %s: %v", name, err)}
		}
		if st := s.CachedInfo().State; st.Msgs > 0 || st.LastSeq > 0 {
			return orderengine.Errorf(orderengine.CodeAlreadyExists,
				"restore: stream %s of this cluster is not empty (%d messages): a backup is restored only into a new, empty cluster", name, st.Msgs)
		}
	}
	return nil
}

// restoreWindow is how many messages of one stream a restore has in
// flight at once.
const restoreWindow = 256

// republishWindow writes msgs, consecutive messages of one stream, each
// at its sequence: published together, each conditional on the stream's
// last sequence being the one before it (the stream's leader applies them
// in order). When one of them fails (and the later ones with it, their
// conditions no longer holding), the window is published again one
// message at a time (republish): a message of it that landed is
// acknowledged by its message id, not written twice.
func (n *Node) republishWindow(ctx context.Context, msgs []*BackupMessage) error {
	if len(msgs) == 0 {
		return nil
	}
	futures := make([]jetstream.PubAckFuture, 0, len(msgs))
	for _, m := range msgs {
		f, err := n.js.PublishMsgAsync(restoreMsg(m), jetstream.WithExpectStream(m.Stream), jetstream.WithExpectLastSequence(m.Seq-1))
		if err != nil {
			break
		}
		futures = append(futures, f)
	}
	ok := len(futures) == len(msgs)
	wait := time.NewTimer(n.opts.WriteTimeout)
	defer wait.Stop()
	for i := 0; ok && i < len(futures); i++ {
		select {
		case ack := <-futures[i].Ok():
			ok = ack.Sequence == msgs[i].Seq
		case <-futures[i].Err():
			ok = false
		case <-wait.C:
			ok = false
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if ok {
		return nil
	}
	for _, m := range msgs {
		if err := n.republish(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

// restoreMsg is m as a message to publish: its subject, data and headers
// but the conditions of its original publish (checked then; a restore
// sets its own).
func restoreMsg(m *BackupMessage) *nats.Msg {
	msg := &nats.Msg{Subject: m.Subject, Data: m.Data, Header: nats.Header{}}
	for k, v := range m.Header {
		if !strings.HasPrefix(k, "Nats-Expected-") {
			msg.Header[k] = v
		}
	}
	return msg
}

// republish writes m at its sequence: conditional on its stream's last
// sequence being the one before, with its message id, retried until the
// write timeout. A retry of a publish that landed is acknowledged with its
// sequence (the message id), not written twice.
func (n *Node) republish(ctx context.Context, m *BackupMessage) error {
	msg := restoreMsg(m)
	ctx, cancel := n.writeContext(ctx)
	defer cancel()
	for backoff := firstBackoff; ; backoff = min(2*backoff, maxBackoff) {
		actx, acancel := context.WithTimeout(ctx, attemptTimeout)
		ack, err := n.js.PublishMsg(actx, msg, jetstream.WithExpectStream(m.Stream),
			jetstream.WithExpectLastSequence(m.Seq-1), jetstream.WithRetryAttempts(0))
		acancel()
		var apiErr *jetstream.APIError
		switch {
		case err == nil && ack.Sequence != m.Seq:
			return orderengine.Errorf(orderengine.CodeInvalidRequest, "restore: %s message %d was stored at sequence %d", m.Stream, m.Seq, ack.Sequence)
		case err == nil:
			return nil
		case errors.As(err, &apiErr) && apiErr.ErrorCode == codeWrongLastSeq:
			return orderengine.Errorf(orderengine.CodeInvalidRequest,
				"restore: stream %s took another write before message %d (something else writes to this cluster: restore before it serves)", m.Stream, m.Seq)
		}
		if retry, _ := classify(err); !retry {
			return fmt.Errorf("natsjs: restore %s message %d: %w", m.Stream, m.Seq, err)
		}
		select {
		case <-ctx.Done():
			return &orderengine.Error{Code: orderengine.CodeNoQuorum, RetryAfterSeconds: 1,
				Message: fmt.Sprintf("restore: %s message %d was not acknowledged (%v); restored up to the one before", m.Stream, m.Seq, err)}
		case <-time.After(backoff):
		}
	}
}
