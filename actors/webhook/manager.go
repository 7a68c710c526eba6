package webhook

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence"
)

// Options are the parts a Manager is built from.
type Options struct {
	Config config.WebhooksConfig
	// Dev is the engine's dev mode (with Config.AllowLoopbackHTTP it
	// allows plain-http loopback targets and skips the address checks).
	Dev bool
	// DataDir locates the default secret key file.
	DataDir string
	Store   *persistence.Store
	// Outbox is the engine's event outbox (shared with the producers).
	Outbox *persistence.Outbox
	System *actor.ActorSystem
	Clock  clock.Clock
	Log    *slog.Logger
	// Resolver replaces the system resolver (DNS-rebinding tests).
	Resolver Resolver
}

// Manager owns the webhook endpoints of every account: their management
// (api.go), one endpoint actor per endpoint (endpoint.go) and the fan-out
// of outbox events into per-endpoint delivery queues. It is safe for
// concurrent use.
type Manager struct {
	cfg    config.WebhooksConfig
	policy Policy
	store  *persistence.WebhookStore
	outbox *persistence.Outbox
	system *actor.ActorSystem
	clock  clock.Clock
	log    *slog.Logger
	sealer *sealer
	stats  *counters

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	closed atomic.Bool
	// closeMu orders Close after every attempt that found the manager open
	// (read-locked from that check until its outcome is queued).
	closeMu sync.RWMutex
	// attempts counts outcomes queued and not yet written; Close waits
	// for them so no outcome is written after the store may close.
	attempts sync.WaitGroup
	// background counts the outbox sweep and the running fan-out
	// goroutines (a fan-out starts under a closeMu read lock after the
	// closed check); Close waits for them, so none reads or commits after
	// the store may close.
	background sync.WaitGroup
	outcomes   *outcomeWriter

	mu       sync.Mutex
	accounts map[string]*account
	byID     map[string]*endpoint
}

// account is the webhook state of one account. mu serialises fan-out with
// endpoint creation and deletion, so no delivery is written for an endpoint
// that is being deleted.
type account struct {
	id        string
	mu        sync.Mutex
	endpoints []*endpoint
	running   atomic.Bool
	again     atomic.Bool
	// cursor is the next outbox seq to read (only the fan-out goroutine of
	// the account touches it). Seqs below it were all moved: the outbox
	// never exposes a seq while a lower one is in flight. full asks the
	// next fan-out to read from the start (the sweep's safety net for
	// events written through another Outbox instance).
	cursor uint64
	full   atomic.Bool
}

// endpoint is the manager's view of one endpoint. rec is guarded by
// Manager.mu (copies are handed out).
type endpoint struct {
	rec    *persistence.WebhookEndpoint
	secret string
	pid    *actor.PID
	// saveMu guards gone: attempt outcomes are written under RLock, the
	// deletion sets gone under Lock, so no outcome lands after a delete.
	saveMu sync.RWMutex
	gone   bool
}

// New loads every endpoint, starts their actors (which reload outstanding
// deliveries), subscribes to the outbox and fans out the events left in it.
func New(o Options) (*Manager, error) {
	if err := o.Config.Validate(); err != nil {
		return nil, err
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	keyFile := o.Config.SecretKeyFile
	if keyFile == "" {
		keyFile = filepath.Join(o.DataDir, "webhook-secrets.key")
	}
	s, err := loadSealer(keyFile)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{
		cfg:      o.Config,
		policy:   Policy{Dev: o.Dev && o.Config.AllowLoopbackHTTP, Resolver: o.Resolver},
		store:    persistence.NewWebhookStore(o.Store),
		outbox:   o.Outbox,
		system:   o.System,
		clock:    o.Clock,
		log:      o.Log.With("component", "webhook"),
		sealer:   s,
		stats:    newCounters(),
		ctx:      ctx,
		cancel:   cancel,
		accounts: make(map[string]*account),
		byID:     make(map[string]*endpoint),
	}
	m.outcomes = newOutcomeWriter(m)
	recs, err := m.store.Endpoints()
	if err != nil {
		m.Close()
		return nil, err
	}
	m.mu.Lock()
	for _, rec := range recs {
		secret, err := s.open(rec.ID, rec.SealedSecret)
		if err != nil {
			m.mu.Unlock()
			m.Close()
			return nil, err
		}
		if !rec.Enabled {
			m.stats.disabledNow.Add(1)
		}
		m.addEndpointLocked(m.accountOf(rec.AccountID), rec, secret)
	}
	m.mu.Unlock()
	o.Outbox.Subscribe(m.notify)
	accts, err := o.Outbox.OutboxAccounts()
	if err != nil {
		m.Close()
		return nil, err
	}
	for _, a := range accts {
		m.notify(a)
	}
	m.background.Add(1)
	go m.sweep()
	return m, nil
}

// sweepInterval is how often the outbox is swept for events whose producer
// notified no subscriber (another Outbox instance, a lost notification).
const sweepInterval = 10 * time.Second

// sweep is a safety net behind the notifications: since the fan-out always
// scans an account's outbox from its start and deletes what it moved, an
// event is picked up by the next sweep whatever happened to its
// notification.
func (m *Manager) sweep() {
	defer m.background.Done()
	t := time.NewTicker(sweepInterval)
	defer t.Stop()
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-t.C:
		}
		accts, err := m.outbox.OutboxAccounts()
		if err != nil {
			m.log.Warn("webhook: outbox sweep", "err", err)
			continue
		}
		for _, id := range accts {
			m.mu.Lock()
			a := m.accountOf(id)
			m.mu.Unlock()
			a.full.Store(true)
			m.notify(id)
		}
	}
}

// Close stops the endpoint actors and aborts attempts in flight (their
// deliveries stay outstanding and are retried after the next start).
func (m *Manager) Close() {
	if !m.closed.CompareAndSwap(false, true) {
		return
	}
	m.cancel()
	m.closeMu.Lock() // attempts past their check have queued their outcome
	m.closeMu.Unlock()
	m.background.Wait() // the sweep stops on the cancel, a fan-out at its next batch
	m.mu.Lock()
	pids := make([]*actor.PID, 0, len(m.byID))
	for _, ep := range m.byID {
		pids = append(pids, ep.pid)
	}
	m.mu.Unlock()
	for _, pid := range pids {
		_ = m.system.Root.StopFuture(pid).Wait()
	}
	m.attempts.Wait()
	m.outcomes.close()
}

// Wake makes every endpoint actor re-check its due deliveries now. Timers
// do this on their own with the real clock; tests that move a manual clock
// call it after each move.
func (m *Manager) Wake() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, ep := range m.byID {
		m.system.Root.Send(ep.pid, wakeMsg)
	}
}

// accountOf returns (creating) the state of an account. Callers hold m.mu
// or are in New.
func (m *Manager) accountOf(id string) *account {
	a := m.accounts[id]
	if a == nil {
		a = &account{id: id}
		m.accounts[id] = a
	}
	return a
}

func (m *Manager) addEndpointLocked(a *account, rec *persistence.WebhookEndpoint, secret string) *endpoint {
	ep := &endpoint{rec: rec, secret: secret}
	ep.pid = m.system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor {
		return newEndpointActor(m, rec.ID, ep)
	}))
	a.endpoints = append(a.endpoints, ep)
	m.byID[rec.ID] = ep
	return ep
}

// snapshot returns a copy of the endpoint record and its secret.
func (m *Manager) snapshot(id string) (persistence.WebhookEndpoint, string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ep := m.byID[id]
	if ep == nil {
		return persistence.WebhookEndpoint{}, "", false
	}
	return *ep.rec, ep.secret, true
}

// updateEndpoint applies f to a copy of the endpoint's record and stores it,
// with an fsync when durable (else see WebhookStore.PutEndpointStatus); the
// in-memory record changes only after the write.
func (m *Manager) updateEndpoint(id string, durable bool, f func(*persistence.WebhookEndpoint)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	ep := m.byID[id]
	if ep == nil {
		return errEndpointGone
	}
	rec := *ep.rec
	f(&rec)
	var err error
	if durable {
		err = m.store.PutEndpoint(&rec)
	} else {
		err = m.store.PutEndpointStatus(&rec)
	}
	if err != nil {
		return err
	}
	if ep.rec.Enabled && !rec.Enabled {
		// Counted under the lock that publishes the record, so a reader
		// that sees the endpoint disabled also sees it counted.
		m.stats.disabledTotal.Add(1)
		m.stats.disabledNow.Add(1)
	}
	ep.rec = &rec
	return nil
}

var errEndpointGone = errors.New("webhook: endpoint deleted")

// notify is the outbox subscriber: it starts (or re-arms) the fan-out of an
// account without blocking the producer.
func (m *Manager) notify(accountID string) {
	m.closeMu.RLock()
	defer m.closeMu.RUnlock()
	if m.closed.Load() {
		return
	}
	m.mu.Lock()
	a := m.accountOf(accountID)
	m.mu.Unlock()
	a.again.Store(true)
	if !a.running.CompareAndSwap(false, true) {
		return
	}
	m.background.Add(1)
	go func() {
		defer m.background.Done()
		for {
			for a.again.Swap(false) {
				if err := m.fanout(a); err != nil {
					m.log.Error("webhook: fan-out failed; retried on the next event or start", "account", a.id, "err", err)
				}
			}
			a.running.Store(false)
			if !a.again.Load() || !a.running.CompareAndSwap(false, true) {
				return
			}
		}
	}()
}

// fanoutBatch is the number of outbox events moved per synced batch.
const fanoutBatch = 512

// fanout moves every visible outbox event of a into the delivery queues of
// its enabled, subscribed endpoints, deleting the events in the same batch,
// then hands the new deliveries to the endpoint actors.
func (m *Manager) fanout(a *account) error {
	if a.full.Swap(false) {
		a.cursor = 0
	}
	for !m.closed.Load() {
		entries, err := m.outbox.Scan(a.id, a.cursor, fanoutBatch)
		if err != nil || len(entries) == 0 {
			return err
		}
		if err := m.fanoutEntries(a, entries); err != nil {
			return err
		}
		a.cursor = entries[len(entries)-1].Seq + 1
		if len(entries) < fanoutBatch {
			return nil
		}
	}
	return nil
}

func (m *Manager) fanoutEntries(a *account, entries []persistence.OutboxEntry) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	m.mu.Lock()
	targets := make([]*endpoint, 0, len(a.endpoints))
	recs := make([]persistence.WebhookEndpoint, 0, len(a.endpoints))
	for _, ep := range a.endpoints {
		if ep.rec.Enabled {
			targets = append(targets, ep)
			recs = append(recs, *ep.rec)
		}
	}
	m.mu.Unlock()
	b := m.store.DB().NewBatch()
	defer b.Close()
	now := m.clock.Now().UTC()
	out := make([][]*persistence.WebhookDelivery, len(targets))
	for _, e := range entries {
		if e.Event.Trigger != persistence.TriggerTestPing {
			var body []byte
			for i := range targets {
				if !recs[i].Subscribed(e.Event.Trigger) {
					continue
				}
				if body == nil {
					var err error
					if body, err = encodeBody(&e.Event); err != nil {
						return err
					}
				}
				d := newDelivery(recs[i].ID, &e.Event, body, now)
				if err := m.store.AddDelivery(b, d); err != nil {
					return err
				}
				out[i] = append(out[i], d)
			}
		}
		if err := m.outbox.DeleteEvent(b, a.id, e.Seq); err != nil {
			return err
		}
	}
	// NoSync is enough here and saves an fsync on the way to the first
	// attempt: until this batch is synced (by the next synced commit of any
	// writer, e.g. the attempt's outcome: the WAL is one ordered log), a
	// crash drops it whole, so the events are still in the outbox and are
	// fanned out again at start. A delivery can repeat, never vanish
	// (TestCrashBeforeFanoutSyncRedelivers).
	if err := m.store.Commit(b, pebble.NoSync); err != nil {
		return fmt.Errorf("webhook: fan-out commit: %w", err)
	}
	for i, ds := range out {
		if len(ds) > 0 {
			m.system.Root.Send(targets[i].pid, &enqueueMsg{deliveries: ds})
		}
	}
	return nil
}
