package persistence

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
)

// ResetChainBound clears exactly the chain-bound kinds of Prefixes, durably,
// and records the new identity.
func TestResetChainBoundClearsExactlyTheChainBoundKinds(t *testing.T) {
	dir := t.TempDir()
	s := openTemp(t, dir)
	if _, ok, err := s.ChainIdentity(); ok || err != nil {
		t.Fatalf("a new store has an identity: %v %v", ok, err)
	}
	old := ChainIdentity{ChainID: 4663, Block: 3, Hash: common.HexToHash("0x01")}
	if err := s.SetChainIdentity(old); err != nil {
		t.Fatal(err)
	}
	if has, err := s.HasChainBound(); has || err != nil {
		t.Fatalf("empty store: HasChainBound %v %v", has, err)
	}
	for _, p := range Prefixes {
		for _, k := range []string{p.Prefix + "a", p.Prefix + "zz\xff"} {
			if err := s.db.Set([]byte(k), []byte("v"), pebble.Sync); err != nil {
				t.Fatal(err)
			}
		}
	}
	if has, err := s.HasChainBound(); !has || err != nil {
		t.Fatalf("filled store: HasChainBound %v %v", has, err)
	}
	id := ChainIdentity{ChainID: 4663, Block: 3, Hash: common.HexToHash("0x02")}
	if err := s.ResetChainBound(id); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openTemp(t, dir)
	defer s.Close()
	for _, p := range Prefixes {
		for _, k := range []string{p.Prefix + "a", p.Prefix + "zz\xff"} {
			_, ok, err := s.Get([]byte(k))
			if err != nil {
				t.Fatal(err)
			}
			if ok == p.ChainBound {
				t.Errorf("%q (%s, chain-bound %v): present %v after the reset", k, p.Holds, p.ChainBound, ok)
			}
		}
	}
	if got, ok, err := s.ChainIdentity(); !ok || err != nil || got != id {
		t.Fatalf("identity after the reset: %+v %v %v", got, ok, err)
	}
	if has, err := s.HasChainBound(); has || err != nil {
		t.Fatalf("after the reset: HasChainBound %v %v", has, err)
	}
}
