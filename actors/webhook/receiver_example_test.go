package webhook_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/orderengine/orderengine/actors/webhook"
)

// The receiver example (docs/examples/webhook-receiver) verifies with its
// own code, not this package's: its tests accept the signed deliveries of
// its testdata/signatures.json. Here the engine's signer must produce
// exactly those headers, so a change of the signature scheme fails until
// the example (and every receiver built from it) is changed too.
func TestSignerMatchesTheReceiverExampleVectors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "examples", "webhook-receiver", "testdata", "signatures.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vectors []struct {
		Name, Secret, Body, Header string
		T                          int64
	}
	if err := json.Unmarshal(b, &vectors); err != nil {
		t.Fatal(err)
	}
	if len(vectors) == 0 {
		t.Fatal("no vectors")
	}
	for _, v := range vectors {
		at := time.Unix(v.T, 0)
		if got := webhook.Sign(v.Secret, at, []byte(v.Body)); got != v.Header {
			t.Errorf("%s: Sign = %q, the example verifies %q", v.Name, got, v.Header)
		}
		if err := webhook.Verify(v.Header, []byte(v.Body), v.Secret, at, webhook.DefaultTolerance); err != nil {
			t.Errorf("%s: Verify: %v", v.Name, err)
		}
	}
}
