//go:build nacl || js || wasip1 || !cgo || gofuzz || tinygo

package chain

// RecoveryBackend names the secp256k1 implementation behind crypto.Ecrecover
// in this build: the pure-Go decred fallback, about 3x slower. Production
// builds keep cgo on.
const RecoveryBackend = "decred secp256k1 (pure Go)"

// RecoveryUsesCgo reports whether crypto.Ecrecover uses libsecp256k1.
const RecoveryUsesCgo = false
