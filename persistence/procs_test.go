package persistence

import (
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// fakeProcs stands in for runtime.GOMAXPROCS in the unit test: changing
// the real one would race the other tests of the package.
type fakeProcs struct {
	mu       sync.Mutex
	n        int
	restores []int
}

func (f *fakeProcs) set(n int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	prev := f.n
	if n > 0 {
		f.n = n
	}
	return prev
}

func (f *fakeProcs) restore(base int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n = base
	f.restores = append(f.restores, base)
}

func (f *fakeProcs) get() (int, []int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n, append([]int(nil), f.restores...)
}

// waitProcs waits until f reports want (the applier runs on its own
// goroutine).
func waitProcs(t *testing.T, f *fakeProcs, want int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		n, _ := f.get()
		if n == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("GOMAXPROCS %d, want %d", n, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// Each running job adds a P, at most the base count more, and the base
// comes back once the last one ends.
func TestProcBoostAddsAPerJob(t *testing.T) {
	f := &fakeProcs{n: 2}
	b := newProcBoost(2, f.set, f.restore)
	l := b.listener()

	l.FlushBegin(pebble.FlushInfo{})
	waitProcs(t, f, 3)
	l.CompactionBegin(pebble.CompactionInfo{})
	waitProcs(t, f, 4)
	l.CompactionBegin(pebble.CompactionInfo{}) // a third job: capped at twice the base
	time.Sleep(20 * time.Millisecond)
	waitProcs(t, f, 4)
	l.CompactionEnd(pebble.CompactionInfo{})
	l.CompactionEnd(pebble.CompactionInfo{})
	waitProcs(t, f, 3)
	// A move or a delete-only compaction rewrites nothing: no P for it.
	for _, reason := range []string{"move", "delete-only"} {
		l.CompactionBegin(pebble.CompactionInfo{Reason: reason})
		time.Sleep(20 * time.Millisecond)
		waitProcs(t, f, 3)
		l.CompactionEnd(pebble.CompactionInfo{Reason: reason})
	}
	l.FlushEnd(pebble.FlushInfo{})
	waitProcs(t, f, 2)
	if _, restores := f.get(); len(restores) != 1 || restores[0] != 2 {
		t.Fatalf("restores %v, want one to 2", restores)
	}

	// The next job starts from the base as it is then, not from a
	// count the applier set.
	f.set(5)
	l.FlushBegin(pebble.FlushInfo{})
	waitProcs(t, f, 6)
	l.FlushEnd(pebble.FlushInfo{})
	waitProcs(t, f, 5)
	if applied, begun := b.state(); applied != 0 || begun != 4 {
		t.Fatalf("applied %d begun %d after the jobs, want 0 and 4", applied, begun)
	}
}

// Below the CPUs the process may run on (a CPU limit, or a lower count
// chosen), no P is added: it would let the process use more cores than it
// was given.
func TestProcBoostKeepsALimitedCount(t *testing.T) {
	f := &fakeProcs{n: 2}
	b := newProcBoost(8, f.set, f.restore)
	l := b.listener()
	l.FlushBegin(pebble.FlushInfo{})
	time.Sleep(20 * time.Millisecond)
	waitProcs(t, f, 2)
	l.FlushEnd(pebble.FlushInfo{})
	time.Sleep(20 * time.Millisecond)
	if n, restores := f.get(); n != 2 || len(restores) != 0 {
		t.Fatalf("GOMAXPROCS %d, restores %v after a flush under a limit, want 2 and none", n, restores)
	}
	if applied, begun := b.state(); applied != 0 || begun != 1 {
		t.Fatalf("applied %d begun %d, want 0 and 1", applied, begun)
	}

	// At the machine's count, the same store's flush gets its P.
	f.set(8)
	l.FlushBegin(pebble.FlushInfo{})
	waitProcs(t, f, 9)
	l.FlushEnd(pebble.FlushInfo{})
	waitProcs(t, f, 8)
}

// A store's flushes reach the process's counter, and GOMAXPROCS is back
// where it was once they end.
func TestStoreFlushRunsOnItsOwnP(t *testing.T) {
	waitNoJobProcs(t) // a job of an earlier test's store would raise it
	before := runtime.GOMAXPROCS(0)
	_, begun0 := jobProcs.state()
	s := openTemp(t, t.TempDir())
	for i := range 1000 {
		if err := s.DB().Set(fmt.Appendf(nil, "t/%04d", i), make([]byte, 100), pebble.NoSync); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DB().Flush(); err != nil {
		t.Fatal(err)
	}
	if _, begun := jobProcs.state(); begun <= begun0 {
		t.Fatalf("jobs begun %d after a flush, want more than %d", begun, begun0)
	}
	waitNoJobProcs(t)
	if n := runtime.GOMAXPROCS(0); n != before {
		t.Fatalf("GOMAXPROCS %d after the flush, want %d", n, before)
	}
}

// waitNoJobProcs waits until no job of the process runs and GOMAXPROCS
// is back at its base.
func waitNoJobProcs(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		jobProcs.mu.Lock()
		running, raised := jobProcs.running, jobProcs.raised
		jobProcs.mu.Unlock()
		if running == 0 && !raised {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s, %d jobs running, GOMAXPROCS raised %v", running, raised)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
