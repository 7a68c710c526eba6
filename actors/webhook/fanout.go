package webhook

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/orderengine/orderengine/persistence"
)

// The fan-out of an account's outbox: it hands each batch of the account's
// events (their rows, as stored) to every endpoint actor of the account;
// each actor creates, durably and idempotently, the deliveries it wants
// (enabled, subscribed) and answers; once every endpoint has answered, the
// account's outbox cursor moves past the events (consumer, below), or,
// when the account has one endpoint, that endpoint's write of its creates
// moves it. A crash anywhere before that leaves the cursor before the
// events, and the next fan-out hands them on again, creating only the
// deliveries that are missing; the cursor's move is written with or after
// the creates it follows, so a power loss cannot keep it without them.
// Every event is therefore delivered at least once to every endpoint
// subscribed when it is fanned out.

// fanout is the fan-out state of one account: at most one goroutine runs
// it at a time.
type fanout struct {
	account string
	running atomic.Bool
	again   atomic.Bool
	// cursor is the next outbox seq to read (only the running goroutine
	// touches it). Seqs below it were all handed on: the outbox never
	// exposes a seq while a lower one is in flight. full asks the next run
	// to read from the start (the sweep's safety net).
	cursor uint64
	full   atomic.Bool
	// ids are the account's endpoint ids as last read (nil: not read);
	// stale asks the next batch to read them again (an endpoint of the
	// account was created or deleted). Only the running goroutine reads
	// or writes ids.
	ids   []string
	stale atomic.Bool
	// timer bounds the wait for the endpoints' answers (handOut; only the
	// running goroutine uses it).
	timer *time.Timer
}

// fanoutBatch is the number of outbox events handed on at a time.
const fanoutBatch = 512

// fanoutOf returns (creating) the fan-out state of an account.
func (m *Manager) fanoutOf(account string) *fanout {
	m.fanMu.Lock()
	defer m.fanMu.Unlock()
	f := m.fanouts[account]
	if f == nil {
		f = &fanout{account: account}
		m.fanouts[account] = f
	}
	return f
}

// notify starts (or re-arms) the fan-out of an account without waiting
// for it.
func (m *Manager) notify(account string) {
	f := m.fanoutOf(account)
	f.again.Store(true)
	if !f.running.CompareAndSwap(false, true) {
		return
	}
	m.fanMu.Lock() // orders the Add after Close's cancel before its Wait
	closed := m.ctx.Err() != nil
	if !closed {
		m.background.Add(1)
	}
	m.fanMu.Unlock()
	if closed {
		f.running.Store(false)
		return
	}
	go func() {
		defer m.background.Done()
		for {
			for f.again.Swap(false) {
				if err := m.fanout(f); err != nil && m.ctx.Err() == nil {
					m.log.Error("webhook: fan-out failed; retried on the next event or sweep", "account", f.account, "err", err)
				}
			}
			f.running.Store(false)
			if !f.again.Load() || !f.running.CompareAndSwap(false, true) {
				return
			}
		}
	}()
}

// fanout hands every visible outbox event of the account on, a batch at a
// time.
func (m *Manager) fanout(f *fanout) error {
	if f.full.Swap(false) {
		f.cursor = 0
	}
	for m.ctx.Err() == nil {
		rows, err := m.outbox.ScanRows(f.account, f.cursor, fanoutBatch)
		if err != nil || len(rows) == 0 {
			return err
		}
		if m.owns != nil {
			// In a cluster an endpoint created on another node may not be
			// applied here yet: wait for the account's latest webhook
			// write, so that every event of a transition stored after an
			// endpoint's create was answered goes to that endpoint.
			if err := m.store.Sync(m.ctx, f.account); err != nil {
				return err
			}
			f.stale.Store(true)
		}
		ids, err := m.endpointIDs(f)
		if err != nil {
			return err
		}
		// The only endpoint of an account moves the cursor with its
		// creates, in one write; else it moves once every endpoint
		// answered (and when the only one was deleted meanwhile). In a
		// cluster the creates are replicated and the outbox is this
		// node's: the cursor moves on its own.
		last := len(ids) == 1 && m.owns == nil
		gone, err := m.handOut(f, ids, rows, last)
		if err != nil {
			return err
		}
		if !last || gone > 0 {
			if testHookBeforeConsume != nil {
				testHookBeforeConsume(f.account)
			}
			m.consumed(f.account, rows)
		}
		f.cursor = rows[len(rows)-1].Seq + 1
		if len(rows) < fanoutBatch {
			return nil
		}
	}
	return nil
}

// endpointIDs returns the account's endpoint ids, read again when an
// endpoint was created or deleted since the last read. The flag is checked
// after the batch is read: an event settled after a creation returned is
// handed to the new endpoint.
func (m *Manager) endpointIDs(f *fanout) ([]string, error) {
	if f.ids != nil && !f.stale.Swap(false) {
		return f.ids, nil
	}
	ids, err := m.store.AccountEndpointIDs(f.account)
	if err != nil {
		f.ids = nil
		return nil, err
	}
	f.ids = append(make([]string, 0, len(ids)), ids...)
	return f.ids, nil
}

// endpointsChanged tells the account's fan-out that its endpoints changed.
func (m *Manager) endpointsChanged(account string) { m.fanoutOf(account).stale.Store(true) }

// handOut gives rows to each endpoint actor of ids and waits until all
// have created their deliveries. The answers come back on a channel: a
// batch costs no future per endpoint.
func (m *Manager) handOut(f *fanout, ids []string, rows []persistence.OutboxRow, last bool) (gone int, err error) {
	if len(ids) == 0 {
		return 0, nil
	}
	msg := &createDeliveries{rows: rows, reply: make(chan created, len(ids)), last: last}
	for _, id := range ids {
		m.endpoints.Send(id, msg)
	}
	if f.timer == nil {
		f.timer = time.NewTimer(handOutTimeout)
	} else {
		f.timer.Reset(handOutTimeout)
	}
	timeout := f.timer
	defer timeout.Stop()
	var errs []error
	for range ids {
		select {
		case c := <-msg.reply:
			if errors.Is(c.err, errGone) {
				gone++
				m.retire(c.endpoint) // deleted since the account's endpoints were read
			} else if c.err != nil {
				errs = append(errs, c.err)
			}
		case <-timeout.C:
			return gone, fmt.Errorf("webhook: an endpoint of the account did not answer in %s", handOutTimeout)
		}
	}
	return gone, errors.Join(errs...)
}

// handOutTimeout bounds the wait for the endpoints' answers (an actor that
// failed loses the message; the batch is handed on again later).
const handOutTimeout = 10 * time.Second

// testHookBeforeConsume, set by tests only, runs after every endpoint of
// an account with several answered a batch and before its cursor's move
// is queued.
var testHookBeforeConsume func(account string)

// The outbox cursors of every account's fan-out are written together by
// one goroutine (consume), a batch for all that were queued meanwhile:
// the fan-out goes on with its next events instead of waiting for a commit
// per batch. A cursor queued is written after the creates it follows (they
// returned before), so a power loss that keeps it keeps them; one that
// loses it leaves the events before the cursor, handed on again to
// endpoints that already have their deliveries (nothing is created or sent
// twice).
type consumer struct {
	mu sync.Mutex
	// done holds each account's cursor to write.
	done map[string]uint64
	wake chan struct{}
	stop chan struct{}
	quit chan struct{}
}

func newConsumer() *consumer {
	return &consumer{done: make(map[string]uint64), wake: make(chan struct{}, 1), stop: make(chan struct{}), quit: make(chan struct{})}
}

// consumed queues the move of account's cursor past rows.
func (m *Manager) consumed(account string, rows []persistence.OutboxRow) {
	c := m.consumer
	c.mu.Lock()
	c.done[account] = max(c.done[account], rows[len(rows)-1].Seq+1)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// consume writes the queued cursors until Close stops it, then the last
// ones.
func (m *Manager) consume() {
	c := m.consumer
	defer close(c.quit)
	for {
		select {
		case <-c.wake:
			m.consumeQueued()
		case <-c.stop:
			m.consumeQueued()
			return
		}
	}
}

func (m *Manager) consumeQueued() {
	c := m.consumer
	c.mu.Lock()
	done := c.done
	c.done = make(map[string]uint64, len(done))
	c.mu.Unlock()
	if len(done) == 0 {
		return
	}
	if err := m.outbox.Consume(done); err != nil {
		m.log.Error("webhook: move the outbox cursors past handed-on events; they are handed on again", "err", err)
		for acct := range done {
			m.fanoutOf(acct).full.Store(true)
			m.notify(acct)
		}
	}
}
