package accountstore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/orderengine/orderengine/persistence"

	"github.com/orderengine/orderengine/config"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
)

// Account is a customer of the API: the owner of keys and the unit of tier
// and (later) webhook endpoints.
type Account struct {
	ID   string      `json:"id"`
	Name string      `json:"name"`
	Tier config.Tier `json:"tier"`
	// Limits are the per-account bucket limits of an enterprise account;
	// zero, and left out of the JSON, for the other tiers (whose limits are
	// the configuration's: a zero here would read as "nothing allowed").
	Limits config.BucketLimits `json:"limits,omitzero"`
	// Wallets are the linked wallets (wallets.go), in the order linked.
	Wallets []common.Address `json:"wallets,omitempty"`
	// TierApplication is the latest tier application, nil when none.
	TierApplication *TierApplication `json:"tierApplication,omitempty"`
	CreatedAt       time.Time        `json:"createdAt"`
	UpdatedAt       time.Time        `json:"updatedAt"`
}

// KeyRecord is what is stored about an API key: never the key, only its
// hash (under the h/ prefix) and a short display hint.
type KeyRecord struct {
	ID        string `json:"id"`
	AccountID string `json:"accountId"`
	// Name is the owner's label of the key ("" when none was given).
	Name string `json:"name,omitempty"`
	// Hint is the prefix and the first four random characters, enough for a
	// person to tell keys apart in a list.
	Hint       string     `json:"hint"`
	CreatedAt  time.Time  `json:"createdAt"`
	Disabled   bool       `json:"disabled"`
	DisabledAt *time.Time `json:"disabledAt,omitempty"`
	// ReplacedBy is the id of the key that a reissue created in its place.
	ReplacedBy string `json:"replacedBy,omitempty"`
	// LastUsedAt is the start of the last minute the key authenticated a
	// request in, as last written by FlushKeyUsage (keyusage.go); nil
	// when never used.
	LastUsedAt *time.Time `json:"lastUsedAt,omitempty"`
	// used tracks the key's use in memory (cached records only).
	used *keyUse
}

// Principal is the result of a successful authentication. Both pointers
// refer to immutable snapshots shared with the cache: read them, never
// modify them.
type Principal struct {
	Key     *KeyRecord
	Account *Account
}

// Accounts manages accounts, API keys and linked wallets in the store, with
// an in-memory cache of every record it has read. Every mutation goes
// through it as a shared write (persistence/shared.go) of the entity
// "accounts": on one node a synced commit, in a cluster a replicated one
// that every node applies. Once a shared batch is in the store, on every node, the cached
// records it wrote are dropped (dropCached), so a disabled key is refused
// by the next request a node serves after it applied the write.
type Accounts struct {
	store *persistence.Store
	now   func() time.Time

	// writeMu serialises mutations (account changes are rare); tx is the
	// shared write of the mutation in progress (update).
	writeMu sync.Mutex
	tx      *persistence.SharedTx

	mu       sync.RWMutex
	keys     map[[32]byte]*KeyRecord // by key hash
	accounts map[string]*Account
	wallets  map[common.Address]string // linked wallet → account id, as found
	uses     map[string]*keyUse        // by key id: the cached keys' use
	// minute is the current unix minute, advanced by RunKeyUsage: the
	// request path compares it with a key's last use without a clock read.
	minute atomic.Int64
	// gen counts the cache drops: a read that started before one does not
	// cache what it read.
	gen uint64
}

// accountsEntity is the shared entity of all account data: its writes are
// serialised cluster-wide as writeMu serialises them in one process.
const accountsEntity = "accounts"

// NewAccounts returns the account manager of store. now is the clock used
// for timestamps (nil means time.Now).
func NewAccounts(store *persistence.Store, now func() time.Time) *Accounts {
	if now == nil {
		now = time.Now
	}
	a := &Accounts{
		store:    store,
		now:      now,
		keys:     make(map[[32]byte]*KeyRecord),
		accounts: make(map[string]*Account),
		wallets:  make(map[common.Address]string),
		uses:     make(map[string]*keyUse),
	}
	a.minute.Store(now().Unix() / 60)
	store.OnSharedApplied(a.dropCached)
	return a
}

// dropCached drops the cached records a shared batch wrote (keys: the
// batch's keys) and starts a new cache generation. The keys' use trackers
// stay: they are by key id and outlive the cached record.
func (a *Accounts) dropCached(keys [][]byte) {
	if !slices.ContainsFunc(keys, func(k []byte) bool { return !bytes.HasPrefix(k, []byte(persistence.PrefixWebhook)) }) {
		return // webhook records only: nothing cached here changed
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.gen++
	var ids map[string]bool // key records written: the cache is by hash
	for _, k := range keys {
		switch {
		case bytes.HasPrefix(k, []byte(persistence.PrefixAccount)):
			delete(a.accounts, string(k[len(persistence.PrefixAccount):]))
		case bytes.HasPrefix(k, []byte(persistence.PrefixWallet)) && len(k) == len(persistence.PrefixWallet)+20:
			delete(a.wallets, common.Address(k[len(persistence.PrefixWallet):]))
		case bytes.HasPrefix(k, []byte(persistence.PrefixKeyHash)) && len(k) == len(persistence.PrefixKeyHash)+32:
			delete(a.keys, [32]byte(k[len(persistence.PrefixKeyHash):]))
		case bytes.HasPrefix(k, []byte(persistence.PrefixKey)):
			if ids == nil {
				ids = make(map[string]bool)
			}
			ids[string(k[len(persistence.PrefixKey):])] = true
		}
	}
	if len(ids) > 0 {
		for h, rec := range a.keys {
			if ids[rec.ID] {
				delete(a.keys, h)
			}
		}
	}
}

// generation returns the cache generation, read before a cache fill.
func (a *Accounts) generation() uint64 {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.gen
}

// Authenticate resolves a presented API key. It returns an *orderengine.Error
// with UNAUTHORIZED for a missing, malformed or unknown key, and KEY_DISABLED
// for a disabled one.
func (a *Accounts) Authenticate(key string) (Principal, error) {
	if key == "" {
		return Principal{}, orderengine.Errorf(orderengine.CodeUnauthorized, "missing API key: send X-API-Key or Authorization: Bearer")
	}
	if !WellFormedAPIKey(key) {
		return Principal{}, errInvalidKey
	}
	hash := HashAPIKey(key)
	a.mu.RLock()
	rec := a.keys[hash]
	var acct *Account
	if rec != nil {
		acct = a.accounts[rec.AccountID]
	}
	a.mu.RUnlock()
	if rec == nil || acct == nil {
		var err error
		rec, acct, err = a.loadByHash(hash)
		if err != nil {
			return Principal{}, err
		}
		if rec == nil {
			return Principal{}, errInvalidKey
		}
	}
	if rec.Disabled {
		return Principal{}, orderengine.Errorf(orderengine.CodeKeyDisabled, "API key %s is disabled", rec.ID)
	}
	a.touch(rec)
	return Principal{Key: rec, Account: acct}, nil
}

var errInvalidKey = orderengine.Errorf(orderengine.CodeUnauthorized, "invalid API key")

// loadByHash reads a key record and its account from Pebble into the cache.
func (a *Accounts) loadByHash(hash [32]byte) (*KeyRecord, *Account, error) {
	gen := a.generation()
	id, ok, err := a.store.Get(keyHashKey(hash))
	if err != nil || !ok {
		return nil, nil, err
	}
	rec, err := a.readKey(string(id))
	if err != nil {
		return nil, nil, err
	}
	acct, err := a.Account(rec.AccountID)
	if err != nil {
		return nil, nil, err
	}
	a.mu.Lock()
	rec.used = a.useOfLocked(rec)
	if a.gen == gen {
		a.keys[hash] = rec
	}
	a.mu.Unlock()
	return rec, acct, nil
}

func (a *Accounts) readKey(id string) (*KeyRecord, error) {
	v, ok, err := a.store.Get(keyRecordKey(id))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, orderengine.Errorf(orderengine.CodeNotFound, "key %s not found", id)
	}
	var rec KeyRecord
	if err := json.Unmarshal(v, &rec); err != nil {
		return nil, fmt.Errorf("accountstore: decode key %s: %w", id, err)
	}
	return &rec, nil
}

// Account returns the account with id, or NOT_FOUND.
func (a *Accounts) Account(id string) (*Account, error) {
	a.mu.RLock()
	acct := a.accounts[id]
	a.mu.RUnlock()
	if acct != nil {
		return acct, nil
	}
	gen := a.generation()
	v, ok, err := a.store.Get(accountKey(id))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, orderengine.Errorf(orderengine.CodeNotFound, "account %s not found", id)
	}
	acct, err = decodeAccount(id, v)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	if a.gen == gen {
		a.accounts[id] = acct
	}
	a.mu.Unlock()
	return acct, nil
}

// CreateAccount stores a new account. limits is used only for enterprise.
func (a *Accounts) CreateAccount(name string, tier config.Tier, limits config.BucketLimits) (*Account, error) {
	if err := checkTier(tier, limits); err != nil {
		return nil, err
	}
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 200 {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "name must be 1 to 200 characters")
	}
	now := a.now().UTC()
	acct := &Account{ID: persistence.NewID("acc_", 16), Name: name, Tier: tier, CreatedAt: now, UpdatedAt: now}
	if tier == config.TierEnterprise {
		acct.Limits = limits
	}
	err := a.update(func() error {
		return a.commit(func(b *pebble.Batch) error { return setJSON(b, accountKey(acct.ID), acct) })
	})
	if err != nil {
		return nil, err
	}
	return acct, nil
}

// SetTier changes an account's tier (and its enterprise limits). Cached
// principals see the change on their next request.
func (a *Accounts) SetTier(accountID string, tier config.Tier, limits config.BucketLimits) (*Account, error) {
	if err := checkTier(tier, limits); err != nil {
		return nil, err
	}
	return a.updateAccount(accountID, func(acct *Account) error {
		acct.Tier = tier
		acct.Limits = config.BucketLimits{}
		if tier == config.TierEnterprise {
			acct.Limits = limits
		}
		return nil
	})
}

// IssueKey creates a key for the account and returns it in clear text. This
// is the only time the key exists outside its owner's hands.
func (a *Accounts) IssueKey(accountID string) (string, *KeyRecord, error) {
	return a.CreateKey(accountID, "", 0)
}

// CreateKey creates a key named name for the account and returns it in
// clear text, the only time it exists outside its owner's hands. With
// maxActive > 0, an account that already has that many enabled keys is
// LIMIT_REACHED.
func (a *Accounts) CreateKey(accountID, name string, maxActive int) (string, *KeyRecord, error) {
	var key string
	var rec *KeyRecord
	err := a.update(func() error {
		if _, err := a.Account(accountID); err != nil {
			return err
		}
		if maxActive > 0 {
			keys, err := a.ListKeys(accountID)
			if err != nil {
				return err
			}
			active := 0
			for _, k := range keys {
				if !k.Disabled {
					active++
				}
			}
			if active >= maxActive {
				return orderengine.Errorf(orderengine.CodeLimitReached, "an account has at most %d enabled keys: disable one first", maxActive)
			}
		}
		key, rec = a.newKey(accountID, name)
		return a.commit(func(b *pebble.Batch) error { return a.putKey(b, key, rec) })
	})
	if err != nil {
		return "", nil, err
	}
	return key, rec, nil
}

func (a *Accounts) newKey(accountID, name string) (string, *KeyRecord) {
	key := NewAPIKey()
	return key, &KeyRecord{
		ID:        persistence.NewID("key_", 16),
		AccountID: accountID,
		Name:      name,
		Hint:      key[:len(KeyPrefix)+4] + "…",
		CreatedAt: a.now().UTC(),
	}
}

func (a *Accounts) putKey(b *pebble.Batch, key string, rec *KeyRecord) error {
	if err := setJSON(b, keyRecordKey(rec.ID), rec); err != nil {
		return err
	}
	hash := HashAPIKey(key)
	if err := b.Set(keyHashKey(hash), []byte(rec.ID), nil); err != nil {
		return err
	}
	return b.Set(accountKeyIndexKey(rec.AccountID, rec.ID), nil, nil)
}

// DisableKey disables a key. It takes effect for the next request.
func (a *Accounts) DisableKey(keyID string) (*KeyRecord, error) {
	var rec *KeyRecord
	err := a.update(func() (err error) {
		rec, err = a.disableLocked(keyID, "", nil)
		return err
	})
	return rec, err
}

// ReissueKey disables keyID and issues a new key for the same account, in
// one atomic write. It returns the new key in clear text.
func (a *Accounts) ReissueKey(keyID string) (string, *KeyRecord, error) {
	return a.reissue(keyID, false)
}

// ReissueKeyOnce is ReissueKey for a key not reissued before: a key that
// already has a replacement is ALREADY_EXISTS, decided under the write
// lock, so concurrent reissues of one key make one replacement.
func (a *Accounts) ReissueKeyOnce(keyID string) (string, *KeyRecord, error) {
	return a.reissue(keyID, true)
}

func (a *Accounts) reissue(keyID string, once bool) (string, *KeyRecord, error) {
	var key string
	var rec *KeyRecord
	err := a.update(func() error {
		old, err := a.readKey(keyID)
		if err != nil {
			return err
		}
		if once && old.ReplacedBy != "" {
			return orderengine.Errorf(orderengine.CodeAlreadyExists, "key %s was already reissued as %s", old.ID, old.ReplacedBy)
		}
		key, rec = a.newKey(old.AccountID, old.Name)
		_, err = a.disableLocked(keyID, rec.ID, func(b *pebble.Batch) error { return a.putKey(b, key, rec) })
		return err
	})
	if err != nil {
		return "", nil, err
	}
	return key, rec, nil
}

// disableLocked marks keyID disabled (recording replacedBy) and commits it
// with the extra writes of also. It runs inside update; the cached record
// is dropped once the write is in the store (dropCached).
func (a *Accounts) disableLocked(keyID, replacedBy string, also func(*pebble.Batch) error) (*KeyRecord, error) {
	old, err := a.readKey(keyID)
	if err != nil {
		return nil, err
	}
	rec := *old
	if !rec.Disabled {
		now := a.now().UTC()
		rec.Disabled, rec.DisabledAt = true, &now
	}
	if replacedBy != "" {
		rec.ReplacedBy = replacedBy
	}
	err = a.commit(func(b *pebble.Batch) error {
		if err := setJSON(b, keyRecordKey(rec.ID), &rec); err != nil {
			return err
		}
		if also != nil {
			return also(b)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &rec, nil
}

// ListKeys returns the account's keys, oldest first.
func (a *Accounts) ListKeys(accountID string) ([]KeyRecord, error) {
	if _, err := a.Account(accountID); err != nil {
		return nil, err
	}
	prefix := accountKeyIndexPrefix(accountID)
	iter, err := a.store.DB().NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: persistence.PrefixUpperBound(prefix)})
	if err != nil {
		return nil, fmt.Errorf("accountstore: list keys: %w", err)
	}
	var ids []string
	for iter.First(); iter.Valid(); iter.Next() {
		ids = append(ids, string(iter.Key()[len(prefix):]))
	}
	if err := iter.Close(); err != nil {
		return nil, fmt.Errorf("accountstore: list keys: %w", err)
	}
	out := make([]KeyRecord, 0, len(ids))
	for _, id := range ids {
		rec, err := a.readKey(id)
		if err != nil {
			return nil, err
		}
		a.mu.RLock()
		rec.used = a.uses[rec.ID]
		a.mu.RUnlock()
		rec.LastUsedAt = rec.lastUsed()
		out = append(out, *rec)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt.Before(out[j].CreatedAt) })
	return out, nil
}

// ListAccounts returns every account, ordered by id.
func (a *Accounts) ListAccounts() ([]Account, error) {
	prefix := []byte(persistence.PrefixAccount)
	iter, err := a.store.DB().NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: persistence.PrefixUpperBound(prefix)})
	if err != nil {
		return nil, fmt.Errorf("accountstore: list accounts: %w", err)
	}
	defer func() { _ = iter.Close() }()
	var out []Account
	for iter.First(); iter.Valid(); iter.Next() {
		v, err := iter.ValueAndErr()
		if err != nil {
			return nil, fmt.Errorf("accountstore: list accounts: %w", err)
		}
		var acct Account
		if err := json.Unmarshal(v, &acct); err != nil {
			return nil, fmt.Errorf("accountstore: decode account: %w", err)
		}
		out = append(out, acct)
	}
	return out, nil
}

// update runs fn, a mutation that reads what it changes and commits once
// (commit), under the write lock and inside a shared write of the account
// data (persistence.Store.UpdateShared): its reads see at least the
// cluster's latest account write, and when another node wrote account data
// meanwhile, fn runs again on the new data.
func (a *Accounts) update(fn func() error) error {
	a.writeMu.Lock()
	defer a.writeMu.Unlock()
	return a.store.UpdateShared(context.Background(), accountsEntity, func(tx *persistence.SharedTx) error {
		a.tx = tx
		defer func() { a.tx = nil }()
		return fn()
	})
}

// commit writes the batch fill builds as the shared write of the mutation
// in progress (update). The cached records it wrote are dropped once it is
// in the store.
func (a *Accounts) commit(fill func(*pebble.Batch) error) error {
	if a.tx == nil {
		return fmt.Errorf("accountstore: an account write outside update")
	}
	return a.tx.Commit(context.Background(), fill)
}

func setJSON(b *pebble.Batch, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Set(key, data, nil)
}

func checkTier(tier config.Tier, limits config.BucketLimits) error {
	if !tier.Valid() {
		return orderengine.Errorf(orderengine.CodeInvalidRequest, "tier must be free, builder or enterprise, got %q", tier)
	}
	if tier == config.TierEnterprise && (limits.Quote <= 0 || limits.Read <= 0 || limits.Order <= 0) {
		return orderengine.Errorf(orderengine.CodeInvalidRequest, "enterprise tier needs positive limits for quote, read and order")
	}
	return nil
}
