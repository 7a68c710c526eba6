package persistence

import (
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"syscall"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Sizes of the store's memory: the block cache, and one memtable (Pebble
// keeps up to two before it stalls writes). Larger memtables mean fewer
// flushes and L0 files under a burst of submits.
const (
	cacheSize    = 64 << 20
	memTableSize = 32 << 20
	// walMinSyncInterval spaces WAL fsyncs: Sync commits that arrive
	// meanwhile share the next one. An fsync costs about 100 µs of CPU on
	// the reference VM, so without it a burst pays one per two or three
	// commits.
	walMinSyncInterval = 500 * time.Microsecond
)

// FormatMajorVersion is the Pebble on-disk format the store is created with
// and ratcheted to. It is pinned, not FormatNewest, so that a library upgrade
// never silently rewrites the store into a format an older binary cannot
// read; raise it deliberately, in its own commit.
const FormatMajorVersion = pebble.FormatValueSeparation

// Store is the engine's Pebble database. It is safe for concurrent use.
type Store struct {
	db  *pebble.DB
	log *slog.Logger
	// attached holds what a domain store keeps once per store (Attach).
	attachMu sync.Mutex
	attached map[any]any
	// group makes new orders durable in sorted rounds (group_commit.go).
	group *groupCommitter
	// done is exit, made once for Enter and Gate.
	done func()
	// closers stop the goroutines of the domain stores that write
	// through this store (the webhook writers), at Close (OnClose).
	closers []func()
	// migrations are the domain stores' schema steps (Options.Migrations).
	migrations map[uint32]Migration
	// watch fails the store at the first WAL failure (walwatch.go).
	watch *walWatch
	// shared routes the writes of shared records (shared.go).
	shared sharedState
	// users counts the gated writes in flight (Enter, Gate, Commit: the
	// order actors' appends among them, which may still run when the
	// store closes at shutdown); Close refuses new ones and waits for
	// them, so none reaches a closed Pebble (which panics).
	usersMu sync.Mutex
	closing bool
	users   sync.WaitGroup
}

// enter admits a gated write, or returns ErrStoreClosed once Close has
// begun. Every enter that succeeds is followed by one exit.
func (s *Store) enter() error {
	s.usersMu.Lock()
	defer s.usersMu.Unlock()
	if s.closing {
		return ErrStoreClosed
	}
	s.users.Add(1)
	return nil
}

func (s *Store) exit() { s.users.Done() }

// Enter admits a write of a domain store that reads the store before it
// commits (the order journal's appends, which stage their events), or
// returns ErrStoreClosed once Close has begun. Unlike Gate it admits
// writes after the store has failed: their commit path answers them with
// the failure. Every Enter that succeeds is followed by one call of done;
// Close waits for them.
func (s *Store) Enter() (done func(), err error) {
	if err := s.enter(); err != nil {
		return nil, err
	}
	return s.done, nil
}

// Gate admits a write of a domain store that commits through its own
// batches (the webhook writers), or returns the store's failure or the
// reason it refuses writes (it has begun to close). Every Gate that
// succeeds is followed by one call of done; Close waits for them.
func (s *Store) Gate() (done func(), err error) {
	if err := s.Err(); err != nil {
		return nil, err
	}
	return s.Enter()
}

// OnClose registers fn to run at Close, once every gated write has been
// answered and before Pebble closes: a domain store stops the goroutines
// that write through the store there. fn runs once, at the first Close
// that begins after it was registered.
func (s *Store) OnClose(fn func()) {
	s.usersMu.Lock()
	defer s.usersMu.Unlock()
	s.closers = append(s.closers, fn)
}

// Attach returns the value kept under key for this store, made by build
// at the first call with that key. The calls are serialized, so build
// runs once per store even when callers race; when it fails, the error is
// returned, nothing is kept and the next call builds again. key is a
// value of a type private to the caller. A domain store keeps there the
// state that every handle over the store must share: the chain store its
// record filters (chainstore.New), which a handle with filters of its own
// would leave unaware of another's writes.
func (s *Store) Attach(key any, build func() (any, error)) (any, error) {
	s.attachMu.Lock()
	defer s.attachMu.Unlock()
	if v, ok := s.attached[key]; ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return nil, err
	}
	if s.attached == nil {
		s.attached = map[any]any{}
	}
	s.attached[key] = v
	return v, nil
}

// Options configure a store at OpenWith. Their zero value is a single
// node's store on the OS file system.
type Options struct {
	// FS is the Pebble virtual file system the store lives on (nil: the
	// OS one). Crash tests use vfs.NewCrashableMem: CrashClone then
	// yields the store as a power loss would leave it (only synced
	// writes), which is how the webhook tests prove that a delivery whose
	// creation was not yet synced is created again from the outbox.
	FS vfs.FS
	// Log receives Pebble's and the store's logs (nil: discarded).
	Log *slog.Logger
	// Shared replicates the writes of shared records between the nodes
	// of a cluster (shared.go); nil on a single node, where a shared
	// write is a synced commit.
	Shared SharedLog
	// Migrations are the schema steps of the domain stores
	// (orderstore.Migrations, chainstore.Migrations,
	// webhookstore.Migrations), by the version they migrate from
	// (migrate.go lists them). A store written by an older binary needs
	// every step from its version on, or it does not open.
	Migrations []Migration
}

// Migration is one schema step of a domain store: Run brings the store
// from schema version From to From+1, returns how many records it
// rewrote, and must be idempotent (a step a crash interrupted runs again
// at the next start). The step's schema version is set once it returns.
type Migration struct {
	From uint32
	Name string
	Run  func(*Store) (int, error)
}

// Open opens (or creates) a single node's store in dir. Only one process
// may open a directory at a time; Pebble's lock file enforces it.
func Open(dir string, log *slog.Logger) (*Store, error) { return OpenWith(dir, Options{Log: log}) }

// OpenWith opens (or creates) the store in dir as opts configure it.
func OpenWith(dir string, o Options) (*Store, error) {
	log, fs := o.Log, o.FS
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cache := pebble.NewCache(cacheSize)
	defer cache.Unref() // the DB holds its own reference
	opts := &pebble.Options{
		FormatMajorVersion: FormatMajorVersion,
		Logger:             pebbleLogger{log},
		Cache:              cache,
		MemTableSize:       memTableSize,
		WALMinSyncInterval: func() time.Duration { return walMinSyncInterval },
		// Each flush, and each compaction that rewrites tables, runs on
		// a P of its own (procs.go).
		EventListener: jobProcs.listener(),
	}
	watch := newWALWatch()
	if fs == nil {
		fs = vfs.Default
	}
	opts.FS = watchFS{FS: fs, w: watch}
	// A Bloom filter on every level lets a point read of an absent key
	// (a new order's hash, a chain record not seen yet) skip the table.
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
	}
	db, err := pebble.Open(dir, opts)
	if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN) {
		// Pebble's LOCK file is held: the bare errno text ("resource
		// temporarily unavailable") did not say why.
		return nil, fmt.Errorf("persistence: open %s: the data folder is in use by another process (another serve on the same dataDir?): %w", dir, err)
	}
	if err != nil {
		return nil, fmt.Errorf("persistence: open %s: %w", dir, err)
	}
	s := &Store{db: db, log: log, watch: watch, shared: sharedState{log: o.Shared}, migrations: map[uint32]Migration{}}
	s.done = s.exit
	for _, m := range o.Migrations {
		s.migrations[m.From] = m
	}
	if err := s.checkSchema(); err != nil {
		_ = db.Close()
		return nil, err
	}
	s.group = newGroupCommitter(db, watch)
	return s, nil
}

// DB returns the underlying Pebble handle, for the record kinds of the
// domain stores and of the other files of this package.
func (s *Store) DB() *pebble.DB { return s.db }

// Commit commits b, a batch of this store's database, unless the store has
// failed (walwatch.go: Pebble would panic or keep writes answered as
// failed) or has begun to close (a closed Pebble panics): then it writes
// nothing and returns the reason. Every commit path goes through it, or
// through the group committer (WriteGroup), which checks the same.
func (s *Store) Commit(b *pebble.Batch, opts *pebble.WriteOptions) error {
	if err := s.Err(); err != nil {
		return err
	}
	if err := s.enter(); err != nil {
		return err
	}
	defer s.exit()
	return b.Commit(opts)
}

// Close flushes and closes the store, after the gated writes in flight;
// later ones get an error.
func (s *Store) Close() error {
	s.usersMu.Lock()
	s.closing = true
	closers := s.closers
	s.closers = nil
	s.usersMu.Unlock()
	s.users.Wait()
	for _, fn := range closers {
		fn() // every gated write was answered
	}
	s.group.close()
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("persistence: close: %w", err)
	}
	return nil
}

func (s *Store) checkSchema() error {
	v, ok, err := s.Get(schemaKey())
	if err != nil {
		return err
	}
	if !ok {
		var buf [4]byte
		binary.BigEndian.PutUint32(buf[:], SchemaVersion)
		if err := s.db.Set(schemaKey(), buf[:], pebble.Sync); err != nil {
			return fmt.Errorf("persistence: write schema version: %w", err)
		}
		return nil
	}
	if len(v) != 4 {
		return fmt.Errorf("persistence: corrupt schema version record")
	}
	got := binary.BigEndian.Uint32(v)
	if got < SchemaVersion {
		return s.migrate(got)
	}
	if got != SchemaVersion {
		return fmt.Errorf("persistence: store has schema version %d, this binary reads %d", got, SchemaVersion)
	}
	return nil
}

// Get returns a copy of the value at key; ok is false when absent.
func (s *Store) Get(key []byte) (value []byte, ok bool, err error) {
	return ReaderGet(s.db, key)
}

// ReaderGet returns a copy of the value at key in r (the store or a
// snapshot of it); ok is false when absent.
func ReaderGet(r pebble.Reader, key []byte) (value []byte, ok bool, err error) {
	v, closer, err := r.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("persistence: get: %w", err)
	}
	out := make([]byte, len(v))
	copy(out, v)
	if err := closer.Close(); err != nil {
		return nil, false, fmt.Errorf("persistence: get: %w", err)
	}
	return out, true, nil
}

// pebbleLogger routes Pebble's own log lines into slog.
type pebbleLogger struct{ log *slog.Logger }

// Infof logs Pebble information at debug level.
func (l pebbleLogger) Infof(format string, args ...any) {
	l.log.Debug(fmt.Sprintf(format, args...), "component", "pebble")
}

// Errorf logs a Pebble error.
func (l pebbleLogger) Errorf(format string, args ...any) {
	l.log.Error(fmt.Sprintf(format, args...), "component", "pebble")
}

// Fatalf logs a fatal Pebble error and panics, as Pebble expects.
func (l pebbleLogger) Fatalf(format string, args ...any) {
	l.log.Error(fmt.Sprintf(format, args...), "component", "pebble", "fatal", true)
	panic(fmt.Sprintf(format, args...))
}
