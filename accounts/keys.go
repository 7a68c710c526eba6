package accounts

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/persistence/accountstore"
)

// KeyView is an API key as the dashboard lists it: never the secret.
type KeyView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Prefix is the key's first characters (svc_ and four more), enough
	// to tell keys apart.
	Prefix     string     `json:"prefix"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	Disabled   bool       `json:"disabled"`
	DisabledAt *time.Time `json:"disabledAt"`
	ReplacedBy *string    `json:"replacedBy"`
}

// KeyList is the answer of GET /v1/account/keys.
type KeyList struct {
	Keys []KeyView `json:"keys"`
}

// CreatedKey is a new key with its secret, shown only in this answer.
type CreatedKey struct {
	Key string `json:"key"`
	KeyView
}

func keyView(r *accountstore.KeyRecord) KeyView {
	v := KeyView{ID: r.ID, Name: r.Name, Prefix: strings.TrimSuffix(r.Hint, "…"), CreatedAt: r.CreatedAt,
		LastUsedAt: r.LastUsedAt, Disabled: r.Disabled, DisabledAt: r.DisabledAt}
	if r.ReplacedBy != "" {
		id := r.ReplacedBy
		v.ReplacedBy = &id
	}
	return v
}

// Keys lists the caller's keys, oldest first.
func (s *Service) Keys(_ context.Context, caller api.Caller) (*KeyList, error) {
	recs, err := s.o.Accounts.ListKeys(caller.AccountID)
	if err != nil {
		return nil, err
	}
	out := &KeyList{Keys: make([]KeyView, 0, len(recs))}
	for i := range recs {
		out.Keys = append(out.Keys, keyView(&recs[i]))
	}
	return out, nil
}

// CreateKey issues a key for the caller's account.
func (s *Service) CreateKey(_ context.Context, caller api.Caller, req api.CreateKeyRequest) (*CreatedKey, error) {
	name := strings.TrimSpace(req.Name)
	if utf8.RuneCountInString(name) > 100 {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "name must be at most 100 characters")
	}
	key, rec, err := s.o.Accounts.CreateKey(caller.AccountID, name, s.o.Config.MaxKeys)
	if err != nil {
		return nil, err
	}
	return &CreatedKey{Key: key, KeyView: keyView(rec)}, nil
}

// ownKey returns the caller's key id; another account's id is NOT_FOUND,
// like an unknown one.
func (s *Service) ownKey(caller api.Caller, id string) (*accountstore.KeyRecord, error) {
	recs, err := s.o.Accounts.ListKeys(caller.AccountID)
	if err != nil {
		return nil, err
	}
	for i := range recs {
		if recs[i].ID == id {
			return &recs[i], nil
		}
	}
	return nil, orderengine.Errorf(orderengine.CodeNotFound, "no key %q in this account", truncate(id))
}

// DisableKey disables one of the caller's keys; its next request is
// refused with KEY_DISABLED.
func (s *Service) DisableKey(_ context.Context, caller api.Caller, id string) (*KeyView, error) {
	if _, err := s.ownKey(caller, id); err != nil {
		return nil, err
	}
	rec, err := s.o.Accounts.DisableKey(id)
	if err != nil {
		return nil, err
	}
	v := keyView(rec)
	return &v, nil
}

// ReissueKey disables one of the caller's keys and issues its replacement
// (same name) in one write. A key already reissued is ALREADY_EXISTS.
func (s *Service) ReissueKey(_ context.Context, caller api.Caller, id string) (*CreatedKey, error) {
	if _, err := s.ownKey(caller, id); err != nil {
		return nil, err
	}
	key, rec, err := s.o.Accounts.ReissueKeyOnce(id)
	if err != nil {
		return nil, err
	}
	return &CreatedKey{Key: key, KeyView: keyView(rec)}, nil
}
