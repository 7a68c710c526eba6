package webhook

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/webhookstore"
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
	// PreviousSecretExpiresAt is set during a rotation's overlap: until
	// then the replaced secret signs every delivery too.
	PreviousSecretExpiresAt *time.Time `json:"previousSecretExpiresAt,omitempty"`
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

// view is rec as the API shows it at now.
func view(rec *webhookstore.Endpoint, now time.Time) EndpointView {
	v := EndpointView{
		ID: rec.ID, URL: rec.URL, Events: slices.Clone(rec.Events), AllEvents: len(rec.Events) == 0,
		Enabled: rec.Enabled, DisabledReason: rec.DisabledReason, DisabledAt: rec.DisabledAt,
		CreatedAt: rec.CreatedAt, FailingSince: rec.FailingSince, LastSuccessAt: rec.LastSuccessAt,
	}
	if v.AllEvents {
		v.Events = persistence.Triggers[:]
	}
	if until := rec.PreviousSecretUntil; until != nil && until.After(now) {
		v.PreviousSecretExpiresAt = until
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
// The account's endpoint limit holds however many creates race: the new
// endpoint's actor writes its record conditional on it.
func (m *Manager) Create(ctx context.Context, accountID, rawURL string, events []string) (*CreatedView, error) {
	return m.CreateIdempotent(ctx, accountID, rawURL, events, "")
}

// CreateIdempotent is Create with an Idempotency-Key (none when key is
// ""): for IdempotencyWindow after a create succeeded with the key, the
// same request with it is answered the create's answer again (the same
// endpoint and secret) without creating anything, and another request
// with it is refused with INVALID_REQUEST (idempotency.go).
func (m *Manager) CreateIdempotent(ctx context.Context, accountID, rawURL string, events []string, key string) (*CreatedView, error) {
	evs, err := canonicalEvents(events)
	if err != nil {
		return nil, err
	}
	var idem *idemRequest
	if key != "" {
		if idem, err = m.newIdemRequest(accountID, key, rawURL, evs); err != nil {
			return nil, err
		}
		unlock := m.lockCreates(accountID)
		defer unlock()
		if m.owns != nil { // in a cluster: the key may have been used on another node
			if err := m.store.Sync(ctx, accountID); err != nil {
				return nil, persistence.SharedError(err)
			}
		}
		if v, ok, err := m.replay(idem); err != nil || ok {
			return v, err
		}
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
	recs, err := m.store.AccountEndpoints(accountID)
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		if rec.URL != u.String() || rec.Enabled {
			continue
		}
		v, err := m.request(ctx, rec.ID, &reenable{account: accountID, url: u.String(), events: evs, secret: secret, now: now, idem: idem})
		switch {
		case errors.Is(err, errNotDisabled), errors.Is(err, errGone):
			continue // re-enabled or deleted meanwhile
		case errors.Is(err, webhookstore.ErrIdempotencyKeyTaken):
			return m.replayTaken(idem)
		case err != nil:
			return nil, err
		}
		m.log.Info("webhook: endpoint re-enabled", "endpoint", rec.ID, "account", accountID)
		return v.(*CreatedView), nil
	}
	limit := orderengine.Errorf(orderengine.CodeLimitReached, "an account has at most %d webhook endpoints; delete one first", m.cfg.MaxEndpoints)
	if len(recs) >= m.cfg.MaxEndpoints {
		return nil, limit
	}
	id, err := randomID("wh_", 20)
	if err != nil {
		return nil, err
	}
	rec := &webhookstore.Endpoint{
		ID: id, AccountID: accountID, URL: u.String(), Events: evs, Enabled: true,
		CreatedAt: now, UpdatedAt: now,
	}
	v, err := m.request(ctx, id, &createEndpoint{rec: rec, secret: secret, idem: idem})
	m.endpointsChanged(accountID) // also when the answer is lost: the write may be done
	if err != nil {
		m.retire(id)
		if errors.Is(err, webhookstore.ErrEndpointLimit) {
			return nil, limit
		}
		if errors.Is(err, webhookstore.ErrIdempotencyKeyTaken) {
			return m.replayTaken(idem)
		}
		return nil, err
	}
	// Only the host is logged: integrators sometimes put tokens in paths
	// or query strings.
	m.log.Info("webhook: endpoint created", "endpoint", id, "account", accountID, "host", u.Host)
	return v.(*CreatedView), nil
}

// replayTaken answers a create refused because another node's create
// stored its Idempotency-Key first: that create's answer (or the refusal
// of another body), which this node has once the refusal came back.
func (m *Manager) replayTaken(idem *idemRequest) (*CreatedView, error) {
	v, ok, err := m.replay(idem)
	if err == nil && !ok {
		err = orderengine.Errorf(orderengine.CodeServiceUnavailable, "another create with this Idempotency-Key is in progress: retry")
	}
	return v, err
}

// notFound answers an endpoint id that is unknown or of another account,
// alike, so ids of other accounts cannot be probed.
func notFound(id string) error {
	return orderengine.Errorf(orderengine.CodeNotFound, "webhook endpoint %s not found", id)
}

// load returns the stored endpoint id of accountID.
func (m *Manager) load(accountID, id string) (*webhookstore.Endpoint, error) {
	rec, found, err := m.store.LoadEndpoint(id)
	if err != nil {
		return nil, err
	}
	if !found || rec.AccountID != accountID {
		return nil, notFound(id)
	}
	return rec, nil
}

// request sends msg to the actor of endpoint id and returns its answer.
func (m *Manager) request(ctx context.Context, id string, msg any) (any, error) {
	res, err := m.endpoints.Request(ctx, id, msg)
	if err != nil {
		return nil, err
	}
	a, ok := res.(answer)
	if !ok {
		return nil, fmt.Errorf("webhook: unexpected answer %T", res)
	}
	return a.v, a.err
}

// ask is request for an endpoint of accountID: NOT_FOUND unless the store
// holds it for that account, and when its actor finds it gone.
func (m *Manager) ask(ctx context.Context, accountID, id string, msg any) (any, error) {
	if _, err := m.load(accountID, id); err != nil {
		return nil, err
	}
	v, err := m.request(ctx, id, msg)
	switch {
	case errors.Is(err, errGone):
		m.retire(id)
		return nil, notFound(id)
	case errors.Is(err, errForeign):
		return nil, notFound(id)
	}
	return v, err
}

// retire stops the actor of an endpoint that does not exist (deleted, or
// refused at creation) once nothing is on its way to it; a message racing
// with it is answered errGone first.
func (m *Manager) retire(id string) {
	for i := 0; i < 100 && m.endpoints.IsLive(id); i++ {
		if m.endpoints.Passivate(id) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// List returns the endpoints of accountID, oldest first.
func (m *Manager) List(accountID string) (*ListView, error) {
	recs, err := m.store.AccountEndpoints(accountID)
	if err != nil {
		return nil, err
	}
	out := &ListView{Webhooks: make([]EndpointView, 0, len(recs))}
	now := m.clock.Now()
	for _, rec := range recs {
		out.Webhooks = append(out.Webhooks, view(rec, now))
	}
	return out, nil
}

// Get returns one endpoint of accountID.
func (m *Manager) Get(accountID, id string) (*EndpointView, error) {
	rec, err := m.load(accountID, id)
	if err != nil {
		return nil, err
	}
	v := view(rec, m.clock.Now())
	return &v, nil
}

// Delete removes an endpoint of accountID with its deliveries.
func (m *Manager) Delete(accountID, id string) error {
	_, err := m.ask(m.ctx, accountID, id, &deleteEndpoint{account: accountID})
	m.endpointsChanged(accountID)
	if err != nil {
		return err
	}
	m.retire(id)
	m.log.Info("webhook: endpoint deleted", "endpoint", id, "account", accountID)
	return nil
}

// Test persists a test.ping delivery for one endpoint and queues it.
func (m *Manager) Test(accountID, id string) (*TestResult, error) {
	v, err := m.ask(m.ctx, accountID, id, &sendTest{account: accountID})
	if err != nil {
		return nil, err
	}
	return v.(*TestResult), nil
}

// The overlap of a secret rotation: DefaultSecretOverlap when the request
// gives none, at most MaxSecretOverlap.
const (
	DefaultSecretOverlap = 24 * time.Hour
	MaxSecretOverlap     = 7 * 24 * time.Hour
)

// RotateSecret gives an endpoint of accountID a new signing secret, shown
// only in the answer. For overlap (0 to MaxSecretOverlap) the replaced
// secret signs every delivery too: each carries one v1 per secret, so a
// receiver can switch to the new secret at any moment of the overlap. A
// rotation within the overlap of another drops the oldest secret.
func (m *Manager) RotateSecret(accountID, id string, overlap time.Duration) (*CreatedView, error) {
	if overlap < 0 || overlap > MaxSecretOverlap {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "overlapSeconds must be 0 to %d", int(MaxSecretOverlap/time.Second))
	}
	secret, err := newSecret()
	if err != nil {
		return nil, err
	}
	v, err := m.ask(m.ctx, accountID, id, &rotateSecret{account: accountID, secret: secret, now: m.clock.Now().UTC(), overlap: overlap})
	if err != nil {
		return nil, err
	}
	m.log.Info("webhook: endpoint secret rotated", "endpoint", id, "account", accountID, "overlap", overlap)
	return v.(*CreatedView), nil
}

// Resend makes an attempt of a delivery of an endpoint of accountID now,
// under the same delivery id (X-Service-Delivery) and body; the delivery
// is pending until it succeeds, and a failure is retried on the schedule
// from its attempt count (a delivery that used up the schedule gets this
// one attempt). A delivery that is not in the endpoint's log (trimmed, or
// unknown) answers NOT_FOUND.
func (m *Manager) Resend(accountID, id, deliveryID string) (*DeliveryView, error) {
	v, err := m.ask(m.ctx, accountID, id, &resendDelivery{account: accountID, event: deliveryID})
	switch {
	case errors.Is(err, errNoDelivery):
		return nil, orderengine.Errorf(orderengine.CodeNotFound, "webhook endpoint %s has no delivery %s in its log", id, deliveryID)
	case errors.Is(err, errNoBody):
		return nil, orderengine.Errorf(orderengine.CodeNotFound, "delivery %s cannot be sent again: its body is no longer stored (it finished before this version of the engine)", deliveryID)
	case err != nil:
		return nil, err
	}
	m.log.Info("webhook: delivery resent", "endpoint", id, "account", accountID, "delivery", deliveryID)
	return v.(*DeliveryView), nil
}

// Deliveries returns the recent deliveries of an endpoint of accountID,
// newest first.
func (m *Manager) Deliveries(accountID, id string) (*DeliveryListView, error) {
	if _, err := m.load(accountID, id); err != nil {
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

func deliveryView(d *webhookstore.Delivery) DeliveryView {
	v := DeliveryView{
		ID: d.EventID, Event: d.Trigger, Status: d.Status, CreatedAt: d.CreatedAt,
		Attempts: len(d.Attempts), AttemptLog: make([]AttemptView, 0, len(d.Attempts)),
	}
	if d.Status == webhookstore.DeliveryPending {
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
