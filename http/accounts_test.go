package http_test

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/json"
	"io"
	nethttp "net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/accounts"
	"github.com/orderengine/orderengine/accounts/accountstest"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/config"
)

func walletKey(t *testing.T) (common.Address, *ecdsaKey) {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return crypto.PubkeyToAddress(k.PublicKey), k
}

// signInBody is a signed sign-in message of m.
func signInBody(t *testing.T, m *accounts.Message, key *ecdsaKey) []byte {
	text := m.String()
	b, _ := json.Marshal(map[string]string{"message": text, "signature": accountstest.SignDigest(t, key, text)})
	return b
}

func decode[T any](t *testing.T, r *apptest.Response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
	return v
}

type accountBody struct {
	ID              string          `json:"id"`
	Tier            string          `json:"tier"`
	Wallets         []string        `json:"wallets"`
	CSRFToken       *string         `json:"csrfToken"`
	TierApplication json.RawMessage `json:"tierApplication"`
}

// Sign-in with Ethereum: the message must name this service's domain,
// origin and chain, be fresh, carry a nonce this server issued and never
// used, and be signed by its address. The first sign-in makes a free
// account owning the wallet; the next opens another session of the same
// account. The cookie is HttpOnly, SameSite=Strict, Path=/, and not Secure
// on plain http.
func TestSignInWithEthereum(t *testing.T) {
	ts := apptest.NewTestServer(t)
	addr, key := walletKey(t)
	now := time.Now()
	signIn := func(m *accounts.Message, k *ecdsaKey, h map[string]string) *apptest.Response {
		return ts.Do("POST", "/v1/auth/signin", signInBody(t, m, k), h)
	}
	fresh := func() *accounts.Message { return accountstest.Message(ts, addr, accountstest.Nonce(t, ts), "", now) }
	refused := []struct {
		name   string
		edit   func(*accounts.Message)
		status int
		code   orderengine.Code
	}{
		{"another domain", func(m *accounts.Message) { m.Domain = "evil.example" }, 400, orderengine.CodeInvalidRequest},
		{"another origin", func(m *accounts.Message) { m.URI = "https://evil.example/" }, 400, orderengine.CodeInvalidRequest},
		{"another chain", func(m *accounts.Message) { m.ChainID = 1 }, 400, orderengine.CodeInvalidRequest},
		{"version 2", func(m *accounts.Message) { m.Version = "2" }, 400, orderengine.CodeInvalidRequest},
		{"issued in the future", func(m *accounts.Message) { m.IssuedAt = now.Add(time.Hour) }, 400, orderengine.CodeInvalidRequest},
		{"issued long ago", func(m *accounts.Message) { m.IssuedAt = now.Add(-time.Hour) }, 401, orderengine.CodeUnauthorized},
		{"expired", func(m *accounts.Message) { m.ExpirationTime = now.Add(-time.Second) }, 401, orderengine.CodeUnauthorized},
		{"not yet valid", func(m *accounts.Message) { m.NotBefore = now.Add(time.Hour) }, 401, orderengine.CodeUnauthorized},
		{"a nonce never issued", func(m *accounts.Message) { m.Nonce = "abcdefgh12345678" }, 401, orderengine.CodeUnauthorized},
		{"a link statement", func(m *accounts.Message) { m.Statement = accounts.LinkStatement("acc_0000000000000000") }, 400, orderengine.CodeInvalidRequest},
	}
	for _, c := range refused {
		m := fresh()
		c.edit(m)
		r := signIn(m, key, nil)
		if r.Status != c.status || r.Code() != string(c.code) {
			t.Errorf("%s: %d %s, want %d %s", c.name, r.Status, r.Body, c.status, c.code)
		}
		if r.Header.Get("Set-Cookie") != "" {
			t.Errorf("%s: a refused sign-in set a cookie", c.name)
		}
	}
	_, other := walletKey(t)
	if r := signIn(fresh(), other, nil); r.Status != 400 || r.Code() != "BAD_SIGNATURE" {
		t.Fatalf("signed by another key: %d %s", r.Status, r.Body)
	}
	if r := signIn(fresh(), key, map[string]string{"Origin": "https://evil.example"}); r.Status != 403 || r.Code() != "FORBIDDEN" {
		t.Fatalf("from another site's page: %d %s", r.Status, r.Body)
	}
	for _, body := range []string{`{}`, `{"message":"hello","signature":"0x00"}`} {
		if r := ts.Do("POST", "/v1/auth/signin", []byte(body), nil); r.Status != 400 || r.Code() != "INVALID_REQUEST" {
			t.Fatalf("%s: %d %s", body, r.Status, r.Body)
		}
	}

	m := fresh()
	r := signIn(m, key, map[string]string{"Origin": ts.URL})
	if r.Status != 200 {
		t.Fatalf("sign in: %d %s", r.Status, r.Body)
	}
	ck := r.Header.Get("Set-Cookie")
	for _, attr := range []string{"oe_session=ses_", "HttpOnly", "SameSite=Strict", "Path=/", "expires="} {
		if !strings.Contains(strings.ToLower(ck), strings.ToLower(attr)) {
			t.Errorf("cookie %q lacks %s", ck, attr)
		}
	}
	if strings.Contains(strings.ToLower(ck), "secure") {
		t.Errorf("a plain-http cookie is Secure: %q", ck)
	}
	res := decode[struct {
		Account   accountBody `json:"account"`
		CSRFToken string      `json:"csrfToken"`
	}](t, r)
	if res.Account.Tier != "free" || len(res.Account.Wallets) != 1 || res.Account.Wallets[0] != addr.Hex() || len(res.CSRFToken) != 43 {
		t.Fatalf("sign-in answer %s", r.Body)
	}
	if r := signIn(m, key, nil); r.Status != 401 || r.Code() != "UNAUTHORIZED" {
		t.Fatalf("the same message again (replay): %d %s", r.Status, r.Body)
	}
	cookie, _, _ := strings.Cut(ck, ";")
	got := ts.Do("GET", "/v1/account", nil, map[string]string{"Cookie": cookie})
	acct := decode[accountBody](t, got)
	if got.Status != 200 || acct.ID != res.Account.ID || acct.CSRFToken == nil || *acct.CSRFToken != res.CSRFToken {
		t.Fatalf("GET /v1/account with the session: %d %s", got.Status, got.Body)
	}
	// The next sign-in is the same account.
	s2 := accountstest.SignIn(t, ts, addr, key)
	if s2.AccountID != res.Account.ID || s2.CSRF == res.CSRFToken {
		t.Fatalf("second sign-in: account %s csrf reused %v", s2.AccountID, s2.CSRF == res.CSRFToken)
	}
	// Sign-out needs the CSRF token; then the cookie is cleared and the
	// session is gone.
	out := func(h map[string]string) *apptest.Response { return ts.Do("POST", "/v1/auth/signout", nil, h) }
	if r := out(map[string]string{"Cookie": cookie, "Origin": ts.URL}); r.Status != 403 || r.Code() != "FORBIDDEN" {
		t.Fatalf("sign-out without the CSRF token: %d %s", r.Status, r.Body)
	}
	r = out(map[string]string{"Cookie": cookie, "Origin": ts.URL, "X-CSRF-Token": res.CSRFToken})
	if r.Status != 200 || !strings.Contains(r.Header.Get("Set-Cookie"), "oe_session=;") {
		t.Fatalf("sign-out: %d %s %q", r.Status, r.Body, r.Header.Get("Set-Cookie"))
	}
	if r := ts.Do("GET", "/v1/account", nil, map[string]string{"Cookie": cookie}); r.Status != 401 || r.Code() != "UNAUTHORIZED" {
		t.Fatalf("a signed-out session: %d %s", r.Status, r.Body)
	}
	if r := out(map[string]string{"Cookie": cookie}); r.Status != 200 {
		t.Fatalf("sign-out of a gone session: %d %s", r.Status, r.Body)
	}
	if r := s2.Do("GET", "/v1/account", nil); r.Status != 200 {
		t.Fatalf("the other session ended too: %d %s", r.Status, r.Body)
	}
}

// Behind https (http.publicURL), the cookie is Secure with the __Host-
// prefix, and messages must name the public domain.
func TestSessionCookieOverHTTPS(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) { c.HTTP.PublicURL = "https://api.example.org" }))
	addr, key := walletKey(t)
	m := accountstest.Message(ts, addr, accountstest.Nonce(t, ts), "", time.Now())
	if r := ts.Do("POST", "/v1/auth/signin", signInBody(t, m, key), nil); r.Status != 400 || !strings.Contains(string(r.Body), "api.example.org") {
		t.Fatalf("a message for the listener's address: %d %s", r.Status, r.Body)
	}
	m = accountstest.Message(ts, addr, accountstest.Nonce(t, ts), "", time.Now())
	m.Domain, m.URI = "api.example.org", "https://api.example.org/dashboard"
	r := ts.Do("POST", "/v1/auth/signin", signInBody(t, m, key), map[string]string{"Origin": "https://api.example.org"})
	if r.Status != 200 {
		t.Fatalf("sign in: %d %s", r.Status, r.Body)
	}
	ck := r.Header.Get("Set-Cookie")
	if !strings.HasPrefix(ck, "__Host-oe_session=ses_") || !strings.Contains(strings.ToLower(ck), "; secure") {
		t.Fatalf("cookie over https: %q", ck)
	}
	cookie, _, _ := strings.Cut(ck, ";")
	csrf := decode[struct {
		CSRFToken string `json:"csrfToken"`
	}](t, r).CSRFToken
	h := map[string]string{"Cookie": cookie, "X-CSRF-Token": csrf, "Origin": ts.URL}
	if r := ts.Do("POST", "/v1/account/keys", []byte(`{}`), h); r.Status != 403 {
		t.Fatalf("origin other than the public URL's: %d %s", r.Status, r.Body)
	}
	h["Origin"] = "https://api.example.org"
	if r := ts.Do("POST", "/v1/account/keys", []byte(`{}`), h); r.Status != 201 {
		t.Fatalf("same-origin call: %d %s", r.Status, r.Body)
	}
}

// Every state-changing session call needs the CSRF token and a same-origin
// request; a session never submits orders; a key never manages the
// account; sessions count in the account's read bucket.
func TestSessionCSRFAndScope(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) { c.Limits.Free.Read = 12 }))
	addr, key := walletKey(t)
	s := accountstest.SignIn(t, ts, addr, key)
	post := func(h map[string]string) *apptest.Response {
		return ts.Do("POST", "/v1/account/keys", []byte(`{"name":"ci"}`), h)
	}
	for name, h := range map[string]map[string]string{
		"no CSRF token":     {"Cookie": s.Cookie, "Origin": ts.URL},
		"a wrong token":     {"Cookie": s.Cookie, "Origin": ts.URL, "X-CSRF-Token": strings.Repeat("a", 43)},
		"another origin":    {"Cookie": s.Cookie, "Origin": "http://evil.example", "X-CSRF-Token": s.CSRF},
		"no Origin":         {"Cookie": s.Cookie, "X-CSRF-Token": s.CSRF},
		"a foreign Referer": {"Cookie": s.Cookie, "Referer": "http://evil.example/page", "X-CSRF-Token": s.CSRF},
	} {
		if r := post(h); r.Status != 403 || r.Code() != "FORBIDDEN" {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	if r := post(map[string]string{"Cookie": s.Cookie, "Referer": ts.URL + "/", "X-CSRF-Token": s.CSRF}); r.Status != 201 {
		t.Fatalf("same-origin Referer: %d %s", r.Status, r.Body)
	}
	if r := ts.Do("POST", "/v1/orders", []byte(`{}`), map[string]string{"Cookie": s.Cookie, "X-CSRF-Token": s.CSRF, "Origin": ts.URL}); r.Status != 401 || r.Code() != "UNAUTHORIZED" {
		t.Fatalf("order submission with a session: %d %s", r.Status, r.Body)
	}
	if r := ts.Do("GET", "/v1/account/keys", nil, map[string]string{"X-API-Key": ts.APIKey}); r.Status != 401 {
		t.Fatalf("key management with a key: %d %s", r.Status, r.Body)
	}
	// GET /v1/account takes a key too (no csrfToken then).
	if r := ts.Get("/v1/account"); r.Status != 200 || decode[accountBody](t, r).CSRFToken != nil || decode[accountBody](t, r).ID != ts.AccountID {
		t.Fatalf("GET /v1/account with a key: %d %s", r.Status, r.Body)
	}
	r := s.Do("GET", "/v1/account/keys", nil)
	if r.Header.Get("X-RateLimit-Limit") != "12" || !strings.HasPrefix(r.Header.Get("RateLimit-Policy"), `"read"`) {
		t.Fatalf("session limit headers: %v", r.Header)
	}
	for range 12 {
		r = s.Do("GET", "/v1/account/keys", nil)
	}
	if r.Status != 429 || r.Code() != "RATE_LIMITED" {
		t.Fatalf("the account's read bucket does not limit its session: %d %s", r.Status, r.Body)
	}
}

type keyBody struct {
	Key        string  `json:"key"`
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Prefix     string  `json:"prefix"`
	LastUsedAt *string `json:"lastUsedAt"`
	Disabled   bool    `json:"disabled"`
	ReplacedBy *string `json:"replacedBy"`
}

// Keys, self-service: the secret is shown once; the list has prefix, name
// and last use, never the secret; disable and reissue take effect at the
// next request; another account's key is 404.
func TestKeysSelfService(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) { c.Accounts.MaxKeys = 2 }))
	addr, key := walletKey(t)
	s := accountstest.SignIn(t, ts, addr, key)
	r := s.Do("POST", "/v1/account/keys", []byte(`{"name":"backend"}`))
	k := decode[keyBody](t, r)
	if r.Status != 201 || !strings.HasPrefix(k.Key, "svc_") || k.Name != "backend" || !strings.HasPrefix(k.Key, k.Prefix) || k.LastUsedAt != nil {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	if r := ts.Do("GET", "/v1/stats", nil, map[string]string{"X-API-Key": k.Key}); r.Status == 401 {
		t.Fatalf("the new key: %d %s", r.Status, r.Body)
	}
	list := s.Do("GET", "/v1/account/keys", nil)
	if strings.Contains(string(list.Body), k.Key) || strings.Contains(string(list.Body), `"key"`) {
		t.Fatalf("the list shows a secret: %s", list.Body)
	}
	keys := decode[struct {
		Keys []keyBody `json:"keys"`
	}](t, list).Keys
	if len(keys) != 1 || keys[0].ID != k.ID || keys[0].LastUsedAt == nil {
		t.Fatalf("list after one use: %s", list.Body)
	}
	if r := s.Do("POST", "/v1/account/keys", []byte(`{"name":"`+strings.Repeat("n", 101)+`"}`)); r.Status != 400 {
		t.Fatalf("a long name: %d %s", r.Status, r.Body)
	}
	s.Do("POST", "/v1/account/keys", []byte(`{}`))
	if r := s.Do("POST", "/v1/account/keys", []byte(`{}`)); r.Status != 409 || r.Code() != "LIMIT_REACHED" {
		t.Fatalf("a third enabled key: %d %s", r.Status, r.Body)
	}
	// Reissue: the old key stops, the new one works, a second reissue of
	// the old is 409.
	r = s.Do("POST", "/v1/account/keys/"+k.ID+"/reissue", nil)
	nk := decode[keyBody](t, r)
	if r.Status != 201 || nk.Key == "" || nk.Name != "backend" || nk.ID == k.ID {
		t.Fatalf("reissue: %d %s", r.Status, r.Body)
	}
	if r := ts.Do("GET", "/v1/stats", nil, map[string]string{"X-API-Key": k.Key}); r.Code() != "KEY_DISABLED" {
		t.Fatalf("the reissued key: %d %s", r.Status, r.Body)
	}
	if r := ts.Do("GET", "/v1/stats", nil, map[string]string{"X-API-Key": nk.Key}); r.Status != 200 {
		t.Fatalf("the new key: %d %s", r.Status, r.Body)
	}
	if r := s.Do("POST", "/v1/account/keys/"+k.ID+"/reissue", nil); r.Status != 409 || r.Code() != "ALREADY_EXISTS" {
		t.Fatalf("a second reissue: %d %s", r.Status, r.Body)
	}
	r = s.Do("POST", "/v1/account/keys/"+nk.ID+"/disable", nil)
	if r.Status != 200 || !decode[keyBody](t, r).Disabled {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	if r := ts.Do("GET", "/v1/stats", nil, map[string]string{"X-API-Key": nk.Key}); r.Code() != "KEY_DISABLED" {
		t.Fatalf("the disabled key: %d %s", r.Status, r.Body)
	}
	for _, id := range []string{ts.KeyID, "key_unknown"} {
		for _, action := range []string{"disable", "reissue"} {
			if r := s.Do("POST", "/v1/account/keys/"+id+"/"+action, nil); r.Status != 404 || r.Code() != "NOT_FOUND" {
				t.Fatalf("%s of %s: %d %s", action, id, r.Status, r.Body)
			}
		}
	}
}

// The builder tier: applied for with a session, decided with the admin
// API; approval moves the account's keys to the builder limits at their
// next request.
func TestTierApplicationApproval(t *testing.T) {
	ts := apptest.NewTestServer(t)
	addr, key := walletKey(t)
	s := accountstest.SignIn(t, ts, addr, key)
	created := decode[keyBody](t, s.Do("POST", "/v1/account/keys", []byte(`{}`)))
	limit := func() string {
		return ts.Do("GET", "/v1/stats", nil, map[string]string{"X-API-Key": created.Key}).Header.Get("X-RateLimit-Limit")
	}
	if got := limit(); got != strconv.Itoa(ts.Config.Limits.Free.Read) {
		t.Fatalf("free limit %s", got)
	}
	for _, body := range []string{`{"tier":"enterprise","useCase":"x","expectedVolume":"y"}`, `{"tier":"builder","useCase":"","expectedVolume":"y"}`, `{"tier":"builder","useCase":"x"}`} {
		if r := s.Do("POST", "/v1/account/tier-application", []byte(body)); r.Status != 400 {
			t.Fatalf("%s: %d %s", body, r.Status, r.Body)
		}
	}
	r := s.Do("POST", "/v1/account/tier-application", []byte(`{"tier":"builder","useCase":"a wallet app","expectedVolume":"2k orders a day"}`))
	if r.Status != 201 || !strings.Contains(string(r.Body), `"status":"pending"`) {
		t.Fatalf("apply: %d %s", r.Status, r.Body)
	}
	if r := s.Do("POST", "/v1/account/tier-application", []byte(`{"tier":"builder","useCase":"again","expectedVolume":"1"}`)); r.Status != 409 {
		t.Fatalf("apply twice: %d %s", r.Status, r.Body)
	}
	if !strings.Contains(string(s.Do("GET", "/v1/account", nil).Body), `"status":"pending"`) {
		t.Fatal("GET /v1/account does not show the pending application")
	}
	list := ts.Admin("GET", "/admin/v1/tier-applications", nil)
	if list.Status != 200 || !strings.Contains(string(list.Body), s.AccountID) {
		t.Fatalf("admin list: %d %s", list.Status, list.Body)
	}
	if r := ts.Admin("POST", "/admin/v1/tier-applications/"+s.AccountID+"/approve", nil); r.Status != 200 {
		t.Fatalf("approve: %d %s", r.Status, r.Body)
	}
	if got := limit(); got != strconv.Itoa(ts.Config.Limits.Builder.Read) {
		t.Fatalf("after approval the key is limited at %s, want builder's %d", got, ts.Config.Limits.Builder.Read)
	}
	acct := decode[accountBody](t, s.Do("GET", "/v1/account", nil))
	if acct.Tier != "builder" || !strings.Contains(string(acct.TierApplication), `"status":"approved"`) {
		t.Fatalf("account after approval: %+v", acct)
	}
	if r := ts.Admin("POST", "/admin/v1/tier-applications/"+s.AccountID+"/decline", map[string]string{"reason": "late"}); r.Status != 404 {
		t.Fatalf("deciding twice: %d %s", r.Status, r.Body)
	}
}

// Linked wallets: a signed link message naming the account and a fresh
// nonce links; a replay, another account's id, a wallet of another account
// are refused; unlinking ends the unlinked wallet's sessions.
func TestLinkedWallets(t *testing.T) {
	ts := apptest.NewTestServer(t)
	a1, k1 := walletKey(t)
	a2, k2 := walletKey(t)
	s := accountstest.SignIn(t, ts, a1, k1)
	text := accountstest.Message(ts, a2, accountstest.Nonce(t, ts), accounts.LinkStatement(s.AccountID), time.Now()).String()
	body, _ := json.Marshal(map[string]string{"address": a2.Hex(), "message": text, "signature": accountstest.SignDigest(t, k2, text)})
	r := s.Do("POST", "/v1/account/wallets", body)
	if r.Status != 201 || len(decode[accountBody](t, r).Wallets) != 2 {
		t.Fatalf("link: %d %s", r.Status, r.Body)
	}
	if r := s.Do("POST", "/v1/account/wallets", body); r.Status != 401 {
		t.Fatalf("the same link message again: %d %s", r.Status, r.Body)
	}
	a3, k3 := walletKey(t)
	text = accountstest.Message(ts, a3, accountstest.Nonce(t, ts), accounts.LinkStatement("acc_0000000000000000"), time.Now()).String()
	body, _ = json.Marshal(map[string]string{"address": a3.Hex(), "message": text, "signature": accountstest.SignDigest(t, k3, text)})
	if r := s.Do("POST", "/v1/account/wallets", body); r.Status != 400 {
		t.Fatalf("a link message for another account: %d %s", r.Status, r.Body)
	}
	text = accountstest.Message(ts, a3, accountstest.Nonce(t, ts), accounts.LinkStatement(s.AccountID), time.Now()).String()
	body, _ = json.Marshal(map[string]string{"address": a2.Hex(), "message": text, "signature": accountstest.SignDigest(t, k3, text)})
	if r := s.Do("POST", "/v1/account/wallets", body); r.Status != 400 {
		t.Fatalf("address differs from the signer: %d %s", r.Status, r.Body)
	}
	// A wallet of another account.
	other := accountstest.SignIn(t, ts, a3, k3)
	if r := s.Link(a3, k3); r.Status != 409 || r.Code() != "ALREADY_EXISTS" {
		t.Fatalf("linking another account's wallet: %d %s", r.Status, r.Body)
	}
	// a2 signs in to s's account; unlinking a2 ends that session.
	s2 := accountstest.SignIn(t, ts, a2, k2)
	if s2.AccountID != s.AccountID {
		t.Fatalf("a linked wallet signs in to account %s, want %s", s2.AccountID, s.AccountID)
	}
	if r := s2.Do("DELETE", "/v1/account/wallets/"+a2.Hex(), nil); r.Status != 400 {
		t.Fatalf("unlinking the session's own wallet: %d %s", r.Status, r.Body)
	}
	r = s.Do("DELETE", "/v1/account/wallets/"+strings.ToLower(a2.Hex()), nil)
	if r.Status != 200 || len(decode[accountBody](t, r).Wallets) != 1 {
		t.Fatalf("unlink: %d %s", r.Status, r.Body)
	}
	if r := s2.Do("GET", "/v1/account", nil); r.Status != 401 {
		t.Fatalf("the unlinked wallet's session: %d %s", r.Status, r.Body)
	}
	if r := s.Do("DELETE", "/v1/account/wallets/"+a3.Hex(), nil); r.Status != 404 {
		t.Fatalf("unlinking another account's wallet: %d %s", r.Status, r.Body)
	}
	if r := other.Do("GET", "/v1/account", nil); r.Status != 200 {
		t.Fatalf("the other account: %d %s", r.Status, r.Body)
	}
}

type ecdsaKey = ecdsa.PrivateKey

// The domain a message must name never comes from a Host header a remote
// client chose: a message signed for another site, sent here with that
// site's name as Host, is refused; a loopback Host (a developer's browser
// at localhost) is taken.
func TestSignInDomainIgnoresAForeignHost(t *testing.T) {
	ts := apptest.NewTestServer(t)
	addr, key := walletKey(t)
	send := func(host string, m *accounts.Message) (int, string) {
		req, err := nethttp.NewRequest("POST", ts.URL+"/v1/auth/signin", bytes.NewReader(signInBody(t, m, key)))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		resp, err := nethttp.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	m := accountstest.Message(ts, addr, accountstest.Nonce(t, ts), "", time.Now())
	m.Domain, m.URI = "evil.example", "https://evil.example/"
	if status, body := send("evil.example", m); status != 400 || !strings.Contains(body, "is not this service's") {
		t.Fatalf("a phished message replayed with its site as Host: %d %s", status, body)
	}
	port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	m = accountstest.Message(ts, addr, accountstest.Nonce(t, ts), "", time.Now())
	m.Domain, m.URI = "localhost:"+port, "http://localhost:"+port+"/"
	if status, body := send("localhost:"+port, m); status != 200 {
		t.Fatalf("sign-in at localhost: %d %s", status, body)
	}
}

// The admin API answers linked wallets EIP-55 checksummed, as the public
// API does: the account, the list of accounts, the tier applications and a
// decision all show the signing wallet as addr.Hex().
func TestAdminShowsWalletsChecksummed(t *testing.T) {
	ts := apptest.NewTestServer(t)
	addr, key := walletKey(t)
	if strings.ToLower(addr.Hex()) == addr.Hex() {
		t.Fatalf("wallet %s has no upper-case letter: its checksum cannot be told from lowercase", addr.Hex())
	}
	s := accountstest.SignIn(t, ts, addr, key)
	if r := s.Do("POST", "/v1/account/tier-application", []byte(`{"tier":"builder","useCase":"a wallet app","expectedVolume":"2k orders a day"}`)); r.Status != 201 {
		t.Fatalf("apply: %d %s", r.Status, r.Body)
	}
	type listed struct {
		Accounts []accountBody `json:"accounts"`
	}
	wallets := func(what string, r *apptest.Response, got []string) {
		t.Helper()
		if r.Status != 200 || len(got) != 1 || got[0] != addr.Hex() {
			t.Errorf("%s: %d wallets %q, want [%s] (%s)", what, r.Status, got, addr.Hex(), r.Body)
		}
		if strings.Contains(string(r.Body), strings.ToLower(addr.Hex()[2:])) {
			t.Errorf("%s shows the wallet in lowercase: %s", what, r.Body)
		}
	}
	r := ts.Admin("GET", "/admin/v1/accounts/"+s.AccountID, nil)
	wallets("GET account", r, decode[accountBody](t, r).Wallets)
	r = ts.Admin("GET", "/admin/v1/accounts", nil)
	found := false
	for _, a := range decode[listed](t, r).Accounts {
		if a.ID == s.AccountID {
			found = true
			wallets("list accounts", r, a.Wallets)
		}
	}
	if !found {
		t.Errorf("list accounts lacks %s: %s", s.AccountID, r.Body)
	}
	r = ts.Admin("GET", "/admin/v1/tier-applications", nil)
	if l := decode[listed](t, r).Accounts; len(l) != 1 {
		t.Fatalf("tier applications: %s", r.Body)
	} else {
		wallets("tier applications", r, l[0].Wallets)
	}
	r = ts.Admin("POST", "/admin/v1/tier-applications/"+s.AccountID+"/approve", nil)
	wallets("approve", r, decode[accountBody](t, r).Wallets)
}
