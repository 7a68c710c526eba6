//go:build !nacl && !js && !wasip1 && cgo && !gofuzz && !tinygo

package chain

// RecoveryBackend names the secp256k1 implementation behind crypto.Ecrecover
// in this build. The build constraint mirrors go-ethereum's
// crypto/signature_cgo.go, so this file is compiled exactly when Ecrecover is
// libsecp256k1 through cgo (about 3x faster than the pure-Go fallback).
const RecoveryBackend = "libsecp256k1 (cgo)"

// RecoveryUsesCgo reports whether crypto.Ecrecover uses libsecp256k1.
const RecoveryUsesCgo = true
