package webhook

import (
	"context"
	"hash/fnv"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/webhookstore"
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
	// Cluster, when set, runs the manager as one node of a cluster
	// (cluster.go); nil on a single node.
	Cluster *Cluster
}

// Manager runs the webhook endpoint actors and the fan-out of each
// account's outbox events to them; the management operations (api.go) are
// its methods. It holds nothing about any endpoint: each endpoint's state
// is its actor's. It is safe for concurrent use.
type Manager struct {
	cfg     config.WebhooksConfig
	policy  Policy
	store   *webhookstore.Store
	journal webhookstore.DeliveryJournal
	outbox  *persistence.Outbox
	system  *actor.ActorSystem
	clock   clock.Clock
	log     *slog.Logger
	sealer  *sealer
	stats   *counters
	// endpoints is the registry of endpoint actors, by endpoint id.
	endpoints *kind.Registry[string, struct{}]

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	closed atomic.Bool
	// draining stops new attempts while Close waits for those in flight;
	// flying counts, by endpoint (id → *atomic.Int64), the attempts
	// started and not yet taken by their endpoint's actor, their outcome's
	// write included (deliver.go); handing, while set, reports the
	// endpoints whose shard this node is handing over, which it sends
	// nothing more to (Drain).
	draining atomic.Bool
	flying   sync.Map
	handing  atomic.Pointer[func(endpointID string) bool]
	// background counts the goroutines that may touch the store or the
	// actors (the dispatcher, the sweeper, the fan-outs); Close waits for
	// them.
	background sync.WaitGroup

	// fanMu guards fanouts, the fan-out state of each account that had
	// events (fanout.go).
	fanMu   sync.Mutex
	fanouts map[string]*fanout
	// consumer moves the outbox cursors past handed-on events
	// (fanout.go).
	consumer *consumer
	// createLocks serialise the idempotent creates of an account
	// (idempotency.go), by a stripe of the accounts.
	createLocks [64]sync.Mutex
	// owns reports whether this node sends the deliveries of an
	// endpoint: nil on a single node (it sends them all); in a cluster
	// see cluster.go, with the endpoints' refresh flags.
	owns           func(endpointID string) bool
	refresh        sync.Map // endpoint id → *atomic.Bool
	clusterStarted atomic.Bool
}

// New starts the actor of every stored endpoint (which reloads its
// outstanding deliveries) and the fan-out of the events left in the
// outbox. A cluster node's manager (Options.Cluster) starts them in
// StartCluster, once the node follows the shared log.
func New(o Options) (*Manager, error) {
	if err := o.Config.Validate(); err != nil {
		return nil, err
	}
	allow, _ := o.Config.AllowedTargets() // checked by Validate
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	var s *sealer
	if keyFile := o.Config.SecretKeyFile; keyFile != "" || o.Cluster == nil {
		if keyFile == "" {
			keyFile = filepath.Join(o.DataDir, "webhook-secrets.key")
		}
		var err error
		if s, err = loadSealer(keyFile); err != nil {
			return nil, err
		}
	} // else: the cluster's shared key, read by StartCluster
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{
		cfg:      o.Config,
		policy:   Policy{Dev: o.Dev && o.Config.AllowLoopbackHTTP, Allow: allow, Resolver: o.Resolver},
		outbox:   o.Outbox,
		system:   o.System,
		clock:    o.Clock,
		log:      o.Log.With("component", "webhook"),
		sealer:   s,
		stats:    newCounters(),
		ctx:      ctx,
		cancel:   cancel,
		fanouts:  make(map[string]*fanout),
		consumer: newConsumer(),
	}
	var sopts webhookstore.Options
	if o.Cluster != nil {
		m.owns = o.Cluster.Owns
		sopts.OnShared = m.sharedChanged
	}
	store := webhookstore.New(o.Store, sopts)
	m.store, m.journal = store, store
	go m.consume()
	m.endpoints = kind.NewRegistry(o.System, kind.Kind[string, struct{}]{
		Name: "webhook endpoint",
		New:  func(id string, _ *struct{}) actor.Actor { return newEndpointActor(m, id) },
		// Idle 0: an endpoint's actor holds the timers of its retries and
		// its attempts in flight, so it lives as long as its endpoint
		// (package doc).
		Shard: shardOf,
	}, o.Log)
	if o.Cluster != nil {
		return m, nil // StartCluster starts the rest
	}
	if err := m.start(); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

// start starts the actor of every stored endpoint, the fan-out of the
// events left in the outbox, the dispatcher and the sweeper.
func (m *Manager) start() error {
	recs, err := m.store.Endpoints()
	if err != nil {
		return err
	}
	for _, rec := range recs {
		if _, err := m.sealer.open(rec.ID, rec.SealedSecret); err != nil {
			if m.owns == nil {
				return err // a wrong key file stops the start
			}
			// In a cluster the key is the cluster's: a record it does not
			// open was sealed by this node alone before endpoints were
			// replicated. Its actor sends nothing; re-register it.
			m.log.Error("webhook: an endpoint's secret is not sealed with the cluster's key; re-register it", "endpoint", rec.ID, "err", err)
		}
		if !rec.Enabled {
			m.stats.disabledNow.Add(1)
		}
		m.endpoints.Send(rec.ID, wakeMsg) // activates it: it loads its state
	}
	accts, err := m.outbox.OutboxAccounts()
	if err != nil {
		return err
	}
	for _, a := range accts {
		m.notify(a)
	}
	m.background.Add(2)
	go m.dispatch()
	go m.sweep()
	return nil
}

func shardOf(id string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	return h.Sum32()
}

// dispatch starts the fan-out of every account the outbox reports changed.
func (m *Manager) dispatch() {
	defer m.background.Done()
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-m.outbox.Changed():
		}
		for _, a := range m.outbox.TakeChanged() {
			m.notify(a)
		}
	}
}

// sweepInterval is how often the outbox is swept for events whose
// notification was lost (the accounts behind their cursor, from the
// outbox's memory: no read).
const sweepInterval = 10 * time.Second

// sweep is a safety net behind the outbox's change notifications: since a
// fan-out that starts from the beginning sees every event left, an event is
// handed on by the next sweep whatever happened to its notification.
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
		for _, id := range m.outbox.Behind() {
			m.fanoutOf(id).full.Store(true)
			m.notify(id)
		}
	}
}

// Close stops the fan-out and the endpoint actors. It first lets the
// attempts in flight finish and their outcomes be written, starting no
// new one: a planned stop does not send again what a receiver already
// took. A single node waits for at most the attempt timeout plus
// drainMargin; an attempt still out after that is abandoned (its delivery
// stays outstanding and is attempted again after the next start: at least
// once). A cluster node, which still holds its endpoints' shards, waits
// for at most clusterStopDrain, so that the member taking them over is
// not kept waiting by a slow receiver; it sends again, under the same
// ids, what is still out then.
func (m *Manager) Close() {
	if m.closed.Load() || !m.draining.CompareAndSwap(false, true) {
		return
	}
	if m.owns == nil {
		m.drain(m.cfg.Timeout + drainMargin)
	} else {
		m.drain(clusterStopDrain)
	}
	m.closed.Store(true)
	m.fanMu.Lock() // a fan-out starting now sees the cancel (notify)
	m.cancel()
	m.fanMu.Unlock()
	m.background.Wait()
	close(m.consumer.stop) // the fan-outs are done: the last deletions
	<-m.consumer.quit
	m.endpoints.Stop()
	m.endpoints.StopAll()
}

// drainMargin is what Close waits, beyond the attempt timeout, for the
// outcome of an attempt that timed out to be written.
const drainMargin = time.Second

// clusterStopDrain is how long a cluster node's Close waits for its
// attempts in flight, as a handover does (members.Config.Drain).
const clusterStopDrain = time.Second

// drainPoll is how often drain looks at the attempts in flight.
const drainPoll = 10 * time.Millisecond

// drain waits until no attempt is in flight, or for d. An attempt whose
// actor stopped before it landed is never taken: drain then waits d.
func (m *Manager) drain(d time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if n := m.waitAttempts(ctx, func(string) bool { return true }); n > 0 {
		m.log.Warn("webhook: attempts still in flight at stop are abandoned; their deliveries are attempted again after the next start",
			"attempts", n)
	}
}

// waitAttempts waits until no attempt is in flight to an endpoint that
// match reports, or until ctx ends, and returns the attempts still in
// flight then.
func (m *Manager) waitAttempts(ctx context.Context, match func(endpointID string) bool) int64 {
	for {
		var n int64
		m.flying.Range(func(k, v any) bool {
			if c := v.(*atomic.Int64).Load(); c > 0 && match(k.(string)) {
				n += c
			}
			return true
		})
		if n == 0 {
			return 0
		}
		select {
		case <-ctx.Done():
			return n
		case <-time.After(drainPoll):
		}
	}
}

// Live returns the number of live endpoint actors: one per stored
// endpoint from the start (they never passivate), less any that stopped.
// GET /v1/stats shows it as actorsAlive.webhook.
func (m *Manager) Live() int { return m.endpoints.Live() }

// Wake makes every endpoint actor re-check its due deliveries now. Timers
// do this on their own with the real clock; tests that move a manual clock
// call it after each move.
func (m *Manager) Wake() {
	m.endpoints.Each(func(id string) { m.endpoints.Send(id, wakeMsg) })
}
