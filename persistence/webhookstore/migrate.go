package webhookstore

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine/persistence"
)

// Webhook records of schema 4 (and every earlier one) that migrateWebhooks
// rewrites:
//
//	w/e/<accountID>/<endpointID>            Endpoint, JSON
//	w/d/<endpointID>/<at ns BE>/<eventID>   legacyDelivery, JSON (the body base64 inside
//	                                        while outstanding, null once finished)
//
// (w/p/ is the same in both.)
const (
	legacyEndpointPrefix = persistence.PrefixWebhook + "e/"
	deliveriesPrefix     = persistence.PrefixWebhook + "d/"
)

// legacyDelivery is a delivery row of schema 4.
type legacyDelivery struct {
	EndpointID string    `json:"endpointId"`
	EventID    string    `json:"eventId"`
	Trigger    string    `json:"trigger"`
	Body       []byte    `json:"body"`
	CreatedAt  time.Time `json:"createdAt"`
	Status     string    `json:"status"`
	Attempts   []struct {
		N          int       `json:"n"`
		At         time.Time `json:"at"`
		StatusCode int       `json:"statusCode"`
		LatencyMs  int64     `json:"latencyMs"`
		Error      string    `json:"error"`
	} `json:"attempts"`
	NextAttemptAt time.Time `json:"nextAttemptAt"`
}

// Migrations are the webhook records' schema steps, for
// persistence.Options.Migrations.
var Migrations = []persistence.Migration{{From: 4, Name: "webhook deliveries re-encoded", Run: migrateWebhooks}}

// migrateWebhooks rewrites the schema-4 webhook records (schema 4 → 5):
// each endpoint under its id with an account index row; each delivery row
// in codec 1 at the same key, its body, when it has one, as its event's
// body for its endpoint's account. Finished deliveries of schema 4 kept no
// body, so their event has none. Rows already in codec 1 (a step
// interrupted earlier) are left alone. It returns the deliveries rewritten.
func migrateWebhooks(s *persistence.Store) (int, error) {
	if err := migrateEndpoints(s.DB()); err != nil {
		return 0, err
	}
	accounts := make(map[string]string) // endpoint → account
	eps, err := New(s, Options{}).Endpoints()
	if err != nil {
		return 0, err
	}
	for _, ep := range eps {
		accounts[ep.ID] = ep.AccountID
	}
	return s.RewritePrefix([]byte(deliveriesPrefix), 2048, func(b *pebble.Batch, key, v []byte) (bool, error) {
		if len(v) > 0 && v[0] == deliveryCodec1 {
			return false, nil
		}
		return true, migrateDelivery(b, key, v, accounts)
	})
}

// migrateDelivery adds to b the codec-1 row of the schema-4 delivery at
// key and its body.
func migrateDelivery(b *pebble.Batch, key, v []byte, accounts map[string]string) error {
	var old legacyDelivery
	if err := json.Unmarshal(v, &old); err != nil {
		return fmt.Errorf("persistence: migrate delivery %q: %w", key, err)
	}
	d := &Delivery{
		EndpointID: old.EndpointID, EventID: old.EventID, Trigger: old.Trigger, CreatedAt: old.CreatedAt.UTC(),
		Status: old.Status, NextAttemptAt: old.NextAttemptAt.UTC(),
	}
	for _, a := range old.Attempts {
		d.Attempts = append(d.Attempts, Attempt{N: a.N, At: a.At.UTC(), StatusCode: a.StatusCode, LatencyMs: a.LatencyMs, Error: a.Error})
	}
	row, err := appendDelivery(nil, d)
	if err != nil {
		return fmt.Errorf("persistence: migrate delivery %q: %w", key, err)
	}
	if err := b.Set(key, row, nil); err != nil {
		return err
	}
	if acct, ok := accounts[d.EndpointID]; ok && old.Body != nil {
		return b.Set(bodyKey(acct, d.EventID), old.Body, nil)
	}
	return nil
}

// migrateEndpoints moves every schema-4 endpoint record (w/e/) to w/n/ and
// w/a/, in one synced batch.
func migrateEndpoints(db *pebble.DB) error {
	p := []byte(legacyEndpointPrefix)
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: persistence.PrefixUpperBound(p)})
	if err != nil {
		return err
	}
	b := db.NewBatch()
	defer b.Close()
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.ValueAndErr()
		var ep Endpoint
		if err == nil {
			err = json.Unmarshal(v, &ep)
		}
		if err == nil {
			err = b.Set(endpointKey(ep.ID), v, nil)
		}
		if err == nil {
			err = b.Set(accountEndpointKey(ep.AccountID, ep.ID), nil, nil)
		}
		if err == nil {
			err = b.Delete(it.Key(), nil)
		}
		if err != nil {
			_ = it.Close()
			return fmt.Errorf("persistence: migrate endpoint %q: %w", it.Key(), err)
		}
	}
	if err := it.Close(); err != nil {
		return err
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("persistence: migrate webhook endpoints: %w", err)
	}
	return nil
}
