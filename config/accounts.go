package config

import (
	"fmt"
	"time"
)

// AccountsConfig configures sign-in with Ethereum, dashboard sessions and
// the self-service limits of an account (docs/accounts.md).
type AccountsConfig struct {
	// SessionTTL is how long a dashboard session lasts after sign-in.
	// Default 24 h.
	SessionTTL time.Duration `json:"sessionTTL"`
	// NonceTTL is how long a sign-in nonce (GET /v1/auth/nonce) stays
	// usable, and how old a signed message's Issued At may be. Default
	// 10 min.
	NonceTTL time.Duration `json:"nonceTTL"`
	// MaxNonces bounds the outstanding nonces held in memory; the oldest
	// are dropped beyond it. Default 100000.
	MaxNonces int `json:"maxNonces"`
	// MaxWallets is the number of wallets an account may link. Default 20.
	MaxWallets int `json:"maxWallets"`
	// MaxKeys is the number of enabled API keys an account may hold
	// through the dashboard. Default 10.
	MaxKeys int `json:"maxKeys"`
}

func defaultAccounts() AccountsConfig {
	return AccountsConfig{SessionTTL: 24 * time.Hour, NonceTTL: 10 * time.Minute, MaxNonces: 100_000, MaxWallets: 20, MaxKeys: 10}
}

// Validate rejects non-positive values.
func (c AccountsConfig) Validate() error {
	for _, d := range []namedDuration{{"accounts.sessionTTL", c.SessionTTL}, {"accounts.nonceTTL", c.NonceTTL}} {
		if d.d <= 0 {
			return fmt.Errorf("%s must be positive, got %s", d.path, d.d)
		}
	}
	for _, f := range []struct {
		path string
		v    int
	}{{"accounts.maxNonces", c.MaxNonces}, {"accounts.maxWallets", c.MaxWallets}, {"accounts.maxKeys", c.MaxKeys}} {
		if f.v <= 0 {
			return fmt.Errorf("%s must be positive, got %d", f.path, f.v)
		}
	}
	return nil
}
