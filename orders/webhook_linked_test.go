package orders_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	nethttp "net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/accounts/accountstest"
)

// signedEvents is a webhook receiver on loopback that keeps the events
// whose signature it verified, with its own HMAC code, against secret.
type signedEvents struct {
	url    string
	secret string
	mu     sync.Mutex
	events []string // "trigger orderHash delivery-id"
	bad    int
}

func newSignedEvents(t *testing.T) *signedEvents {
	t.Helper()
	rc := &signedEvents{}
	hs := httptest.NewServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		body, _ := io.ReadAll(r.Body)
		var ev struct {
			Trigger string `json:"trigger"`
			Data    struct {
				OrderHash string `json:"orderHash"`
			} `json:"data"`
		}
		_ = json.Unmarshal(body, &ev)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if !signed(r.Header.Get("X-Service-Signature"), body, rc.secret) {
			rc.bad++
			w.WriteHeader(400)
			return
		}
		rc.events = append(rc.events, ev.Trigger+" "+ev.Data.OrderHash+" "+r.Header.Get("X-Service-Delivery"))
		w.WriteHeader(204)
	}))
	t.Cleanup(hs.Close)
	rc.url = hs.URL + "/hook"
	return rc
}

// signed reports whether one v1 of header is HMAC-SHA256(secret, t.body).
func signed(header string, body []byte, secret string) bool {
	var ts string
	var v1 []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		if k == "t" {
			ts = v
		} else if k == "v1" {
			v1 = append(v1, v)
		}
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	want := hex.EncodeToString(mac.Sum(nil))
	for _, s := range v1 {
		if s == want {
			return ts != ""
		}
	}
	return false
}

// received returns how many verified deliveries of trigger for hash came.
func (rc *signedEvents) received(trigger string, hash common.Hash) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	n := 0
	for _, ev := range rc.events {
		if strings.HasPrefix(ev, trigger+" "+hash.Hex()+" ") {
			n++
		}
	}
	return n
}

// TestLinkedWalletOrdersReachTheAccountsWebhooks: an account's webhook
// endpoints receive the events of the orders whose maker is one of its
// linked wallets, whichever key submitted them: an order of a wallet
// linked to account B, submitted and cancelled with account A's key,
// reaches A's endpoint and B's, signed with each one's secret and under
// one delivery id. An order of B's linked wallet submitted with B's own
// key reaches B's endpoint once. After B unlinks the wallet, its next
// orders reach A's endpoint only. All of it through the real server: B
// signs in, makes a key, registers its endpoint and links the wallet with
// the wallet's signature.
func TestLinkedWalletOrdersReachTheAccountsWebhooks(t *testing.T) {
	e := newEnv(t)
	e.clk.Set(time.Now()) // sign-in messages carry the real time
	makerKey := newKey(t)
	maker := crypto.PubkeyToAddress(makerKey.PublicKey)
	// Account A: the test account, its key submits.
	a := newSignedEvents(t)
	r := e.srv.Do("POST", "/v1/webhooks", []byte(`{"url":"`+a.url+`"}`), map[string]string{"X-API-Key": e.srv.APIKey})
	if r.Status != 201 {
		t.Fatalf("A's webhook: %d %s", r.Status, r.Body)
	}
	a.secret = secretOf(t, r.Body)

	// Account B: signs in with its own wallet, makes a key, registers its
	// endpoint with it and links the maker's wallet.
	ownerKey := newKey(t)
	ses := accountstest.SignIn(t, e.srv, crypto.PubkeyToAddress(ownerKey.PublicKey), ownerKey)
	r = ses.Do("POST", "/v1/account/keys", []byte(`{"name":"bot"}`))
	var k struct{ Key string }
	if err := json.Unmarshal(r.Body, &k); err != nil || r.Status != 201 || k.Key == "" {
		t.Fatalf("B's key: %d %s", r.Status, r.Body)
	}
	bKey := map[string]string{"X-API-Key": k.Key}
	b := newSignedEvents(t)
	r = e.srv.Do("POST", "/v1/webhooks", []byte(`{"url":"`+b.url+`","events":["order.cancelled"]}`), bKey)
	if r.Status != 201 {
		t.Fatalf("B's webhook: %d %s", r.Status, r.Body)
	}
	b.secret = secretOf(t, r.Body)
	if r := ses.Link(maker, makerKey); r.Status != 201 {
		t.Fatalf("link the maker to B: %d %s", r.Status, r.Body)
	}

	// Submitted and cancelled with A's key.
	h := e.submit(defaultSpec("limit", makerKey))
	if r := e.cancel(h, makerKey); r.Status != 200 {
		t.Fatalf("cancel: %d %s", r.Status, r.Body)
	}
	waitFor(t, func() bool { return a.received("order.cancelled", h) == 1 && b.received("order.cancelled", h) == 1 })
	idOf := func(rc *signedEvents) string {
		rc.mu.Lock()
		defer rc.mu.Unlock()
		for _, ev := range rc.events {
			if strings.HasPrefix(ev, "order.cancelled "+h.Hex()) {
				return ev[strings.LastIndex(ev, " ")+1:]
			}
		}
		return ""
	}
	if ida, idb := idOf(a), idOf(b); ida == "" || ida != idb {
		t.Fatalf("delivery ids %q (A) and %q (B): want one event id", ida, idb)
	}

	// Submitted and cancelled with B's own key: B's endpoint gets it once.
	body, h2 := e.build(defaultSpec("limit", makerKey))
	if r := e.srv.Do("POST", "/v1/orders", body, bKey); r.Status != 201 {
		t.Fatalf("submit with B's key: %d %s", r.Status, r.Body)
	}
	if r := e.srv.Do("DELETE", "/v1/orders/"+h2.Hex(), e.cancelBody(h2, makerKey), bKey); r.Status != 200 {
		t.Fatalf("cancel with B's key: %d %s", r.Status, r.Body)
	}
	waitFor(t, func() bool { return b.received("order.cancelled", h2) == 1 })

	// Unlinked: the next order of the wallet reaches A only.
	if r := ses.Do("DELETE", "/v1/account/wallets/"+maker.Hex(), nil); r.Status != 200 {
		t.Fatalf("unlink: %d %s", r.Status, r.Body)
	}
	h3 := e.submit(defaultSpec("limit", makerKey))
	if r := e.cancel(h3, makerKey); r.Status != 200 {
		t.Fatalf("cancel: %d %s", r.Status, r.Body)
	}
	waitFor(t, func() bool { return a.received("order.cancelled", h3) == 1 })
	// B's outbox row of the event, had there been one, was written in the
	// batch of A's: it is not in B's outbox, and B's delivery log (every
	// delivery made for the endpoint) holds only the two earlier events.
	rows, err := e.srv.System.Outbox.ScanRows(ses.AccountID, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		if strings.Contains(string(row.JSON), h3.Hex()) {
			t.Fatalf("the event of an order made after the unlink went to B's outbox: %s", row.JSON)
		}
	}
	var list struct{ Webhooks []struct{ ID string } }
	if err := json.Unmarshal(e.srv.Do("GET", "/v1/webhooks", nil, bKey).Body, &list); err != nil || len(list.Webhooks) != 1 {
		t.Fatalf("B's webhooks: %v", err)
	}
	var log struct{ Deliveries []struct{ ID, Event string } }
	if err := json.Unmarshal(e.srv.Do("GET", "/v1/webhooks/"+list.Webhooks[0].ID+"/deliveries", nil, bKey).Body, &log); err != nil || len(log.Deliveries) != 2 {
		t.Fatalf("B's deliveries %+v (%v), want the 2 events before the unlink", log.Deliveries, err)
	}
	if got := b.received("order.cancelled", h) + b.received("order.cancelled", h2) + b.received("order.cancelled", h3); got != 2 || b.bad != 0 || a.bad != 0 {
		t.Fatalf("B received %d events, want 2; bad signatures A %d B %d", got, a.bad, b.bad)
	}
}

// secretOf reads the secret of a create answer.
func secretOf(t *testing.T, body []byte) string {
	t.Helper()
	var c struct{ Secret string }
	if err := json.Unmarshal(body, &c); err != nil || !strings.HasPrefix(c.Secret, "whsec_") {
		t.Fatalf("create answer %s", body)
	}
	return c.Secret
}
