package webhook

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/persistence"
)

// EndpointView is an endpoint as the API shows it (never its secret).
type EndpointView struct {
	ID  string `json:"id"`
	URL string `json:"url"`
	// Events is the subscription, every trigger when AllEvents.
	Events         []string   `json:"events"`
	AllEvents      bool       `json:"allEvents"`
	Enabled        bool       `json:"enabled"`
	DisabledReason string     `json:"disabledReason,omitempty"`
	DisabledAt     *time.Time `json:"disabledAt,omitempty"`
	CreatedAt      time.Time  `json:"createdAt"`
	FailingSince   *time.Time `json:"failingSince,omitempty"`
	LastSuccessAt  *time.Time `json:"lastSuccessAt,omitempty"`
}

// CreatedView is the answer to a creation: the endpoint and, only here, its
// signing secret.
type CreatedView struct {
	EndpointView
	Secret string `json:"secret"`
}

// ListView is the answer of GET /v1/webhooks.
type ListView struct {
	Webhooks []EndpointView `json:"webhooks"`
}

// TestResult is the answer of POST /v1/webhooks/{id}/test.
type TestResult struct {
	DeliveryID string `json:"deliveryId"`
}

// AttemptView is one attempt of a delivery.
type AttemptView struct {
	Attempt      int       `json:"attempt"`
	At           time.Time `json:"at"`
	ResponseCode *int      `json:"responseCode"`
	LatencyMs    int64     `json:"latencyMs"`
	Error        string    `json:"error,omitempty"`
}

// DeliveryView is one delivery with its latest attempt on top and the full
// attempt history below.
type DeliveryView struct {
	ID            string        `json:"id"`
	Event         string        `json:"event"`
	Status        string        `json:"status"`
	CreatedAt     time.Time     `json:"createdAt"`
	Attempts      int           `json:"attempts"`
	ResponseCode  *int          `json:"responseCode"`
	LatencyMs     *int64        `json:"latencyMs"`
	Error         string        `json:"error,omitempty"`
	NextRetryAt   *time.Time    `json:"nextRetryAt"`
	AttemptLog    []AttemptView `json:"attemptLog"`
	LastAttemptAt *time.Time    `json:"lastAttemptAt,omitempty"`
}

// DeliveryListView is the answer of GET /v1/webhooks/{id}/deliveries.
type DeliveryListView struct {
	Deliveries []DeliveryView `json:"deliveries"`
}

func view(rec *persistence.WebhookEndpoint) EndpointView {
	v := EndpointView{
		ID: rec.ID, URL: rec.URL, Events: slices.Clone(rec.Events), AllEvents: len(rec.Events) == 0,
		Enabled: rec.Enabled, DisabledReason: rec.DisabledReason, DisabledAt: rec.DisabledAt,
		CreatedAt: rec.CreatedAt, FailingSince: rec.FailingSince, LastSuccessAt: rec.LastSuccessAt,
	}
	if v.AllEvents {
		v.Events = persistence.Triggers[:]
	}
	return v
}

// canonicalEvents checks and orders an event subscription; empty means all.
func canonicalEvents(events []string) ([]string, error) {
	var out []string
	for _, t := range persistence.Triggers {
		if slices.Contains(events, t) {
			out = append(out, t)
		}
	}
	for _, e := range events {
		if !slices.Contains(persistence.Triggers[:], e) {
			return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "unknown event %q; known events: %v", e, persistence.Triggers)
		}
	}
	if len(out) == len(persistence.Triggers) {
		out = nil
	}
	return out, nil
}

// Create registers an endpoint for accountID. Re-creating a disabled
// endpoint (same URL) re-enables it with a new secret and the given events.
func (m *Manager) Create(ctx context.Context, accountID, rawURL string, events []string) (*CreatedView, error) {
	evs, err := canonicalEvents(events)
	if err != nil {
		return nil, err
	}
	u, err := m.policy.CheckURL(ctx, rawURL)
	if err != nil {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "%v", err)
	}
	secret, err := newSecret()
	if err != nil {
		return nil, err
	}
	now := m.clock.Now().UTC()
	m.mu.Lock()
	a := m.accountOf(accountID)
	m.mu.Unlock()
	a.mu.Lock()
	defer a.mu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, ep := range a.endpoints {
		if ep.rec.URL != u.String() || ep.rec.Enabled {
			continue
		}
		rec := *ep.rec
		if rec.SealedSecret, err = m.sealer.seal(rec.ID, secret); err != nil {
			return nil, err
		}
		rec.Events, rec.Enabled, rec.UpdatedAt = evs, true, now
		rec.DisabledReason, rec.DisabledAt, rec.FailingSince = "", nil, nil
		if err := m.store.PutEndpoint(&rec); err != nil {
			return nil, err
		}
		ep.rec, ep.secret = &rec, secret
		m.stats.disabledNow.Add(-1)
		m.system.Root.Send(ep.pid, wakeMsg)
		m.log.Info("webhook: endpoint re-enabled", "endpoint", rec.ID, "account", accountID)
		return &CreatedView{EndpointView: view(&rec), Secret: secret}, nil
	}
	if len(a.endpoints) >= m.cfg.MaxEndpoints {
		return nil, orderengine.Errorf(orderengine.CodeLimitReached, "an account has at most %d webhook endpoints; delete one first", m.cfg.MaxEndpoints)
	}
	id, err := randomID("wh_", 20)
	if err != nil {
		return nil, err
	}
	rec := &persistence.WebhookEndpoint{
		ID: id, AccountID: accountID, URL: u.String(), Events: evs, Enabled: true,
		CreatedAt: now, UpdatedAt: now,
	}
	if rec.SealedSecret, err = m.sealer.seal(id, secret); err != nil {
		return nil, err
	}
	if err := m.store.PutEndpoint(rec); err != nil {
		return nil, err
	}
	m.addEndpointLocked(a, rec, secret)
	// Only the host is logged: integrators sometimes put tokens in paths
	// or query strings.
	m.log.Info("webhook: endpoint created", "endpoint", id, "account", accountID, "host", u.Host)
	return &CreatedView{EndpointView: view(rec), Secret: secret}, nil
}

// find returns the endpoint id of accountID. An endpoint of another account
// is answered NOT_FOUND, exactly like an unknown id, so ids of other
// accounts cannot be probed. Callers hold m.mu.
func (m *Manager) findLocked(accountID, id string) (*endpoint, error) {
	ep := m.byID[id]
	if ep == nil || ep.rec.AccountID != accountID {
		return nil, orderengine.Errorf(orderengine.CodeNotFound, "webhook endpoint %s not found", id)
	}
	return ep, nil
}

// List returns the endpoints of accountID, oldest first.
func (m *Manager) List(accountID string) *ListView {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := &ListView{Webhooks: []EndpointView{}}
	if a := m.accounts[accountID]; a != nil {
		for _, ep := range a.endpoints {
			out.Webhooks = append(out.Webhooks, view(ep.rec))
		}
	}
	return out
}

// Get returns one endpoint of accountID.
func (m *Manager) Get(accountID, id string) (*EndpointView, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ep, err := m.findLocked(accountID, id)
	if err != nil {
		return nil, err
	}
	v := view(ep.rec)
	return &v, nil
}

// Delete removes an endpoint of accountID with its deliveries.
func (m *Manager) Delete(accountID, id string) error {
	m.mu.Lock()
	a := m.accounts[accountID]
	m.mu.Unlock()
	if a == nil {
		return orderengine.Errorf(orderengine.CodeNotFound, "webhook endpoint %s not found", id)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	m.mu.Lock()
	ep, err := m.findLocked(accountID, id)
	if err != nil {
		m.mu.Unlock()
		return err
	}
	delete(m.byID, id)
	a.endpoints = slices.DeleteFunc(a.endpoints, func(e *endpoint) bool { return e == ep })
	rec := *ep.rec
	m.mu.Unlock()
	if !rec.Enabled {
		m.stats.disabledNow.Add(-1)
	}
	_ = m.system.Root.StopFuture(ep.pid).Wait()
	ep.saveMu.Lock()
	defer ep.saveMu.Unlock()
	ep.gone = true
	if err := m.store.DeleteEndpoint(&rec); err != nil {
		return err
	}
	m.log.Info("webhook: endpoint deleted", "endpoint", id, "account", accountID)
	return nil
}

// Test persists a test.ping delivery for one endpoint and queues it.
func (m *Manager) Test(accountID, id string) (*TestResult, error) {
	m.mu.Lock()
	ep, err := m.findLocked(accountID, id)
	m.mu.Unlock()
	if err != nil {
		return nil, err
	}
	now := m.clock.Now().UTC()
	ev := persistence.OutboxEvent{
		ID: persistence.NewEventID(), Trigger: persistence.TriggerTestPing, CreatedAt: now,
		Data: persistence.EventData{Message: "test delivery from orderengine"},
	}
	body, err := encodeBody(&ev)
	if err != nil {
		return nil, err
	}
	d := newDelivery(id, &ev, body, now)
	ep.saveMu.RLock()
	defer ep.saveMu.RUnlock()
	if ep.gone {
		return nil, orderengine.Errorf(orderengine.CodeNotFound, "webhook endpoint %s not found", id)
	}
	b := m.store.DB().NewBatch()
	defer b.Close()
	if err := m.store.AddDelivery(b, d); err != nil {
		return nil, err
	}
	if err := m.store.Commit(b, pebble.Sync); err != nil {
		return nil, fmt.Errorf("webhook: test delivery: %w", err)
	}
	m.system.Root.Send(ep.pid, &enqueueMsg{deliveries: []*persistence.WebhookDelivery{d}})
	return &TestResult{DeliveryID: ev.ID}, nil
}

// Deliveries returns the recent deliveries of an endpoint of accountID,
// newest first.
func (m *Manager) Deliveries(accountID, id string) (*DeliveryListView, error) {
	m.mu.Lock()
	_, err := m.findLocked(accountID, id)
	m.mu.Unlock()
	if err != nil {
		return nil, err
	}
	ds, err := m.store.RecentDeliveries(id, m.cfg.History)
	if err != nil {
		return nil, err
	}
	out := &DeliveryListView{Deliveries: make([]DeliveryView, 0, len(ds))}
	for _, d := range ds {
		out.Deliveries = append(out.Deliveries, deliveryView(d))
	}
	return out, nil
}

func deliveryView(d *persistence.WebhookDelivery) DeliveryView {
	v := DeliveryView{
		ID: d.EventID, Event: d.Trigger, Status: d.Status, CreatedAt: d.CreatedAt,
		Attempts: len(d.Attempts), AttemptLog: make([]AttemptView, 0, len(d.Attempts)),
	}
	if d.Status == persistence.DeliveryPending {
		next := d.NextAttemptAt
		v.NextRetryAt = &next
	}
	for _, a := range d.Attempts {
		av := AttemptView{Attempt: a.N, At: a.At, LatencyMs: a.LatencyMs, Error: a.Error}
		if a.StatusCode != 0 {
			code := a.StatusCode
			av.ResponseCode = &code
		}
		v.AttemptLog = append(v.AttemptLog, av)
	}
	if n := len(d.Attempts); n > 0 {
		last := v.AttemptLog[n-1]
		lat := last.LatencyMs
		v.ResponseCode, v.LatencyMs, v.Error, v.LastAttemptAt = last.ResponseCode, &lat, last.Error, &last.At
	}
	return v
}

// randomID returns prefix and n random base62 characters.
func randomID(prefix string, n int) (string, error) {
	b := make([]byte, n)
	limit := big.NewInt(int64(len(base62)))
	for i := range b {
		x, err := rand.Int(rand.Reader, limit)
		if err != nil {
			return "", errors.Join(errors.New("webhook: random id"), err)
		}
		b[i] = base62[x.Int64()]
	}
	return prefix + string(b), nil
}
