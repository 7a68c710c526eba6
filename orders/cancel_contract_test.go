package orders_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"math/big"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence/chainstore"
)

// signCancel signs OrderCancel(orderHash) under domain with key, v as 27/28.
func signCancel(t *testing.T, domain *chain.Domain, orderHash common.Hash, key *ecdsa.PrivateKey) []byte {
	t.Helper()
	d := chain.CancelHash(domain, orderHash)
	sig, err := crypto.Sign(d[:], key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return sig
}

func cancelBody(sig []byte) []byte {
	b, _ := json.Marshal(map[string]string{"signature": hexutil.Encode(sig)})
	return b
}

// TestCancelContract checks DELETE /v1/orders/{hash} against the
// specification and docs/orders.md: only the maker's OrderCancel under the
// router's domain cancels; a pending order only (409 NOT_CANCELLABLE
// otherwise, an already cancelled order included); 404 for an
// unknown hash; the order leaves the book and moves between the
// status-filtered lists at once.
func TestCancelContract(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	reg := e.svc().Registry()
	key := newKey(t)
	maker := crypto.PubkeyToAddress(key.PublicKey)
	h := e.submit(defaultSpec("limit", key))
	other := e.submit(defaultSpec("stop_loss", key))
	del := func(hash string, body []byte) *apptest.Response {
		return e.srv.Do("DELETE", "/v1/orders/"+hash, body, map[string]string{"X-API-Key": e.srv.APIKey})
	}
	good := signCancel(t, e.domain, h, key)
	highS := slices.Clone(good) // the same signature with s' = n − s, v flipped
	s := new(big.Int).SetBytes(highS[32:64])
	new(big.Int).Sub(crypto.S256().Params().N, s).FillBytes(highS[32:64])
	highS[64] ^= 1
	compact := slices.Clone(good[:64]) // EIP-2098: yParity in the top bit of s
	compact[32] |= (good[64] - 27) << 7
	vZero := slices.Clone(good)
	vZero[64] -= 27
	refused := []struct {
		name   string
		body   []byte
		status int
		code   string
	}{
		{"no body", nil, 400, "INVALID_REQUEST"},
		{"not JSON", []byte(`signature=0x00`), 400, "INVALID_REQUEST"},
		{"no signature", []byte(`{}`), 400, "INVALID_REQUEST"},
		{"empty signature", []byte(`{"signature":""}`), 400, "INVALID_REQUEST"},
		{"signature not a string", []byte(`{"signature":65}`), 400, "INVALID_REQUEST"},
		{"signature not hex", []byte(`{"signature":"0xzz"}`), 400, "INVALID_REQUEST"},
		{"signature without 0x", []byte(`{"signature":"` + hexutil.Encode(good)[2:] + `"}`), 400, "INVALID_REQUEST"},
		{"signature too short", cancelBody(good[:40]), 400, "BAD_SIGNATURE"},
		{"signature with a bad v", cancelBody(append(slices.Clone(good[:64]), 29)), 400, "BAD_SIGNATURE"},
		{"high-s signature", cancelBody(highS), 400, "BAD_SIGNATURE"},
		{"another signer", cancelBody(signCancel(t, e.domain, h, newKey(t))), 400, "BAD_SIGNATURE"},
		{"the maker's cancel of another order", cancelBody(signCancel(t, e.domain, other, key)), 400, "BAD_SIGNATURE"},
		{"another chain id", cancelBody(signCancel(t, chain.NewRouterDomain(1, routerAddr), h, key)), 400, "BAD_SIGNATURE"},
		{"another router", cancelBody(signCancel(t, chain.NewRouterDomain(4663, tokC), h, key)), 400, "BAD_SIGNATURE"},
		{"domain version 6", cancelBody(signCancel(t, chain.NewDomain("ServiceRouter", "6", 4663, routerAddr), h, key)), 400, "BAD_SIGNATURE"},
		{"another domain name", cancelBody(signCancel(t, chain.NewDomain("OtherRouter", "7", 4663, routerAddr), h, key)), 400, "BAD_SIGNATURE"},
	}
	for _, c := range refused {
		r := del(h.Hex(), c.body)
		if r.Status != c.status || r.Code() != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, r.Status, r.Body, c.status, c.code)
		}
		limitHeaders(t, c.name, r)
	}
	// The messages say what to send: the body's shape, and the hash the
	// OrderCancel must sign.
	if r := del(h.Hex(), nil); !strings.Contains(string(r.Body), "CancelOrderRequest") {
		t.Errorf("no body: %s", r.Body)
	}
	if r := del(h.Hex(), cancelBody(signCancel(t, e.domain, other, key))); !strings.Contains(string(r.Body), "orderHash "+h.Hex()) {
		t.Errorf("the maker's cancel of another order: %s", r.Body)
	}
	if r := del("0x12", cancelBody(good)); r.Status != 400 || r.Code() != "INVALID_REQUEST" {
		t.Fatalf("malformed hash: %d %s", r.Status, r.Body)
	}
	if r := del("0x"+strings.Repeat("ab", 32), cancelBody(good)); r.Status != 404 || r.Code() != "NOT_FOUND" {
		t.Fatalf("unknown hash: %d %s", r.Status, r.Body)
	}
	if rec := e.get(h); rec["status"] != "pending" {
		t.Fatalf("a refused cancel changed the order: %v", rec["status"])
	}
	pair := "/v1/orderbook/" + tokA.Hex() + "-" + tokB.Hex() + "?"
	if !slices.Contains(e.walk(pair, 500), h.Hex()) || !slices.Contains(e.walk("/v1/orders?status=pending&", 500), h.Hex()) {
		t.Fatal("the pending order is not listed")
	}
	// The maker's cancel, in each accepted signature form: the first
	// cancels, the others answer 409 NOT_CANCELLABLE (the order is no
	// longer pending) and change nothing (no second transition: updatedAt
	// stays).
	var cancelledAt any
	for i, sig := range [][]byte{good, vZero, compact, good} {
		r := del(h.Hex(), cancelBody(sig))
		if i == 0 && (r.Status != 200 || string(r.Body) != `{"success":true}`) {
			t.Fatalf("cancel %d: %d %s", i, r.Status, r.Body)
		}
		if i > 0 && (r.Status != 409 || r.Code() != "NOT_CANCELLABLE") {
			t.Fatalf("cancel %d of a cancelled order: %d %s, want 409 NOT_CANCELLABLE", i, r.Status, r.Body)
		}
		if i == 0 {
			cancelledAt = e.get(h)["updatedAt"]
		} else if at := e.get(h)["updatedAt"]; at != cancelledAt {
			t.Fatalf("repeated cancel %d moved updatedAt from %v to %v", i, cancelledAt, at)
		}
		e.clk.Advance(time.Second)
	}
	if r := del(h.Hex(), cancelBody(signCancel(t, e.domain, h, newKey(t)))); r.Status != 400 || r.Code() != "BAD_SIGNATURE" {
		t.Fatalf("another signer on a cancelled order: %d %s", r.Status, r.Body)
	}
	rec := e.get(h)
	if rec["status"] != "cancelled" {
		t.Fatalf("status %v", rec["status"])
	}
	if slices.Contains(e.walk(pair, 500), h.Hex()) {
		t.Fatal("the cancelled order is still in the orderbook")
	}
	if slices.Contains(e.walk("/v1/orders?status=pending&", 500), h.Hex()) ||
		!slices.Contains(e.walk("/v1/orders?status=cancelled&wallet="+maker.Hex()+"&", 500), h.Hex()) ||
		!slices.Contains(e.walk("/v1/orders?status=cancelled&orderType=limit&", 500), h.Hex()) {
		t.Fatal("the cancelled order did not move from the pending to the cancelled lists")
	}
	// Every other status: 409 NOT_CANCELLABLE, unchanged, an order
	// cancelled on-chain included.
	now := e.clk.Now()
	for _, c := range []struct {
		status string
		move   func(common.Hash) error
	}{
		{"active", func(h common.Hash) error { _, err := e.chainActivate(h, now); return err }},
		{"filled", func(h common.Hash) error {
			_, err := e.chainFillOf(h, testFill(1, 0, "1000000000000000000", "1", "1000000000000000000", 1, now))
			return err
		}},
		{"expired", func(h common.Hash) error { _, err := reg.Expire(ctx, h, chainstore.View{}, now); return err }},
		{"failed", func(h common.Hash) error { _, err := reg.Fail(ctx, h, "no route", "", now); return err }},
		{"cancelled", func(h common.Hash) error {
			_, err := e.chainCancel(h, hashOf("cd"), now)
			return err
		}},
	} {
		k := newKey(t)
		h := e.submit(defaultSpec("limit", k))
		if err := c.move(h); err != nil {
			t.Fatal(err)
		}
		r := del(h.Hex(), cancelBody(signCancel(t, e.domain, h, k)))
		if r.Status != 409 || r.Code() != "NOT_CANCELLABLE" {
			t.Errorf("cancel of a %s order: %d %s", c.status, r.Status, r.Body)
		}
		if rec := e.get(h); rec["status"] != c.status {
			t.Errorf("cancel changed a %s order to %v", c.status, rec["status"])
		}
	}
	e.consistent()
}

// The API key only attributes and limits (specification sections 1 and
// 5): any account's key relays the maker's cancel, so the operation
// documents no 403.
func TestCancelByAnotherAccountsKey(t *testing.T) {
	e := newEnv(t)
	key := newKey(t)
	h := e.submit(defaultSpec("limit", key))
	acct, err := e.srv.System.Accounts.CreateAccount("relayer", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := e.srv.System.Accounts.IssueKey(acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	r := e.srv.Do("DELETE", "/v1/orders/"+h.Hex(), cancelBody(signCancel(t, e.domain, h, key)), map[string]string{"X-API-Key": other})
	if r.Status != 200 || string(r.Body) != `{"success":true}` {
		t.Fatalf("cancel relayed by another account: %d %s", r.Status, r.Body)
	}
	doc, err := apptest.LoadDocument(context.Background(), e.srv.Do("GET", "/v1/openapi.json", nil, nil).Body)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Paths.Find("/v1/orders/{hash}").Delete.Responses.Status(403) != nil {
		t.Fatal("the OpenAPI document lists a 403 the cancel never answers")
	}
}

// Concurrent cancels of one pending order: exactly one answers 200, the
// others 409 NOT_CANCELLABLE; the order is cancelled once and the store
// stays consistent.
func TestConcurrentCancels(t *testing.T) {
	e := newEnv(t)
	key := newKey(t)
	h := e.submit(defaultSpec("limit", key))
	body := cancelBody(signCancel(t, e.domain, h, key))
	var wg sync.WaitGroup
	answers := make([]*apptest.Response, 8)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = e.srv.Do("DELETE", "/v1/orders/"+h.Hex(), body, map[string]string{"X-API-Key": e.srv.APIKey})
		}()
	}
	wg.Wait()
	ok := 0
	for i, r := range answers {
		switch {
		case r.Status == 200:
			ok++
		case r.Status != 409 || r.Code() != "NOT_CANCELLABLE":
			t.Fatalf("cancel %d: %d %s", i, r.Status, r.Body)
		}
	}
	if ok != 1 {
		t.Fatalf("%d cancels answered 200, want exactly one", ok)
	}
	if rec := e.get(h); rec["status"] != "cancelled" {
		t.Fatalf("status %v", rec["status"])
	}
	if n := len(e.walk("/v1/orders?status=cancelled&", 500)); n != 1 {
		t.Fatalf("%d cancelled orders listed", n)
	}
	e.consistent()
}
