package webhook_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/actors/webhook"
)

func TestSignFormat(t *testing.T) {
	at := time.Unix(1_763_812_800, 0)
	body := []byte(`{"id":"evt_1","trigger":"test.ping"}`)
	got := webhook.Sign("whsec_abc", at, body)
	// Independent recomputation of HMAC-SHA256(secret, "<t>.<body>").
	h := hmac.New(sha256.New, []byte("whsec_abc"))
	h.Write([]byte("1763812800." + string(body)))
	want := "t=1763812800,v1=" + hex.EncodeToString(h.Sum(nil))
	if got != want {
		t.Fatalf("Sign = %q, want %q", got, want)
	}
	if strings.Contains(got, " ") || strings.ToLower(got) != got {
		t.Fatalf("header must be lowercase hex without spaces: %q", got)
	}
}

func TestVerify(t *testing.T) {
	now := time.Unix(1_763_812_800, 0)
	body := []byte(`{"id":"evt_1","trigger":"order.filled","data":{"amountIn":"1"}}`)
	secret := "whsec_0123456789abcdef"
	header := webhook.Sign(secret, now, body)
	tol := webhook.DefaultTolerance
	cases := []struct {
		name   string
		header string
		body   []byte
		secret string
		now    time.Time
		want   error
	}{
		{"valid", header, body, secret, now, nil},
		{"valid at the edge of the past window", header, body, secret, now.Add(tol), nil},
		{"valid at the edge of the future window", header, body, secret, now.Add(-tol), nil},
		{"tampered body", header, []byte(strings.Replace(string(body), `"1"`, `"2"`, 1)), secret, now, webhook.ErrSignatureMismatch},
		{"tampered timestamp", strings.Replace(header, "t=1763812800", "t=1763812801", 1), body, secret, now, webhook.ErrSignatureMismatch},
		{"wrong secret", header, body, "whsec_other", now, webhook.ErrSignatureMismatch},
		{"too old", header, body, secret, now.Add(tol + time.Second), webhook.ErrSignatureTimestamp},
		{"from the future", header, body, secret, now.Add(-tol - time.Second), webhook.ErrSignatureTimestamp},
		{"no v1", "t=1763812800", body, secret, now, webhook.ErrSignatureMalformed},
		{"no t", header[strings.Index(header, "v1="):], body, secret, now, webhook.ErrSignatureMalformed},
		{"bad hex", "t=1763812800,v1=zz", body, secret, now, webhook.ErrSignatureMalformed},
		{"garbage", "nonsense", body, secret, now, webhook.ErrSignatureMalformed},
		{"rotation: second v1 matches", header + ",v1=" + strings.Repeat("0", 64), body, secret, now, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := webhook.Verify(c.header, c.body, c.secret, c.now, tol)
			if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
				t.Fatalf("Verify = %v, want %v", err, c.want)
			}
		})
	}
}
