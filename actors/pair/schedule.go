package pair

// timed is an entry of a timeHeap: order o may change its decision at
// time at (unix seconds).
type timed struct {
	at uint64
	o  *openOrder
}

// timeHeap is a min-heap of times at which an order's decision may
// change: its deadline, or the next point of its DCA schedule. Entries are
// hints, never removed when their order changes or closes: whoever pops
// one checks that it still holds (see triggers), and compact drops those
// that no longer do once they outnumber the live ones.
type timeHeap []timed

func (h *timeHeap) push(e timed) {
	*h = append(*h, e)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p].at <= s[i].at {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

// popWhile pops, in time order, every entry for which due holds and
// passes it to fn.
func (h *timeHeap) popWhile(due func(at uint64) bool, fn func(timed)) {
	for len(*h) > 0 && due((*h)[0].at) {
		s := *h
		top := s[0]
		n := len(s) - 1
		s[0] = s[n]
		s[n] = timed{}
		*h = s[:n]
		h.down(0)
		fn(top)
	}
}

// next returns the earliest time in the heap (ok false when empty).
func (h timeHeap) next() (uint64, bool) {
	if len(h) == 0 {
		return 0, false
	}
	return h[0].at, true
}

func (h timeHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h[r].at < h[l].at {
			m = r
		}
		if h[i].at <= h[m].at {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// compact keeps the entries for which keep holds, once the heap holds more
// than twice live entries (and at least 1,024): the entries left behind by
// changed and closed orders cost amortised O(1) per change.
func (h *timeHeap) compact(live int, keep func(timed) bool) {
	if len(*h) <= 2*live+1024 {
		return
	}
	s := (*h)[:0]
	for _, e := range *h {
		if keep(e) {
			s = append(s, e)
		}
	}
	clear((*h)[len(s):])
	*h = s
	for i := len(s)/2 - 1; i >= 0; i-- {
		s.down(i)
	}
}
