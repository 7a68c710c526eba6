package natsjs

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// follower applies one stream's messages to this node's store, in stream
// order, from the position the store holds (the apply function stores the
// position of a batch's last message in the same write). It reads through
// a consumer of its own (ephemeral, one replica, in memory, no acks) that
// starts after the applied position, and recreates it from the applied
// position whenever it ends: a gap in the consumer's sequence, two missed
// heartbeats (the consumer's node is gone), the consumer deleted, or a
// stall (writers wait for a message it has not delivered: see watch).
// Each creation is bounded by a short timeout of its own, so that the
// follower resumes within about a second of the stream being served
// again after a leader change. The library's ordered consumer does the
// same with one creation bounded by a fixed 10 s (nats.go v1.55.0), which
// leaves a survivor's follower up to 11 s behind after a node is killed:
// longer than the write timeout.
// Writers wait on it for their own message (waitApplied):
// read-your-writes on the node that wrote.
//
// A batch that cannot be applied stops the follower for good (the store
// has failed or a message is corrupt): every wait then fails, and the node
// reports not ready.
type follower struct {
	n      *Node
	stream string
	// apply writes msgs (in order) and the position of the last to the
	// store, then tells whoever listens.
	apply func(msgs []record) error
	// applyMu serializes the applies of the consumer and of the catch-up
	// (catchUp), which may deliver the same messages.
	applyMu sync.Mutex

	mu      sync.Mutex
	applied uint64
	target  uint64 // the stream's last sequence at start: caught up once applied
	failed  error
	waiters map[chan struct{}]waiter
	// idleSince is when the follower began waiting for its consumer with
	// nothing to apply; zero while it creates a consumer or applies.
	idleSince time.Time
	consumer  string // the name of the consumer it reads through

	started bool
	stopc   chan struct{}
	done    chan struct{}
}

// waiter is a writer waiting for sequence seq to be applied, since since.
type waiter struct {
	seq   uint64
	since time.Time
}

// Limits of one apply batch, and of the consumers' pull requests.
const (
	applyBatchMax = 256
	pullBuffer    = 1024
	// pullHeartbeat is the consumers' idle heartbeat: a consumer whose
	// pull request went unanswered (sent while the consumer was still
	// being placed, or lost with a leader) misses two and is recreated,
	// instead of waiting out the library's 5 s heartbeat.
	pullHeartbeat = 500 * time.Millisecond
	pullExpiry    = 5 * time.Second
	// A creation of a follower's consumer waits createFirst, plus
	// createStep for each creation that failed in a row, at most
	// createMax: a request sent while the stream has no leader, or placed
	// on a node that is gone, is never answered, and the next attempt
	// should come soon; on a loaded node a creation may take longer, and
	// the bound grows.
	createFirst = time.Second
	createStep  = 250 * time.Millisecond
	createMax   = 4 * time.Second
	// recreateBackoffMax bounds the wait between two creations.
	recreateBackoffMax = 500 * time.Millisecond
	// stallAfter: a consumer that has delivered nothing for this long
	// while a writer has waited as long for a message it has not
	// delivered (durable on a quorum, so it exists) is recreated; the
	// watchdog looks every watchInterval.
	stallAfter    = time.Second
	watchInterval = 50 * time.Millisecond
	// followerInactive is the server's deletion delay of a follower's
	// consumer nobody pulls from (one whose creation timed out here but
	// happened there, or one left by a node that stopped).
	followerInactive = 30 * time.Second
)

// Why a follower's consumer ended, other than an error of the library.
var (
	errConsumerGap     = errors.New("natsjs: the consumer skipped a message")
	errConsumerStalled = errors.New("natsjs: the consumer delivered nothing for a while a writer waits for a message")
)

// pullOptions are the options of every consumer's message iterator.
func pullOptions() []jetstream.PullMessagesOpt {
	return []jetstream.PullMessagesOpt{jetstream.PullMaxMessages(pullBuffer),
		jetstream.PullExpiry(pullExpiry), jetstream.PullHeartbeat(pullHeartbeat)}
}

// record is one message of a stream as a follower applies it.
type record struct {
	seq     uint64
	subject string
	data    []byte
}

func newFollower(n *Node, stream string, from uint64, apply func([]record) error) *follower {
	return &follower{n: n, stream: stream, apply: apply, applied: from,
		waiters: make(map[chan struct{}]waiter), stopc: make(chan struct{}), done: make(chan struct{})}
}

// ErrBehindCompaction is returned when a node's store is behind what the
// compaction removed from a stream: following the stream from there would
// skip the removed messages. Such a node starts from a peer's snapshot.
var ErrBehindCompaction = errors.New("natsjs: this node's store is behind what the compaction removed from the streams")

// start reads the stream's last sequence (the catch-up target) and runs the
// follower until stop. A store behind the compaction's horizon is refused
// (ErrBehindCompaction).
func (f *follower) start(ctx context.Context) error {
	s, err := f.n.stream(f.stream)
	if err != nil {
		return err
	}
	h, err := f.n.Horizon(ctx)
	if err != nil {
		return fmt.Errorf("natsjs: stream %s: the compaction's horizon: %w", f.stream, err)
	}
	if removed := h[f.stream]; f.position() < removed {
		return fmt.Errorf("%w: %s applied up to %d here, messages up to %d removed", ErrBehindCompaction, f.stream, f.position(), removed)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return fmt.Errorf("natsjs: stream %s: %w", f.stream, err)
	}
	f.mu.Lock()
	f.target, f.started = info.State.LastSeq, true
	f.mu.Unlock()
	go f.run(s)
	return nil
}

// run consumes until stop, recreating the consumer after it ended: at once
// after a consumer that was created, with a backoff after failed
// creations. From the end of a consumer to the creation of the next, the
// follower catches up by itself (bridge), so that it never waits on a
// consumer's creation to apply what the stream holds.
func (f *follower) run(s jetstream.Stream) {
	defer close(f.done)
	var bridging chan struct{}
	endBridge := func() {
		if bridging != nil {
			close(bridging)
			bridging = nil
		}
	}
	defer endBridge()
	failures := 0
	backoff := firstBackoff
	var ended time.Time // when the last consumer ended, or zero
	for {
		created, err := f.consume(s, min(createFirst+time.Duration(failures)*createStep, createMax), ended, endBridge)
		if err == nil || f.stopped() {
			return
		}
		if f.hasFailed() {
			f.n.log.Error("natsjs: follower stopped: the store cannot apply the stream", "stream", f.stream, "err", err)
			return
		}
		if bridging == nil {
			bridging = make(chan struct{})
			go f.bridge(bridging)
		}
		if failures == 0 {
			f.n.log.Warn("natsjs: follower recreates its consumer", "stream", f.stream, "from", f.position()+1, "err", err)
		} else {
			f.n.log.Debug("natsjs: follower recreates its consumer", "stream", f.stream, "from", f.position()+1, "failures", failures, "err", err)
		}
		if created {
			failures, backoff, ended = 0, firstBackoff, time.Now()
		} else {
			failures, backoff = failures+1, min(2*backoff, recreateBackoffMax)
		}
		select {
		case <-f.stopc:
			return
		case <-time.After(backoff):
		}
	}
}

// consume creates a consumer starting after the applied position and
// applies what it delivers until stop (nil) or an error; created tells
// whether the consumer was created, and onCreated is called once it is.
// prevEnd is when the previous consumer ended (zero for the first): the
// time to resume is logged.
func (f *follower) consume(s jetstream.Stream, timeout time.Duration, prevEnd time.Time, onCreated func()) (created bool, err error) {
	name := "follow_" + f.stream + "_" + nonce()
	defer f.dropConsumer(s, name)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	cons, err := s.CreateConsumer(ctx, jetstream.ConsumerConfig{Name: name,
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: f.position() + 1,
		AckPolicy: jetstream.AckNonePolicy, InactiveThreshold: followerInactive, Replicas: 1, MemoryStorage: true})
	cancel()
	if err != nil {
		return false, fmt.Errorf("natsjs: create a consumer of %s: %w", f.stream, err)
	}
	onCreated()
	f.mu.Lock()
	f.consumer = name
	f.mu.Unlock()
	if !prevEnd.IsZero() {
		f.n.log.Info("natsjs: follower resumed", "stream", f.stream, "from", f.position()+1,
			"after", time.Since(prevEnd).Round(time.Millisecond))
	}
	it, err := cons.Messages(append(pullOptions(), jetstream.WithMessagesErrOnMissingHeartbeat(true))...)
	if err != nil {
		return true, err
	}
	var stalled atomic.Bool
	ended := make(chan struct{})
	defer close(ended)
	go f.watch(it, ended, &stalled)
	var delivered uint64 // the consumer's sequence of its last message
	for {
		batch, err := f.next(it, &delivered)
		switch {
		case errors.Is(err, jetstream.ErrMsgIteratorClosed) && f.stopped():
			return true, nil
		case errors.Is(err, jetstream.ErrMsgIteratorClosed) && stalled.Load():
			return true, errConsumerStalled
		case err != nil:
			return true, err
		}
		if err := f.applyBatch(batch); err != nil {
			return true, err
		}
	}
}

// dropConsumer deletes consumer name in the background (it may not exist:
// a creation that failed): the server would delete it once inactive.
func (f *follower) dropConsumer(s jetstream.Stream, name string) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.DeleteConsumer(ctx, name)
	}()
}

// watch stops it when the follower stops, or when the consumer stalls: the
// follower has waited stallAfter for it while a writer has waited as long
// for a message not yet applied. A writer waiting catchUpAfter for a
// message not applied makes it catch up by itself first (catchUp). It
// returns once ended is closed.
func (f *follower) watch(it jetstream.MessagesContext, ended <-chan struct{}, stalled *atomic.Bool) {
	tick := time.NewTicker(watchInterval)
	defer tick.Stop()
	for {
		select {
		case <-f.stopc:
		case <-ended:
		case now := <-tick.C:
			if f.waitedAt(now, catchUpAfter) {
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				if n, _ := f.catchUp(ctx); n > 0 {
					f.n.log.Info("natsjs: follower caught up what its consumer had not delivered", "stream", f.stream, "messages", n)
				}
				cancel()
			}
			if !f.stalledAt(now) {
				continue
			}
			stalled.Store(true)
		}
		it.Stop()
		return
	}
}

// waitedAt reports whether, at now, a writer has waited for at least d
// for a message not applied yet.
func (f *follower) waitedAt(now time.Time, d time.Duration) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, w := range f.waiters {
		if w.seq > f.applied && now.Sub(w.since) >= d {
			return true
		}
	}
	return false
}

// stalledAt reports whether, at now, the follower has waited for its
// consumer stallAfter or longer while a writer has waited as long for a
// message not applied.
func (f *follower) stalledAt(now time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.idleSince.IsZero() || now.Sub(f.idleSince) < stallAfter {
		return false
	}
	for _, w := range f.waiters {
		if w.seq > f.applied && now.Sub(w.since) >= stallAfter {
			return true
		}
	}
	return false
}

// next returns the next messages: one, plus those already pending, up to
// applyBatchMax; messages at or below the applied position are dropped.
// delivered is the consumer's sequence of the last message it delivered:
// a message that does not follow it is a gap (errConsumerGap).
func (f *follower) next(it jetstream.MessagesContext, delivered *uint64) ([]record, error) {
	f.setIdle(true)
	defer f.setIdle(false)
	var batch []record
	pos := f.position()
	for len(batch) < applyBatchMax {
		m, err := it.Next()
		if err != nil {
			return nil, err
		}
		meta, err := m.Metadata()
		if err != nil {
			return nil, err
		}
		if meta.Sequence.Consumer != *delivered+1 {
			return nil, fmt.Errorf("%w: %s: consumer sequence %d after %d", errConsumerGap, f.stream, meta.Sequence.Consumer, *delivered)
		}
		*delivered = meta.Sequence.Consumer
		if meta.Sequence.Stream > pos {
			batch = append(batch, record{seq: meta.Sequence.Stream, subject: m.Subject(), data: m.Data()})
			pos = meta.Sequence.Stream
		}
		if meta.NumPending == 0 && len(batch) > 0 {
			break
		}
	}
	return batch, nil
}

// consumerName is the name of the consumer the follower reads through
// (empty before the first is created).
func (f *follower) consumerName() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.consumer
}

// setIdle marks the follower waiting for its consumer, or not.
func (f *follower) setIdle(idle bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if idle {
		f.idleSince = time.Now()
	} else {
		f.idleSince = time.Time{}
	}
}

// applyBatch applies what batch holds after the applied position and
// advances the position; an apply failure is final.
func (f *follower) applyBatch(batch []record) error {
	f.applyMu.Lock()
	defer f.applyMu.Unlock()
	pos := f.position()
	for len(batch) > 0 && batch[0].seq <= pos {
		batch = batch[1:]
	}
	if len(batch) == 0 {
		return nil
	}
	if err := f.apply(batch); err != nil {
		f.fail(err)
		return err
	}
	f.advance(batch[len(batch)-1].seq)
	return nil
}

// position is the last sequence applied.
func (f *follower) position() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.applied
}

// advance records seq as applied and wakes the writers waiting for it.
func (f *follower) advance(seq uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.applied = seq
	for ch, w := range f.waiters {
		if w.seq <= seq {
			close(ch)
			delete(f.waiters, ch)
		}
	}
}

// fail stops the follower for good and fails every wait.
func (f *follower) fail(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failed = fmt.Errorf("natsjs: stream %s cannot be applied to this node's store: %w", f.stream, err)
	for ch := range f.waiters {
		close(ch)
		delete(f.waiters, ch)
	}
}

func (f *follower) hasFailed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failed != nil
}

// waitApplied returns once seq is applied to this node's store, or ctx's
// error, or the follower's failure.
func (f *follower) waitApplied(ctx context.Context, seq uint64) error {
	f.mu.Lock()
	if f.applied >= seq {
		f.mu.Unlock()
		return nil
	}
	if f.failed != nil {
		f.mu.Unlock()
		return f.failed
	}
	ch := make(chan struct{})
	f.waiters[ch] = waiter{seq: seq, since: time.Now()}
	f.mu.Unlock()
	select {
	case <-ch:
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.applied >= seq {
			return nil
		}
		return f.failed
	case <-ctx.Done():
		f.mu.Lock()
		delete(f.waiters, ch)
		f.mu.Unlock()
		return fmt.Errorf("natsjs: wait for %s %d to be applied here: %w", f.stream, seq, ctx.Err())
	}
}

// status reports whether the follower has caught up with the stream as it
// was at start, and its failure.
func (f *follower) status() (applied, target uint64, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.applied, f.target, f.failed
}

func (f *follower) stopped() bool {
	select {
	case <-f.stopc:
		return true
	default:
		return false
	}
}

// stop ends the follower and waits for it.
func (f *follower) stop() {
	f.mu.Lock()
	started := f.started
	f.mu.Unlock()
	select {
	case <-f.stopc:
	default:
		close(f.stopc)
	}
	if started {
		<-f.done
	}
}
