package persistence

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/orderengine/orderengine/internal/jsonw"
)

// Webhook records (keys.go, prefix w/):
//
//	w/e/<accountID>/<endpointID>            WebhookEndpoint, JSON
//	w/d/<endpointID>/<at ns BE>/<eventID>   WebhookDelivery, JSON
//	w/p/<endpointID>/<at ns BE>/<eventID>   empty: the delivery is outstanding
//
// A delivery is written (with its w/p index row) before its first attempt,
// and rewritten after every attempt; the w/p row is deleted in the same
// batch as the final outcome, whose row keeps no body (null). At start the endpoint actors reload their
// outstanding deliveries from w/p.

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// WebhookEndpoint is a registered webhook endpoint.
type WebhookEndpoint struct {
	ID        string `json:"id"`
	AccountID string `json:"accountId"`
	URL       string `json:"url"`
	// Events is the subscription; empty means every trigger.
	Events  []string `json:"events,omitempty"`
	Enabled bool     `json:"enabled"`
	// DisabledReason and DisabledAt say why and when it was disabled.
	DisabledReason string     `json:"disabledReason,omitempty"`
	DisabledAt     *time.Time `json:"disabledAt,omitempty"`
	// SealedSecret is the signing secret encrypted by the webhook package
	// (never the plain secret).
	SealedSecret []byte    `json:"sealedSecret"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
	// FailingSince is the first failed attempt since the last success.
	FailingSince  *time.Time `json:"failingSince,omitempty"`
	LastSuccessAt *time.Time `json:"lastSuccessAt,omitempty"`
}

// Subscribed reports whether the endpoint wants trigger. test.ping is sent
// only through the test call, never fanned out.
func (e *WebhookEndpoint) Subscribed(trigger string) bool {
	return len(e.Events) == 0 || slices.Contains(e.Events, trigger)
}

// WebhookAttempt is the outcome of one delivery attempt.
type WebhookAttempt struct {
	N          int       `json:"n"`
	At         time.Time `json:"at"`
	StatusCode int       `json:"statusCode,omitempty"`
	LatencyMs  int64     `json:"latencyMs"`
	Error      string    `json:"error,omitempty"`
}

// WebhookDelivery is one event to deliver to one endpoint, with its
// attempts.
type WebhookDelivery struct {
	EndpointID string `json:"endpointId"`
	EventID    string `json:"eventId"`
	Trigger    string `json:"trigger"`
	// Body is the exact request body, identical on every attempt. The
	// stored row of a finished delivery has none (see addOutcome).
	Body          []byte           `json:"body"`
	CreatedAt     time.Time        `json:"createdAt"`
	Status        string           `json:"status"`
	Attempts      []WebhookAttempt `json:"attempts,omitempty"`
	NextAttemptAt time.Time        `json:"nextAttemptAt"`
}

// appendJSON appends the JSON of d to dst: the same bytes as
// json.Marshal(d) (TestDeliveryJSONMatchesMarshal), without reflection. A
// delivery row is written twice per delivery (fan-out and outcome), so
// this is on the dispatcher's hot path.
func (d *WebhookDelivery) appendJSON(dst []byte) ([]byte, error) {
	var err error
	dst = append(dst, `{"endpointId":`...)
	dst = jsonw.String(dst, d.EndpointID)
	dst = append(dst, `,"eventId":`...)
	dst = jsonw.String(dst, d.EventID)
	dst = append(dst, `,"trigger":`...)
	dst = jsonw.String(dst, d.Trigger)
	dst = append(dst, `,"body":`...)
	if d.Body == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, d.Body)
		dst = append(dst, '"')
	}
	dst = append(dst, `,"createdAt":`...)
	if dst, err = jsonw.Time(dst, d.CreatedAt); err != nil {
		return nil, err
	}
	dst = append(dst, `,"status":`...)
	dst = jsonw.String(dst, d.Status)
	for i := range d.Attempts {
		a := &d.Attempts[i]
		if i == 0 {
			dst = append(dst, `,"attempts":[`...)
		} else {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"n":`...)
		dst = strconv.AppendInt(dst, int64(a.N), 10)
		dst = append(dst, `,"at":`...)
		if dst, err = jsonw.Time(dst, a.At); err != nil {
			return nil, err
		}
		if a.StatusCode != 0 {
			dst = append(dst, `,"statusCode":`...)
			dst = strconv.AppendInt(dst, int64(a.StatusCode), 10)
		}
		dst = append(dst, `,"latencyMs":`...)
		dst = strconv.AppendInt(dst, a.LatencyMs, 10)
		if a.Error != "" {
			dst = append(dst, `,"error":`...)
			dst = jsonw.String(dst, a.Error)
		}
		dst = append(dst, '}')
	}
	if len(d.Attempts) > 0 {
		dst = append(dst, ']')
	}
	dst = append(dst, `,"nextAttemptAt":`...)
	if dst, err = jsonw.Time(dst, d.NextAttemptAt); err != nil {
		return nil, err
	}
	return append(dst, '}'), nil
}

// setDelivery adds the row of d to b.
func setDelivery(b *pebble.Batch, d *WebhookDelivery) error {
	buf := jsonBufs.Get().(*[]byte)
	defer jsonBufs.Put(buf)
	v, err := d.appendJSON((*buf)[:0])
	if err != nil {
		return err
	}
	*buf = v
	return b.Set(append(deliveryPrefix(d.EndpointID), d.suffix()...), v, nil)
}

// jsonBufs holds scratch buffers for appendJSON (Batch.Set copies).
var jsonBufs = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

func (d *WebhookDelivery) suffix() []byte {
	k := binary.BigEndian.AppendUint64(nil, uint64(d.CreatedAt.UnixNano()))
	k = append(k, '/')
	return append(k, d.EventID...)
}

// WebhookStore reads and writes webhook records.
type WebhookStore struct{ s *Store }

// NewWebhookStore returns the webhook records of s.
func NewWebhookStore(s *Store) *WebhookStore { return &WebhookStore{s: s} }

// Backlog counts, up to max each, the deliveries outstanding (fanned out,
// not yet delivered nor given up) and the outbox events not yet fanned out,
// reading keys only (a scrape of the webhook metrics). ok is false when the
// store is closing.
func (w *WebhookStore) Backlog(max int) (outstanding, unfanned int, ok bool, err error) {
	if w.s.enter() != nil {
		return 0, 0, false, nil
	}
	defer w.s.exit()
	count := func(prefix string) (int, error) {
		p := []byte(prefix)
		it, err := w.s.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixUpperBound(p)})
		if err != nil {
			return 0, err
		}
		n := 0
		for valid := it.First(); valid && n < max; valid = it.Next() {
			n++
		}
		return n, it.Close()
	}
	if outstanding, err = count(prefixWebhook + "p/"); err != nil {
		return 0, 0, false, fmt.Errorf("persistence: count outstanding deliveries: %w", err)
	}
	if unfanned, err = count(prefixOutbox); err != nil {
		return 0, 0, false, fmt.Errorf("persistence: count outbox events: %w", err)
	}
	return outstanding, unfanned, true, nil
}

// Commit commits a batch built on DB through the store's gate (Store.Commit).
func (w *WebhookStore) Commit(b *pebble.Batch, opts *pebble.WriteOptions) error {
	return w.s.Commit(b, opts)
}

// DB returns the Pebble handle (to build batches that also touch the outbox).
func (w *WebhookStore) DB() *pebble.DB { return w.s.db }

func endpointKey(accountID, id string) []byte {
	return []byte(prefixWebhook + "e/" + accountID + "/" + id)
}
func deliveryPrefix(endpointID string) []byte { return []byte(prefixWebhook + "d/" + endpointID + "/") }
func pendingPrefix(endpointID string) []byte  { return []byte(prefixWebhook + "p/" + endpointID + "/") }

// PutEndpoint writes ep with Sync.
func (w *WebhookStore) PutEndpoint(ep *WebhookEndpoint) error {
	b := w.s.db.NewBatch()
	defer b.Close()
	if err := setJSON(b, endpointKey(ep.AccountID, ep.ID), ep); err != nil {
		return err
	}
	if err := w.s.Commit(b, pebble.Sync); err != nil {
		return fmt.Errorf("persistence: put endpoint: %w", err)
	}
	return nil
}

// PutEndpointStatus writes ep without waiting for its fsync, for status
// fields a machine crash may roll back harmlessly (LastSuccessAt, the start
// of a failure streak): a kill -9 loses nothing, and a lost status only
// delays a disable. Changes that must survive (the disable itself, the end
// of a failure streak) use PutEndpoint.
func (w *WebhookStore) PutEndpointStatus(ep *WebhookEndpoint) error {
	b := w.s.db.NewBatch()
	defer b.Close()
	if err := setJSON(b, endpointKey(ep.AccountID, ep.ID), ep); err != nil {
		return err
	}
	if err := w.s.Commit(b, pebble.NoSync); err != nil {
		return fmt.Errorf("persistence: put endpoint status: %w", err)
	}
	return nil
}

// Endpoints returns every endpoint of every account.
func (w *WebhookStore) Endpoints() ([]*WebhookEndpoint, error) {
	p := []byte(prefixWebhook + "e/")
	it, err := w.s.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: endpoints: %w", err)
	}
	defer it.Close()
	var out []*WebhookEndpoint
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			return nil, fmt.Errorf("persistence: endpoints: %w", err)
		}
		ep := new(WebhookEndpoint)
		if err := json.Unmarshal(v, ep); err != nil {
			return nil, fmt.Errorf("persistence: decode endpoint %q: %w", it.Key(), err)
		}
		out = append(out, ep)
	}
	return out, nil
}

// DeleteEndpoint removes ep with all its deliveries.
func (w *WebhookStore) DeleteEndpoint(ep *WebhookEndpoint) error {
	b := w.s.db.NewBatch()
	defer b.Close()
	if err := b.Delete(endpointKey(ep.AccountID, ep.ID), nil); err != nil {
		return err
	}
	for _, p := range [][]byte{deliveryPrefix(ep.ID), pendingPrefix(ep.ID)} {
		if err := b.DeleteRange(p, prefixUpperBound(p), nil); err != nil {
			return err
		}
	}
	if err := w.s.Commit(b, pebble.Sync); err != nil {
		return fmt.Errorf("persistence: delete endpoint: %w", err)
	}
	return nil
}

// AddDelivery adds a new outstanding delivery to b.
func (w *WebhookStore) AddDelivery(b *pebble.Batch, d *WebhookDelivery) error {
	if err := setDelivery(b, d); err != nil {
		return err
	}
	return b.Set(append(pendingPrefix(d.EndpointID), d.suffix()...), nil, nil)
}

// SaveDeliveries rewrites each of ds after an attempt (deleting the
// outstanding row of a finished one), in one batch: the webhook dispatcher
// groups the outcomes of concurrent attempts.
//
// The batch is written to the WAL without waiting for its fsync: a process
// crash (kill -9) loses nothing, and a machine crash can lose only the
// outcome of recent attempts, never a delivery: the delivery row was made
// durable from the synced outbox before its first attempt, so such a
// delivery is attempted again under the same delivery id, which
// at-least-once delivery allows and receivers dedupe. Not waiting for an
// fsync per attempt is what keeps the delivery tail short.
func (w *WebhookStore) SaveDeliveries(ds []*WebhookDelivery) error {
	b := w.s.db.NewBatch()
	defer b.Close()
	for _, d := range ds {
		if err := addOutcome(b, d); err != nil {
			return err
		}
	}
	if err := w.s.Commit(b, pebble.NoSync); err != nil {
		return fmt.Errorf("persistence: save deliveries: %w", err)
	}
	return nil
}

// addOutcome adds the rewrite of d to b, with the deletion of its
// outstanding row when d is finished. A finished delivery is stored
// without its body: it is never sent again and the delivery log shows
// attempts, not bodies, so the body would only be written (about a quarter
// of the bytes the dispatcher writes per delivery) and flushed.
func addOutcome(b *pebble.Batch, d *WebhookDelivery) error {
	if d.Status == DeliveryPending {
		return setDelivery(b, d)
	}
	done := *d
	done.Body = nil
	if err := setDelivery(b, &done); err != nil {
		return err
	}
	return b.Delete(append(pendingPrefix(d.EndpointID), d.suffix()...), nil)
}

// PendingDeliveries returns the outstanding deliveries of an endpoint.
func (w *WebhookStore) PendingDeliveries(endpointID string) ([]*WebhookDelivery, error) {
	p := pendingPrefix(endpointID)
	it, err := w.s.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: pending deliveries: %w", err)
	}
	defer it.Close()
	var out []*WebhookDelivery
	for ok := it.First(); ok; ok = it.Next() {
		key := append(deliveryPrefix(endpointID), it.Key()[len(p):]...)
		v, ok, err := w.s.get(key)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		d := new(WebhookDelivery)
		if err := json.Unmarshal(v, d); err != nil {
			return nil, fmt.Errorf("persistence: decode delivery %q: %w", key, err)
		}
		out = append(out, d)
	}
	return out, nil
}

// RecentDeliveries returns up to n deliveries of an endpoint, newest first.
func (w *WebhookStore) RecentDeliveries(endpointID string, n int) ([]*WebhookDelivery, error) {
	p := deliveryPrefix(endpointID)
	it, err := w.s.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: recent deliveries: %w", err)
	}
	defer it.Close()
	var out []*WebhookDelivery
	for ok := it.Last(); ok && len(out) < n; ok = it.Prev() {
		v, err := it.ValueAndErr()
		if err != nil {
			return nil, fmt.Errorf("persistence: recent deliveries: %w", err)
		}
		d := new(WebhookDelivery)
		if err := json.Unmarshal(v, d); err != nil {
			return nil, fmt.Errorf("persistence: decode delivery %q: %w", it.Key(), err)
		}
		out = append(out, d)
	}
	return out, nil
}

// TrimDeliveries deletes the finished deliveries of an endpoint beyond the
// newest keep; outstanding ones are never deleted. The outstanding ones are
// few, so they are read once up front rather than with one point read per
// older delivery. Both reads come from one snapshot: a fan-out committing
// new deliveries between them (more than keep of them) would otherwise
// have them deleted as finished, their outstanding row left pointing at
// nothing, and the delivery lost at the next start.
func (w *WebhookStore) TrimDeliveries(endpointID string, keep int) error {
	snap := w.s.db.NewSnapshot()
	defer snap.Close()
	pending, err := pendingSuffixes(snap, endpointID)
	if err != nil {
		return err
	}
	if testHookTrimBetweenReads != nil {
		testHookTrimBetweenReads()
	}
	p := deliveryPrefix(endpointID)
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixUpperBound(p)})
	if err != nil {
		return fmt.Errorf("persistence: trim deliveries: %w", err)
	}
	b := w.s.db.NewBatch()
	defer b.Close()
	seen := 0
	for ok := it.Last(); ok; ok = it.Prev() {
		seen++
		if seen <= keep || pending[string(it.Key()[len(p):])] {
			continue
		}
		if err := b.Delete(it.Key(), nil); err != nil {
			_ = it.Close()
			return err
		}
	}
	if err := it.Close(); err != nil {
		return fmt.Errorf("persistence: trim deliveries: %w", err)
	}
	if b.Empty() {
		return nil
	}
	if err := w.s.Commit(b, pebble.NoSync); err != nil {
		return fmt.Errorf("persistence: trim deliveries: %w", err)
	}
	return nil
}

// testHookTrimBetweenReads, set by tests only, runs in TrimDeliveries
// between its read of the outstanding rows and its read of the deliveries.
var testHookTrimBetweenReads func()

// pendingSuffixes returns the key suffixes (<at>/<eventID>) of the
// outstanding deliveries of an endpoint in r.
func pendingSuffixes(r pebble.Reader, endpointID string) (map[string]bool, error) {
	p := pendingPrefix(endpointID)
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: pending deliveries: %w", err)
	}
	out := make(map[string]bool)
	for ok := it.First(); ok; ok = it.Next() {
		out[string(it.Key()[len(p):])] = true
	}
	if err := it.Close(); err != nil {
		return nil, fmt.Errorf("persistence: pending deliveries: %w", err)
	}
	return out, nil
}
