package accountstore

import (
	"crypto/sha256"
	"hash/crc32"
	"strings"
	"unsafe"

	"github.com/orderengine/orderengine/persistence"
)

// API key format
//
//	svc_<32 base62 random><6 base62 CRC32>
//
// A key is the fixed prefix "svc_", 32 characters drawn uniformly from
// [0-9A-Za-z] with crypto/rand (about 190 bits of entropy), and a 6-character
// checksum: the CRC-32 (IEEE) of the prefix and the random part, written in
// base62 and left-padded with '0'. The whole key is 42 characters.
//
// The prefix and checksum let secret scanners recognise a leaked key without
// false positives, and let the server reject a mistyped key before any
// lookup. The checksum is not a secret and adds no security.
//
// Only SHA-256(key) is stored. A salted slow hash (bcrypt, argon2) defends
// low-entropy passwords against offline guessing; with 190 random bits
// guessing is already hopeless, and a fast unsalted hash lets the server look
// a presented key up directly by its hash (the h/ prefix) in one Get, with no
// per-key salt to try. The lookup is therefore by hash, never by comparing
// secrets: its timing depends only on the SHA-256 of the presented key, and
// learning how a map or an LSM tree orders hashes reveals nothing about a
// stored key's preimage. There is no byte-wise comparison of a secret that
// could leak a prefix.
const (
	// KeyPrefix is the brand prefix every API key starts with.
	KeyPrefix = "svc_"
	// keyRandomLen is the number of random base62 characters.
	keyRandomLen = 32
	// keyChecksumLen is the number of base62 checksum characters.
	keyChecksumLen = 6
	// KeyLen is the total length of an API key.
	KeyLen = len(KeyPrefix) + keyRandomLen + keyChecksumLen
)

// NewAPIKey returns a fresh random API key in the documented format.
func NewAPIKey() string {
	var b strings.Builder
	b.Grow(KeyLen)
	b.WriteString(KeyPrefix)
	b.WriteString(persistence.RandomBase62(keyRandomLen))
	sum := crc32.ChecksumIEEE([]byte(b.String()))
	b.WriteString(encodeBase62(uint64(sum), keyChecksumLen))
	return b.String()
}

// WellFormedAPIKey reports whether key has the prefix, length, alphabet and a
// matching checksum. It is a cheap filter, not authentication.
func WellFormedAPIKey(key string) bool {
	if len(key) != KeyLen || !strings.HasPrefix(key, KeyPrefix) {
		return false
	}
	for i := len(KeyPrefix); i < KeyLen; i++ {
		if !isBase62(key[i]) {
			return false
		}
	}
	v := uint64(crc32.Update(0, crc32.IEEETable, unsafeBytes(key[:KeyLen-keyChecksumLen])))
	for i := KeyLen - 1; i >= KeyLen-keyChecksumLen; i-- {
		if key[i] != persistence.Base62[v%62] {
			return false
		}
		v /= 62
	}
	return true
}

// unsafeBytes views s as bytes without copying; the bytes must not be
// modified (crc32 only reads them).
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// HashAPIKey returns the stored form of key.
func HashAPIKey(key string) [32]byte { return sha256.Sum256([]byte(key)) }

func encodeBase62(v uint64, width int) string {
	out := make([]byte, width)
	for i := width - 1; i >= 0; i-- {
		out[i] = persistence.Base62[v%62]
		v /= 62
	}
	return string(out)
}

func isBase62(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
}
