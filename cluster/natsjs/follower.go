package natsjs

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// follower applies one stream's messages to this node's store, in stream
// order, from the position the store holds (the apply function stores the
// position of a batch's last message in the same write), through an
// ordered consumer that resumes after the last message delivered whenever
// it has to be recreated (a leader change, a lost connection). Writers
// wait on it for their own message (waitApplied): read-your-writes on the
// node that wrote.
//
// A batch that cannot be applied stops the follower for good (the store
// has failed or a message is corrupt): every wait then fails, and the node
// reports not ready.
type follower struct {
	n      *Node
	stream string
	// apply writes msgs (consecutive, in order) and the position of the
	// last to the store, then tells whoever listens.
	apply func(msgs []jetstream.Msg) error

	mu      sync.Mutex
	applied uint64
	target  uint64 // the stream's last sequence at start: caught up once applied
	failed  error
	waiters map[chan struct{}]uint64

	started bool
	stopc   chan struct{}
	done    chan struct{}
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
)

// pullOptions are the options of every consumer's message iterator.
func pullOptions() []jetstream.PullMessagesOpt {
	return []jetstream.PullMessagesOpt{jetstream.PullMaxMessages(pullBuffer),
		jetstream.PullExpiry(pullExpiry), jetstream.PullHeartbeat(pullHeartbeat)}
}

func newFollower(n *Node, stream string, from uint64, apply func([]jetstream.Msg) error) *follower {
	return &follower{n: n, stream: stream, apply: apply, applied: from,
		waiters: make(map[chan struct{}]uint64), stopc: make(chan struct{}), done: make(chan struct{})}
}

// start reads the stream's last sequence (the catch-up target) and runs the
// follower until stop.
func (f *follower) start(ctx context.Context) error {
	s, err := f.n.stream(f.stream)
	if err != nil {
		return err
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

// run consumes until stop, recreating the consumer after an error.
func (f *follower) run(s jetstream.Stream) {
	defer close(f.done)
	for backoff := firstBackoff; ; backoff = min(2*backoff, time.Second) {
		err := f.consume(s)
		if err == nil || f.stopped() {
			return
		}
		if f.hasFailed() {
			f.n.log.Error("natsjs: follower stopped: the store cannot apply the stream", "stream", f.stream, "err", err)
			return
		}
		f.n.log.Warn("natsjs: follower restarts its consumer", "stream", f.stream, "err", err)
		select {
		case <-f.stopc:
			return
		case <-time.After(backoff):
		}
	}
}

// consume reads from an ordered consumer starting after the applied
// position until stop (nil) or an error.
func (f *follower) consume(s jetstream.Stream) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	cfg := jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: f.position() + 1}
	cons, err := s.OrderedConsumer(ctx, cfg)
	cancel()
	if err != nil {
		return err
	}
	it, err := cons.Messages(pullOptions()...)
	if err != nil {
		return err
	}
	stopped := make(chan struct{})
	defer close(stopped)
	go func() {
		select {
		case <-f.stopc:
		case <-stopped:
		}
		it.Stop()
	}()
	for {
		batch, err := f.next(it)
		if errors.Is(err, jetstream.ErrMsgIteratorClosed) && f.stopped() {
			return nil
		}
		if err != nil {
			return err
		}
		if err := f.applyBatch(batch); err != nil {
			return err
		}
	}
}

// next returns the next messages: one, plus those already pending, up to
// applyBatchMax; messages at or below the applied position are dropped.
func (f *follower) next(it jetstream.MessagesContext) ([]jetstream.Msg, error) {
	var batch []jetstream.Msg
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
		if meta.Sequence.Stream > pos {
			batch = append(batch, m)
			pos = meta.Sequence.Stream
		}
		if meta.NumPending == 0 && len(batch) > 0 {
			break
		}
	}
	return batch, nil
}

// applyBatch applies batch and advances the position; an apply failure is
// final.
func (f *follower) applyBatch(batch []jetstream.Msg) error {
	if err := f.apply(batch); err != nil {
		f.fail(err)
		return err
	}
	meta, _ := batch[len(batch)-1].Metadata()
	f.advance(meta.Sequence.Stream)
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
	for ch, want := range f.waiters {
		if want <= seq {
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
	f.waiters[ch] = seq
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
