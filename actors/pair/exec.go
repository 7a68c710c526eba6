package pair

import (
	"bytes"
	"container/heap"
	"math/big"
	"slices"
	"sync"

	"github.com/RaduBerinde/btreemap"
	"github.com/ethereum/go-ethereum/common"
)

// execTree holds executable orders by hash (held in the tree: a search
// reads no order), each with the amount of its execution.
type execTree = btreemap.BTreeMap[common.Hash, execItem]

// execItem is an entry of an execTree: the order and the amount of its
// execution (nil: its remaining amount; a DCA leg otherwise).
type execItem struct {
	o    *openOrder
	fill *big.Int
}

// execDegree is the B-tree degree of the executable sets.
const execDegree = 16

func byHash(a, b *openOrder) int { return bytes.Compare(a.Hash[:], b.Hash[:]) }

func cmpHash(a, b common.Hash) int { return bytes.Compare(a[:], b[:]) }

// execSet is a pair's executable orders in hash order, with the block and
// oracle price they were decided at, which every entry shares. The pair
// actor is its only writer: an evaluation records the changes its
// decisions make (put, drop) and applies them at its end, with the block,
// under the write lock (commit); readers walk the set under the read lock
// a chunk at a time (execCursor). So a reader sees each pair's set as one
// evaluation left it, and a walk that spans an evaluation sees the later
// one from its next chunk on. The set changes in place: an evaluation
// costs its changes, not a copy of the set.
type execSet struct {
	mu    sync.RWMutex
	pair  string
	tree  *execTree // written under mu; read by the actor without it
	price *big.Int
	block uint64
	// changes are the running evaluation's (the actor's own).
	changes []execChange
	// closed are the entries taken off since the last commit because
	// their orders closed, as they were listed (the actor's own).
	closed []ExecutableChange
}

// execChange is a change of an execSet: o listed with fill, or (drop) the
// order of hash h taken off.
type execChange struct {
	h    common.Hash
	it   execItem
	drop bool
}

func newExecSet(pair string) *execSet {
	return &execSet{pair: pair, tree: btreemap.New[common.Hash, execItem](execDegree, cmpHash)}
}

// put lists o with the amount fill (nil: its remaining amount) at the
// next commit.
func (s *execSet) put(o *openOrder, fill *big.Int) {
	if _, v, ok := s.tree.Get(o.Hash); ok && v.o == o && sameAmount(v.fill, fill) {
		return
	}
	s.changes = append(s.changes, execChange{h: o.Hash, it: execItem{o, fill}})
}

// drop takes o (any version of it) off the list at the next commit.
func (s *execSet) drop(o *openOrder) {
	if s.tree.Has(o.Hash) {
		s.changes = append(s.changes, execChange{h: o.Hash, drop: true})
	}
}

// commit applies the changes and sets the block and price of the list.
// With report it returns what changed since the last commit (see
// ExecutableChange), in hash order.
func (s *execSet) commit(block uint64, price *big.Int, report bool) []ExecutableChange {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []ExecutableChange
	if report {
		out = append(out, s.closed...)
	}
	for _, c := range s.changes {
		if !c.drop {
			s.tree.ReplaceOrInsert(c.h, c.it)
			continue
		}
		if _, old, ok := s.tree.Delete(c.h); ok && report {
			out = append(out, ExecutableChange{Executable: s.render(old, s.price, s.block), Delisted: true})
		}
	}
	s.block, s.price = block, price
	if report {
		for _, c := range s.changes {
			if !c.drop {
				out = append(out, ExecutableChange{Executable: s.render(c.it, price, block)})
			}
		}
		slices.SortStableFunc(out, func(a, b ExecutableChange) int { return cmpHash(a.Hash, b.Hash) })
	}
	s.closed = reuse(s.closed)
	s.discard()
	return out
}

// dropNow takes o (any version of it) off the list at once: it closed.
func (s *execSet) dropNow(o *openOrder) {
	if !s.tree.Has(o.Hash) {
		return
	}
	s.mu.Lock()
	if _, old, ok := s.tree.Delete(o.Hash); ok {
		s.closed = append(s.closed, ExecutableChange{Executable: s.render(old, s.price, s.block), Delisted: true})
	}
	s.mu.Unlock()
}

// discard forgets the changes of an evaluation (applied, or of one that
// failed). A large list is let go: the first evaluation of a pair lists
// every executable order at once.
func (s *execSet) discard() {
	s.changes = reuse(s.changes)
}

// reuse empties a slice for the next evaluation, keeping its array unless
// it grew large.
func reuse[T any](s []T) []T {
	if cap(s) > 4096 {
		return nil
	}
	clear(s)
	return s[:0]
}

// restamp sets the block and price of a list that the block does not
// change (Pairs, for a pair it did not ask).
func (s *execSet) restamp(block uint64, price *big.Int) {
	s.mu.Lock()
	s.block, s.price = block, price
	s.mu.Unlock()
}

func sameAmount(a, b *big.Int) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Cmp(b) == 0
}

// execChunk is how many entries a cursor takes from its set at a time.
const execChunk = 64

// execCursor walks one pair's set in hash order, a chunk at a time, each
// chunk read under the set's read lock with the block and price it holds.
type execCursor struct {
	set   *execSet
	buf   []execItem
	i     int
	price *big.Int
	block uint64
	// from is the hash of the last entry taken (the walk resumes after it).
	from common.Hash
	done bool
}

// head returns the cursor's next entry (ok false at the end).
func (c *execCursor) head() (execItem, bool) {
	if c.i == len(c.buf) {
		if c.done {
			return execItem{}, false
		}
		c.refill()
		if len(c.buf) == 0 {
			return execItem{}, false
		}
	}
	return c.buf[c.i], true
}

func (c *execCursor) refill() {
	c.buf, c.i = c.buf[:0], 0
	s := c.set
	s.mu.RLock()
	for _, it := range s.tree.Ascend(btreemap.GT(c.from), btreemap.Max[common.Hash]()) {
		c.buf = append(c.buf, it)
		if len(c.buf) == execChunk {
			break
		}
	}
	c.price, c.block = s.price, s.block
	s.mu.RUnlock()
	c.done = len(c.buf) < execChunk
	if len(c.buf) > 0 {
		c.from = c.buf[len(c.buf)-1].o.Hash
	}
}

// executable renders the cursor's entry it.
func (c *execCursor) executable(it execItem) Executable { return c.set.render(it, c.price, c.block) }

// render is the set's entry it as an Executable at a block and price.
func (s *execSet) render(it execItem, price *big.Int, block uint64) Executable {
	o, fill := it.o, it.fill
	if fill == nil {
		r := o.remainingIn()
		fill = r.ToBig()
	}
	return Executable{Hash: o.Hash, Pair: s.pair, Class: o.class, Maker: o.maker, TokenIn: o.tokenIn,
		FillIn: fill, Price: price, Block: block}
}

// cursorHeap orders the cursors by their next entry's hash.
type cursorHeap []*execCursor

func (h cursorHeap) Len() int { return len(h) }
func (h cursorHeap) Less(i, j int) bool {
	a, _ := h[i].head()
	b, _ := h[j].head()
	return byHash(a.o, b.o) < 0
}
func (h cursorHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)   { *h = append(*h, x.(*execCursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}

// eachExecutable calls fn with the entries of sets whose hash is above
// after, merged in hash order, until fn returns false.
func eachExecutable(sets []*execSet, after common.Hash, fn func(Executable) bool) {
	h := make(cursorHeap, 0, len(sets))
	for _, s := range sets {
		c := &execCursor{set: s, from: after}
		if _, ok := c.head(); ok {
			h = append(h, c)
		}
	}
	heap.Init(&h)
	for len(h) > 0 {
		c := h[0]
		it, _ := c.head()
		if !fn(c.executable(it)) {
			return
		}
		c.i++
		if _, ok := c.head(); ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
}
