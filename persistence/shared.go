package persistence

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/batchrepr"

	"github.com/orderengine/orderengine"
)

// Shared records: account data (accounts, API keys with their names and
// last use, linked wallets, tier applications, dashboard sessions, webhook
// endpoints with their deliveries: the record kinds of sharedPrefixes),
// as opposed to chain data, which every
// node derives from the chain itself, and orders, which have their own
// replicated journal. On one node a shared write is a synced commit of a
// batch. In a cluster (Options.Shared, cluster/natsjs's) the same batch's
// bytes are published to a replicated log under the name of the entity
// they belong to, conditional on the entity's revision; every node, the
// writer included, applies the exact bytes to its store in log order
// (ApplyShared), so all nodes converge, and the writer returns once its own
// store has them.
//
// Every writer of shared records uses one mechanism, UpdateShared: it
// takes a SharedTx (BeginShared) before it reads what it will change (in a
// cluster, BeginShared waits until this node has applied the entity's
// latest write, so the reads are at least that new), builds one batch and
// commits it conditional on that revision. ErrSharedConflict (another node
// wrote the entity in between) runs the writer again on the newer data.
//
// After every shared batch is committed or applied, the store tells its
// shared-apply listeners (OnSharedApplied) which keys it wrote, so caches
// over shared records (the authentication cache) drop what changed, on
// every node.

// SharedLog replicates shared writes between the nodes of a cluster.
type SharedLog interface {
	// Barrier waits until this node has applied the latest write of entity
	// the cluster has acknowledged, and returns its revision (0: none).
	Barrier(ctx context.Context, entity string) (rev uint64, err error)
	// Publish replicates the batch repr as entity's next write, if entity
	// is still at rev, and returns once this node has applied it. It
	// returns an error wrapping ErrSharedConflict when entity moved past
	// rev (nothing written), ErrUnavailable when the cluster cannot take
	// writes, ErrOutcomeUnknown when the write may have landed.
	Publish(ctx context.Context, entity string, rev uint64, repr []byte) error
}

// ErrSharedConflict is returned by SharedTx.Commit when another writer
// changed the entity since BeginShared: nothing was written.
var ErrSharedConflict = errors.New("persistence: the shared record changed since it was read")

// ErrOutcomeUnknown wraps the failure of a write that happened after the
// write was handed on (to the store, which failed while making it
// durable, or to the cluster, which did not confirm it in time): the write
// may be durable, after a restart if need be.
var ErrOutcomeUnknown = errors.New("persistence: the write may or may not be durable")

// ErrUnavailable is returned by a replicated write that was refused
// because the cluster cannot make writes durable now (no quorum, no
// leader): nothing was written; retry later.
var ErrUnavailable = errors.New("persistence: the cluster cannot make writes durable now")

// sharedState is the Store's part of the seam: the log is set when the
// store opens (Options.Shared) and never changes.
type sharedState struct {
	log       SharedLog
	mu        sync.RWMutex
	listeners []func(keys [][]byte)
}

// SharedLog returns the shared log of a cluster, nil on one node.
func (s *Store) SharedLog() SharedLog { return s.shared.log }

// OnSharedApplied registers fn to be called with the keys of every shared
// batch once it is in this store (committed here or applied from the log).
func (s *Store) OnSharedApplied(fn func(keys [][]byte)) {
	s.shared.mu.Lock()
	s.shared.listeners = append(s.shared.listeners, fn)
	s.shared.mu.Unlock()
}

// UpdateShared runs fn as one shared write of entity: fn reads what it
// changes, then commits one batch through tx (fn returning without a
// commit writes nothing). When another node wrote entity meanwhile
// (ErrSharedConflict), fn runs again on the newer data, up to
// SharedAttempts times with a short random pause. A write the cluster could
// not make durable comes back as a client error (503 NO_QUORUM, SharedError).
func (s *Store) UpdateShared(ctx context.Context, entity string, fn func(tx *SharedTx) error) error {
	var err error
	for attempt := 1; ; attempt++ {
		err = fn(s.BeginShared(ctx, entity))
		if !errors.Is(err, ErrSharedConflict) || attempt == SharedAttempts {
			break
		}
		select {
		case <-ctx.Done():
			return SharedError(ctx.Err())
		case <-time.After(time.Duration(rand.Int64N(int64(attempt) * int64(sharedPause)))):
		}
	}
	return SharedError(err)
}

// SharedAttempts bounds the runs of one UpdateShared; sharedPause scales
// the random pause between them (up to attempt × sharedPause).
const (
	SharedAttempts = 8
	sharedPause    = 20 * time.Millisecond
)

// SharedError is the client error of a failed shared write: 503 NO_QUORUM
// with Retry-After when the cluster could not make it durable (saying so
// when it may have landed), SERVICE_UNAVAILABLE when other nodes kept
// changing the entity; any other error unchanged.
func SharedError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrOutcomeUnknown):
		return &orderengine.Error{Code: orderengine.CodeNoQuorum, RetryAfterSeconds: 1,
			Message: "the change may or may not have been stored (the cluster did not confirm it in time): read it back before retrying"}
	case errors.Is(err, ErrUnavailable):
		return &orderengine.Error{Code: orderengine.CodeNoQuorum, RetryAfterSeconds: 1,
			Message: "the cluster cannot make writes durable now (no quorum); nothing was changed: retry later"}
	case errors.Is(err, ErrSharedConflict):
		return orderengine.Errorf(orderengine.CodeServiceUnavailable, "the record is being changed on other nodes of the cluster; nothing was changed: retry")
	}
	return err
}

// SharedTx is one shared write of an entity: begun before its reads,
// committed once (UpdateShared).
type SharedTx struct {
	store  *Store
	log    SharedLog
	entity string
	rev    uint64
	err    error
}

// BeginShared starts a shared write of entity (a name such as "accounts":
// letters, digits, '-', '_' and '/' between names). In a cluster it waits
// until this node has the entity's latest write; an error it meets is
// returned by Commit.
func (s *Store) BeginShared(ctx context.Context, entity string) *SharedTx {
	log := s.shared.log
	tx := &SharedTx{store: s, log: log, entity: entity}
	if err := CheckEntity(entity); err != nil {
		tx.err = err
		return tx
	}
	if log != nil {
		tx.rev, tx.err = log.Barrier(ctx, entity)
	}
	return tx
}

// Commit writes the batch fill builds: on one node a synced commit, in a
// cluster a conditional publish that returns once this node applied it. An
// empty batch writes nothing. An error of fill is returned as it is.
func (tx *SharedTx) Commit(ctx context.Context, fill func(*pebble.Batch) error) error {
	if tx.err != nil {
		return tx.err
	}
	s := tx.store
	b := s.db.NewBatch()
	defer func() { _ = b.Close() }()
	if err := fill(b); err != nil {
		return err
	}
	if b.Empty() {
		return nil
	}
	if err := CheckSharedKeys(b.Repr()); err != nil {
		return err
	}
	if tx.log != nil {
		return tx.log.Publish(ctx, tx.entity, tx.rev, b.Repr())
	}
	if err := s.Commit(b, pebble.Sync); err != nil {
		return fmt.Errorf("persistence: commit: %w", err)
	}
	return s.sharedApplied(b.Repr())
}

// ApplyShared applies a shared batch published to the replicated log
// (repr, exactly as the writer built it) with the log's position seq, in
// one batch, and tells the shared-apply listeners. A batch that touches
// chain-bound or log-position keys is refused: those are never shared.
func (s *Store) ApplyShared(repr []byte, log string, seq uint64) error {
	if err := CheckSharedKeys(repr); err != nil {
		return err
	}
	b := s.db.NewBatch()
	defer func() { _ = b.Close() }()
	if err := b.SetRepr(append([]byte(nil), repr...)); err != nil {
		return fmt.Errorf("persistence: shared batch: %w", err)
	}
	if err := b.Set(sharedLogKey(log), binary.BigEndian.AppendUint64(nil, seq), nil); err != nil {
		return err
	}
	if err := s.Commit(b, pebble.NoSync); err != nil {
		return fmt.Errorf("persistence: apply shared %s at %d: %w", log, seq, err)
	}
	return s.sharedApplied(repr)
}

// SharedPosition returns the last message of the shared log applied to
// this store (0: none).
func (s *Store) SharedPosition(log string) (uint64, error) {
	return s.Position(sharedLogKey(log))
}

// sharedApplied tells the listeners the keys of a shared batch.
func (s *Store) sharedApplied(repr []byte) error {
	s.shared.mu.RLock()
	listeners := s.shared.listeners
	s.shared.mu.RUnlock()
	if len(listeners) == 0 {
		return nil
	}
	var keys [][]byte
	r := batchrepr.Read(repr)
	for {
		_, k, _, ok, err := r.Next()
		if err != nil {
			return fmt.Errorf("persistence: shared batch: %w", err)
		}
		if !ok {
			break
		}
		keys = append(keys, k)
	}
	for _, fn := range listeners {
		fn(keys)
	}
	return nil
}

// CheckSharedKeys refuses a batch with an operation other than a set, a
// delete, a single delete or a range deletion within one record kind, or a key that is not
// account data (sharedPrefixes).
func CheckSharedKeys(repr []byte) error {
	if _, ok := batchrepr.ReadHeader(repr); !ok {
		return errors.New("persistence: shared batch: malformed")
	}
	r := batchrepr.Read(repr)
	for {
		kind, k, v, ok, err := r.Next()
		if err != nil {
			return fmt.Errorf("persistence: shared batch: %w", err)
		}
		if !ok {
			return nil
		}
		switch kind {
		case pebble.InternalKeyKindSet, pebble.InternalKeyKindDelete, pebble.InternalKeyKindSingleDelete:
			if sharedKind(k) == "" {
				return fmt.Errorf("persistence: shared batch: key %q is not a shared record", k)
			}
		case pebble.InternalKeyKindRangeDelete:
			if p := sharedKind(k); p == "" || p != sharedKind(v) {
				return fmt.Errorf("persistence: shared batch: range [%q, %q) is not within one kind of shared record", k, v)
			}
		default:
			return fmt.Errorf("persistence: shared batch: operation %v is not shared", kind)
		}
	}
}

// sharedPrefixes are the record kinds of account data: the only keys a
// shared batch may write.
var sharedPrefixes = [...]string{
	PrefixAccount, PrefixKey, PrefixKeyHash, PrefixAccountKey, PrefixWallet, PrefixSession, PrefixWebhook,
}

// sharedKind returns the prefix of sharedPrefixes k is under, "" when k is
// not a record of account data.
func sharedKind(k []byte) string {
	for _, p := range sharedPrefixes {
		if strings.HasPrefix(string(k), p) {
			return p
		}
	}
	return ""
}

// CheckEntity checks a shared entity name: one or more names of ASCII
// letters, digits, '-' and '_', separated by '/'.
func CheckEntity(entity string) error {
	if entity == "" {
		return errors.New("persistence: empty shared entity")
	}
	for _, part := range strings.Split(entity, "/") {
		if part == "" {
			return fmt.Errorf("persistence: shared entity %q has an empty name", entity)
		}
		for _, c := range part {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return fmt.Errorf("persistence: shared entity %q: character %q", entity, c)
			}
		}
	}
	return nil
}

func sharedLogKey(log string) []byte { return []byte(prefixSharedLog + log) }
