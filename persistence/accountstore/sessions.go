package accountstore

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/orderengine/orderengine/persistence"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
)

// Dashboard sessions: a signed-in wallet's access to its account's
// management calls (docs/accounts.md).
//
// THIS IS THE ON-DISK FORMAT; DO NOT CHANGE (see persistence/keys.go).
//
//	prefix  key                          value
//	------  ---------------------------  ------------------------------
//	z/      z/<sha256(token), 32 raw>    Session, JSON
//
// As with API keys, only the SHA-256 of the session token is stored: the
// token carries 238 random bits, so a fast unsalted hash is enough, and a
// copy of the store does not hold a usable session.

func sessionKey(token string) []byte {
	h := sha256.Sum256([]byte(token))
	k := make([]byte, 0, len(persistence.PrefixSession)+len(h))
	k = append(k, persistence.PrefixSession...)
	return append(k, h[:]...)
}

// SessionTokenPrefix starts every session token.
const SessionTokenPrefix = "ses_"

// Session is one signed-in session.
type Session struct {
	AccountID string `json:"accountId"`
	// Wallet signed the sign-in message; the session ends when it is no
	// longer linked to the account.
	Wallet common.Address `json:"wallet"`
	// CSRF is the session's anti-forgery token, sent back in X-CSRF-Token
	// on every state-changing call. It is not a credential by itself (the
	// cookie is), so it is kept as is and shown again by GET /v1/account.
	CSRF      string    `json:"csrf"`
	CreatedAt time.Time `json:"createdAt"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// Sessions stores sessions.
type Sessions struct {
	store *persistence.Store
	now   func() time.Time
}

// NewSessions returns the session store of store; now is the clock (nil:
// time.Now).
func NewSessions(store *persistence.Store, now func() time.Time) *Sessions {
	if now == nil {
		now = time.Now
	}
	return &Sessions{store: store, now: now}
}

// Create stores a new session of wallet on the account, valid for ttl, and
// returns its token (to send as the cookie; never stored).
func (s *Sessions) Create(accountID string, wallet common.Address, ttl time.Duration) (string, *Session, error) {
	now := s.now().UTC()
	ses := &Session{AccountID: accountID, Wallet: wallet, CSRF: persistence.RandomBase62(43),
		CreatedAt: now, ExpiresAt: now.Add(ttl)}
	token := SessionTokenPrefix + persistence.RandomBase62(40)
	v, err := json.Marshal(ses)
	if err != nil {
		return "", nil, err
	}
	err = s.write(func(b *pebble.Batch) error { return b.Set(sessionKey(token), v, nil) })
	if err != nil {
		return "", nil, fmt.Errorf("accountstore: store session: %w", err)
	}
	return token, ses, nil
}

// Lookup returns the session of token; ok is false for an unknown or
// expired one (an expired session is deleted).
func (s *Sessions) Lookup(token string) (ses *Session, ok bool, err error) {
	if len(token) != len(SessionTokenPrefix)+40 {
		return nil, false, nil
	}
	v, ok, err := s.store.Get(sessionKey(token))
	if err != nil || !ok {
		return nil, false, err
	}
	ses = new(Session)
	if err := json.Unmarshal(v, ses); err != nil {
		return nil, false, fmt.Errorf("accountstore: decode session: %w", err)
	}
	if !s.now().Before(ses.ExpiresAt) {
		return nil, false, s.Delete(token)
	}
	return ses, true, nil
}

// Delete removes the session of token (nothing when there is none).
func (s *Sessions) Delete(token string) error {
	if err := s.write(func(b *pebble.Batch) error { return b.Delete(sessionKey(token), nil) }); err != nil {
		return fmt.Errorf("accountstore: delete session: %w", err)
	}
	return nil
}

// sessionsEntity is the shared entity of the sessions.
const sessionsEntity = "sessions"

// write commits the batch fill builds as a shared write of the sessions
// (persistence/shared.go): a synced commit on one node, replicated in a cluster.
func (s *Sessions) write(fill func(*pebble.Batch) error) error {
	return s.store.UpdateShared(context.Background(), sessionsEntity, func(tx *persistence.SharedTx) error {
		return tx.Commit(context.Background(), fill)
	})
}

// Sweep deletes every expired session and returns how many.
func (s *Sessions) Sweep() (int, error) {
	n := 0
	err := s.store.UpdateShared(context.Background(), sessionsEntity, func(tx *persistence.SharedTx) error {
		n = 0
		return tx.Commit(context.Background(), func(b *pebble.Batch) error {
			var err error
			n, err = s.expired(b)
			return err
		})
	})
	if err != nil {
		return 0, fmt.Errorf("accountstore: sweep sessions: %w", err)
	}
	return n, nil
}

// expired adds the deletion of every expired session to b and returns how
// many.
func (s *Sessions) expired(b *pebble.Batch) (int, error) {
	prefix := []byte(persistence.PrefixSession)
	it, err := s.store.DB().NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: persistence.PrefixUpperBound(prefix)})
	if err != nil {
		return 0, err
	}
	now := s.now()
	n := 0
	for it.First(); it.Valid(); it.Next() {
		var ses Session
		v, err := it.ValueAndErr()
		if err == nil {
			err = json.Unmarshal(v, &ses)
		}
		if err != nil || !now.Before(ses.ExpiresAt) {
			if derr := b.Delete(it.Key(), nil); derr != nil {
				return n, errors.Join(derr, it.Close())
			}
			n++
		}
	}
	return n, it.Close()
}
