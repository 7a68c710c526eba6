package pair

import (
	"slices"
	"sort"
)

// maxRun bounds a run of the index: an insert moves at most this many
// pointers, plus one pointer per run when a run splits.
const maxRun = 512

// index is a book's sort order (trigger price, then hash): sorted runs of at most maxRun entries, the
// runs in order. One sorted slice would move half the book on every
// insert (about 190 µs at a million orders); a run moves at most maxRun.
type index struct {
	runs [][]*openOrder
	n    int
}

// pos is a position in the index: run r, offset i.
type pos struct{ r, i int }

// find returns the position of the first entry not less than k (r ==
// len(runs) when there is none).
func (x *index) find(k Key) pos {
	r := sort.Search(len(x.runs), func(r int) bool {
		run := x.runs[r]
		return !run[len(run)-1].Key.less(k)
	})
	if r == len(x.runs) {
		return pos{r, 0}
	}
	run := x.runs[r]
	return pos{r, sort.Search(len(run), func(i int) bool { return !run[i].Key.less(k) })}
}

func (x *index) at(p pos) *openOrder {
	if p.r < len(x.runs) && p.i < len(x.runs[p.r]) {
		return x.runs[p.r][p.i]
	}
	return nil
}

// next returns the position after p.
func (x *index) next(p pos) pos {
	if p.i+1 < len(x.runs[p.r]) {
		return pos{p.r, p.i + 1}
	}
	return pos{p.r + 1, 0}
}

func (x *index) insert(e *openOrder) {
	x.n++
	if len(x.runs) == 0 {
		x.runs = [][]*openOrder{{e}}
		return
	}
	p := x.find(e.Key)
	if p.r == len(x.runs) { // after every entry: the end of the last run
		p = pos{p.r - 1, len(x.runs[p.r-1])}
	}
	run := slices.Insert(x.runs[p.r], p.i, e)
	if len(run) <= maxRun {
		x.runs[p.r] = run
		return
	}
	half := len(run) / 2
	x.runs[p.r] = run[:half:half]
	x.runs = slices.Insert(x.runs, p.r+1, slices.Clone(run[half:]))
}

// remove removes e and reports whether it was there.
func (x *index) remove(e *openOrder) bool {
	p := x.find(e.Key)
	if x.at(p) != e {
		return false
	}
	x.n--
	if run := slices.Delete(x.runs[p.r], p.i, p.i+1); len(run) > 0 {
		x.runs[p.r] = run
	} else {
		x.runs = slices.Delete(x.runs, p.r, p.r+1)
	}
	return true
}

// compacted returns the same order in full runs of maxRun/2 entries.
func (x *index) compacted() index {
	out := index{n: x.n}
	var run []*openOrder
	for _, r := range x.runs {
		for _, e := range r {
			if run == nil {
				run = make([]*openOrder, 0, maxRun/2)
			}
			run = append(run, e)
			if len(run) == maxRun/2 {
				out.runs, run = append(out.runs, run), nil
			}
		}
	}
	if run != nil {
		out.runs = append(out.runs, run)
	}
	return out
}
