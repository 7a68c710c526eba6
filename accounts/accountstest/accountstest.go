// Package accountstest signs in to a test server the way a browser
// dashboard does: an EIP-4361 message for the server's origin signed with
// a wallet key (EIP-191), the session cookie and CSRF token kept for the
// calls that follow.
package accountstest

import (
	"crypto/ecdsa"
	"encoding/json"
	"strings"
	"testing"
	"time"

	gethaccounts "github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/accounts"
	"github.com/orderengine/orderengine/app/apptest"
)

// Message returns a sign-in message of addr for ts's origin with nonce,
// issued now, on the server's chain; statement may be "".
func Message(ts *apptest.Server, addr common.Address, nonce, statement string, now time.Time) *accounts.Message {
	chainID := ts.Config.Chain.ChainID
	if chainID == 0 {
		chainID = 4663
	}
	return &accounts.Message{Domain: strings.TrimPrefix(ts.URL, "http://"), Address: addr, Statement: statement,
		URI: ts.URL + "/", Version: "1", ChainID: chainID, Nonce: nonce, IssuedAt: now.UTC().Truncate(time.Second)}
}

// SignDigest signs text's EIP-191 hash with key, v as 27/28.
func SignDigest(t testing.TB, key *ecdsa.PrivateKey, text string) string {
	t.Helper()
	sig, err := crypto.Sign(gethaccounts.TextHash([]byte(text)), key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return hexutil.Encode(sig)
}

// Nonce asks ts for a sign-in nonce.
func Nonce(t testing.TB, ts *apptest.Server) string {
	t.Helper()
	r := ts.Do("GET", "/v1/auth/nonce", nil, nil)
	var n struct {
		Nonce string `json:"nonce"`
	}
	if r.Status != 200 || json.Unmarshal(r.Body, &n) != nil || n.Nonce == "" {
		t.Fatalf("nonce: %d %s", r.Status, r.Body)
	}
	return n.Nonce
}

// Session is a signed-in dashboard session.
type Session struct {
	TS        *apptest.Server
	Cookie    string // "name=value"
	CSRF      string
	AccountID string
	Wallet    common.Address
	t         testing.TB
}

// SignIn signs in to ts as wallet, whose signature signer makes (the
// wallet's own key for an EOA, its owner's for an EIP-1271 wallet).
func SignIn(t testing.TB, ts *apptest.Server, wallet common.Address, signer *ecdsa.PrivateKey) *Session {
	t.Helper()
	text := Message(ts, wallet, Nonce(t, ts), "Sign in to the dashboard.", time.Now()).String()
	body, _ := json.Marshal(map[string]string{"message": text, "signature": SignDigest(t, signer, text)})
	r := ts.Do("POST", "/v1/auth/signin", body, map[string]string{"Origin": ts.URL})
	if r.Status != 200 {
		t.Fatalf("sign in as %s: %d %s", wallet.Hex(), r.Status, r.Body)
	}
	var res struct {
		CSRFToken string `json:"csrfToken"`
		Account   struct {
			ID string `json:"id"`
		} `json:"account"`
	}
	if err := json.Unmarshal(r.Body, &res); err != nil {
		t.Fatal(err)
	}
	cookie, _, _ := strings.Cut(r.Header.Get("Set-Cookie"), ";")
	if cookie == "" {
		t.Fatalf("sign in: no cookie: %v", r.Header)
	}
	return &Session{TS: ts, Cookie: cookie, CSRF: res.CSRFToken, AccountID: res.Account.ID, Wallet: wallet, t: t}
}

// Do sends a request with the session cookie, its CSRF token and the
// server's Origin, as the dashboard's fetch calls do.
func (s *Session) Do(method, path string, body []byte) *apptest.Response {
	s.t.Helper()
	return s.TS.Do(method, path, body, map[string]string{"Cookie": s.Cookie, "X-CSRF-Token": s.CSRF, "Origin": s.TS.URL})
}

// Link links wallet (signed by signer) to the session's account.
func (s *Session) Link(wallet common.Address, signer *ecdsa.PrivateKey) *apptest.Response {
	s.t.Helper()
	text := Message(s.TS, wallet, Nonce(s.t, s.TS), accounts.LinkStatement(s.AccountID), time.Now()).String()
	body, _ := json.Marshal(map[string]string{"address": wallet.Hex(), "message": text, "signature": SignDigest(s.t, signer, text)})
	return s.Do("POST", "/v1/account/wallets", body)
}
