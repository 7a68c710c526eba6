package persistence

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/prometheus/client_golang/prometheus"
)

// Storage failure: fail-stop.
//
// Pebble applies a batch to its memtable, where readers see it, before the
// WAL write and fsync of the batch have succeeded, and a failed WAL write
// (disk full, I/O error) is sticky: every later commit fails, or panics in
// Pebble once the failure reached its log writer. After such a failure the
// memtable holds writes that were answered as failed and will be gone after
// a restart (an order answered 500 would read as pending, a retried submit
// would answer 409, a fan-out could deliver the event of a cancel answered
// 500). So the store watches its WAL files: the first failed write or sync
// marks the store failed (Err, Failed) before the failing commit returns,
// and from then on the store's own commit paths refuse to write, the outbox
// hands out no event, the HTTP server answers every request 500 INTERNAL,
// and serve exits non-zero so that its supervisor restarts it: the restart
// replays the WAL up to its last good record, which is exactly what was
// answered as durable.

// ErrStoreFailed wraps the first WAL failure of a store (see Store.Err).
var ErrStoreFailed = errors.New("persistence: the store failed to write its log; restart the service")

// walWatch records the first failed write to a WAL file.
type walWatch struct {
	once   sync.Once
	err    error
	failed chan struct{}
	// fsync times every sync of a WAL file (metrics.go).
	fsync prometheus.Histogram
}

func newWALWatch() *walWatch {
	return &walWatch{failed: make(chan struct{}), fsync: newFsyncHistogram()}
}

func (w *walWatch) fail(name string, err error) {
	w.once.Do(func() {
		w.err = fmt.Errorf("%w: %s: %w", ErrStoreFailed, name, err)
		close(w.failed)
	})
}

// Err returns the failure, nil while healthy.
func (w *walWatch) Err() error {
	select {
	case <-w.failed:
		return w.err
	default:
		return nil
	}
}

// isWAL reports whether name is a Pebble write-ahead log file.
func isWAL(name string) bool { return strings.HasSuffix(name, ".log") }

// watchFS is the store's file system with its WAL files watched.
type watchFS struct {
	vfs.FS
	w *walWatch
}

func (fs watchFS) wrap(name string, f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		if isWAL(name) {
			fs.w.fail(name, err)
		}
		return f, err
	}
	if !isWAL(name) {
		return f, nil
	}
	return watchFile{File: f, name: name, w: fs.w}, nil
}

func (fs watchFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, category)
	return fs.wrap(name, f, err)
}

func (fs watchFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	return fs.wrap(newname, f, err)
}

func (fs watchFS) OpenReadWrite(name string, category vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := fs.FS.OpenReadWrite(name, category, opts...)
	return fs.wrap(name, f, err)
}

// watchFile is a WAL file whose write and sync failures fail the store
// (not Preallocate: Pebble ignores its failure).
type watchFile struct {
	vfs.File
	name string
	w    *walWatch
}

func (f watchFile) check(err error) error {
	if err != nil {
		f.w.fail(f.name, err)
	}
	return err
}

func (f watchFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	return n, f.check(err)
}

func (f watchFile) WriteAt(p []byte, off int64) (int, error) {
	n, err := f.File.WriteAt(p, off)
	return n, f.check(err)
}

func (f watchFile) Sync() error {
	start := time.Now()
	err := f.File.Sync()
	f.w.fsync.Observe(time.Since(start).Seconds())
	return f.check(err)
}

func (f watchFile) SyncData() error {
	start := time.Now()
	err := f.File.SyncData()
	f.w.fsync.Observe(time.Since(start).Seconds())
	return f.check(err)
}

func (f watchFile) SyncTo(length int64) (bool, error) {
	start := time.Now()
	full, err := f.File.SyncTo(length)
	f.w.fsync.Observe(time.Since(start).Seconds())
	return full, f.check(err)
}

// Err returns the store's failure (wrapping ErrStoreFailed): nil while
// healthy, else the first failed write or sync of its write-ahead log.
// Once failed, the store stays failed until the process restarts.
func (s *Store) Err() error { return s.watch.Err() }

// Failed is closed when the store fails (see Err).
func (s *Store) Failed() <-chan struct{} { return s.watch.failed }
