package webhook

import (
	"testing"
	"time"
)

// TestSenderSignMatchesSign checks the pooled signer against Sign, also
// after the secret changes (an endpoint re-created with a new secret).
func TestSenderSignMatchesSign(t *testing.T) {
	s := &sender{}
	at := time.Unix(1_700_000_000, 0)
	for _, secret := range []string{"whsec_one", "whsec_one", "whsec_two", "whsec_one"} {
		body := []byte(`{"id":"evt_1","secret":"` + secret + `"}`)
		if got, want := string(s.sign(nil, signers{current: secret}, at, body)), Sign(secret, at, body); got != want {
			t.Fatalf("sign(%s) = %s, want %s", secret, got, want)
		}
	}
}

// TestSenderSignsWithBothSecretsDuringAnOverlap: during a rotation's
// overlap a delivery carries one v1 per secret, the current one first, and
// Verify accepts it with either secret and refuses another.
func TestSenderSignsWithBothSecretsDuringAnOverlap(t *testing.T) {
	s := &sender{}
	at := time.Unix(1_700_000_000, 0)
	body := []byte(`{"id":"evt_1"}`)
	h := string(s.sign(nil, signers{current: "whsec_new", previous: "whsec_old"}, at, body))
	want := Sign("whsec_new", at, body) + ",v1=" + Sign("whsec_old", at, body)[len("t=1700000000,v1="):]
	if h != want {
		t.Fatalf("header %s, want %s", h, want)
	}
	for _, secret := range []string{"whsec_new", "whsec_old"} {
		if err := Verify(h, body, secret, at, DefaultTolerance); err != nil {
			t.Fatalf("verify with %s: %v", secret, err)
		}
	}
	if err := Verify(h, body, "whsec_other", at, DefaultTolerance); err != ErrSignatureMismatch {
		t.Fatalf("verify with another secret: %v", err)
	}
}
