package pair

import (
	"cmp"
	"slices"
	"sync"
)

// ExecutableChange is a change of the executable set: an order listed, or
// listed again with another FillIn, by an evaluation; or (Delisted) an
// order taken off, by an evaluation or because it closed, with the entry
// as it was last listed. An entry's Price and Block follow every
// evaluation of its pair: they change without a change being reported.
type ExecutableChange struct {
	Executable
	Delisted bool
}

// watchers are the functions WatchExecutable registered.
type watchers struct {
	mu   sync.Mutex
	next int
	fns  map[int]func(BlockRef, []ExecutableChange)
}

// WatchExecutable calls fn after every evaluation, with the block and the
// changes of the executable set (none when it did not change): those of
// every pair since its previous evaluation, by pair and then by order
// hash, once the pairs' sets hold them (before the evaluation's
// transitions are sent). fn runs on the evaluating goroutine: it must not
// block, nor modify the changes (it may keep them). A watcher that reads
// the whole set (EachExecutable) after registering and applies the
// changes it is then given follows the set; a change may repeat what the
// read already saw. stop ends the calls.
func (p *Pairs) WatchExecutable(fn func(block BlockRef, changes []ExecutableChange)) (stop func()) {
	w := &p.watch
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fns == nil {
		w.fns = map[int]func(BlockRef, []ExecutableChange){}
	}
	id := w.next
	w.next++
	w.fns[id] = fn
	p.watching.Store(int32(len(w.fns)))
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.fns, id)
		p.watching.Store(int32(len(w.fns)))
	}
}

// report gives the watchers an evaluation's changes, pair by pair (none:
// the block, which a stream of the set follows too).
func (p *Pairs) report(ref BlockRef, decisions []*Decision) {
	var all []ExecutableChange
	for _, d := range decisions {
		if d != nil {
			all = append(all, d.Changes...)
		}
	}
	slices.SortStableFunc(all, func(a, b ExecutableChange) int { return cmp.Compare(a.Pair, b.Pair) })
	w := &p.watch
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, fn := range w.fns {
		fn(ref, all)
	}
}
