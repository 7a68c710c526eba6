package webhookstore

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/orderengine/orderengine/persistence"
)

// Idempotent endpoint creations (POST /v1/webhooks with an Idempotency-Key
// header): the answer a create gave, kept under the key it was made with,
// so that a retried create is answered the same instead of making a second
// endpoint whose secret the client never saw.
//
//	w/i/<accountID>/<sha256(Idempotency-Key) hex>   IdempotentCreate, JSON
//
// A record is written in the batch that creates (or re-enables) its
// endpoint, never on its own, so a create that is durable always has its
// record and a retry can never make a second endpoint. The answer is kept
// sealed by the webhook package (it holds the endpoint's secret). Records
// are answered for a window (the webhook package's, 24 hours); a write
// that stores one deletes the account's records made before the window.

// IdempotentCreate is the answer of an endpoint creation made with an
// Idempotency-Key.
type IdempotentCreate struct {
	// Key is the SHA-256 of the Idempotency-Key header value.
	Key [32]byte `json:"-"`
	// Fingerprint is the SHA-256 of the request the key was first used
	// with; a later request with the key and another fingerprint is
	// refused.
	Fingerprint [32]byte `json:"-"`
	// FingerprintHex is Fingerprint in the stored JSON.
	FingerprintHex string `json:"fingerprint"`
	// At is when the create was made.
	At time.Time `json:"at"`
	// EndpointID is the endpoint the create made or re-enabled.
	EndpointID string `json:"endpointId"`
	// Answer is the sealed answer body.
	Answer []byte `json:"answer"`
	// PurgeBefore, when set, deletes in the same batch the account's
	// records made before it (not stored).
	PurgeBefore time.Time `json:"-"`
}

func idempotencyPrefix(accountID string) []byte {
	return []byte(persistence.PrefixWebhook + "i/" + accountID + "/")
}

func idempotencyKey(accountID string, key [32]byte) []byte {
	return hex.AppendEncode(idempotencyPrefix(accountID), key[:])
}

func encodeIdempotent(rec *IdempotentCreate) ([]byte, error) {
	r := *rec
	r.FingerprintHex = hex.EncodeToString(rec.Fingerprint[:])
	v, err := json.Marshal(&r)
	if err != nil {
		return nil, fmt.Errorf("persistence: encode idempotent create: %w", err)
	}
	return v, nil
}

func decodeIdempotent(key [32]byte, v []byte) (*IdempotentCreate, error) {
	rec := &IdempotentCreate{Key: key}
	if err := json.Unmarshal(v, rec); err != nil {
		return nil, fmt.Errorf("persistence: decode idempotent create: %w", err)
	}
	fp, err := hex.DecodeString(rec.FingerprintHex)
	if err != nil || len(fp) != len(rec.Fingerprint) {
		return nil, fmt.Errorf("persistence: decode idempotent create: fingerprint %q", rec.FingerprintHex)
	}
	copy(rec.Fingerprint[:], fp)
	return rec, nil
}

// ErrIdempotencyKeyTaken answers a create whose Idempotency-Key another
// create (on another node of a cluster) stored within the window first:
// nothing was written; replay that create's answer.
var ErrIdempotencyKeyTaken = errors.New("persistence: the Idempotency-Key was used by another create")

// IdempotentCreate returns the record of an account's create made with the
// Idempotency-Key whose SHA-256 is key, whatever its age (the caller
// applies the window).
func (w *Store) IdempotentCreate(accountID string, key [32]byte) (*IdempotentCreate, bool, error) {
	v, ok, err := w.s.Get(idempotencyKey(accountID, key))
	if err != nil || !ok {
		return nil, false, err
	}
	rec, err := decodeIdempotent(key, v)
	if err != nil {
		return nil, false, err
	}
	return rec, true, nil
}

// setIdempotent stages rec for accountID and the deletion of the account's
// records made before rec.PurgeBefore. It runs in a write that runs alone
// (an endpoint's creation) or that no other write of the account's records
// races with (the account's creates are serialised by the webhook
// package).
//
// A record of the same key made after rec.PurgeBefore answers
// ErrIdempotencyKeyTaken: on one node the serialised creates never meet
// one (they replay it first); in a cluster it is another node's create
// with the same key, which the caller replays.
func (r *webhookTx) setIdempotent(accountID string, rec *IdempotentCreate) error {
	v, err := encodeIdempotent(rec)
	if err != nil {
		return err
	}
	if old, ok, err := r.get(idempotencyKey(accountID, rec.Key)); err != nil {
		return err
	} else if ok {
		prev, err := decodeIdempotent(rec.Key, old)
		if err != nil {
			return err
		}
		if prev.At.After(rec.PurgeBefore) {
			return ErrIdempotencyKeyTaken
		}
	}
	if !rec.PurgeBefore.IsZero() {
		p := idempotencyPrefix(accountID)
		own := idempotencyKey(accountID, rec.Key)
		var stale [][]byte
		err := scanValues(r.db, p, func(k, v []byte) error {
			var old struct {
				At time.Time `json:"at"`
			}
			if err := json.Unmarshal(v, &old); err != nil {
				return fmt.Errorf("persistence: decode idempotent create %q: %w", k, err)
			}
			if old.At.Before(rec.PurgeBefore) && !bytes.Equal(k, own) {
				stale = append(stale, bytes.Clone(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range stale {
			r.del(k)
		}
	}
	r.set(idempotencyKey(accountID, rec.Key), v)
	return nil
}

// scanValues calls fn with each key and value under prefix in r, in order,
// until fn fails. Both are valid only during the call.
func scanValues(r pebble.Reader, prefix []byte, fn func(key, value []byte) error) error {
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: persistence.PrefixUpperBound(prefix)})
	if err != nil {
		return err
	}
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.ValueAndErr()
		if err == nil {
			err = fn(it.Key(), v)
		}
		if err != nil {
			_ = it.Close()
			return err
		}
	}
	return it.Close()
}
