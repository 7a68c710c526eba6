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
		if got, want := string(s.sign(nil, secret, at, body)), Sign(secret, at, body); got != want {
			t.Fatalf("sign(%s) = %s, want %s", secret, got, want)
		}
	}
}
