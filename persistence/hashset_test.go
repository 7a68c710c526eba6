package persistence

import (
	"fmt"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// A set answers "may contain" for everything until it is loaded; once
// loaded, past the first filter's capacity a second one is chained, every
// loaded or added hash stays present, and most unknown hashes are
// answered absent.
func TestHashSetHasNoFalseNegatives(t *testing.T) {
	var s HashSet
	if !s.MayContain(common.Hash{1}) {
		t.Fatal("without a load every hash may be contained")
	}
	loaded := crypto.Keccak256Hash([]byte("loaded"))
	s.Load([]common.Hash{loaded})
	if !s.MayContain(loaded) {
		t.Fatal("a loaded hash is missing")
	}
	var added []common.Hash
	for i := range filterMinKeys + 5000 {
		h := crypto.Keccak256Hash([]byte(fmt.Sprint("added", i)))
		s.Add(h)
		added = append(added, h)
	}
	if len(s.filters) != 2 {
		t.Fatalf("%d filters, want 2", len(s.filters))
	}
	for _, h := range append(added, loaded) {
		if !s.MayContain(h) {
			t.Fatalf("hash %s missing", h.Hex())
		}
	}
	fp := 0
	for i := range 10000 {
		if s.MayContain(crypto.Keccak256Hash([]byte(fmt.Sprint("other", i)))) {
			fp++
		}
	}
	if fp > 300 {
		t.Fatalf("%d of 10000 unknown hashes reported present", fp)
	}
}
