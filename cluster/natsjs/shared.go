package natsjs

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/orderengine/orderengine/persistence"
)

// SharedLog is the store's shared-records seam (persistence.SharedLog) on
// the SHARED stream: a shared write is the writer's Pebble batch, exactly
// as built (its Repr), published on shared.<entity> conditional on the
// entity's revision (the subject's last sequence); every node applies the
// same bytes in stream order (persistence.Store.ApplyShared, which also
// drops the cached records the batch wrote), and the writer returns once
// its own store has applied its message.
type SharedLog struct {
	n *Node
	f atomic.Pointer[follower] // set by Start
}

var _ persistence.SharedLog = (*SharedLog)(nil)

// NewSharedLog returns the shared log of node n: open the node's store
// with it (persistence.Options.Shared), then Start it on that store. Its
// writes answer persistence.ErrUnavailable until Start.
func NewSharedLog(n *Node) *SharedLog { return &SharedLog{n: n} }

// Start applies the stream to store, resuming after the position the
// store holds.
func (l *SharedLog) Start(ctx context.Context, store *persistence.Store) error {
	from, err := store.SharedPosition(sharedStream)
	if err != nil {
		return err
	}
	apply := func(msgs []record) error {
		for _, m := range msgs {
			if err := store.ApplyShared(m.data, sharedStream, m.seq); err != nil {
				return fmt.Errorf("natsjs: %s %d: %w", m.subject, m.seq, err)
			}
		}
		return nil
	}
	f := newFollower(l.n, sharedStream, from, apply)
	if err := f.start(ctx); err != nil {
		return err
	}
	l.n.onClose(f.stop)
	l.n.addFollower(f)
	l.f.Store(f)
	return nil
}

// follower returns the started follower, or ErrUnavailable before Start.
func (l *SharedLog) follower() (*follower, error) {
	f := l.f.Load()
	if f == nil {
		return nil, fmt.Errorf("%w: the node has not joined the cluster yet", persistence.ErrUnavailable)
	}
	return f, nil
}

// Barrier implements persistence.SharedLog: the entity's last message as
// the stream's leader has it, once this node has applied it.
func (l *SharedLog) Barrier(ctx context.Context, entity string) (uint64, error) {
	f, err := l.follower()
	if err != nil {
		return 0, err
	}
	if !l.n.health.writable() {
		return 0, fmt.Errorf("%w: shared write of %s", persistence.ErrUnavailable, entity)
	}
	ctx, cancel := l.n.writeContext(ctx)
	defer cancel()
	m, found, err := l.n.leaderGet(ctx, sharedStream, sharedSubject(entity), 0)
	if err != nil {
		return 0, fmt.Errorf("%w: read %s: %v", persistence.ErrUnavailable, entity, err)
	}
	if !found {
		return 0, nil
	}
	if err := f.waitApplied(ctx, m.Seq); err != nil {
		return 0, fmt.Errorf("%w: %v", persistence.ErrUnavailable, err)
	}
	return m.Seq, nil
}

// Publish implements persistence.SharedLog.
func (l *SharedLog) Publish(ctx context.Context, entity string, rev uint64, repr []byte) error {
	f, err := l.follower()
	if err != nil {
		return err
	}
	ctx, cancel := l.n.writeContext(ctx)
	defer cancel()
	seq, err := l.n.publishCAS(ctx, sharedStream, sharedSubject(entity), entity+":"+nonce(), rev, repr)
	if errors.Is(err, errCASConflict) {
		return fmt.Errorf("%w: %v", persistence.ErrSharedConflict, err)
	}
	if err != nil {
		return err
	}
	if err := f.waitApplied(ctx, seq); err != nil {
		return fmt.Errorf("%w: shared write of %s is durable at %d but not yet applied here: %v", persistence.ErrOutcomeUnknown, entity, seq, err)
	}
	return nil
}
