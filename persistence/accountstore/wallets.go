package accountstore

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/orderengine/orderengine/persistence"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/config"
)

// Linked wallets: the wallets an account has proved it controls (a
// signature of each). A wallet belongs to at most one account.
//
// THIS IS THE ON-DISK FORMAT; DO NOT CHANGE (see persistence/keys.go).
//
//	prefix  key                 value
//	------  ------------------  -------------------------------------------
//	y/      y/<wallet 20>       account id (ASCII): the account the wallet
//	                            is linked to; written in the same batch as
//	                            the account record's wallets list
//
// The account record (a/) lists its wallets too, so GET /v1/account is one
// read; y/ answers "whose wallet is this" in one point read (the webhook
// fan-out and sign-in ask it), cached in memory once found.

func walletKey(w common.Address) []byte {
	k := make([]byte, 0, len(persistence.PrefixWallet)+20)
	k = append(k, persistence.PrefixWallet...)
	return append(k, w[:]...)
}

// TierApplication is an account's request for a higher tier and the
// operator's decision on it.
type TierApplication struct {
	Tier           config.Tier `json:"tier"`
	UseCase        string      `json:"useCase"`
	ExpectedVolume string      `json:"expectedVolume"`
	// Status is pending, approved or declined.
	Status      string     `json:"status"`
	SubmittedAt time.Time  `json:"submittedAt"`
	DecidedAt   *time.Time `json:"decidedAt"`
	// Reason is the operator's note on a decision ("" when none).
	Reason string `json:"reason,omitempty"`
}

// The statuses of a TierApplication.
const (
	TierPending  = "pending"
	TierApproved = "approved"
	TierDeclined = "declined"
)

// AccountOfWallet returns the id of the account wallet is linked to; ok is
// false when it is linked to none. It is one cached lookup, or one point
// read of the store for a wallet not seen linked yet.
func (a *Accounts) AccountOfWallet(w common.Address) (accountID string, ok bool, err error) {
	a.mu.RLock()
	id, ok := a.wallets[w]
	a.mu.RUnlock()
	if ok {
		return id, true, nil
	}
	gen := a.generation()
	v, ok, err := a.store.Get(walletKey(w))
	if err != nil || !ok {
		return "", false, err
	}
	id = string(v)
	a.mu.Lock()
	if a.gen == gen {
		a.wallets[w] = id
	}
	a.mu.Unlock()
	return id, true, nil
}

// WalletAccount returns the account wallet is linked to, creating a
// free-tier account that owns it when it is linked to none (a first
// sign-in). created reports the latter.
func (a *Accounts) WalletAccount(w common.Address) (acct *Account, created bool, err error) {
	err = a.update(func() error {
		created = false
		id, ok, err := a.AccountOfWallet(w)
		if err != nil {
			return err
		}
		if ok {
			acct, err = a.Account(id)
			return err
		}
		now := a.now().UTC()
		acct = &Account{ID: persistence.NewID("acc_", 16), Name: chain.Checksum(w), Tier: config.TierFree,
			Wallets: []common.Address{w}, CreatedAt: now, UpdatedAt: now}
		created = true
		return a.commit(func(b *pebble.Batch) error {
			if err := setJSON(b, accountKey(acct.ID), acct); err != nil {
				return err
			}
			return b.Set(walletKey(w), []byte(acct.ID), nil)
		})
	})
	if err != nil {
		return nil, false, err
	}
	return acct, created, nil
}

// LinkWallet links w to the account. A wallet linked to any account (this
// one included) is ALREADY_EXISTS; an account at max wallets is
// LIMIT_REACHED.
func (a *Accounts) LinkWallet(accountID string, w common.Address, max int) (*Account, error) {
	var acct Account
	err := a.update(func() error {
		old, err := a.Account(accountID)
		if err != nil {
			return err
		}
		if owner, ok, err := a.AccountOfWallet(w); err != nil {
			return err
		} else if ok && owner == accountID {
			return orderengine.Errorf(orderengine.CodeAlreadyExists, "wallet %s is already linked to this account", chain.Checksum(w))
		} else if ok {
			return orderengine.Errorf(orderengine.CodeAlreadyExists, "wallet %s is linked to another account: a wallet belongs to at most one account (unlink it there first)", chain.Checksum(w))
		}
		if len(old.Wallets) >= max {
			return orderengine.Errorf(orderengine.CodeLimitReached, "an account links at most %d wallets: unlink one first", max)
		}
		acct = *old
		acct.Wallets = append(slices.Clone(old.Wallets), w)
		acct.UpdatedAt = a.now().UTC()
		return a.commit(func(b *pebble.Batch) error {
			if err := setJSON(b, accountKey(acct.ID), &acct); err != nil {
				return err
			}
			return b.Set(walletKey(w), []byte(acct.ID), nil)
		})
	})
	if err != nil {
		return nil, err
	}
	return &acct, nil
}

// UnlinkWallet removes w from the account; NOT_FOUND when the account does
// not have it.
func (a *Accounts) UnlinkWallet(accountID string, w common.Address) (*Account, error) {
	var acct Account
	err := a.update(func() error {
		old, err := a.Account(accountID)
		if err != nil {
			return err
		}
		i := slices.Index(old.Wallets, w)
		if i < 0 {
			return orderengine.Errorf(orderengine.CodeNotFound, "wallet %s is not linked to this account", chain.Checksum(w))
		}
		acct = *old
		acct.Wallets = slices.Delete(slices.Clone(old.Wallets), i, i+1)
		acct.UpdatedAt = a.now().UTC()
		return a.commit(func(b *pebble.Batch) error {
			if err := setJSON(b, accountKey(acct.ID), &acct); err != nil {
				return err
			}
			return b.Delete(walletKey(w), nil)
		})
	})
	if err != nil {
		return nil, err
	}
	return &acct, nil
}

// ApplyForTier records app as the account's pending tier application. A
// pending application, or an account already at or above the tier, is
// ALREADY_EXISTS.
func (a *Accounts) ApplyForTier(accountID string, app TierApplication) (*Account, error) {
	return a.updateAccount(accountID, func(acct *Account) error {
		if acct.TierApplication != nil && acct.TierApplication.Status == TierPending {
			return orderengine.Errorf(orderengine.CodeAlreadyExists, "a %s application is already pending", acct.TierApplication.Tier)
		}
		if acct.Tier == app.Tier || acct.Tier == config.TierEnterprise {
			return orderengine.Errorf(orderengine.CodeAlreadyExists, "the account is already on the %s tier", acct.Tier)
		}
		app.Status, app.SubmittedAt, app.DecidedAt, app.Reason = TierPending, a.now().UTC(), nil, ""
		acct.TierApplication = &app
		return nil
	})
}

// DecideTierApplication approves or declines the account's pending tier
// application. Approval moves the account to the applied tier at once: the
// next request of any of its keys is limited at the new tier's rates.
// Without a pending application it is NOT_FOUND.
func (a *Accounts) DecideTierApplication(accountID string, approve bool, reason string) (*Account, error) {
	if len(reason) > 1000 {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "reason must be at most 1000 characters")
	}
	return a.updateAccount(accountID, func(acct *Account) error {
		if acct.TierApplication == nil || acct.TierApplication.Status != TierPending {
			return orderengine.Errorf(orderengine.CodeNotFound, "account %s has no pending tier application", accountID)
		}
		app := *acct.TierApplication
		now := a.now().UTC()
		app.DecidedAt, app.Reason, app.Status = &now, reason, TierDeclined
		if approve {
			app.Status = TierApproved
			acct.Tier, acct.Limits = app.Tier, config.BucketLimits{}
		}
		acct.TierApplication = &app
		return nil
	})
}

// TierApplications returns the accounts with a tier application in status
// (every application when status is empty), oldest application first.
func (a *Accounts) TierApplications(status string) ([]Account, error) {
	all, err := a.ListAccounts()
	if err != nil {
		return nil, err
	}
	var out []Account
	for _, acct := range all {
		if acct.TierApplication != nil && (status == "" || acct.TierApplication.Status == status) {
			out = append(out, acct)
		}
	}
	slices.SortStableFunc(out, func(x, y Account) int {
		return x.TierApplication.SubmittedAt.Compare(y.TierApplication.SubmittedAt)
	})
	return out, nil
}

// updateAccount applies change to a copy of the account and writes it as
// a shared write (update).
func (a *Accounts) updateAccount(accountID string, change func(*Account) error) (*Account, error) {
	var acct Account
	err := a.update(func() error {
		old, err := a.Account(accountID)
		if err != nil {
			return err
		}
		acct = *old
		if err := change(&acct); err != nil {
			return err
		}
		acct.UpdatedAt = a.now().UTC()
		return a.commit(func(b *pebble.Batch) error { return setJSON(b, accountKey(acct.ID), &acct) })
	})
	if err != nil {
		return nil, err
	}
	return &acct, nil
}

// decodeAccount decodes an a/ value.
func decodeAccount(id string, v []byte) (*Account, error) {
	acct := new(Account)
	if err := json.Unmarshal(v, acct); err != nil {
		return nil, fmt.Errorf("accountstore: decode account %s: %w", id, err)
	}
	return acct, nil
}
