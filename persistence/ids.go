package persistence

import "crypto/rand"

// Base62 is the alphabet of the store's random identifiers (accounts, API
// keys, events): [0-9A-Za-z].
const Base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewID returns prefix followed by n random base62 characters; used for
// account, key and event identifiers, which are public.
func NewID(prefix string, n int) string { return prefix + RandomBase62(n) }

// RandomBase62 returns n characters drawn uniformly from Base62 with
// crypto/rand.
func RandomBase62(n int) string {
	out := make([]byte, 0, n)
	var buf [64]byte
	for len(out) < n {
		if _, err := rand.Read(buf[:]); err != nil {
			panic("persistence: crypto/rand failed: " + err.Error())
		}
		for _, c := range buf {
			// 248 = 4*62: rejecting the top values keeps the draw uniform.
			if c < 248 && len(out) < n {
				out = append(out, Base62[c%62])
			}
		}
	}
	return string(out)
}
