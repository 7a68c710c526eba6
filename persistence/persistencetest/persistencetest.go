// Package persistencetest helps the tests of the domain stores built on
// persistence: a store in a temporary folder, and a double of the
// replicated shared log that applies what a store publishes as the
// cluster's nodes would. Only tests import it.
package persistencetest

import (
	"bufio"
	"context"
	"os"
	"testing"

	"github.com/orderengine/orderengine/persistence"
)

// Open opens the store in dir (a single node's), failing t on error. The
// caller closes it.
func Open(t testing.TB, dir string) *persistence.Store {
	t.Helper()
	s, err := persistence.Open(dir, nil)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

// OpenShared opens a store in a new temporary folder whose shared writes
// go through log (nil: a single node's), closed when the test ends.
func OpenShared(t testing.TB, log persistence.SharedLog) *persistence.Store {
	t.Helper()
	s, err := persistence.OpenWith(t.TempDir(), persistence.Options{Shared: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// SharedStore opens a store in a new temporary folder whose shared writes
// go through a new SharedLog that applies them back to it, as a cluster
// node's are, closed when the test ends.
func SharedStore(t testing.TB) (*persistence.Store, *SharedLog) {
	t.Helper()
	log := &SharedLog{}
	s := OpenShared(t, log)
	log.ApplyTo = []*persistence.Store{s}
	return s, log
}

// SharedLog records what a store would publish: a double of the
// replicated log (cluster/natsjs tests the real one), which applies the
// published bytes to the stores of ApplyTo as a node would. Interfere,
// when set, runs once at the next Publish as another node's write
// landing first.
type SharedLog struct {
	Rev       uint64
	ApplyTo   []*persistence.Store
	Seq       uint64
	Published int
	Interfere func() []byte
}

// Barrier implements persistence.SharedLog.
func (f *SharedLog) Barrier(context.Context, string) (uint64, error) { return f.Rev, nil }

// Publish implements persistence.SharedLog.
func (f *SharedLog) Publish(_ context.Context, _ string, rev uint64, repr []byte) error {
	if f.Interfere != nil {
		other := f.Interfere()
		f.Interfere = nil
		if err := f.land(other); err != nil {
			return err
		}
	}
	if rev != f.Rev {
		return persistence.ErrSharedConflict
	}
	f.Published++
	return f.land(repr)
}

func (f *SharedLog) land(repr []byte) error {
	f.Seq++
	f.Rev = f.Seq
	for _, s := range f.ApplyTo {
		if err := s.ApplyShared(repr, "SHARED", f.Seq); err != nil {
			return err
		}
	}
	return nil
}

// Lines reads a fixture of one record a line (JSON Lines), failing t when
// the file cannot be read or holds no line.
func Lines(t testing.TB, path string) [][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		out = append(out, append([]byte(nil), sc.Bytes()...))
	}
	if err := sc.Err(); err != nil || len(out) == 0 {
		t.Fatalf("fixture %s: %d lines, %v", path, len(out), err)
	}
	return out
}
