package webhookstore

import (
	"bytes"
	"hash/fnv"
	"slices"
	"sync"

	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine/persistence"
)

// The writes of the delivery journal (journal.go) are made by one
// writer goroutine per shard of the accounts (webhookShards, by account:
// every key a write touches, and every check it makes, is of one account,
// so shards never meet). A caller queues its write and waits; the shard's
// writer takes every write queued, runs each one's build in queue order (a
// build reads the store as the previous batches left it and what the
// batch has accepted so far, decides, and stages its keys, or fails and
// stages nothing), applies the batch and answers. A write marked alone
// gets a batch of its own, so what it reads is exactly what every earlier
// write left. So a check and the write it guards are atomic, and the
// writes of many endpoints share one batch. A batch is applied without
// waiting for an fsync unless a write of it is durable: those writers are
// answered after the fsync, which another goroutine waits for while the
// writer goes on.
//
// The writer is a goroutine of its own, not the caller's (an endpoint
// actor's mailbox runs on a fresh goroutine each time, and a Pebble write
// from there grows that goroutine's stack every time), and it is not the
// order group committer (group_commit.go): most of these writes need no
// fsync, and they would otherwise lengthen the submit path's rounds.
//
// Each shard also keeps, per endpoint it has seen, whether the endpoint is
// stored, its account, and the event ids of its stored deliveries with
// their version when known, and per account its endpoints (the index): a
// create's "is it new?", most outcomes' version checks and "does another
// endpoint of the account still need this event's body?" are answered
// without a read. An entry is loaded on its first use (one read of the
// endpoint and one scan of its deliveries' keys; one scan of the account's
// endpoints) and follows every batch; an endpoint's is as large as its
// stored history and outstanding deliveries, which its actor holds anyway.
// A failed batch drops the shard's index.

// webhookShards is the number of shards: a few, so that one busy account
// (a trim, an endpoint's deletion) does not hold up every other.
const webhookShards = 4

// webhookShard is one shard's queue, writer and index.
type webhookShard struct {
	mu    sync.Mutex
	queue []*webhookWrite
	// start starts the shard's writer on the first write; wake holds a
	// token while writes are queued.
	start sync.Once
	wake  chan struct{}
	// index and accounts belong to the writer.
	index    map[string]*endpointIndex
	accounts map[string][]string
	// entity is the shard's shared entity in a cluster
	// (replicated.go).
	entity string
}

// webhookWrite is one write waiting in a shard.
type webhookWrite struct {
	build   func(*webhookTx) error
	durable bool
	alone   bool
	// done receives the answer.
	done chan error
}

// endpointIndex is what a shard knows of one endpoint.
type endpointIndex struct {
	stored  bool
	account string
	// events holds the stored deliveries' versions, versionUnknown when
	// not read yet.
	events map[string]int64
}

const versionUnknown = -1

// deliveryID names a delivery: its endpoint and event.
type deliveryID struct{ endpoint, event string }

// webhookTx is a batch of writes: what a build sees, and where it stages
// its keys. Each shard's writer reuses one (reset between batches).
type webhookTx struct {
	sh  *webhookShard
	db  *pebble.DB
	ops []webhookOp
	// rows holds the delivery rows the batch sets (their version) or
	// deletes (deleted); bodies the bodies it sets (by account and
	// event); endpoints and accounts the endpoints it creates or deletes,
	// and their accounts.
	rows      map[deliveryID]int64
	bodies    map[bodyID]bool
	endpoints map[string]bool
	accounts  map[string]bool
	// undo restores rows and bodies when the current build fails; mark is
	// where its ops start.
	undo []undoEntry
	mark int
	// kept are the writes of the batch whose build succeeded.
	kept []*webhookWrite
}

// bodyID names an event's body: its account and event.
type bodyID struct{ account, event string }

// undoEntry restores what a failed build staged: a row's previous
// version (had: it had one in the batch), or a body's absence.
type undoEntry struct {
	row     deliveryID
	prev    int64
	had     bool
	body    bodyID
	setBody bool
}

func newWebhookTx(sh *webhookShard, db *pebble.DB) *webhookTx {
	return &webhookTx{sh: sh, db: db, rows: make(map[deliveryID]int64), bodies: make(map[bodyID]bool),
		endpoints: make(map[string]bool), accounts: make(map[string]bool)}
}

// reset empties the batch for the next one, keeping its memory.
func (r *webhookTx) reset() {
	clear(r.ops) // drop the keys and values
	r.ops = r.ops[:0]
	clear(r.rows)
	clear(r.bodies)
	clear(r.endpoints)
	clear(r.accounts)
	r.undo = r.undo[:0]
	clear(r.kept)
	r.kept = r.kept[:0]
}

// rollback undoes what the current build staged.
func (r *webhookTx) rollback() {
	for i := len(r.undo) - 1; i >= 0; i-- {
		u := &r.undo[i]
		switch {
		case u.setBody:
			delete(r.bodies, u.body)
		case u.had:
			r.rows[u.row] = u.prev
		default:
			delete(r.rows, u.row)
		}
	}
	r.ops = r.ops[:r.mark]
}

// deleted is the version staged for a deleted delivery row.
const deleted = -2

// webhookOp sets key to value, deletes key, or deletes [key, end).
type webhookOp struct {
	key, value, end []byte
	del             bool
	// once marks a deletion of a key set once since it was last deleted
	// (a w/p row): a single delete, which a flush or compaction drops with
	// the set it meets instead of carrying a tombstone down the levels.
	once bool
}

func webhookShardOf(accountID string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(accountID))
	return int(h.Sum32() % webhookShards)
}

// webhookWrite runs build in a batch of accountID's shard and returns once
// the batch is applied (durable: and synced). build touches keys of that
// account only; its error writes nothing.
func (w *Store) webhookWrite(accountID string, durable, alone bool, build func(*webhookTx) error) error {
	done, err := w.s.Gate()
	if err != nil {
		return err
	}
	defer done()
	shard := webhookShardOf(accountID)
	sh := &w.wh[shard]
	sh.start.Do(func() {
		sh.wake = make(chan struct{}, 1)
		sh.entity = webhookEntity(shard)
		w.writers.Add(1)
		go w.runWebhookShard(sh)
	})
	wr, _ := webhookWrites.Get().(*webhookWrite)
	if wr == nil {
		wr = &webhookWrite{done: make(chan error, 1)}
	}
	wr.build, wr.durable, wr.alone = build, durable, alone
	sh.mu.Lock()
	sh.queue = append(sh.queue, wr)
	sh.mu.Unlock()
	select {
	case sh.wake <- struct{}{}:
	default:
	}
	err = <-wr.done
	wr.build = nil // answered once: the writer is done with it
	webhookWrites.Put(wr)
	return err
}

// webhookWrites recycles webhookWrite values with their answer channel.
var webhookWrites sync.Pool

// runWebhookShard is a shard's writer: it applies what is queued, a batch
// at a time, until the store closes (every write has been answered then:
// Close waits for the writers it admitted first).
func (st *Store) runWebhookShard(sh *webhookShard) {
	defer st.writers.Done()
	sh.index, sh.accounts = make(map[string]*endpointIndex), make(map[string][]string)
	tx := newWebhookTx(sh, st.db)
	for {
		select {
		case <-sh.wake:
		case <-st.stop:
			return
		}
		sh.mu.Lock()
		writes := sh.queue
		sh.queue = nil
		sh.mu.Unlock()
		for len(writes) > 0 {
			n := 1
			if !writes[0].alone {
				for n < len(writes) && !writes[n].alone {
					n++
				}
			}
			if ps := st.applyWebhookWrites(tx, writes[:n]); ps.b != nil {
				go ps.wait()
			}
			writes = writes[n:]
		}
	}
}

// pendingSync is an applied batch whose durable writes wait for its fsync.
type pendingSync struct {
	b      *pebble.Batch
	writes []*webhookWrite
}

// wait waits for the batch's fsync and answers its durable writes.
func (ps pendingSync) wait() {
	err := ps.b.SyncWait()
	_ = ps.b.Close()
	for _, w := range ps.writes {
		w.done <- err
	}
}

// applyWebhookWrites builds writes into one batch of r and applies it; it
// answers every write but the durable ones of an applied batch, which it
// returns with the batch to wait for.
func (st *Store) applyWebhookWrites(r *webhookTx, writes []*webhookWrite) pendingSync {
	defer r.reset()
	if log := st.s.SharedLog(); log != nil {
		st.replicateWebhookWrites(r, log, writes)
		return pendingSync{}
	}
	durable := false
	for _, w := range writes {
		r.undo, r.mark = r.undo[:0], len(r.ops)
		if err := w.build(r); err != nil {
			r.rollback()
			w.done <- err
			continue
		}
		r.kept = append(r.kept, w)
		durable = durable || w.durable
	}
	answer := func(ws []*webhookWrite, err error) {
		for _, w := range ws {
			w.done <- err
		}
	}
	if len(r.ops) == 0 {
		answer(r.kept, nil)
		return pendingSync{}
	}
	kv := 0
	for _, o := range r.ops {
		kv += len(o.key) + len(o.value) + len(o.end)
	}
	b := st.db.NewBatchWithSize(persistence.BatchBytes(len(r.ops), kv))
	err := r.fill(b)
	if err == nil && durable {
		err = st.db.ApplyNoSyncWait(b, pebble.Sync)
	} else if err == nil {
		err = st.db.Apply(b, pebble.NoSync)
	}
	if err != nil {
		clear(r.sh.index) // it may not match the store any more
		clear(r.sh.accounts)
		_ = b.Close()
		answer(r.kept, err)
		return pendingSync{}
	}
	r.follow()
	var waiting []*webhookWrite
	for _, w := range r.kept {
		if w.durable {
			waiting = append(waiting, w)
		} else {
			w.done <- nil
		}
	}
	if !durable {
		_ = b.Close()
		return pendingSync{}
	}
	return pendingSync{b: b, writes: waiting}
}

// follow brings the shard's index up to the applied batch.
func (r *webhookTx) follow() {
	sh := r.sh
	for id := range r.endpoints {
		delete(sh.index, id) // loaded again on its next use
	}
	for a := range r.accounts {
		delete(sh.accounts, a)
	}
	for d, v := range r.rows {
		e := sh.index[d.endpoint]
		switch {
		case e == nil:
		case v == deleted:
			delete(e.events, d.event)
		default:
			e.events[d.event] = v
		}
	}
}

// fill writes the batch's ops to b.
//
// Without a range deletion the ops go in key order (stable: the writes of
// one key keep theirs), as the order group committer's do: the keys of
// one endpoint, one account, land next to each other and Pebble's
// memtable inserter starts each search from the previous key's place. A
// range deletion keeps the batch as staged (its effect on a key depends
// on which comes first).
func (r *webhookTx) fill(b *pebble.Batch) error {
	if !slices.ContainsFunc(r.ops, func(o webhookOp) bool { return o.end != nil }) {
		slices.SortStableFunc(r.ops, func(x, y webhookOp) int { return bytes.Compare(x.key, y.key) })
	}
	for _, o := range r.ops {
		var err error
		switch {
		case o.end != nil:
			err = b.DeleteRange(o.key, o.end, nil)
		case o.once:
			err = b.SingleDelete(o.key, nil)
		case o.del:
			err = b.Delete(o.key, nil)
		default:
			err = b.Set(o.key, o.value, nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (r *webhookTx) set(key, value []byte) { r.ops = append(r.ops, webhookOp{key: key, value: value}) }
func (r *webhookTx) del(key []byte)        { r.ops = append(r.ops, webhookOp{key: key, del: true}) }

// delOnce deletes key, which was set once since it was last deleted.
func (r *webhookTx) delOnce(key []byte) {
	r.ops = append(r.ops, webhookOp{key: key, del: true, once: true})
}

// delPrefix deletes every key under p.
func (r *webhookTx) delPrefix(p []byte) { r.delRange(p, persistence.PrefixUpperBound(p)) }

// delRange deletes every key in [from, to).
func (r *webhookTx) delRange(from, to []byte) {
	r.ops = append(r.ops, webhookOp{key: from, end: to, del: true})
}

// get reads key from the store, not from what the batch staged: a build
// that reads what the batch wrote uses version, exists or setBody, or
// runs alone.
func (r *webhookTx) get(key []byte) ([]byte, bool, error) { return persistence.ReaderGet(r.db, key) }

// endpoint returns the shard's index entry of an endpoint, loading it.
// The writes that create or delete an endpoint run alone, so the stored
// state is the batch's.
func (r *webhookTx) endpoint(id string) (*endpointIndex, error) {
	if e := r.sh.index[id]; e != nil {
		return e, nil
	}
	ep, stored, err := getEndpoint(r.db, id)
	if err != nil {
		return nil, err
	}
	e := &endpointIndex{stored: stored, events: make(map[string]int64)}
	if stored {
		e.account = ep.AccountID
		p := deliveryPrefix(id)
		if err := scanKeys(r.db, p, func(k []byte) bool { e.events[suffixEvent(k[len(p):])] = versionUnknown; return true }); err != nil {
			return nil, err
		}
	}
	r.sh.index[id] = e
	return e, nil
}

// siblings returns the other endpoints of an endpoint's account.
func (r *webhookTx) siblings(e *endpointIndex, id string) ([]string, error) {
	ids, ok := r.sh.accounts[e.account]
	if !ok {
		p := accountEndpointsPrefix(e.account)
		if err := scanKeys(r.db, p, func(k []byte) bool { ids = append(ids, string(k[len(p):])); return true }); err != nil {
			return nil, err
		}
		r.sh.accounts[e.account] = ids
	}
	out := make([]string, 0, len(ids))
	for _, s := range ids {
		if s != id {
			out = append(out, s)
		}
	}
	return out, nil
}

// version returns the version of delivery d (whose row is at key) as the
// batch left it so far; found is false when it is absent or deleted.
func (r *webhookTx) version(d deliveryID, key []byte) (v uint64, found bool, err error) {
	if n, ok := r.rows[d]; ok {
		return uint64(max(n, 0)), n >= 0, nil
	}
	e, err := r.endpoint(d.endpoint)
	if err != nil {
		return 0, false, err
	}
	n, ok := e.events[d.event]
	if !ok {
		return 0, false, nil
	}
	if n >= 0 {
		return uint64(n), true, nil
	}
	val, ok, err := r.get(key)
	if err != nil || !ok {
		return 0, false, err
	}
	v, err = deliveryVersion(val)
	if err == nil {
		e.events[d.event] = int64(v)
	}
	return v, err == nil, err
}

// exists reports whether delivery d is stored as the batch left it so far.
func (r *webhookTx) exists(d deliveryID) (bool, error) {
	if n, ok := r.rows[d]; ok {
		return n >= 0, nil
	}
	e, err := r.endpoint(d.endpoint)
	if err != nil {
		return false, err
	}
	_, ok := e.events[d.event]
	return ok, nil
}

// setRow stages the row of delivery d at key at version v, or its
// deletion when v is deleted.
func (r *webhookTx) setRow(d deliveryID, key, value []byte, v int64) {
	r.markRow(d, v)
	if v == deleted {
		r.del(key)
	} else {
		r.set(key, value)
	}
}

// dropRow marks the row of delivery d deleted by a range deletion the
// build stages itself (delRange).
func (r *webhookTx) dropRow(d deliveryID) { r.markRow(d, deleted) }

// markRow records the version v staged for the row of delivery d.
func (r *webhookTx) markRow(d deliveryID, v int64) {
	prev, had := r.rows[d]
	r.undo = append(r.undo, undoEntry{row: d, prev: prev, had: had})
	r.rows[d] = v
}

// setBody stages an event's body for an account's endpoints unless the
// batch already sets it.
func (r *webhookTx) setBody(accountID, eventID string, body []byte) {
	id := bodyID{accountID, eventID}
	if r.bodies[id] {
		return
	}
	r.bodies[id] = true
	r.undo = append(r.undo, undoEntry{body: id, setBody: true})
	r.set(bodyKey(accountID, eventID), body)
}

// endpointChanged marks an endpoint of an account created or deleted (by
// a write that runs alone: nothing to undo).
func (r *webhookTx) endpointChanged(id, accountID string) {
	r.endpoints[id], r.accounts[accountID] = true, true
}

// collectBodies stages the deletion of the body of each of events whose
// delivery to endpoint e (id) the write deletes, unless another endpoint
// of the account still has a delivery of it. The writes that delete
// deliveries run alone, and a create sets its event's body with its row,
// so a body is never deleted under a delivery.
func (r *webhookTx) collectBodies(id string, e *endpointIndex, events []string) error {
	sibs, err := r.siblings(e, id)
	if err != nil {
		return err
	}
	others := make([]*endpointIndex, 0, len(sibs))
	for _, s := range sibs {
		o, err := r.endpoint(s)
		if err != nil {
			return err
		}
		others = append(others, o)
	}
	for _, ev := range events {
		needed := false
		for _, o := range others {
			if _, ok := o.events[ev]; ok {
				needed = true
				break
			}
		}
		if !needed {
			r.del(bodyKey(e.account, ev))
		}
	}
	return nil
}
