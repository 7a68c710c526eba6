package persistence

import (
	"runtime"
	"sync"

	"github.com/cockroachdb/pebble/v2"
)

// Pebble's flushes and compactions get a P of their own.
//
// A flush of a 32 MiB memtable, or the compaction after it, is one
// goroutine busy for 50–300 ms. Go's scheduler preempts a goroutine only
// after 10 ms, so with GOMAXPROCS at the core count the job keeps one of
// the Ps busy for most of that time, and on a small machine the requests,
// webhook deliveries and fsync wake-ups that the network poller and the
// WAL release queue on the others. While a job runs, the process therefore runs one P more per
// job (at most twice the usual count): the job's thread and the others
// then share the cores under the kernel's scheduler, which slices them
// in milliseconds, and the waiting goroutines run. When the last job
// ends, GOMAXPROCS returns to what it was (restoreProcs).
// docs/performance.md, "Webhooks", has the measurements.
//
// Only when the Ps already match the CPUs the process may run on
// (GOMAXPROCS at least runtime.NumCPU): an extra P then time-shares those
// CPUs and never adds to them. Under a container's CPU limit below the
// machine's cores (the runtime's default follows the limit) or a lower
// GOMAXPROCS someone chose, an extra P would let the process run on more
// cores than it was given, and a CPU quota would throttle it: nothing
// changes then.
//
// The count covers every store of the process (GOMAXPROCS is the
// process's), and it changes on a goroutine of its own: Pebble calls its
// event listener holding its database mutex, and changing GOMAXPROCS
// stops the world, which waits for a GC cycle in progress to end.

// jobProcs is the process's count of running flushes and compactions and
// the GOMAXPROCS they run under.
var jobProcs = newProcBoost(runtime.NumCPU(), runtime.GOMAXPROCS, restoreProcs)

// restoreProcs sets GOMAXPROCS back to base. When base is the runtime's
// default, the default is restored as such, so it keeps following the
// CPU limit; a count the GOMAXPROCS variable or the program set is set
// again as a number.
func restoreProcs(base int) {
	runtime.SetDefaultGOMAXPROCS()
	if runtime.GOMAXPROCS(0) != base {
		runtime.GOMAXPROCS(base)
	}
}

// procBoost raises GOMAXPROCS by one per running job. cpus, set and
// restore are runtime.NumCPU(), runtime.GOMAXPROCS and restoreProcs,
// replaced in tests.
type procBoost struct {
	cpus    int
	set     func(int) int
	restore func(base int)
	poke    chan struct{} // one token: the count changed
	start   sync.Once

	mu      sync.Mutex
	running int
	begun   uint64 // jobs begun since the process started
	base    int    // GOMAXPROCS when the first running job began
	raised  bool   // the applier has raised GOMAXPROCS above base
	applied int    // GOMAXPROCS as the applier last set it (0: not set)
}

func newProcBoost(cpus int, set func(int) int, restore func(int)) *procBoost {
	return &procBoost{cpus: cpus, set: set, restore: restore, poke: make(chan struct{}, 1)}
}

// listener returns the event listener that counts a store's jobs.
func (b *procBoost) listener() *pebble.EventListener {
	return &pebble.EventListener{
		FlushBegin: func(pebble.FlushInfo) { b.add(1) },
		FlushEnd:   func(pebble.FlushInfo) { b.add(-1) },
		CompactionBegin: func(i pebble.CompactionInfo) {
			if rewrites(i) {
				b.add(1)
			}
		},
		CompactionEnd: func(i pebble.CompactionInfo) {
			if rewrites(i) {
				b.add(-1)
			}
		},
	}
}

// rewrites reports whether a compaction reads and writes tables. A move
// (a table relinked one level down) or a delete-only compaction (tables
// dropped whole) changes the manifest only: it is over before a P would
// help, and raising GOMAXPROCS for it would stop the world twice for
// nothing. The Begin and End of one compaction carry the same reason.
func rewrites(i pebble.CompactionInfo) bool { return i.Reason != "move" && i.Reason != "delete-only" }

// add counts a job's start (+1) or end (-1) and wakes the applier.
func (b *procBoost) add(d int) {
	b.start.Do(func() { go b.apply() })
	b.mu.Lock()
	if b.running == 0 && d > 0 && !b.raised {
		b.base = b.set(0)
	}
	b.running = max(0, b.running+d)
	if d > 0 {
		b.begun++
	}
	b.mu.Unlock()
	select {
	case b.poke <- struct{}{}:
	default:
	}
}

// apply brings GOMAXPROCS to base plus the running jobs, each time the
// count changes. It runs for the life of the process, and changes
// GOMAXPROCS outside the mutex, so a job that begins or ends meanwhile
// does not wait for it.
func (b *procBoost) apply() {
	for range b.poke {
		b.mu.Lock()
		running, base := b.running, b.base
		want, restore := 0, false
		if running > 0 && base >= b.cpus {
			want = base + min(running, base)
			if want == b.applied {
				want = 0
			}
			b.raised = true // before the change: a job beginning now keeps base
		} else {
			restore = b.raised
		}
		b.mu.Unlock()
		switch {
		case want > 0:
			b.set(want)
		case restore:
			b.restore(base)
		default:
			continue
		}
		b.mu.Lock()
		if want > 0 {
			b.applied = want
		} else if b.running == 0 {
			b.raised, b.applied = false, 0
		} else {
			b.applied = base // a job began during the restore: the next poke raises again
		}
		b.mu.Unlock()
	}
}

// state returns the GOMAXPROCS the applier last set (0: none raised now)
// and the jobs begun so far, for tests.
func (b *procBoost) state() (applied int, begun uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.applied, b.begun
}
