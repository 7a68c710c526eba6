package routing

import (
	"bytes"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// Snapshot is every pool's state at one block and the token graph between
// them. It is immutable: updates produce a new Snapshot that shares the
// graph (which only changes when pools are added), so readers never lock.
type Snapshot struct {
	block uint64
	pools []Pool
	index map[common.Address]int
	pairs map[pairKey][]int           // unordered token pair → pool indices
	adj   map[common.Address][]int    // token → pools that hold it
	fams  map[string]struct{}         // families present
	toks  map[common.Address]struct{} // tokens present
}

type pairKey struct{ a, b common.Address }

func keyOf(x, y common.Address) pairKey {
	if bytes.Compare(x[:], y[:]) > 0 {
		x, y = y, x
	}
	return pairKey{x, y}
}

// NewSnapshot indexes pools at block. A pool address that appears twice
// keeps its last state.
func NewSnapshot(block uint64, pools []Pool) *Snapshot {
	s := &Snapshot{
		block: block,
		index: make(map[common.Address]int, len(pools)),
		pairs: make(map[pairKey][]int),
		adj:   make(map[common.Address][]int),
		fams:  make(map[string]struct{}),
		toks:  make(map[common.Address]struct{}),
	}
	for _, p := range pools {
		if i, ok := s.index[p.Address()]; ok {
			s.pools[i] = p
			continue
		}
		i := len(s.pools)
		s.pools = append(s.pools, p)
		s.index[p.Address()] = i
		t0, t1 := p.Tokens()
		k := keyOf(t0, t1)
		s.pairs[k] = append(s.pairs[k], i)
		s.adj[t0] = append(s.adj[t0], i)
		s.adj[t1] = append(s.adj[t1], i)
		s.fams[p.Family()] = struct{}{}
		s.toks[t0], s.toks[t1] = struct{}{}, struct{}{}
	}
	return s
}

// Block is the block the snapshot's state was read at.
func (s *Snapshot) Block() uint64 { return s.block }

// Pools returns every pool, in a stable order.
func (s *Snapshot) Pools() []Pool { return append([]Pool(nil), s.pools...) }

// Pool returns the pool at addr.
func (s *Snapshot) Pool(addr common.Address) (Pool, bool) {
	i, ok := s.index[addr]
	if !ok {
		return nil, false
	}
	return s.pools[i], true
}

// HasFamily reports whether any pool of family exists.
func (s *Snapshot) HasFamily(family string) bool {
	_, ok := s.fams[family]
	return ok
}

// HasToken reports whether any pool holds token.
func (s *Snapshot) HasToken(token common.Address) bool {
	_, ok := s.toks[token]
	return ok
}

// Reserves is one pool's new state, as reported by its Sync event.
type Reserves struct {
	Pool               common.Address
	Reserve0, Reserve1 *uint256.Int
}

// WithReserves returns a snapshot at block with the given pools' reserves
// replaced. Updates for unknown pools are ignored; the graph is shared.
func (s *Snapshot) WithReserves(block uint64, updates []Reserves) *Snapshot {
	n := *s
	n.block = block
	n.pools = append([]Pool(nil), s.pools...)
	for _, u := range updates {
		if i, ok := s.index[u.Pool]; ok {
			n.pools[i] = n.pools[i].WithReserves(u.Reserve0, u.Reserve1)
		}
	}
	return &n
}

// pairPools returns the indices of the pools between x and y.
func (s *Snapshot) pairPools(x, y common.Address) []int { return s.pairs[keyOf(x, y)] }
