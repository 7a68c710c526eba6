package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const testSecret = "whsec_receiver_test_secret"

// signed builds a delivery as the engine sends it, signed now with secret
// (the header format of signature.go; the engine's own signer is checked
// against the same format through testdata/signatures.json).
func signed(secret, id, trigger, body string) *http.Request {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte(ts + "." + body))
	req := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(headerSignature, "t="+ts+",v1="+hex.EncodeToString(h.Sum(nil)))
	req.Header.Set(headerDelivery, id)
	req.Header.Set(headerEvent, trigger)
	return req
}

func newTestReceiver() *receiver {
	return &receiver{secret: testSecret, seen: map[string]bool{}, work: make(chan event, 8)}
}

func serve(r *receiver, req *http.Request) int {
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	return w.Code
}

// A verified delivery is acknowledged at once and handed on once: a retry
// of the same event id is acknowledged again but not handed on twice.
func TestReceiverAcknowledgesAndDedupes(t *testing.T) {
	r := newTestReceiver()
	body := `{"id":"evt_1","trigger":"order.filled","data":{}}`
	for i := range 2 {
		if code := serve(r, signed(testSecret, "evt_1", "order.filled", body)); code != http.StatusNoContent {
			t.Fatalf("delivery %d answered %d, want 204", i+1, code)
		}
	}
	if code := serve(r, signed(testSecret, "evt_2", "test.ping", `{"id":"evt_2"}`)); code != http.StatusNoContent {
		t.Fatalf("second event answered %d", code)
	}
	close(r.work)
	var got []event
	for ev := range r.work {
		got = append(got, ev)
	}
	if len(got) != 2 || got[0].ID != "evt_1" || got[0].Trigger != "order.filled" || string(got[0].Body) != body || got[1].ID != "evt_2" {
		t.Fatalf("handed on %+v, want evt_1 once then evt_2", got)
	}
}

func TestReceiverRefuses(t *testing.T) {
	r := newTestReceiver()
	body := `{"id":"evt_1"}`
	tampered := signed(testSecret, "evt_1", "order.filled", body)
	tampered.Body = http.NoBody
	get := signed(testSecret, "evt_1", "order.filled", body)
	get.Method = http.MethodGet
	for _, c := range []struct {
		name string
		req  *http.Request
		want int
	}{
		{"another secret", signed("whsec_other", "evt_1", "order.filled", body), http.StatusBadRequest},
		{"a body that is not the signed one", tampered, http.StatusBadRequest},
		{"no signature", httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(body)), http.StatusBadRequest},
		{"not a POST", get, http.StatusMethodNotAllowed},
	} {
		if code := serve(r, c.req); code != c.want {
			t.Errorf("%s: answered %d, want %d", c.name, code, c.want)
		}
	}
	if len(r.work) != 0 {
		t.Fatalf("%d refused deliveries were handed on", len(r.work))
	}
}

// The secret file is read when a delivery arrives: until it exists the
// receiver answers 503 (the engine retries), then it verifies with it.
func TestReceiverReadsTheSecretFileOnDemand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "secret")
	r := &receiver{secretFile: file, seen: map[string]bool{}, work: make(chan event, 1)}
	body := `{"id":"evt_1"}`
	if code := serve(r, signed(testSecret, "evt_1", "test.ping", body)); code != http.StatusServiceUnavailable {
		t.Fatalf("without a secret: %d, want 503", code)
	}
	if err := os.WriteFile(file, []byte(testSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := serve(r, signed(testSecret, "evt_1", "test.ping", body)); code != http.StatusNoContent {
		t.Fatalf("with the secret file: %d, want 204", code)
	}
}
