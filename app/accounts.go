package app

import (
	"context"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/accounts"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/persistence/accountstore"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/platform"
)

// Intervals of the account housekeeping loops.
const (
	keyUsageFlush = 30 * time.Second
	sessionSweep  = time.Hour
)

// buildAccounts makes the self-service account API (sign-in, sessions,
// keys, tier application) and the platform lists. Contract wallets sign in
// through the chain (EIP-1271) when one is connected.
func (s *System) buildAccounts() {
	chainID := s.Config.Chain.ChainID
	if chainID == 0 {
		chainID = devchain.DefaultChainID
	}
	var backend chain.CodeAndCaller
	if s.ChainConn != nil {
		backend = s.ChainConn.Client
	}
	// The domain is unused: sign-in messages are verified over their
	// EIP-191 hash (VerifyDigest).
	verifier := chain.NewVerifier(chain.NewRouterDomain(chainID, common.Address{}), backend)
	s.Sessions = accountstore.NewSessions(s.Store, s.Clock.Now)
	s.AccountAPI = accounts.New(accounts.Options{
		Config: s.Config.Accounts, ChainID: chainID, Accounts: s.Accounts, Sessions: s.Sessions,
		Verifier: verifier, Now: s.Clock.Now, Log: s.Log,
	})
	s.Platform = platform.NewService(chainstore.NewPlatform(s.Store), s.Orders, s.Accounts)
}

// runAccounts flushes the keys' last use every keyUsageFlush (and at the
// end) and sweeps expired sessions every sessionSweep, until ctx ends.
func (s *System) runAccounts(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Accounts.RunKeyUsage(ctx, keyUsageFlush, func(err error) { s.Log.Warn("accounts: key usage flush failed", "err", err) })
	}()
	t := time.NewTicker(sessionSweep)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			<-done
			return
		case <-t.C:
			if n, err := s.AccountAPI.SweepSessions(); err != nil {
				s.Log.Warn("accounts: session sweep failed", "err", err)
			} else if n > 0 {
				s.Log.Info("expired sessions deleted", "count", n)
			}
		}
	}
}
