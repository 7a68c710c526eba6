package persistence

import (
	"encoding/binary"
	"sync"

	"github.com/ethereum/go-ethereum/common"
)

// hashFilter is one Bloom filter of stored hashes. A HashSet keeps a chain
// of them so that, for instance, a new order's actor can skip the Pebble
// read that proves its hash absent (without filter blocks in the store, a
// missing key costs a seek through every level: about as much CPU as the
// signature recovery).
//
// The chain never gives a false negative: its owner fills it from the
// store before anything writes (Load), and adds every hash before the
// record is written (Add). When the newest filter is full a new one, twice
// as large, is appended (old ones are kept and still answered from), so no
// rebuild can miss a hash in flight. A false positive only costs the read
// it would have skipped. Memory: about 10 bits per hash (1.25 bytes) plus
// the spare capacity of the newest filter.
type hashFilter struct {
	bits  []uint64
	n     int // hashes added
	limit int // capacity
}

const (
	filterBitsPerKey = 10
	filterProbes     = 7
	filterMinKeys    = 1 << 16
)

func newHashFilter(capacity int) *hashFilter {
	capacity = max(capacity, filterMinKeys)
	words := (capacity*filterBitsPerKey + 63) / 64
	return &hashFilter{bits: make([]uint64, words), limit: capacity}
}

// positions derives the bit positions from the hash itself (keccak output,
// uniformly distributed): double hashing over two 64-bit words.
func (f *hashFilter) positions(h common.Hash, fn func(bit uint64)) {
	a, b := binary.BigEndian.Uint64(h[0:8]), binary.BigEndian.Uint64(h[8:16])|1
	m := uint64(len(f.bits) * 64)
	for i := uint64(0); i < filterProbes; i++ {
		fn((a + i*b) % m)
	}
}

func (f *hashFilter) add(h common.Hash) {
	f.positions(h, func(bit uint64) { f.bits[bit/64] |= 1 << (bit % 64) })
	f.n++
}

func (f *hashFilter) mayContain(h common.Hash) bool {
	all := true
	f.positions(h, func(bit uint64) {
		if f.bits[bit/64]&(1<<(bit%64)) == 0 {
			all = false
		}
	})
	return all
}

// HashSet is a chain of hashFilters that answers "may h be stored?"
// without a false negative once loaded; before it is loaded it answers
// true (the caller reads). The order store keeps one (orderstore's
// Store.MayExist), the chain store one per record kind it filters
// (persistence/chainstore). Safe for concurrent use.
type HashSet struct {
	mu      sync.RWMutex
	filters []*hashFilter
}

// Load replaces the set's content with hashes.
func (s *HashSet) Load(hashes []common.Hash) {
	f := newHashFilter(2 * len(hashes))
	for _, h := range hashes {
		f.add(h)
	}
	s.mu.Lock()
	s.filters = []*hashFilter{f}
	s.mu.Unlock()
}

// MayContain reports whether h may have been added or loaded: false means
// certainly not.
func (s *HashSet) MayContain(h common.Hash) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.filters == nil {
		return true
	}
	for _, f := range s.filters {
		if f.mayContain(h) {
			return true
		}
	}
	return false
}

// Add records h; call it before the record is written.
func (s *HashSet) Add(h common.Hash) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.filters == nil {
		return
	}
	last := s.filters[len(s.filters)-1]
	if last.n >= last.limit {
		last = newHashFilter(2 * last.limit)
		s.filters = append(s.filters, last)
	}
	last.add(h)
}
