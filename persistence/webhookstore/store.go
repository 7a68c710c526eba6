package webhookstore

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine/persistence"
)

// Webhook records (keys.go, prefix w/):
//
//	w/n/<endpointID>                          Endpoint, JSON
//	w/a/<accountID>/<endpointID>              empty: an account's endpoints
//	w/d/<endpointID>/<at ns BE>/<eventID>     Delivery, codec 1 (codec.go):
//	                                          an endpoint's deliveries in creation order
//	w/p/<endpointID>/<at ns BE>/<eventID>     empty: the delivery is outstanding
//	w/b/<accountID>/<eventID>                 the event's body: the JSON every delivery
//	                                          of it sends, as its event log row held it
//	w/i/<accountID>/<sha256(key) hex>         IdempotentCreate, JSON: a create's answer
//	                                          under its Idempotency-Key
//	                                          (idempotency.go)
//
// An endpoint has at most one delivery of an event: creating it twice
// writes it once (the journal knows each endpoint's deliveries). A delivery
// is written (with its w/p row and its event's body) before its first
// attempt, and rewritten after every attempt; the w/p row is deleted with
// the final outcome. An event's body is stored once for the endpoints of
// the account that receive it, and deleted in the batch that deletes the
// last of their deliveries of it (a trim of an endpoint's history, an
// endpoint's deletion). Every write goes through the delivery journal
// (journal.go).

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// Endpoint is a registered webhook endpoint.
type Endpoint struct {
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
	// PreviousSealedSecret is the secret a rotation replaced, sealed
	// like SealedSecret; it signs too until PreviousSecretUntil.
	PreviousSealedSecret []byte     `json:"previousSealedSecret,omitempty"`
	PreviousSecretUntil  *time.Time `json:"previousSecretUntil,omitempty"`
}

// Subscribed reports whether the endpoint wants trigger. test.ping is sent
// only through the test call, never fanned out.
func (e *Endpoint) Subscribed(trigger string) bool {
	return len(e.Events) == 0 || slices.Contains(e.Events, trigger)
}

// Attempt is the outcome of one delivery attempt.
type Attempt struct {
	N          int
	At         time.Time
	StatusCode int // 0: no HTTP answer
	LatencyMs  int64
	Error      string
}

// Delivery is one event to deliver to one endpoint, with its
// attempts. Its version is len(Attempts).
type Delivery struct {
	EndpointID    string
	EventID       string
	Trigger       string
	CreatedAt     time.Time
	Status        string
	Attempts      []Attempt
	NextAttemptAt time.Time
}

// Store reads and writes webhook records: it is the store's
// DeliveryJournal (journal.go), and answers the management reads.
// It is safe for concurrent use.
//
// Its writes go through a writer goroutine per shard of the accounts
// (writer.go), which keeps the shard's endpoint index: one Store
// writes to a store (the webhook actors' manager makes it); others over
// the same store only read.
type Store struct {
	s  *persistence.Store
	db *pebble.DB
	// wh are the webhook writes of each shard of the accounts, applied
	// by a writer goroutine per shard; stop stops the writers when the
	// store closes, writers counts them.
	wh      [webhookShards]webhookShard
	stop    chan struct{}
	writers sync.WaitGroup
}

// Options configure a Store.
type Options struct {
	// OnShared, when set, is called with what every shared batch changed
	// of the webhook records once the store has it (a cluster's node
	// applies every node's batches, its own included: replicated.go).
	// It is called on the goroutine that applies the shared log: it must
	// not wait for a shared write. Nil on a single node.
	OnShared func(Change)
}

// New returns the webhook records of s.
func New(s *persistence.Store, opts Options) *Store {
	w := &Store{s: s, db: s.DB(), stop: make(chan struct{})}
	s.OnClose(func() {
		close(w.stop) // every webhook write was answered: its writer was gated
		w.writers.Wait()
	})
	if opts.OnShared != nil {
		s.OnSharedApplied(func(keys [][]byte) { webhookChanged(keys, opts.OnShared) })
	}
	return w
}

func endpointKey(id string) []byte { return []byte(persistence.PrefixWebhook + "n/" + id) }
func accountEndpointsPrefix(accountID string) []byte {
	return []byte(persistence.PrefixWebhook + "a/" + accountID + "/")
}
func accountEndpointKey(accountID, id string) []byte {
	return append(accountEndpointsPrefix(accountID), id...)
}
func deliveryPrefix(endpointID string) []byte {
	return []byte(persistence.PrefixWebhook + "d/" + endpointID + "/")
}
func pendingPrefix(endpointID string) []byte {
	return []byte(persistence.PrefixWebhook + "p/" + endpointID + "/")
}

// deliveryKey and pendingKey are w/d/ and w/p/ with d's endpoint, then
// <at ns BE>/<eventID>.
func deliveryKey(d *Delivery) []byte { return deliveryKeyOf("d/", d) }
func pendingKey(d *Delivery) []byte  { return deliveryKeyOf("p/", d) }

func deliveryKeyOf(kind string, d *Delivery) []byte {
	k := make([]byte, 0, len(persistence.PrefixWebhook)+len(kind)+len(d.EndpointID)+10+len(d.EventID))
	k = append(append(append(append(k, persistence.PrefixWebhook...), kind...), d.EndpointID...), '/')
	k = binary.BigEndian.AppendUint64(k, uint64(d.CreatedAt.UnixNano()))
	return append(append(k, '/'), d.EventID...)
}

// suffixEvent is the event id of a delivery key's suffix.
func suffixEvent(suffix []byte) string { return string(suffix[9:]) }

func bodyKey(accountID, eventID string) []byte {
	return []byte(persistence.PrefixWebhook + "b/" + accountID + "/" + eventID)
}

func encodeEndpoint(ep *Endpoint) ([]byte, error) {
	v, err := json.Marshal(ep)
	if err != nil {
		return nil, fmt.Errorf("persistence: encode endpoint: %w", err)
	}
	return v, nil
}

// Backlog counts, up to max, the deliveries outstanding (fanned out, not
// yet delivered nor given up), reading keys only (a scrape of the webhook
// metrics). ok is false when the store is closing or has failed.
func (w *Store) Backlog(max int) (outstanding int, ok bool, err error) {
	done, gerr := w.s.Gate()
	if gerr != nil {
		return 0, false, nil
	}
	defer done()
	err = scanKeys(w.db, []byte(persistence.PrefixWebhook+"p/"), func([]byte) bool { outstanding++; return outstanding < max })
	if err != nil {
		return 0, false, fmt.Errorf("persistence: count outstanding deliveries: %w", err)
	}
	return outstanding, true, nil
}

// scanKeys calls fn with each key under prefix in r, in order, until fn
// returns false. The key is valid only during the call.
func scanKeys(r pebble.Reader, prefix []byte, fn func(key []byte) bool) error {
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: persistence.PrefixUpperBound(prefix)})
	if err != nil {
		return err
	}
	for ok := it.First(); ok && fn(it.Key()); ok = it.Next() {
	}
	return it.Close()
}

// LoadEndpoint implements DeliveryJournal: the endpoint with id.
func (w *Store) LoadEndpoint(id string) (*Endpoint, bool, error) {
	return getEndpoint(w.db, id)
}

func getEndpoint(r pebble.Reader, id string) (*Endpoint, bool, error) {
	v, ok, err := persistence.ReaderGet(r, endpointKey(id))
	if err != nil || !ok {
		return nil, false, err
	}
	ep := new(Endpoint)
	if err := json.Unmarshal(v, ep); err != nil {
		return nil, false, fmt.Errorf("persistence: decode endpoint %s: %w", id, err)
	}
	return ep, true, nil
}

// AccountEndpoints returns the endpoints of an account, oldest first.
func (w *Store) AccountEndpoints(accountID string) ([]*Endpoint, error) {
	snap := w.db.NewSnapshot()
	defer snap.Close()
	p := accountEndpointsPrefix(accountID)
	var ids []string
	if err := scanKeys(snap, p, func(k []byte) bool { ids = append(ids, string(k[len(p):])); return true }); err != nil {
		return nil, fmt.Errorf("persistence: account endpoints: %w", err)
	}
	out := make([]*Endpoint, 0, len(ids))
	for _, id := range ids {
		ep, ok, err := getEndpoint(snap, id)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("persistence: account %s lists endpoint %s, which has no record", accountID, id)
		}
		out = append(out, ep)
	}
	slices.SortFunc(out, func(a, b *Endpoint) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return cmpString(a.ID, b.ID)
	})
	return out, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// AccountEndpointIDs returns the ids of an account's endpoints (keys only:
// the fan-out's read).
func (w *Store) AccountEndpointIDs(accountID string) ([]string, error) {
	p := accountEndpointsPrefix(accountID)
	var ids []string
	if err := scanKeys(w.db, p, func(k []byte) bool { ids = append(ids, string(k[len(p):])); return true }); err != nil {
		return nil, fmt.Errorf("persistence: account endpoints: %w", err)
	}
	return ids, nil
}

// Endpoints returns every endpoint of every account.
func (w *Store) Endpoints() ([]*Endpoint, error) {
	p := []byte(persistence.PrefixWebhook + "n/")
	it, err := w.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: persistence.PrefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: endpoints: %w", err)
	}
	defer it.Close()
	var out []*Endpoint
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			return nil, fmt.Errorf("persistence: endpoints: %w", err)
		}
		ep := new(Endpoint)
		if err := json.Unmarshal(v, ep); err != nil {
			return nil, fmt.Errorf("persistence: decode endpoint %q: %w", it.Key(), err)
		}
		out = append(out, ep)
	}
	return out, nil
}

func decodeDeliveryAt(key, v []byte) (*Delivery, error) {
	d := new(Delivery)
	if err := decodeDelivery(v, d); err != nil {
		return nil, fmt.Errorf("persistence: delivery %q: %w", key, err)
	}
	return d, nil
}

// PendingDeliveries implements DeliveryJournal: the outstanding deliveries
// of an endpoint, oldest first.
func (w *Store) PendingDeliveries(endpointID string) ([]*Delivery, error) {
	snap := w.db.NewSnapshot()
	defer snap.Close()
	p := pendingPrefix(endpointID)
	var keys [][]byte
	if err := scanKeys(snap, p, func(k []byte) bool {
		keys = append(keys, append(deliveryPrefix(endpointID), k[len(p):]...))
		return true
	}); err != nil {
		return nil, fmt.Errorf("persistence: pending deliveries: %w", err)
	}
	out := make([]*Delivery, 0, len(keys))
	for _, key := range keys {
		v, ok, err := persistence.ReaderGet(snap, key)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("persistence: outstanding delivery %q has no record", key)
		}
		d, err := decodeDeliveryAt(key, v)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// LoadDelivery implements DeliveryJournal: the delivery of an event to an
// endpoint, found among the endpoint's deliveries (its history and its
// outstanding ones: a scan of at most webhooks.history keys and the
// outstanding ones).
func (w *Store) LoadDelivery(endpointID, eventID string) (*Delivery, bool, error) {
	p := deliveryPrefix(endpointID)
	var key []byte
	if err := scanKeys(w.db, p, func(k []byte) bool {
		if suffixEvent(k[len(p):]) == eventID {
			key = bytes.Clone(k)
			return false
		}
		return true
	}); err != nil {
		return nil, false, fmt.Errorf("persistence: load delivery: %w", err)
	}
	if key == nil {
		return nil, false, nil
	}
	v, ok, err := w.s.Get(key)
	if err != nil || !ok {
		return nil, false, err
	}
	d, err := decodeDeliveryAt(key, v)
	if err != nil {
		return nil, false, err
	}
	return d, true, nil
}

// RecentDeliveries returns up to n deliveries of an endpoint, newest first.
func (w *Store) RecentDeliveries(endpointID string, n int) ([]*Delivery, error) {
	p := deliveryPrefix(endpointID)
	it, err := w.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: persistence.PrefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: recent deliveries: %w", err)
	}
	defer it.Close()
	var out []*Delivery
	for ok := it.Last(); ok && len(out) < n; ok = it.Prev() {
		v, err := it.ValueAndErr()
		if err != nil {
			return nil, fmt.Errorf("persistence: recent deliveries: %w", err)
		}
		d, err := decodeDeliveryAt(it.Key(), v)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// EventBody implements DeliveryJournal: the body of an event's deliveries
// to the endpoints of an account. It is read on an attempt's goroutine,
// which the store's Close does not wait for: once the store is closing (or
// has failed) it answers why.
func (w *Store) EventBody(accountID, eventID string) ([]byte, bool, error) {
	done, err := w.s.Gate()
	if err != nil {
		return nil, false, err
	}
	defer done()
	return w.s.Get(bodyKey(accountID, eventID))
}
