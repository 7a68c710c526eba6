package webhookstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine/persistence"
)

// Webhook records in a cluster. Endpoints, their deliveries, the events'
// bodies and the idempotent creates are shared records (shared.go): every
// batch of the delivery journal's writers (writer.go) is published
// through the store's persistence.SharedLog instead of being applied here, and every
// node, the writer included, applies the same bytes in log order. So every
// node holds the same endpoints and the same deliveries, with the same
// attempts and statuses, and its management reads stay local.
//
// Each shard of the writers is one shared entity ("webhooks/<shard>"). A
// shard's writer waits until this node has applied the entity's latest
// write (persistence.SharedLog.Barrier), builds the batch on that state, and publishes
// it conditional on the entity's revision: a build's checks (is the
// delivery new, is it at the version the outcome follows, is the account
// within its endpoint limit) hold cluster-wide, exactly as the shard's
// single writer makes them hold on one node. When another node wrote the
// entity in between, the batch is built again on the newer state. The
// shard's index is not kept across batches in a cluster (other nodes'
// batches change what it caches): each batch reads what it checks.
//
// A delivery is thus created once cluster-wide, whichever node's fan-out
// gets there first (every node's fan-out creates the deliveries of the
// events its materialiser applied, and the others find them stored), and
// its outcomes are conditional on its version wherever they are written.

// webhookEntity is the shared entity of a writer shard.
func webhookEntity(shard int) string { return "webhooks/" + strconv.Itoa(shard) }

// replicatedWebhookWrite bounds one replicated batch: the barrier, the
// publish and this node's apply, over every attempt.
const replicatedWebhookWrite = 10 * time.Second

// replicateWebhookWrites builds writes into one batch on the entity's
// latest state and publishes it through log, building again after a
// conflict; it answers every write.
func (st *Store) replicateWebhookWrites(r *webhookTx, log persistence.SharedLog, writes []*webhookWrite) {
	ctx, cancel := context.WithTimeout(context.Background(), replicatedWebhookWrite)
	defer cancel()
	built := make([]error, len(writes))
	var err error
	for attempt := 1; ; attempt++ {
		r.reset()
		clear(r.sh.index) // other nodes' batches move what it caches
		clear(r.sh.accounts)
		err = st.publishWebhookWrites(ctx, r, log, writes, built)
		if !errors.Is(err, persistence.ErrSharedConflict) || attempt == persistence.SharedAttempts || ctx.Err() != nil {
			break
		}
	}
	clear(r.sh.index)
	clear(r.sh.accounts)
	err = persistence.SharedError(err)
	for i, w := range writes {
		if built[i] != nil {
			w.done <- built[i]
		} else {
			w.done <- err
		}
	}
}

// publishWebhookWrites is one attempt of replicateWebhookWrites: built[i]
// receives the error of writes[i]'s build (nil: staged).
func (st *Store) publishWebhookWrites(ctx context.Context, r *webhookTx, log persistence.SharedLog, writes []*webhookWrite, built []error) error {
	rev, err := log.Barrier(ctx, r.sh.entity)
	if err != nil {
		return err
	}
	for i, w := range writes {
		r.undo, r.mark = r.undo[:0], len(r.ops)
		if built[i] = w.build(r); built[i] != nil {
			r.rollback()
		}
	}
	if len(r.ops) == 0 {
		return nil
	}
	b := st.db.NewBatch()
	defer func() { _ = b.Close() }()
	if err := r.fill(b); err != nil {
		return err
	}
	if err := persistence.CheckSharedKeys(b.Repr()); err != nil {
		return err
	}
	return log.Publish(ctx, r.sh.entity, rev, b.Repr())
}

// Change is what one shared batch changed of the webhook records:
// the endpoints whose record or deliveries it wrote, and the accounts
// whose list of endpoints it changed.
type Change struct {
	Endpoints []string
	Accounts  []string
}

// webhookChanged tells fn what the keys of a shared batch changed of the
// webhook records (Options.OnShared), when they changed any.
func webhookChanged(keys [][]byte, fn func(Change)) {
	var c Change
	for _, k := range keys {
		if !bytes.HasPrefix(k, []byte(persistence.PrefixWebhook)) || len(k) < len(persistence.PrefixWebhook)+2 {
			continue
		}
		rest := k[len(persistence.PrefixWebhook)+2:]
		switch k[len(persistence.PrefixWebhook)] {
		case 'n', 'd', 'p':
			if i := bytes.IndexByte(rest, '/'); i >= 0 {
				rest = rest[:i]
			}
			c.Endpoints = appendNew(c.Endpoints, string(rest))
		case 'a':
			if i := bytes.IndexByte(rest, '/'); i >= 0 {
				c.Accounts = appendNew(c.Accounts, string(rest[:i]))
				c.Endpoints = appendNew(c.Endpoints, string(rest[i+1:]))
			}
		}
	}
	if len(c.Endpoints) > 0 || len(c.Accounts) > 0 {
		fn(c)
	}
}

// appendNew appends v to list unless it holds it.
func appendNew(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

// sealingKeyKey holds, in a cluster, the key that seals the endpoints'
// signing secrets.
var sealingKeyKey = []byte(persistence.PrefixWebhook + "k")

// SharedSealingKey returns the key that seals the endpoints' signing
// secrets in a cluster, a shared record like the endpoints it seals: the
// first node that asks creates it with gen, once for the whole cluster
// (a conditional write; a node that lost the race reads the winner's).
func (w *Store) SharedSealingKey(ctx context.Context, gen func() ([]byte, error)) ([]byte, error) {
	var key []byte
	err := w.s.UpdateShared(ctx, "webhooks/key", func(tx *persistence.SharedTx) error {
		v, ok, err := w.s.Get(sealingKeyKey)
		if err != nil {
			return err
		}
		if ok {
			key = bytes.Clone(v)
			return nil
		}
		k, err := gen()
		if err != nil {
			return err
		}
		if err := tx.Commit(ctx, func(b *pebble.Batch) error { return b.Set(sealingKeyKey, k, nil) }); err != nil {
			return err
		}
		key = k
		return nil
	})
	if err == nil && key == nil {
		err = fmt.Errorf("persistence: the webhook sealing key is not stored")
	}
	return key, err
}

// Sync waits, in a cluster, until this store has applied the latest
// replicated write of the account's webhook records (persistence.SharedLog.Barrier of
// its writer shard's entity); on one node it returns at once.
func (w *Store) Sync(ctx context.Context, accountID string) error {
	log := w.s.SharedLog()
	if log == nil {
		return nil
	}
	_, err := log.Barrier(ctx, webhookEntity(webhookShardOf(accountID)))
	return err
}
