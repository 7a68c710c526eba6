package accounts

import (
	"crypto/rand"
	"sync"
	"time"
)

// nonces holds the outstanding sign-in nonces in memory: each is usable
// once, until it expires. They are not persisted (a restart invalidates
// them: the client asks for a fresh one) and never written per request, so
// anonymous nonce requests cost no disk writes; at most max are held, the
// oldest dropped first.
type nonces struct {
	ttl time.Duration
	max int

	mu    sync.Mutex
	exp   map[string]time.Time
	order []string // issue order, for expiry and eviction
}

func newNonces(ttl time.Duration, max int) *nonces {
	return &nonces{ttl: ttl, max: max, exp: make(map[string]time.Time)}
}

const nonceAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// issue returns a fresh nonce of 24 alphanumeric characters (142 bits).
func (n *nonces) issue(now time.Time) (string, time.Time) {
	var raw [24]byte
	out := make([]byte, 0, len(raw))
	for len(out) < len(raw) {
		if _, err := rand.Read(raw[:]); err != nil {
			panic("accounts: crypto/rand failed: " + err.Error())
		}
		for _, c := range raw {
			if c < 248 && len(out) < cap(out) { // 248 = 4 × 62: uniform
				out = append(out, nonceAlphabet[c%62])
			}
		}
	}
	nonce, exp := string(out), now.Add(n.ttl)
	n.mu.Lock()
	defer n.mu.Unlock()
	n.dropLocked(now)
	n.exp[nonce] = exp
	n.order = append(n.order, nonce)
	return nonce, exp
}

// dropLocked forgets expired and used nonces at the front of the order,
// and the oldest ones beyond max.
func (n *nonces) dropLocked(now time.Time) {
	i := 0
	for ; i < len(n.order); i++ {
		nonce := n.order[i]
		exp, live := n.exp[nonce]
		if live && now.Before(exp) && len(n.exp) < n.max {
			break
		}
		delete(n.exp, nonce)
	}
	if i > 0 {
		n.order = append(n.order[:0], n.order[i:]...)
	}
}

// use consumes nonce: true once, while it has not expired.
func (n *nonces) use(nonce string, now time.Time) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	exp, ok := n.exp[nonce]
	if !ok {
		return false
	}
	delete(n.exp, nonce)
	return now.Before(exp)
}
