package natsjs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine/persistence"
)

// Group commit of the order journal.
//
// A stream's leader proposes every conditional publish to Raft on its
// own; Raft appends what proposals are queued when it sends, and every
// append costs an fsync on every replica. Order writes of one node to one
// partition stream that wait at the same time are therefore sent as one
// JetStream atomic batch (stream setting AllowAtomicPublish; headers
// Nats-Batch-Id, Nats-Batch-Sequence, and Nats-Batch-Commit on the last
// message): the leader checks every message's conditions when the commit
// arrives and proposes the batch's messages together (one ProposeMulti),
// so they go into one Raft append and one fsync per replica, and answers
// once the batch is applied, which is after a quorum stored it with its
// fsync: the 201 still waits for the quorum's fsynced acknowledgement.
// The messages of a batch get consecutive stream sequences (they are
// applied in order, under the stream's isolation lock), the last one's in
// the acknowledgement with the batch's count.
//
// Every message keeps its own conditions: its message id (Nats-Msg-Id,
// deduplicated as a single publish's) and its expected last sequence on
// its own subject (Nats-Expected-Last-Subject-Sequence), checked by the
// leader per message as for a single publish. A batch holds at most one
// write per subject (the server refuses a second check on a subject the
// batch already writes). The batch is atomic: when one message's
// condition fails (another write moved its subject, 10071; a write on its
// subject is in flight, 10164; its id was written already, 10201) nothing
// of it is written and the whole batch is refused. Then every member is
// published on its own, as a lone write is (publishCAS: its own id, its
// own compare-and-set, the same retries), so one order's conflict never
// fails another order: the conflicting one gets its conflict, the others
// land. A batch whose outcome is unknown (no answer: a timeout, a leader
// change) may have landed as a whole: its members are published on their
// own as writes that may have landed, so a member the batch wrote is
// acknowledged by its id as the duplicate it is, with the sequence the
// batch gave it, and a conflict is resolved by reading the subject
// (resolve). Nothing is written twice.
//
// A batch forms only from writes already waiting: a write that finds no
// publish of this node to its stream in flight is published at once, on
// its own, as before (no added latency when idle). While one is in
// flight the writes of the stream queue, and when it is answered the
// queue (at most maxBatchMsgs messages, maxBatchBytes bytes, within one
// Raft append) goes as the next batch; a queue of one goes as a single
// publish. Only the first attempt of a publish holds the stream's turn:
// a member that must be retried is retried on its own, beside the next
// batch.
//
// Streams made by an earlier version do not allow atomic publishes until
// Setup turned the setting on (a stream configuration update: it changes
// nothing stored, and earlier versions neither send batches nor compare
// the setting, so nodes of both versions can run side by side during a
// rolling upgrade). A stream that refuses batches (10174, its setting
// turned off) gets single publishes for batchOffFor before the next try.
const (
	maxBatchMsgs  = 64
	maxBatchBytes = 192 << 10 // Raft sends at most 256 KiB per append
	batchOffFor   = time.Minute

	hdrBatchID     = "Nats-Batch-Id"
	hdrBatchSeq    = "Nats-Batch-Sequence"
	hdrBatchCommit = "Nats-Batch-Commit"

	codeAtomicDisabled jetstream.ErrorCode = 10174 // the stream does not allow atomic publishes
)

// casWrite is one conditional write: data on subj of stream as message
// msgID if the subject's last sequence is expect.
type casWrite struct {
	stream, subj, msgID string
	expect              uint64
	data                []byte
}

// groupCommit gathers the concurrent writes of this node to each stream
// into batches. It is safe for concurrent use.
type groupCommit struct {
	n  *Node
	mu sync.Mutex
	qs map[string]*streamQueue
	// batches and batched count the batches sent (of two or more) and
	// their messages, failed or not.
	batches, batched atomic.Uint64
}

// streamQueue is the state of one stream's writes.
type streamQueue struct {
	busy     bool      // a first attempt of this node is in flight
	waiting  []*queued // writes waiting for the next batch
	offUntil time.Time // batches refused: single publishes until then
}

// queued is a waiting write and where its batch's answer goes.
type queued struct {
	w     casWrite
	taken bool // in a batch (no longer in waiting)
	done  chan batchAnswer
}

// batchAnswer is what a batch tells one member: landed at seq (err nil),
// or alone with the error of its own first attempt (a batch of one), or
// publish alone (maybeLanded: the batch's outcome is unknown).
type batchAnswer struct {
	seq         uint64
	err         error
	again       bool
	maybeLanded bool
}

func newGroupCommit(n *Node) *groupCommit {
	return &groupCommit{n: n, qs: make(map[string]*streamQueue)}
}

// publish publishes w as publishCAS does, in a batch with the writes of
// the same stream that wait beside it.
func (g *groupCommit) publish(ctx context.Context, w casWrite) (uint64, error) {
	n := g.n
	if err := n.checkWritable(); err != nil {
		return 0, err
	}
	ctx, cancel := n.writeContext(ctx)
	defer cancel()
	g.mu.Lock()
	q := g.qs[w.stream]
	if q == nil {
		q = &streamQueue{}
		g.qs[w.stream] = q
	}
	if !q.busy || time.Now().Before(q.offUntil) {
		// Nothing in flight (or no batches): at once, on its own.
		first := !q.busy
		q.busy = true
		g.mu.Unlock()
		seq, err := n.publishOnce(ctx, w.stream, w.subj, w.msgID, w.expect, w.data, nil)
		if first {
			g.next(w.stream)
		}
		return n.casContinue(ctx, w.stream, w.subj, w.msgID, w.expect, w.data, nil, seq, err, false)
	}
	qw := &queued{w: w, done: make(chan batchAnswer, 1)}
	q.waiting = append(q.waiting, qw)
	g.mu.Unlock()
	var a batchAnswer
	select {
	case a = <-qw.done:
	case <-ctx.Done():
		g.mu.Lock()
		if !qw.taken {
			for i, o := range q.waiting {
				if o == qw {
					q.waiting = append(q.waiting[:i], q.waiting[i+1:]...)
					break
				}
			}
			g.mu.Unlock()
			return 0, fmt.Errorf("%w: publish %s: %v before its batch was sent", persistence.ErrUnavailable, w.subj, ctx.Err())
		}
		g.mu.Unlock()
		a = <-qw.done
	}
	if !a.again {
		return n.casContinue(ctx, w.stream, w.subj, w.msgID, w.expect, w.data, nil, a.seq, a.err, false)
	}
	seq, err := n.publishOnce(ctx, w.stream, w.subj, w.msgID, w.expect, w.data, nil)
	return n.casContinue(ctx, w.stream, w.subj, w.msgID, w.expect, w.data, nil, seq, err, a.maybeLanded)
}

// next ends the stream's turn: the writes waiting (up to a batch's
// bounds, one per subject) go as the next batch, or the stream is idle.
func (g *groupCommit) next(stream string) {
	g.mu.Lock()
	q := g.qs[stream]
	if len(q.waiting) == 0 {
		q.busy = false
		g.mu.Unlock()
		return
	}
	var batch []*queued
	subjects := make(map[string]bool, min(len(q.waiting), maxBatchMsgs))
	rest, size := q.waiting[:0], 0
	for _, qw := range q.waiting {
		sz := len(qw.w.subj) + len(qw.w.data) + len(qw.w.msgID) + 200
		if len(batch) == maxBatchMsgs || subjects[qw.w.subj] || (len(batch) > 0 && size+sz > maxBatchBytes) {
			rest = append(rest, qw)
			continue
		}
		subjects[qw.w.subj] = true
		size += sz
		qw.taken = true
		batch = append(batch, qw)
	}
	clear(q.waiting[len(rest):])
	q.waiting = rest
	g.mu.Unlock()
	go g.run(stream, batch)
}

// run sends one batch, answers its members, and passes the stream's turn
// on.
func (g *groupCommit) run(stream string, batch []*queued) {
	defer g.next(stream)
	ctx, cancel := context.WithTimeout(context.Background(), attemptTimeout)
	defer cancel()
	if len(batch) == 1 {
		w := batch[0].w
		seq, err := g.n.publishOnce(ctx, w.stream, w.subj, w.msgID, w.expect, w.data, nil)
		batch[0].done <- batchAnswer{seq: seq, err: err}
		return
	}
	ws := make([]casWrite, len(batch))
	for i, qw := range batch {
		ws[i] = qw.w
	}
	seqs, err := g.publishBatch(ctx, ws)
	var again batchAnswer
	if err != nil {
		again = g.refused(stream, err)
	}
	for i, qw := range batch {
		if err != nil {
			qw.done <- again
		} else {
			qw.done <- batchAnswer{seq: seqs[i]}
		}
	}
}

// refused is what the members of a batch that failed with err do: publish
// on their own, as writes that may have landed unless the leader refused
// the batch (an API error: nothing of it written).
func (g *groupCommit) refused(stream string, err error) batchAnswer {
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) {
		return batchAnswer{again: true, maybeLanded: true}
	}
	if apiErr.ErrorCode == codeAtomicDisabled {
		g.mu.Lock()
		g.qs[stream].offUntil = time.Now().Add(batchOffFor)
		g.mu.Unlock()
		g.n.log.Warn("natsjs: a stream refuses atomic batches; its order writes are published one by one for a while",
			"stream", stream, "for", batchOffFor)
	}
	return batchAnswer{again: true}
}

// batchAck is a stream's answer to a batch's commit.
type batchAck struct {
	Stream string              `json:"stream"`
	Seq    uint64              `json:"seq"`
	Batch  string              `json:"batch"`
	Count  int                 `json:"count"`
	Error  *jetstream.APIError `json:"error"`
}

// publishBatch makes one attempt at writing ws (of one stream, each on
// its own subject) as one atomic batch and returns their sequences.
// Every message but the last is sent without a reply subject; the last
// commits the batch and is answered once the batch is applied. An
// *jetstream.APIError means the leader refused the batch and nothing of
// it was written; any other error leaves the outcome unknown (all of it
// or nothing).
func (g *groupCommit) publishBatch(ctx context.Context, ws []casWrite) ([]uint64, error) {
	g.batches.Add(1)
	g.batched.Add(uint64(len(ws)))
	id := nonce() + nonce()
	var resp *nats.Msg
	for i, w := range ws {
		m := &nats.Msg{Subject: w.subj, Data: w.data, Header: nats.Header{
			jetstream.MsgIDHeader:               []string{w.msgID},
			jetstream.ExpectedStreamHeader:      []string{w.stream},
			jetstream.ExpectedLastSubjSeqHeader: []string{strconv.FormatUint(w.expect, 10)},
			hdrBatchID:                          []string{id},
			hdrBatchSeq:                         []string{strconv.Itoa(i + 1)},
		}}
		if i < len(ws)-1 {
			if err := g.n.nc.PublishMsg(m); err != nil {
				return nil, err
			}
			continue
		}
		m.Header.Set(hdrBatchCommit, "1")
		var err error
		if resp, err = g.n.nc.RequestMsgWithContext(ctx, m); err != nil {
			return nil, err
		}
	}
	var ack batchAck
	if err := json.Unmarshal(resp.Data, &ack); err != nil {
		return nil, fmt.Errorf("natsjs: batch acknowledgement: %w", err)
	}
	switch {
	case ack.Error != nil:
		return nil, ack.Error
	case ack.Batch != id || ack.Count != len(ws) || ack.Seq < uint64(len(ws)):
		return nil, fmt.Errorf("natsjs: batch %s of %d acknowledged as %q of %d at %d", id, len(ws), ack.Batch, ack.Count, ack.Seq)
	}
	seqs := make([]uint64, len(ws))
	for i := range ws {
		seqs[i] = ack.Seq - uint64(len(ws)-1-i)
	}
	return seqs, nil
}
