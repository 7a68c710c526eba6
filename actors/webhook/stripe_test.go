package webhook_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/actors/webhook"
)

// TestStripeVerifiesOurSignatures runs the pinned stripe npm package
// (testdata/stripe, installed by `make deps`) on headers we produced:
// Stripe.webhooks.signature.verifyHeader(rawBody, header, secret, 300)
// must accept them (with either secret when a rotation's overlap puts two
// v1 values in the header), and reject a tampered body, timestamp or
// secret.
// Under CI=true a missing node or node_modules is a failure, not a skip.
func TestStripeVerifiesOurSignatures(t *testing.T) {
	dir := filepath.Join("testdata", "stripe")
	node := requireNode(t)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "stripe")); err != nil {
		missing := "testdata/stripe/node_modules is missing: run `make deps` (npm ci --prefix actors/webhook/testdata/stripe)"
		if os.Getenv("CI") == "true" {
			t.Fatal(missing)
		}
		t.Skip(missing)
	}

	secret := "whsec_Zx8Jq2Lm4Np6Rt0Vw3Yb5Dc7Fg9Hk1Ms"
	now := time.Now()
	body := []byte(`{"id":"evt_abc","trigger":"order.filled","createdAt":"2026-11-22T12:00:00Z","data":{"amountIn":"1000","orderHash":"0x01","pair":"0xA-0xB"}}`)
	header := webhook.Sign(secret, now, body)
	ts := now.Unix()
	// During a secret rotation's overlap a delivery carries one v1 per
	// secret, the new one's first (TestSenderSignsWithBothSecretsDuringAnOverlap).
	const rotated = "whsec_Qp3Wm8Zk1Tx6Nv4Bj7Rc2Hd9Lf5Gs0Ya"
	both := webhook.Sign(rotated, now, body) + ",v1=" + strings.SplitN(header, ",v1=", 2)[1]
	type tc struct {
		name, body, header, secret string
		ok                         bool
	}
	cases := []tc{
		{"valid", string(body), header, secret, true},
		{"valid with unicode body", `{"note":"prix – 5 €"}`, webhook.Sign(secret, now, []byte(`{"note":"prix – 5 €"}`)), secret, true},
		{"tampered body", strings.Replace(string(body), `"1000"`, `"1001"`, 1), header, secret, false},
		{"tampered timestamp", string(body), strings.Replace(header, "t="+itoa(ts), "t="+itoa(ts+1), 1), secret, false},
		{"wrong secret", string(body), header, "whsec_other", false},
		{"stale (over 300 s)", string(body), webhook.Sign(secret, now.Add(-10*time.Minute), body), secret, false},
		{"rotation: the new secret", string(body), both, rotated, true},
		{"rotation: the old secret", string(body), both, secret, true},
		{"rotation: another secret", string(body), both, "whsec_other", false},
	}
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for _, c := range cases {
		if err := enc.Encode(map[string]string{"body": c.body, "header": c.header, "secret": c.secret}); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.CommandContext(t.Context(), node, "verify.js")
	cmd.Dir = dir
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node verify.js: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("got %d answers for %d cases:\n%s", len(lines), len(cases), out)
	}
	for i, c := range cases {
		if got := lines[i] == "ok"; got != c.ok {
			t.Errorf("%s: stripe said %q, want ok=%v", c.name, lines[i], c.ok)
		}
		// Our own verifier agrees with stripe on every case.
		err := webhook.Verify(c.header, []byte(c.body), c.secret, now, 300*time.Second)
		if (err == nil) != c.ok {
			t.Errorf("%s: Verify = %v, want ok=%v", c.name, err, c.ok)
		}
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
