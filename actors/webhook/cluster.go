package webhook

import (
	"context"
	"crypto/rand"
	"errors"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/persistence/webhookstore"
)

// Webhooks in a cluster (docs/cluster.md, "Webhooks across the cluster").
//
// The endpoints and their deliveries are shared records: every write of
// the delivery journal is replicated to every node's store
// (persistence/webhookstore/replicated.go), so every node lists every endpoint
// and its deliveries log, and a management call works on any node (it asks
// the endpoint's actor on that node, whose write is conditional
// cluster-wide).
//
// Every node runs an actor for every endpoint, and every node's fan-out
// creates the deliveries of the events its materialiser applied to its
// outbox (the same events, with the same ids, on every node): a delivery is
// created once cluster-wide, whichever node comes first, and its id is the
// event's id everywhere. Only the endpoint's owner sends: the node that
// holds the lease of the endpoint's shard (cluster/members; like the
// order, maker and limiter kinds), checked before every attempt, so that
// at most one node sends an endpoint's deliveries at any moment. Its
// attempts' outcomes are replicated like every other write, so a new owner
// (the owner's term ended: it died, was cut off or left, or handed the
// shard to a node that joined) holds every outstanding delivery at its
// latest version and sends what is left; a delivery whose attempt was in
// flight on an owner that died is sent again under the same id (at least
// once). An owner that hands the shard over lets its attempts in flight
// finish first (Drain), and a new owner reads the endpoint's latest writes
// before it sends (catchUp), so a handover sends nothing twice.
//
// After every replicated batch, each node's actors of the endpoints it
// wrote reload their record and their outstanding deliveries (refresh): a
// rotation, a resend or a test made on another node reaches the owner.

// KindName is the name under which the cluster places webhook endpoints.
const KindName = "webhook"

// Cluster is how a manager runs as one node of a cluster.
type Cluster struct {
	// Owns reports whether this node is the owner of an endpoint now, the
	// only node that sends its deliveries. It must answer false while the
	// node is not a member yet.
	Owns func(endpointID string) bool
}

// refreshMsg asks an endpoint's actor to reload its record and
// outstanding deliveries from the store.
type refreshMsg struct{}

// ownerWatch is how often a node checks whether it gained endpoints (a
// member left or joined): the delay of a takeover after the members
// changed.
const ownerWatch = 250 * time.Millisecond

// sharedChanged is a cluster node's webhookstore.Options.OnShared:
// the accounts whose endpoints a shared batch changed drop their cached
// lists, and the actors of the endpoints it wrote refresh.
func (m *Manager) sharedChanged(ch webhookstore.Change) {
	if !m.clusterStarted.Load() {
		return // StartCluster reads the store as it is then
	}
	for _, a := range ch.Accounts {
		m.endpointsChanged(a)
	}
	// Under fanMu, as Close cancels: no actor starts once Close has
	// stopped them (one would read the store after it closed).
	m.fanMu.Lock()
	defer m.fanMu.Unlock()
	if m.ctx.Err() != nil {
		return
	}
	for _, id := range ch.Endpoints {
		m.markRefresh(id)
	}
}

// sharedKeyTimeout bounds one fetch of the cluster's secret key.
const sharedKeyTimeout = 10 * time.Second

// markRefresh asks the endpoint's actor to refresh, once for every
// change that came before its refresh.
func (m *Manager) markRefresh(id string) {
	v, _ := m.refresh.LoadOrStore(id, new(atomic.Bool))
	if v.(*atomic.Bool).CompareAndSwap(false, true) {
		m.endpoints.Send(id, &refreshMsg{})
	}
}

// StartCluster starts a cluster node's manager once the node's store
// follows the shared log: unless webhooks.secretKeyFile names the key that
// seals the signing secrets, the key is the cluster's, read (or created,
// once for the cluster) at its first use; it starts the endpoints' actors
// and the fan-out, and watches the endpoints' ownership.
func (m *Manager) StartCluster(ctx context.Context) error {
	if m.owns == nil {
		return errors.New("webhook: StartCluster on a manager that is not a cluster node's")
	}
	if m.sealer == nil {
		m.sealer = newSharedSealer(func() ([]byte, error) {
			kctx, cancel := context.WithTimeout(m.ctx, sharedKeyTimeout)
			defer cancel()
			return m.store.SharedSealingKey(kctx, func() ([]byte, error) {
				k := make([]byte, 32)
				_, err := rand.Read(k)
				return k, err
			})
		})
	}
	m.clusterStarted.Store(true)
	if err := m.start(); err != nil {
		return err
	}
	m.background.Add(1)
	go m.watchOwners()
	return nil
}

// watchOwners wakes the actors of the endpoints this node gained since it
// last looked, so that a new owner sends what is outstanding (after its
// catch-up: pump).
func (m *Manager) watchOwners() {
	defer m.background.Done()
	t := time.NewTicker(ownerWatch)
	defer t.Stop()
	owned := map[string]bool{}
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-t.C:
		}
		m.endpoints.Each(func(id string) {
			now := m.owns(id)
			if now && !owned[id] {
				m.endpoints.Send(id, wakeMsg)
			}
			owned[id] = now
		})
	}
}

// sends reports whether this node sends the endpoint's deliveries: it
// owns the endpoint and is not handing it over.
func (m *Manager) sends(id string) bool {
	if m.owns == nil {
		return true
	}
	if h := m.handing.Load(); h != nil && (*h)(id) {
		return false
	}
	return m.owns(id)
}

// flyingOf returns the endpoint's count of attempts in flight.
func (m *Manager) flyingOf(id string) *atomic.Int64 {
	if v, ok := m.flying.Load(id); ok {
		return v.(*atomic.Int64)
	}
	v, _ := m.flying.LoadOrStore(id, new(atomic.Int64))
	return v.(*atomic.Int64)
}

// Drain starts no attempt to the endpoints that leaving reports and
// waits, within ctx, until none is in flight, its outcome's write
// included. A cluster node's member calls it when it hands those
// endpoints' shard over, before the shard's lease is released
// (members.Config.Drain): the node that takes them over then finds what
// was in flight delivered, and does not send it again. An attempt still
// out when ctx ends is left to the new owner, which sends it again under
// the same delivery id. The member drains one tick's handovers at a time.
func (m *Manager) Drain(ctx context.Context, leaving func(endpointID string) bool) {
	m.handing.Store(&leaving)
	defer m.handing.Store(nil)
	if n := m.waitAttempts(ctx, leaving); n > 0 {
		m.log.Warn("webhook: attempts still in flight when their endpoints' shard was handed over; the new owner sends them again",
			"attempts", n)
	}
}

// catchUpTimeout bounds a new owner's wait for the endpoint's latest
// replicated writes.
const catchUpTimeout = 5 * time.Second

// catchUp brings the actor of an endpoint this node has just come to own
// to the cluster's latest state of it before it sends: the outcomes the
// previous owner wrote up to its handover are applied here and reloaded
// now, not after the refresh's pace, so what they finished is not sent
// again. When the shared log cannot be reached, the actor sends from what
// it holds (at least once).
func (a *endpointActor) catchUp() {
	if a.rec == nil {
		return
	}
	ctx, cancel := context.WithTimeout(a.m.ctx, catchUpTimeout)
	err := a.m.store.Sync(ctx, a.rec.AccountID)
	cancel()
	if err != nil {
		a.m.log.Warn("webhook: a new owner could not read the endpoint's latest writes; sending from what this node holds",
			"endpoint", a.id, "err", err)
	}
	if a.refreshTimer != nil {
		a.refreshTimer.Stop()
		a.refreshTimer = nil
	}
	a.refreshedAt = time.Now()
	a.refreshed()
}

// refreshEvery bounds how often an endpoint's actor reloads after
// replicated writes: every attempt's outcome is one, and a reload reads
// every outstanding delivery of the endpoint.
const refreshEvery = 100 * time.Millisecond

// refresh reloads the actor's state now, or once refreshEvery has passed
// since its last reload (the endpoint's refresh flag stays set until then,
// so the writes in between ask for nothing more).
func (a *endpointActor) refresh(ctx actor.Context) {
	if a.refreshTimer != nil {
		a.refreshTimer.Stop()
		a.refreshTimer = nil
	}
	if wait := refreshEvery - time.Since(a.refreshedAt); wait > 0 {
		self, root := ctx.Self(), a.m.system.Root
		a.refreshTimer = time.AfterFunc(wait, func() { root.Send(self, &refreshMsg{}) })
		return
	}
	a.refreshedAt = time.Now()
	a.refreshed()
}

// refreshPending reloads the actor's state at once when a replicated
// write asked for a refresh that has not run yet (a cluster node's).
func (a *endpointActor) refreshPending() {
	if v, ok := a.m.refresh.Load(a.id); ok && v.(*atomic.Bool).Load() {
		if a.refreshTimer != nil {
			a.refreshTimer.Stop()
			a.refreshTimer = nil
		}
		a.refreshedAt = time.Now()
		a.refreshed()
	}
}

// refreshed reloads the actor's record and outstanding deliveries after
// replicated writes (its own or another node's): the stored state is the
// cluster's. Deliveries in flight stay with their attempts, whose outcomes
// are conditional on the version they were sent at.
func (a *endpointActor) refreshed() {
	if v, ok := a.m.refresh.Load(a.id); ok {
		v.(*atomic.Bool).Store(false)
	}
	rec, found, err := a.m.journal.LoadEndpoint(a.id)
	if err != nil {
		a.m.log.Error("webhook: reload endpoint", "endpoint", a.id, "err", err)
		return
	}
	if !found {
		if a.rec != nil { // deleted on another node
			a.rec, a.secret, a.previous = nil, "", ""
			a.queue.reset()
			a.stopTimer()
		}
		return
	}
	if a.rec == nil || string(a.rec.SealedSecret) != string(rec.SealedSecret) ||
		string(a.rec.PreviousSealedSecret) != string(rec.PreviousSealedSecret) {
		a.rec = nil
		a.activate() // opens the secrets and reloads the deliveries
		return
	}
	a.rec = rec
	a.reload()
}

// RemoteHandler serves the webhook endpoint kind's requests from other
// members: there are none (the endpoints' writes reach every node through
// the shared log), so the cluster member hosts the kind only to place its
// identities. It refuses every request.
type RemoteHandler struct{}

// Serve implements the cluster member's handler: it refuses the request.
func (RemoteHandler) Serve(context.Context, string, kind.Message, bool) (kind.Message, error) {
	return kind.Message{}, errors.New("webhook: endpoints take no requests from other members")
}
