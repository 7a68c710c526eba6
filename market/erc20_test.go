package market

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

func TestDecimalsSelector(t *testing.T) {
	if want := crypto.Keccak256([]byte("decimals()"))[:4]; !bytes.Equal(selDecimals, want) {
		t.Fatalf("selector %x, want %x", selDecimals, want)
	}
}

func TestDecodeDecimals(t *testing.T) {
	tok := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	word := func(tail ...byte) []byte { return append(make([]byte, 32-len(tail)), tail...) }
	for _, c := range []struct {
		name string
		out  []byte
		want uint8
		err  string
	}{
		{"six", word(6), 6, ""},
		{"eighteen", word(18), 18, ""},
		{"zero", word(0), 0, ""},
		{"largest uint8", word(255), 255, ""},
		{"trailing bytes after the word", append(word(8), 1, 2, 3), 8, ""},
		{"wider than a uint8", word(1, 0), 0, "more than a uint8"},
		{"short answer", []byte{18}, 0, "answered 1 bytes"},
		{"no answer (not a contract)", nil, 0, "answered 0 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := decodeDecimals(tok, c.out)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "market: ") {
					t.Fatalf("decodeDecimals = %d, %v; want an error with %q", got, err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("decodeDecimals = %d, %v; want %d", got, err, c.want)
			}
		})
	}
}
