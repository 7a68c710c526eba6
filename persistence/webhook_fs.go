package persistence

import (
	"log/slog"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// OpenFS is Open on a Pebble virtual file system instead of the OS one
// (nil: the OS one), with the same options.
// Crash tests use it with vfs.NewCrashableMem: CrashClone then yields the
// store as a power loss would leave it (only synced writes), which is how
// the webhook tests prove that a delivery whose creation was not yet
// synced is created again from the outbox.
func OpenFS(dir string, fs vfs.FS, log *slog.Logger) (*Store, error) { return open(dir, fs, log) }
