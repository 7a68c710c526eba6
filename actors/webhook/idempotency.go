package webhook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/persistence/webhookstore"
)

// IdempotencyWindow is how long the answer of a create made with an
// Idempotency-Key is given again for the same key (contract.md section
// 10).
const IdempotencyWindow = 24 * time.Hour

// maxIdempotencyKey is the longest Idempotency-Key accepted.
const maxIdempotencyKey = 255

// idemRequest is a create made with an Idempotency-Key: its account, the
// key's SHA-256, the fingerprint of the request and when it was made. A
// create's answer is stored under the key in the batch that writes its
// endpoint (webhookstore.IdempotentCreate), sealed like the secrets: it
// holds the endpoint's secret.
type idemRequest struct {
	account          string
	key, fingerprint [32]byte
	at               time.Time
}

// newIdemRequest checks key and returns the create's idempotency request.
// The fingerprint covers the URL as sent and the subscription as checked
// (so an event list in another order is the same request).
func (m *Manager) newIdemRequest(accountID, key, rawURL string, events []string) (*idemRequest, error) {
	if len(key) > maxIdempotencyKey || strings.IndexFunc(key, func(r rune) bool { return r < 0x20 || r > 0x7e }) >= 0 {
		return nil, orderengine.Errorf(orderengine.CodeInvalidRequest,
			"Idempotency-Key must be 1 to %d printable ASCII characters (a UUID is a good choice)", maxIdempotencyKey)
	}
	h := sha256.New()
	h.Write([]byte(rawURL))
	for _, e := range events {
		h.Write([]byte{0})
		h.Write([]byte(e))
	}
	r := &idemRequest{account: accountID, key: sha256.Sum256([]byte(key)), at: m.clock.Now().UTC()}
	h.Sum(r.fingerprint[:0])
	return r, nil
}

// aad binds a sealed answer to its account and key.
func (r *idemRequest) aad() string {
	return "idempotency/" + r.account + "/" + hex.EncodeToString(r.key[:])
}

// lockCreates serialises the idempotent creates of an account (a stripe of
// the accounts), so that two requests with one key are answered one after
// the other: the second is the first's replay. It returns the unlock.
func (m *Manager) lockCreates(accountID string) func() {
	h := fnv.New32a()
	_, _ = h.Write([]byte(accountID))
	mu := &m.createLocks[h.Sum32()%uint32(len(m.createLocks))]
	mu.Lock()
	return mu.Unlock
}

// replay returns the answer stored under r's key when it is within the
// window: ok with the answer when r is the same request, an
// INVALID_REQUEST error when it is another. An older record is ignored
// (the create goes ahead and replaces it).
func (m *Manager) replay(r *idemRequest) (*CreatedView, bool, error) {
	rec, found, err := m.store.IdempotentCreate(r.account, r.key)
	if err != nil || !found || r.at.Sub(rec.At) >= IdempotencyWindow {
		return nil, false, err
	}
	if rec.Fingerprint != r.fingerprint {
		return nil, false, orderengine.Errorf(orderengine.CodeInvalidRequest,
			"this Idempotency-Key was used at %s for a create with another body: send a new key for another endpoint", rec.At.Format(time.RFC3339))
	}
	plain, err := m.sealer.open(r.aad(), rec.Answer)
	if err != nil {
		return nil, false, err
	}
	v := new(CreatedView)
	if err := json.Unmarshal([]byte(plain), v); err != nil {
		return nil, false, fmt.Errorf("webhook: decode a stored create answer: %w", err)
	}
	m.log.Info("webhook: create replayed for its Idempotency-Key", "endpoint", rec.EndpointID, "account", r.account)
	return v, true, nil
}

// idempotentAnswer returns the record that keeps created under r's key,
// to be written with the endpoint rec (nil when r is).
func (m *Manager) idempotentAnswer(r *idemRequest, rec *webhookstore.Endpoint, created *CreatedView) (*webhookstore.IdempotentCreate, error) {
	if r == nil {
		return nil, nil
	}
	body, err := json.Marshal(created)
	if err != nil {
		return nil, fmt.Errorf("webhook: encode a create answer: %w", err)
	}
	sealed, err := m.sealer.seal(r.aad(), string(body))
	if err != nil {
		return nil, err
	}
	return &webhookstore.IdempotentCreate{
		Key: r.key, Fingerprint: r.fingerprint, At: r.at, EndpointID: rec.ID, Answer: sealed,
		PurgeBefore: r.at.Add(-IdempotencyWindow),
	}, nil
}
