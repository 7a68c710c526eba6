package accounts

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/accountstore"
)

// AccountView is the account as GET /v1/account answers it.
type AccountView struct {
	ID        string      `json:"id"`
	Name      string      `json:"name"`
	Tier      config.Tier `json:"tier"`
	Wallets   []string    `json:"wallets"`
	CreatedAt time.Time   `json:"createdAt"`
	// TierApplication is the latest tier application; null when none.
	TierApplication *TierApplicationView `json:"tierApplication"`
	// CSRFToken is the session's anti-forgery token, present only when a
	// session authorised the call.
	CSRFToken *string `json:"csrfToken,omitempty"`
}

// TierApplicationView is a tier application with its state.
type TierApplicationView struct {
	Tier           config.Tier `json:"tier"`
	Status         string      `json:"status"`
	UseCase        string      `json:"useCase"`
	ExpectedVolume string      `json:"expectedVolume"`
	SubmittedAt    time.Time   `json:"submittedAt"`
	DecidedAt      *time.Time  `json:"decidedAt"`
	Reason         *string     `json:"reason"`
}

func accountView(a *accountstore.Account) *AccountView {
	v := &AccountView{ID: a.ID, Name: a.Name, Tier: a.Tier, Wallets: make([]string, 0, len(a.Wallets)), CreatedAt: a.CreatedAt}
	for _, w := range a.Wallets {
		v.Wallets = append(v.Wallets, chain.Checksum(w))
	}
	if t := a.TierApplication; t != nil {
		v.TierApplication = tierView(t)
	}
	return v
}

func tierView(t *accountstore.TierApplication) *TierApplicationView {
	v := &TierApplicationView{Tier: t.Tier, Status: t.Status, UseCase: t.UseCase, ExpectedVolume: t.ExpectedVolume,
		SubmittedAt: t.SubmittedAt, DecidedAt: t.DecidedAt}
	if t.Reason != "" {
		r := t.Reason
		v.Reason = &r
	}
	return v
}

// Account returns the caller's account (with the CSRF token when a
// session asks).
func (s *Service) Account(_ context.Context, caller api.Caller) (*AccountView, error) {
	acct, err := s.o.Accounts.Account(caller.AccountID)
	if err != nil {
		return nil, err
	}
	v := accountView(acct)
	if caller.Session != nil {
		csrf := caller.Session.CSRF
		v.CSRFToken = &csrf
	}
	return v, nil
}

// LinkWallet links the wallet that signed req.Message, an EIP-4361
// message whose statement is LinkStatement(account id) and whose nonce is
// fresh, to the caller's account.
func (s *Service) LinkWallet(ctx context.Context, caller api.Caller, site api.Site, req api.LinkWalletRequest) (*AccountView, error) {
	if req.Address == "" || req.Message == "" || req.Signature == "" {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "body must be {\"address\": \"0x…\", \"message\": \"<EIP-4361 text>\", \"signature\": \"0x…\"}")
	}
	w, err := parseWallet("address", req.Address)
	if err != nil {
		return nil, err
	}
	m, err := s.verify(ctx, site, req.Message, req.Signature, LinkStatement(caller.AccountID))
	if err != nil {
		return nil, err
	}
	if m.Address != w {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "the message is signed in as %s, not as address %s", chain.Checksum(m.Address), chain.Checksum(w))
	}
	acct, err := s.o.Accounts.LinkWallet(caller.AccountID, w, s.o.Config.MaxWallets)
	if err != nil {
		return nil, err
	}
	return s.view(acct, caller), nil
}

// UnlinkWallet removes a wallet from the caller's account. The wallet the
// current session signed in with cannot be unlinked by that session.
func (s *Service) UnlinkWallet(_ context.Context, caller api.Caller, address string) (*AccountView, error) {
	w, err := parseWallet("address", address)
	if err != nil {
		return nil, err
	}
	if caller.Session != nil && strings.EqualFold(caller.Session.Wallet, w.Hex()) {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest,
			"this session signed in with %s: sign in with another linked wallet to unlink it", chain.Checksum(w))
	}
	acct, err := s.o.Accounts.UnlinkWallet(caller.AccountID, w)
	if err != nil {
		return nil, err
	}
	return s.view(acct, caller), nil
}

func (s *Service) view(acct *accountstore.Account, caller api.Caller) *AccountView {
	v := accountView(acct)
	if caller.Session != nil {
		csrf := caller.Session.CSRF
		v.CSRFToken = &csrf
	}
	return v
}

// ApplyForTier files the account's application for the builder tier; it
// is pending until an operator approves or declines it.
func (s *Service) ApplyForTier(_ context.Context, caller api.Caller, req api.TierApplicationRequest) (*TierApplicationView, error) {
	if req.Tier != string(config.TierBuilder) {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "tier must be builder (enterprise is arranged with the operator)")
	}
	useCase, volume := strings.TrimSpace(req.UseCase), strings.TrimSpace(req.ExpectedVolume)
	if useCase == "" || utf8.RuneCountInString(useCase) > 2000 {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "useCase must be 1 to 2000 characters")
	}
	if volume == "" || utf8.RuneCountInString(volume) > 200 {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "expectedVolume must be 1 to 200 characters")
	}
	acct, err := s.o.Accounts.ApplyForTier(caller.AccountID, accountstore.TierApplication{Tier: config.TierBuilder, UseCase: useCase, ExpectedVolume: volume})
	if err != nil {
		return nil, err
	}
	return tierView(acct.TierApplication), nil
}
