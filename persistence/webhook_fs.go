package persistence

import (
	"fmt"
	"log/slog"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// OpenFS is Open on a Pebble virtual file system instead of the OS one.
// Crash tests use it with vfs.NewCrashableMem: CrashClone then yields the
// store as a power loss would leave it (only synced writes), which is how
// the webhook tests prove that a delivery whose fan-out batch was not yet
// synced is rebuilt from the outbox.
func OpenFS(dir string, fs vfs.FS, log *slog.Logger) (*Store, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	db, err := pebble.Open(dir, &pebble.Options{
		FormatMajorVersion: FormatMajorVersion,
		Logger:             pebbleLogger{log},
		FS:                 fs,
	})
	if err != nil {
		return nil, fmt.Errorf("persistence: open %s: %w", dir, err)
	}
	s := &Store{db: db, log: log}
	if err := s.checkSchema(); err != nil {
		_ = db.Close()
		return nil, err
	}
	return s, nil
}
