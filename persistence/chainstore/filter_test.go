package chainstore

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

// The chain-record filter answers "never seen" without a read, and never
// hides a record: one written in this process, or one found on disk when
// the store's Chain is made.
func TestChainSeenFilter(t *testing.T) {
	dir := t.TempDir()
	seenOrder := crypto.Keccak256Hash([]byte("seen"))
	maker := common.HexToAddress("0x9f8e7d6c5b4a39281706f5e4d3c2b1a098765432")
	other := common.HexToAddress("0x1234567890abcdef1234567890abcdef12345678")

	s := persistencetest.Open(t, dir)
	c := mustChain(t, s)
	cb := c.Begin(Block{Number: 1, Hash: common.Hash{1}, Time: 1_800_000_000})
	if _, _, err := ApplyActivated(cb, seenOrder, maker); err != nil {
		t.Fatal(err)
	}
	if err := ApplyNonceInvalidated(cb, Nonce{Maker: maker, Nonce: 5, Block: 1, TxHash: common.Hash{2}}); err != nil {
		t.Fatal(err)
	}
	if err := cb.Commit(0); err != nil {
		t.Fatal(err)
	}

	check := func(when string, s *persistence.Store) {
		t.Helper()
		c := mustChain(t, s)
		if co, ok, err := c.Order(seenOrder); err != nil || !ok || co.ActivatedBlock != 1 {
			t.Fatalf("%s: written chain order: %+v %v %v", when, co, ok, err)
		}
		if n, ok, err := c.Nonce(maker, 5); err != nil || !ok || n.Block != 1 {
			t.Fatalf("%s: invalidated nonce: %+v %v %v", when, n, ok, err)
		}
		if _, ok, err := c.Nonce(maker, 6); err != nil || ok {
			t.Fatalf("%s: other nonce of the maker: %v %v", when, ok, err)
		}
		// Absent records are answered by the filter, without a read.
		misses := 0
		for i := range 1000 {
			h := crypto.Keccak256Hash([]byte{byte(i), byte(i >> 8), 'x'})
			if c.seen.orders.MayContain(h) {
				misses++
			}
			if _, ok, err := c.Order(h); err != nil || ok {
				t.Fatalf("%s: unseen order %s found: %v", when, h, err)
			}
		}
		if misses > 50 {
			t.Fatalf("%s: %d of 1000 unseen hashes pass the filter", when, misses)
		}
		if c.seen.makers.MayContain(makerKey(other)) {
			t.Fatalf("%s: a maker without invalidations passes the filter", when)
		}
		if ok, err := c.NonceInvalidated(other, 5); err != nil || ok {
			t.Fatalf("%s: other maker: %v %v", when, ok, err)
		}
	}
	check("same process", s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = persistencetest.Open(t, dir)
	defer s.Close()
	check("reopened", s)
}

// Every New over one store returns the same Chain, so a reader made before
// a writer answers from the filters the writer fills: it sees the record
// the writer committed, where filters of its own, loaded before the
// write, would have said "never seen".
func TestNewSharesTheFilters(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	reader := mustChain(t, s)
	writer := mustChain(t, s)
	if reader != writer {
		t.Fatal("two Chains over one store")
	}
	h := crypto.Keccak256Hash([]byte("written later"))
	cb := writer.Begin(Block{Number: 1, Hash: common.Hash{1}, Time: 1_800_000_000})
	if _, _, err := ApplyActivated(cb, h, common.Address{7}); err != nil {
		t.Fatal(err)
	}
	if err := cb.Commit(0); err != nil {
		t.Fatal(err)
	}
	if co, ok, err := reader.Order(h); err != nil || !ok || co.ActivatedBlock != 1 {
		t.Fatalf("the reader misses the writer's record: %+v %v %v", co, ok, err)
	}
}

// mustChain returns the Chain of s, failing t on error.
func mustChain(t testing.TB, s *persistence.Store) *Chain {
	t.Helper()
	c, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
