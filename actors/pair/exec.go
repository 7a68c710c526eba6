package pair

import (
	"bytes"
	"container/heap"
	"math/big"

	"github.com/RaduBerinde/btreemap"
	"github.com/ethereum/go-ethereum/common"
)

// execTree holds executable orders by hash, each with the amount of its
// execution (nil: the order's remaining amount; a DCA leg otherwise).
type execTree = btreemap.BTreeMap[*openOrder, *big.Int]

// execDegree is the B-tree degree of the executable sets: nodes of at
// most 31 entries, so that a change after a snapshot copies a short path.
const execDegree = 16

func byHash(a, b *openOrder) int { return bytes.Compare(a.Hash[:], b.Hash[:]) }

// execSet is a pair's executable orders in hash order, kept as decisions
// change: a copy-on-write B-tree that only the pair actor changes. After
// each evaluation the actor publishes a clone (snapshot), which readers
// iterate while the actor goes on changing its own copy; a clone costs
// nothing until either side writes, and a write then copies one path.
type execSet struct {
	tree *execTree
	// snap is the last snapshot, reused while nothing changed.
	snap    *execTree
	changed bool
}

func newExecSet() execSet {
	return execSet{tree: btreemap.New[*openOrder, *big.Int](execDegree, byHash)}
}

// put lists o with the amount fill (nil: its remaining amount).
func (s *execSet) put(o *openOrder, fill *big.Int) {
	if k, v, ok := s.tree.Get(o); ok && k == o && sameAmount(v, fill) {
		return
	}
	s.tree.ReplaceOrInsert(o, fill)
	s.changed = true
}

// drop takes o (any version of it) off the list.
func (s *execSet) drop(o *openOrder) {
	if _, _, ok := s.tree.Delete(o); ok {
		s.changed = true
	}
}

// snapshot returns a read-only copy of the set as it is now.
func (s *execSet) snapshot() *execTree {
	if s.changed || s.snap == nil {
		s.snap, s.changed = s.tree.Clone(), false
	}
	return s.snap
}

func sameAmount(a, b *big.Int) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Cmp(b) == 0
}

// execList is what a pair published at an evaluation: its executable
// orders (a snapshot of its set) with the block and oracle price they were
// decided at, which every entry of the list shares.
type execList struct {
	pair  string
	price *big.Int
	block uint64
	tree  *execTree
}

// executable renders an entry of the list.
func (l *execList) executable(o *openOrder, fill *big.Int) Executable {
	if fill == nil {
		fill = o.remaining.ToBig()
	}
	return Executable{Hash: o.Hash, Pair: l.pair, Class: o.rec.Class, Maker: o.rec.Order.Maker, TokenIn: o.rec.Order.TokenIn,
		FillIn: fill, Price: l.price, Block: l.block}
}

// execChunk is how many entries a cursor takes from its list at a time.
const execChunk = 64

// execCursor walks one pair's list in hash order, a chunk at a time.
type execCursor struct {
	list *execList
	buf  []execItem
	i    int
	// from is the last entry taken (the walk resumes after it).
	from *openOrder
	done bool
}

type execItem struct {
	o    *openOrder
	fill *big.Int
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
	for o, fill := range c.list.tree.Ascend(btreemap.GT(c.from), btreemap.Max[*openOrder]()) {
		c.buf = append(c.buf, execItem{o, fill})
		if len(c.buf) == execChunk {
			break
		}
	}
	c.done = len(c.buf) < execChunk
	if len(c.buf) > 0 {
		c.from = c.buf[len(c.buf)-1].o
	}
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

// eachExecutable calls fn with the entries of lists whose hash is above
// after, merged in hash order, until fn returns false.
func eachExecutable(lists []*execList, after common.Hash, fn func(Executable) bool) {
	from := &openOrder{Key: Key{Hash: after}}
	h := make(cursorHeap, 0, len(lists))
	for _, l := range lists {
		c := &execCursor{list: l, from: from}
		if _, ok := c.head(); ok {
			h = append(h, c)
		}
	}
	heap.Init(&h)
	for len(h) > 0 {
		c := h[0]
		it, _ := c.head()
		if !fn(c.list.executable(it.o, it.fill)) {
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
