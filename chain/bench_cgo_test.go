//go:build !nacl && !js && !wasip1 && cgo && !gofuzz && !tinygo

package chain

import (
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto/secp256k1"
)

// BenchmarkRecoverLibsecp256k1 calls go-ethereum's cgo binding of
// libsecp256k1 directly, which crypto.Ecrecover calls in cgo builds: timings
// equal to BenchmarkRecover/crypto.Ecrecover show libsecp256k1 is in use.
func BenchmarkRecoverLibsecp256k1(b *testing.B) {
	v := loadVectors(b).Orders[0]
	sig := hexutil.MustDecode(v.Signature)
	sig[64] -= 27
	b.ReportAllocs()
	for b.Loop() {
		if _, err := secp256k1.RecoverPubkey(v.Hash[:], sig); err != nil {
			b.Fatal(err)
		}
	}
	reportPerCore(b)
}
