package persistence

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// A snapshot of a store is a Pebble checkpoint: a consistent copy of the
// store at one point, made of hard links to its immutable tables plus a
// copy of its manifest and write-ahead log. A cluster node that starts
// empty, or whose store is behind what its cluster's compaction removed
// from the replicated logs, installs a peer's snapshot in its data folder
// (cluster/natsjs, bootstrap.go) before opening its store, and then
// follows the logs from the positions the snapshot holds: the positions
// are written in the same batch as what they applied (the order store's
// orderstore.ApplyBatch, the shared log), so the copy and its positions
// agree.
//
// The install survives a crash at any point: the snapshot is received
// into <dataDir>/snapshot.incoming; a file COMPLETE is written there once
// every file is received and synced; only then are the store's files
// replaced (InstallSnapshot), by links to the received ones. A start
// finds an incoming folder without COMPLETE (a receive that stopped) and
// removes it, or one with COMPLETE (an install that stopped) and finishes
// it, before the store opens.

// SnapshotIncoming is the folder of a data folder that receives a snapshot.
const SnapshotIncoming = "snapshot.incoming"

// snapshotComplete marks a received snapshot whole.
const snapshotComplete = "COMPLETE"

// Checkpoint writes a snapshot of the store into dir, which must not
// exist and must be on the store's file system (the tables are linked).
// Everything committed before the call is in it.
func (s *Store) Checkpoint(dir string) error {
	if err := s.db.Checkpoint(dir, pebble.WithFlushedWAL()); err != nil {
		return fmt.Errorf("persistence: checkpoint into %s: %w", dir, err)
	}
	return nil
}

// Positions returns the position of every replicated log (cluster: the
// order partitions and the shared-records log) this store has applied,
// by log name; empty when it applied none.
func (s *Store) Positions() (map[string]uint64, error) { return positions(s.db) }

// SnapshotPositions returns the positions a snapshot written by
// Checkpoint into dir holds, opening it read-only.
func SnapshotPositions(dir string) (map[string]uint64, error) {
	db, err := pebble.Open(dir, &pebble.Options{ReadOnly: true, FormatMajorVersion: FormatMajorVersion, Logger: pebbleLogger{slog.New(slog.DiscardHandler)}})
	if err != nil {
		return nil, fmt.Errorf("persistence: open the snapshot in %s: %w", dir, err)
	}
	pos, err := positions(db)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return pos, err
}

// Position returns the position stored at key, a key under PrefixOrderLog
// or the shared log's prefix: the last message of that replicated log
// applied to this store (0: none).
func (s *Store) Position(key []byte) (uint64, error) {
	v, ok, err := s.Get(key)
	if err != nil || !ok {
		return 0, err
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("persistence: corrupt log position %q", key)
	}
	return binary.BigEndian.Uint64(v), nil
}

func positions(db pebble.Reader) (map[string]uint64, error) {
	out := map[string]uint64{}
	for _, prefix := range []string{PrefixOrderLog, prefixSharedLog} {
		it, err := db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefix), UpperBound: PrefixUpperBound([]byte(prefix))})
		if err != nil {
			return nil, err
		}
		for it.First(); it.Valid(); it.Next() {
			v := it.Value()
			if len(v) != 8 {
				_ = it.Close()
				return nil, fmt.Errorf("persistence: corrupt log position %q", it.Key())
			}
			out[string(bytes.TrimPrefix(it.Key(), []byte(prefix)))] = binary.BigEndian.Uint64(v)
		}
		if err := it.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// StoreExists reports whether dir holds a store (false for a folder that
// is missing, empty or holds no Pebble database).
func StoreExists(dir string) (bool, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	desc, err := pebble.Peek(dir, vfs.Default)
	if err != nil {
		return false, fmt.Errorf("persistence: look for a store in %s: %w", dir, err)
	}
	return desc.Exists, nil
}

// SnapshotReceived marks the snapshot received into dataDir's incoming
// folder whole (every file synced by the receiver), with the receiver's
// description of it (manifest), and syncs the folder. InstallSnapshot
// then installs it.
func SnapshotReceived(dataDir string, manifest []byte) error {
	in := filepath.Join(dataDir, SnapshotIncoming)
	if err := writeSynced(filepath.Join(in, snapshotComplete), manifest); err != nil {
		return err
	}
	return syncDir(in)
}

// InstallSnapshot finishes what a received snapshot needs, with the store
// of dataDir closed: an incoming folder that is whole (SnapshotReceived)
// replaces the store's files, one that is not is removed. It reports
// whether a snapshot was installed and returns its manifest.
func InstallSnapshot(dataDir string) (manifest []byte, installed bool, err error) {
	in := filepath.Join(dataDir, SnapshotIncoming)
	manifest, err = os.ReadFile(filepath.Join(in, snapshotComplete))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.RemoveAll(in); err != nil {
			return nil, false, fmt.Errorf("persistence: remove a partial snapshot: %w", err)
		}
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("persistence: read the received snapshot's manifest: %w", err)
	}
	entries, err := os.ReadDir(dataDir)
	if err != nil {
		return nil, false, err
	}
	for _, e := range entries {
		if e.Type().IsRegular() && storeFile(e.Name()) {
			if err := os.Remove(filepath.Join(dataDir, e.Name())); err != nil {
				return nil, false, fmt.Errorf("persistence: remove the replaced store's %s: %w", e.Name(), err)
			}
		}
	}
	received, err := os.ReadDir(in)
	if err != nil {
		return nil, false, err
	}
	for _, e := range received {
		if e.Name() == snapshotComplete || !storeFile(e.Name()) {
			continue
		}
		if err := os.Link(filepath.Join(in, e.Name()), filepath.Join(dataDir, e.Name())); err != nil {
			return nil, false, fmt.Errorf("persistence: install the snapshot's %s: %w", e.Name(), err)
		}
	}
	if err := syncDir(dataDir); err != nil {
		return nil, false, err
	}
	if err := os.RemoveAll(in); err != nil {
		return nil, false, fmt.Errorf("persistence: remove the installed snapshot's folder: %w", err)
	}
	return manifest, true, syncDir(dataDir)
}

// storeFile reports whether name is one of a Pebble store's files: its
// tables, blobs, write-ahead logs, manifests, options, markers, lock and
// temporary files. Everything else a data folder holds (the JetStream
// store, the dev chain, the tokens and keys) is left alone.
func storeFile(name string) bool {
	switch {
	case name == "LOCK" || name == "CURRENT":
		return true
	case strings.HasPrefix(name, "MANIFEST-"), strings.HasPrefix(name, "OPTIONS-"),
		strings.HasPrefix(name, "marker."), strings.HasSuffix(name, ".dbtmp"):
		return true
	}
	num, ext, ok := strings.Cut(name, ".")
	if !ok || (ext != "sst" && ext != "blob" && ext != "log") || num == "" {
		return false
	}
	for _, r := range num {
		if (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// writeSynced writes data to a new file at path and syncs it.
func writeSynced(path string, data []byte) error {
	return copySynced(path, os.O_TRUNC, bytes.NewReader(data))
}

// copySynced copies r into the file at path, created with os.O_CREATE
// and flag (os.O_TRUNC or os.O_EXCL), and syncs it.
func copySynced(path string, flag int, r io.Reader) error {
	f, err := os.OpenFile(path, os.O_CREATE|flag|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// syncDir syncs a folder's entries.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
