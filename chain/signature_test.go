package chain

import (
	"bytes"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	orderengine "github.com/orderengine/orderengine"
)

func TestRecoverEthersSignatures(t *testing.T) {
	f := loadVectors(t)
	for _, v := range f.Orders {
		t.Run(v.Name, func(t *testing.T) {
			o := v.Order.parse(t)
			key, err := crypto.ToECDSA(hexutil.MustDecode(v.PrivateKey))
			if err != nil {
				t.Fatal(err)
			}
			if crypto.PubkeyToAddress(key.PublicKey) != o.Maker {
				t.Fatal("vector maker is not the key's address")
			}
			check := func(name string, digest common.Hash, raw []byte) {
				t.Helper()
				sig, err := ParseSignature(raw)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got, err := RecoverSigner(digest, sig)
				if err != nil || got != o.Maker {
					t.Fatalf("%s recovers to %s, %v; want maker %s", name, got.Hex(), err, o.Maker.Hex())
				}
			}
			full := hexutil.MustDecode(v.Signature)
			if full[64] != 27 && full[64] != 28 {
				t.Fatalf("ethers signature v = %d", full[64])
			}
			check("65-byte v27/28", v.Hash, full)
			zeroOne := bytes.Clone(full)
			zeroOne[64] -= 27
			check("65-byte v0/1", v.Hash, zeroOne)
			check("EIP-2098 compact", v.Hash, hexutil.MustDecode(v.SignatureCompact))
			check("v7.0 signature under the v7.0 digest", v.HashV70, hexutil.MustDecode(v.SignatureV70))
			check("cancel signature", v.CancelHash, hexutil.MustDecode(v.CancelSignature))

			sig, _ := ParseSignature(full)
			if !bytes.Equal(sig.Bytes(), full) {
				t.Errorf("Bytes() = %x, want %x", sig.Bytes(), full)
			}
			if !bytes.Equal(sig.Compact(), hexutil.MustDecode(v.SignatureCompact)) {
				t.Errorf("Compact() = %x, want ethers %s", sig.Compact(), v.SignatureCompact)
			}
			// Go's own signature of the same digest recovers too.
			own, err := crypto.Sign(v.Hash[:], key)
			if err != nil {
				t.Fatal(err)
			}
			check("crypto.Sign", v.Hash, own)
		})
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// secpNBig is the curve order as a big.Int, for building malleable signatures.
func secpNBig() *big.Int { return new(big.Int).SetBytes([]byte(secpN)) }

func TestParseSignatureRejects(t *testing.T) {
	f := loadVectors(t)
	good := hexutil.MustDecode(f.Orders[0].Signature)

	// The malleable twin: s' = N - s with the other parity.
	high := bytes.Clone(good)
	s := new(big.Int).SetBytes(good[32:64])
	new(big.Int).Sub(secpNBig(), s).FillBytes(high[32:64])
	high[64] = 55 - high[64] // 27 <-> 28

	// A compact signature whose s (without the parity bit) is high: only
	// values between N/2 and 2^255 can be written in the 2098 form.
	compactHigh := make([]byte, 64)
	copy(compactHigh, good[:32])
	copy(compactHigh[32:], bytes.Repeat([]byte{0xff}, 32))
	compactHigh[32] = 0x7f

	// The twin is a valid signature by the same key (that is the malleability
	// being refused).
	twin := bytes.Clone(high)
	twin[64] -= 27
	pub, err := crypto.Ecrecover(f.Orders[0].Hash[:], twin)
	if err != nil || crypto.PubkeyToAddress(*must(crypto.UnmarshalPubkey(pub))).Hex() != f.Orders[0].Order.Maker {
		t.Fatalf("the high-s twin does not recover to the maker: %v", err)
	}

	withV := func(v byte) []byte { b := bytes.Clone(good); b[64] = v; return b }
	withR := func(r []byte) []byte { b := bytes.Clone(good); copy(b[:32], r); return b }
	cases := []struct {
		name   string
		raw    []byte
		reason SignatureReason
		msg    string
	}{
		{"high s", high, ReasonHighS, "upper half"},
		{"compact high s", compactHigh, ReasonHighS, "upper half"},
		{"v 2", withV(2), ReasonMalformed, "v is 2"},
		{"v 26", withV(26), ReasonMalformed, "v is 26"},
		{"v 29", withV(29), ReasonMalformed, "v is 29"},
		{"empty", nil, ReasonMalformed, "0 bytes"},
		{"63 bytes", good[:63], ReasonMalformed, "63 bytes"},
		{"66 bytes", append(bytes.Clone(good), 0), ReasonMalformed, "66 bytes"},
		{"r zero", withR(make([]byte, 32)), ReasonMalformed, "r is out of range"},
		{"r = N", withR([]byte(secpN)), ReasonMalformed, "r is out of range"},
		{"s zero", append(append(bytes.Clone(good[:32]), make([]byte, 32)...), 27), ReasonMalformed, "s is zero"},
	}
	for _, c := range cases {
		_, err := ParseSignature(c.raw)
		reason, ok := SignatureReasonOf(err)
		e := orderengine.AsError(err)
		if !ok || reason != c.reason || e.Code != orderengine.CodeBadSignature || !strings.Contains(e.Message, c.msg) {
			t.Errorf("%s: err %v (reason %v); want BAD_SIGNATURE %v containing %q", c.name, err, reason, c.reason, c.msg)
		}
	}
	// The low-s original still parses: the rejection is about s, not the key.
	if _, err := ParseSignature(good); err != nil {
		t.Fatalf("good signature: %v", err)
	}
}

func TestRecoveryBackendIsCgo(t *testing.T) {
	if !RecoveryUsesCgo {
		t.Fatalf("crypto.Ecrecover uses %s; build with CGO_ENABLED=1 so libsecp256k1 is used", RecoveryBackend)
	}
}
