package webhook_test

import (
	"crypto/ecdsa"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/accounts/accountstest"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/config"
)

// signedReceiver is a webhook receiver on loopback that keeps every
// delivery with its headers, and checks signatures with its own HMAC code
// (not the engine's): t=<unix>,v1=<hex HMAC-SHA256 of "t.body">.
type signedReceiver struct {
	url string
	mu  sync.Mutex
	got []delivery
}

type delivery struct {
	event, id, signature string
	body                 []byte
}

func newSignedReceiver(t *testing.T) *signedReceiver {
	t.Helper()
	rc := &signedReceiver{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, delivery{event: r.Header.Get("X-Service-Event"), id: r.Header.Get("X-Service-Delivery"),
			signature: r.Header.Get("X-Service-Signature"), body: body})
		rc.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(hs.Close)
	rc.url = hs.URL + "/hook"
	return rc
}

// deliveries returns what arrived so far.
func (rc *signedReceiver) deliveries() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

// waitFor waits until n deliveries arrived and returns them.
func (rc *signedReceiver) waitFor(t *testing.T, n int) []delivery {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if got := rc.deliveries(); len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deliveries arrived, want %d", len(rc.deliveries()), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// signatures returns the v1 values of d's header and whether it is well
// formed.
func (d delivery) signatures() (ts string, v1 []string) {
	for _, part := range strings.Split(d.signature, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			v1 = append(v1, v)
		}
	}
	return ts, v1
}

// signedWith reports whether one v1 of d is the HMAC of its body with
// secret.
func (d delivery) signedWith(secret string) bool {
	ts, v1 := d.signatures()
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(d.body)
	return ts != "" && slices.Contains(v1, hex.EncodeToString(mac.Sum(nil)))
}

// signIn signs a fresh wallet in: a new free account with a session.
func signIn(t *testing.T, s *apptest.Server) *accountstest.Session {
	t.Helper()
	addr, key := newWallet(t)
	return accountstest.SignIn(t, s, addr, key)
}

func newWallet(t *testing.T) (common.Address, *ecdsa.PrivateKey) {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return crypto.PubkeyToAddress(k.PublicKey), k
}

type createdHook struct {
	ID, URL, Secret string
	Events          []string
}

// TestWebhooksWithADashboardSession: the /v1/webhooks operations take a
// dashboard session as well as an API key. A session manages only its
// account's endpoints; each call that changes something needs the
// session's X-CSRF-Token and this service's Origin (403 FORBIDDEN
// otherwise, nothing changed); reads need neither. The test.ping it sends
// reaches a receiver signed with the secret the session was shown. A
// session never submits orders.
func TestWebhooksWithADashboardSession(t *testing.T) {
	s := targetServer(t, true)
	rc := newSignedReceiver(t)
	ses := signIn(t, s)
	body := []byte(`{"url":"` + rc.url + `","events":["test.ping","order.filled"]}`)

	forged := []map[string]string{
		{"Cookie": ses.Cookie, "Origin": s.URL},                                                  // no CSRF token
		{"Cookie": ses.Cookie, "Origin": s.URL, "X-CSRF-Token": strings.Repeat("A", 43)},         // another token
		{"Cookie": ses.Cookie, "Origin": "https://evil.example", "X-CSRF-Token": ses.CSRF},       // another site
		{"Cookie": ses.Cookie, "X-CSRF-Token": ses.CSRF},                                         // no Origin
		{"Cookie": ses.Cookie, "Referer": "https://evil.example/page", "X-CSRF-Token": ses.CSRF}, // another site's page
	}
	for i, h := range forged {
		if r := s.Do("POST", "/v1/webhooks", body, h); r.Status != 403 || r.Code() != "FORBIDDEN" {
			t.Fatalf("forged create %d: %d %s", i, r.Status, r.Body)
		}
	}
	if r := ses.Do("GET", "/v1/webhooks", nil); r.Status != 200 || !strings.Contains(string(r.Body), `"webhooks":[]`) {
		t.Fatalf("a forged create stored an endpoint: %d %s", r.Status, r.Body)
	}

	r := ses.Do("POST", "/v1/webhooks", body)
	if r.Status != 201 {
		t.Fatalf("create with the session: %d %s", r.Status, r.Body)
	}
	hook := decode[createdHook](t, r.Body)
	// A read needs the cookie only (no token, no Origin), like GET /v1/account.
	if r := s.Do("GET", "/v1/webhooks/"+hook.ID, nil, map[string]string{"Cookie": ses.Cookie}); r.Status != 200 {
		t.Fatalf("read with the cookie only: %d %s", r.Status, r.Body)
	}
	// The test account's key does not see the session account's endpoint,
	// and the session does not see the key account's.
	if r := s.Get("/v1/webhooks/" + hook.ID); r.Status != 404 || r.Code() != "NOT_FOUND" {
		t.Fatalf("another account's key reads the endpoint: %d %s", r.Status, r.Body)
	}
	keyed := decode[createdHook](t, createTarget(s, rc.url+"/keyed").Body)
	if r := ses.Do("GET", "/v1/webhooks/"+keyed.ID, nil); r.Status != 404 {
		t.Fatalf("the session reads another account's endpoint: %d %s", r.Status, r.Body)
	}
	for _, path := range []string{"/v1/webhooks/" + hook.ID + "/test", "/v1/webhooks/" + hook.ID + "/rotate-secret"} {
		if r := s.Do("POST", path, []byte(`{}`), forged[0]); r.Status != 403 || r.Code() != "FORBIDDEN" {
			t.Fatalf("POST %s without the CSRF token: %d %s", path, r.Status, r.Body)
		}
	}
	if r := s.Do("DELETE", "/v1/webhooks/"+hook.ID, nil, forged[0]); r.Status != 403 {
		t.Fatalf("DELETE without the CSRF token: %d %s", r.Status, r.Body)
	}
	if got := rc.deliveries(); len(got) != 0 {
		t.Fatalf("forged calls made %d deliveries", len(got))
	}

	r = ses.Do("POST", "/v1/webhooks/"+hook.ID+"/test", nil)
	if r.Status != 200 {
		t.Fatalf("test with the session: %d %s", r.Status, r.Body)
	}
	sent := decode[struct{ DeliveryID string }](t, r.Body)
	d := rc.waitFor(t, 1)[0]
	if d.event != "test.ping" || d.id != sent.DeliveryID || !d.signedWith(hook.Secret) {
		t.Fatalf("test delivery %+v (%s), want test.ping %s signed with the secret shown", d, d.body, sent.DeliveryID)
	}

	// A session never submits or cancels orders: those routes take a key.
	for _, m := range []string{"POST /v1/orders", "DELETE /v1/orders/0x" + strings.Repeat("ab", 32)} {
		method, path, _ := strings.Cut(m, " ")
		if r := ses.Do(method, path, []byte(`{}`)); r.Status != 401 || r.Code() != "UNAUTHORIZED" {
			t.Fatalf("%s with a session: %d %s, want 401", m, r.Status, r.Body)
		}
	}

	if r := ses.Do("DELETE", "/v1/webhooks/"+hook.ID, nil); r.Status != 200 {
		t.Fatalf("delete with the session: %d %s", r.Status, r.Body)
	}
	// After sign-out the cookie manages nothing.
	if r := ses.Do("POST", "/v1/auth/signout", nil); r.Status != 200 {
		t.Fatalf("sign out: %d %s", r.Status, r.Body)
	}
	if r := ses.Do("GET", "/v1/webhooks", nil); r.Status != 401 {
		t.Fatalf("list after sign-out: %d %s", r.Status, r.Body)
	}
}

// TestCreateWebhookRefusesUnknownFields: the create body has url and
// events only; a wallets field (there is no per-endpoint wallet filter:
// an endpoint covers every order of the account's keys and linked wallets)
// or any other is 400 INVALID_REQUEST naming it, and nothing is created.
func TestCreateWebhookRefusesUnknownFields(t *testing.T) {
	s := targetServer(t, true)
	key := map[string]string{"X-API-Key": s.APIKey}
	for body, want := range map[string]string{
		`{"url":"http://127.0.0.1:9/a","wallets":["0x1000000000000000000000000000000000000001"]}`: "linked wallets",
		`{"url":"http://127.0.0.1:9/a","secret":"whsec_mine"}`:                                    `unknown field "secret"`,
	} {
		r := s.Do("POST", "/v1/webhooks", []byte(body), key)
		var e struct{ Error string }
		decodeJSON(t, r.Body, &e)
		if r.Status != 400 || r.Code() != "INVALID_REQUEST" || !strings.Contains(e.Error, want) {
			t.Errorf("%s: %d %s, want 400 INVALID_REQUEST saying %q", body, r.Status, r.Body, want)
		}
	}
	if r := s.Get("/v1/webhooks"); !strings.Contains(string(r.Body), `"webhooks":[]`) {
		t.Fatalf("a refused create stored an endpoint: %s", r.Body)
	}
}

func decodeJSON(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
}

// otherKey returns an API key of a new account of s.
func otherKey(t *testing.T, s *apptest.Server) map[string]string {
	t.Helper()
	acct, err := s.System.Accounts.CreateAccount("other", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	k, _, err := s.System.Accounts.IssueKey(acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"X-API-Key": k}
}
