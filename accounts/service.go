package accounts

import (
	"context"
	"log/slog"
	"math/big"
	"net/url"
	"strings"
	"time"

	gethaccounts "github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence/accountstore"
)

// SignatureVerifier checks a signer's signature of a digest, EOA or
// EIP-1271 (chain.Verifier).
type SignatureVerifier interface {
	VerifyDigest(ctx context.Context, signer common.Address, digest common.Hash, sig []byte, block *big.Int) error
}

// Options configure a Service.
type Options struct {
	Config   config.AccountsConfig
	ChainID  uint64
	Accounts *accountstore.Accounts
	Sessions *accountstore.Sessions
	// Verifier checks sign-in signatures; its backend verifies contract
	// wallets (without one, only EOA signatures are accepted).
	Verifier SignatureVerifier
	Now      func() time.Time
	Log      *slog.Logger
}

// Service is the account self-service API.
type Service struct {
	o      Options
	nonces *nonces
}

// New returns the service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{o: o, nonces: newNonces(o.Config.NonceTTL, o.Config.MaxNonces)}
}

// NonceResult is the answer of GET /v1/auth/nonce.
type NonceResult struct {
	Nonce string `json:"nonce"`
}

// Nonce issues a single-use sign-in nonce.
func (s *Service) Nonce(context.Context) (*NonceResult, error) {
	n, _ := s.nonces.issue(s.o.Now())
	return &NonceResult{Nonce: n}, nil
}

// LinkStatement is the statement a link message must carry for account id.
func LinkStatement(accountID string) string {
	return "Link this wallet to account " + accountID + "."
}

const linkStatementPrefix = "Link this wallet to account "

// maxSignature bounds a signature's length (an EIP-1271 wallet's may be
// longer than 65 bytes: several owners' signatures).
const maxSignature = 2048

// verify checks a signed EIP-4361 message for site: the domain, the URI's
// origin, the version, the chain id, the times, the single-use nonce and
// the signature, in that order (the nonce is spent by any message that
// reaches it). statement is the statement a link message must carry; for
// a sign-in ("") a link statement is refused.
func (s *Service) verify(ctx context.Context, site api.Site, text, signature, statement string) (*Message, error) {
	m, err := ParseMessage(text)
	if err != nil {
		return nil, err
	}
	if !strings.EqualFold(m.Domain, site.Domain) {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "message domain %q is not this service's %q", m.Domain, site.Domain)
	}
	if u, err := url.Parse(m.URI); err != nil || !strings.EqualFold(u.Scheme+"://"+u.Host, site.Origin) {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "message URI %q is not on this service's origin %s", truncate(m.URI), site.Origin)
	}
	if m.Version != "1" {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "message Version must be 1, got %q", truncate(m.Version))
	}
	if m.ChainID != s.o.ChainID {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "message Chain ID %d is not this chain's %d", m.ChainID, s.o.ChainID)
	}
	switch {
	case statement != "" && m.Statement != statement:
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "a link message's statement must be %q", statement)
	case statement == "" && strings.HasPrefix(m.Statement, linkStatementPrefix):
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "a link message cannot sign in: sign a sign-in message")
	}
	now := s.o.Now()
	const skew = time.Minute
	switch {
	case m.IssuedAt.After(now.Add(skew)):
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "message Issued At %s is in the future", m.IssuedAt.UTC().Format(time.RFC3339))
	case m.IssuedAt.Before(now.Add(-s.o.Config.NonceTTL)):
		return nil, orderengine.Errorf(orderengine.CodeUnauthorized, "message was issued more than %s ago: sign a new one", s.o.Config.NonceTTL)
	case !m.ExpirationTime.IsZero() && !now.Before(m.ExpirationTime):
		return nil, orderengine.Errorf(orderengine.CodeUnauthorized, "message expired at %s: sign a new one", m.ExpirationTime.UTC().Format(time.RFC3339))
	case !m.NotBefore.IsZero() && now.Add(skew).Before(m.NotBefore):
		return nil, orderengine.Errorf(orderengine.CodeUnauthorized, "message is not valid before %s", m.NotBefore.UTC().Format(time.RFC3339))
	}
	sig, err := chain.ParseHexBytes("signature", signature, maxSignature)
	if err != nil {
		return nil, err
	}
	if !s.nonces.use(m.Nonce, now) {
		return nil, orderengine.Errorf(orderengine.CodeUnauthorized, "nonce is unknown, expired or already used: get a fresh one from GET /v1/auth/nonce")
	}
	digest := common.BytesToHash(gethaccounts.TextHash([]byte(text)))
	if err := s.o.Verifier.VerifyDigest(ctx, m.Address, digest, sig, nil); err != nil {
		if e := orderengine.AsError(err); e.Code == orderengine.CodeBadSignature {
			return nil, orderengine.Errorf(e.Code, "message signature (EIP-191 personal_sign of the message text): %s", strings.ReplaceAll(e.Message, "maker", "address"))
		}
		return nil, err
	}
	return m, nil
}

// SignInResult is the answer of a sign-in; SessionToken goes in the cookie
// only.
type SignInResult struct {
	Account      *AccountView `json:"account"`
	CSRFToken    string       `json:"csrfToken"`
	ExpiresAt    time.Time    `json:"expiresAt"`
	SessionToken string       `json:"-"`
}

// SignIn checks a signed sign-in message and opens a session of the
// account the wallet is linked to, creating a free-tier account that owns
// the wallet on its first sign-in.
func (s *Service) SignIn(ctx context.Context, site api.Site, req api.SignInRequest) (*SignInResult, error) {
	if req.Message == "" || req.Signature == "" {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest, "body must be {\"message\": \"<EIP-4361 text>\", \"signature\": \"0x…\"}")
	}
	m, err := s.verify(ctx, site, req.Message, req.Signature, "")
	if err != nil {
		return nil, err
	}
	acct, created, err := s.o.Accounts.WalletAccount(m.Address)
	if err != nil {
		return nil, err
	}
	if created {
		s.o.Log.Info("account created by sign-in", "account", acct.ID, "wallet", m.Address.Hex())
	}
	token, ses, err := s.o.Sessions.Create(acct.ID, m.Address, s.o.Config.SessionTTL)
	if err != nil {
		return nil, err
	}
	view := accountView(acct)
	view.CSRFToken = &ses.CSRF
	return &SignInResult{Account: view, CSRFToken: ses.CSRF, ExpiresAt: ses.ExpiresAt, SessionToken: token}, nil
}

// SignOut ends the session of token (nothing when there is none).
func (s *Service) SignOut(token string) error { return s.o.Sessions.Delete(token) }

// Session resolves a session cookie: the session and its account, or ok
// false when the token is unknown or expired, or when the wallet that
// signed it is no longer linked to the account (the session is then
// deleted).
func (s *Service) Session(token string) (*accountstore.Session, *accountstore.Account, bool, error) {
	ses, ok, err := s.o.Sessions.Lookup(token)
	if err != nil || !ok {
		return nil, nil, false, err
	}
	owner, linked, err := s.o.Accounts.AccountOfWallet(ses.Wallet)
	if err != nil {
		return nil, nil, false, err
	}
	if !linked || owner != ses.AccountID {
		return nil, nil, false, s.o.Sessions.Delete(token)
	}
	acct, err := s.o.Accounts.Account(ses.AccountID)
	if err != nil {
		return nil, nil, false, err
	}
	return ses, acct, true, nil
}

// SweepSessions deletes the expired sessions.
func (s *Service) SweepSessions() (int, error) { return s.o.Sessions.Sweep() }

func parseWallet(field, v string) (common.Address, error) {
	a, err := chain.ParseAddress(field, v)
	if err != nil {
		return a, orderengine.Errorf(orderengine.CodeInvalidRequest, "%s", orderengine.AsError(err).Message)
	}
	return a, nil
}
