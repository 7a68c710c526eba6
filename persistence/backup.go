package persistence

import (
	"archive/tar"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// A store backup is a snapshot of one store (Checkpoint) in a tar stream:
//
//	backup.json          the BackupHeader: what made it, when, the store's
//	                     schema, the replicated logs' positions, the files
//	store/<name>         every file of the checkpoint, as the header lists them
//	extra/<name>         files of the data folder beside the store (the
//	                     webhook secrets' key of a single node)
//	backup-end.json      the BackupEnd: the SHA-256 of every file
//
// A stream without its end, with a file missing, longer, shorter or
// otherwise than the header says, or whose digest differs, is refused
// whole. It holds everything the store holds, the whole history of a
// cluster included (the streams keep only a window of it), and restores
// offline into an empty data folder (RestoreBackup).
const (
	// StoreBackupFormat names the format in a backup's header.
	StoreBackupFormat = "orderengine-store-backup"
	// StoreBackupVersion is the version this engine writes and reads.
	StoreBackupVersion = 2

	backupHeaderName = "backup.json"
	backupEndName    = "backup-end.json"
	backupStoreDir   = "store/"
	backupExtraDir   = "extra/"
	// maxBackupMeta bounds the header and the end record.
	maxBackupMeta = 16 << 20
)

// BackupHeader is the first entry of a store backup.
type BackupHeader struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	// Cluster and Node name the cluster node that made it (empty: a
	// single node); OrderPartitions is its cluster.orderPartitions.
	Cluster         string `json:"cluster,omitempty"`
	Node            string `json:"node,omitempty"`
	OrderPartitions int    `json:"orderPartitions,omitempty"`
	Schema          uint32 `json:"schema"`
	// Positions are the replicated logs' positions the store had applied
	// (a cluster node's).
	Positions map[string]uint64 `json:"positions,omitempty"`
	Files     []BackupFile      `json:"files"`
	Extra     []BackupFile      `json:"extra,omitempty"`
}

// BackupFile is one file of a backup.
type BackupFile struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// BackupEnd is the last entry of a store backup.
type BackupEnd struct {
	End    bool              `json:"end"`
	SHA256 map[string]string `json:"sha256"`
}

// Bytes is the size of the backup's files.
func (h *BackupHeader) Bytes() int64 {
	var n int64
	for _, f := range append(append([]BackupFile{}, h.Files...), h.Extra...) {
		n += f.Size
	}
	return n
}

// Backup writes a backup of the store to w: a checkpoint made in a new
// folder under tmpDir (on the store's file system; removed afterwards),
// described by h (its format, id, time, schema, positions and files are
// filled in), with the extra files (name to path; a missing one is
// skipped). It returns the header written.
func (s *Store) Backup(w io.Writer, tmpDir string, h BackupHeader, extra map[string]string) (*BackupHeader, error) {
	id := backupID()
	dir := filepath.Join(tmpDir, "backup-"+id+".tmp")
	if err := s.Checkpoint(dir); err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	pos, err := SnapshotPositions(dir)
	if err != nil {
		return nil, err
	}
	h.Format, h.Version, h.ID, h.Created, h.Schema, h.Positions = StoreBackupFormat, StoreBackupVersion, id, time.Now().UTC(), SchemaVersion, pos
	h.Files, h.Extra = nil, nil
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	paths := map[string]string{}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		if info.Mode().IsRegular() && e.Name() != "LOCK" {
			h.Files = append(h.Files, BackupFile{Name: e.Name(), Size: info.Size()})
			paths[backupStoreDir+e.Name()] = filepath.Join(dir, e.Name())
		}
	}
	for name, p := range extra {
		info, err := os.Stat(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		h.Extra = append(h.Extra, BackupFile{Name: name, Size: info.Size()})
		paths[backupExtraDir+name] = p
	}
	tw := tar.NewWriter(w)
	if err := writeTarJSON(tw, backupHeaderName, h); err != nil {
		return nil, err
	}
	end := BackupEnd{End: true, SHA256: map[string]string{}}
	for _, group := range []struct {
		prefix string
		files  []BackupFile
	}{{backupStoreDir, h.Files}, {backupExtraDir, h.Extra}} {
		for _, f := range group.files {
			sum, err := writeTarFile(tw, group.prefix+f.Name, paths[group.prefix+f.Name], f.Size)
			if err != nil {
				return nil, err
			}
			end.SHA256[group.prefix+f.Name] = sum
		}
	}
	if err := writeTarJSON(tw, backupEndName, end); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return &h, nil
}

func writeTarJSON(tw *tar.Writer, name string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(data)), ModTime: time.Now()}); err != nil {
		return err
	}
	_, err = tw.Write(data)
	return err
}

// writeTarFile writes the file at p (size bytes: a checkpoint's files do
// not change) and returns its SHA-256.
func writeTarFile(tw *tar.Writer, name, p string, size int64) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: size, ModTime: time.Now()}); err != nil {
		return "", err
	}
	h := sha256.New()
	if n, err := io.Copy(io.MultiWriter(tw, h), io.LimitReader(f, size)); err != nil || n != size {
		return "", fmt.Errorf("persistence: backup %s: wrote %d of %d bytes: %v", name, n, size, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ErrBadBackup is wrapped by the errors of a backup that does not read
// back whole.
var ErrBadBackup = errors.New("persistence: not a whole store backup")

func badBackup(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadBackup, fmt.Sprintf(format, args...))
}

// ReadBackup reads a store backup from r and checks it whole: its header,
// every file it lists (in order, of its size) and its end with their
// digests. each (nil: none) is given every file's contents as they are
// read (name with its store/ or extra/ folder); its error stops the read.
func ReadBackup(r io.Reader, each func(name string, r io.Reader) error) (*BackupHeader, error) {
	tr := tar.NewReader(r)
	hdr, err := tr.Next()
	if err != nil || hdr.Name != backupHeaderName || hdr.Size > maxBackupMeta {
		return nil, badBackup("it does not start with %s (%v)", backupHeaderName, err)
	}
	var h BackupHeader
	if err := json.NewDecoder(io.LimitReader(tr, maxBackupMeta)).Decode(&h); err != nil {
		return nil, badBackup("its header: %v", err)
	}
	if h.Format != StoreBackupFormat || h.Version != StoreBackupVersion {
		return nil, badBackup("format %q version %d, this engine reads %q version %d", h.Format, h.Version, StoreBackupFormat, StoreBackupVersion)
	}
	sums := map[string]string{}
	for _, group := range []struct {
		prefix string
		files  []BackupFile
	}{{backupStoreDir, h.Files}, {backupExtraDir, h.Extra}} {
		for _, f := range group.files {
			if f.Name == "" || f.Name != path.Base(f.Name) || strings.HasPrefix(f.Name, ".") || f.Size < 0 {
				return nil, badBackup("it names a file %q", f.Name)
			}
			name := group.prefix + f.Name
			th, err := tr.Next()
			if err != nil || th.Name != name || th.Size != f.Size {
				return nil, badBackup("%s is missing or not of %d bytes (%v)", name, f.Size, err)
			}
			d := sha256.New()
			var body io.Reader = io.TeeReader(tr, d)
			if each != nil {
				if err := each(name, body); err != nil {
					return nil, err
				}
			}
			if _, err := io.Copy(io.Discard, body); err != nil {
				return nil, badBackup("%s: %v", name, err)
			}
			sums[name] = hex.EncodeToString(d.Sum(nil))
		}
	}
	th, err := tr.Next()
	if err != nil || th.Name != backupEndName || th.Size > maxBackupMeta {
		return nil, badBackup("it has no %s after its files (cut short?) (%v)", backupEndName, err)
	}
	var end BackupEnd
	if err := json.NewDecoder(io.LimitReader(tr, maxBackupMeta)).Decode(&end); err != nil || !end.End {
		return nil, badBackup("its end record: %v", err)
	}
	if len(end.SHA256) != len(sums) {
		return nil, badBackup("its end lists %d digests for %d files", len(end.SHA256), len(sums))
	}
	for name, sum := range sums {
		if end.SHA256[name] != sum {
			return nil, badBackup("%s does not match its digest", name)
		}
	}
	if _, err := tr.Next(); err != io.EOF {
		return nil, badBackup("it goes on after its end (%v)", err)
	}
	return &h, nil
}

// RestoreBackup restores a store backup read from r into dataDir, which
// must hold no store: the files are received and checked whole before
// they are installed (nothing is installed otherwise), the extra files
// are written beside the store unless the folder holds a different one
// (refused), and the restored store is detached from the replicated logs
// of the cluster it came from: its positions and its index of closed
// orders due for compaction are removed (a new cluster's streams start
// empty) and it records the backup's id (RestoredFrom), which the
// cluster's nodes compare.
func RestoreBackup(r io.Reader, dataDir string) (*BackupHeader, error) {
	if exists, err := StoreExists(dataDir); err != nil {
		return nil, err
	} else if exists {
		return nil, fmt.Errorf("persistence: %s holds a store: a backup is restored into a data folder without one", dataDir)
	}
	in := filepath.Join(dataDir, SnapshotIncoming)
	if err := os.RemoveAll(in); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(in, 0o700); err != nil {
		return nil, err
	}
	extra := map[string][]byte{}
	h, err := ReadBackup(r, func(name string, body io.Reader) error {
		switch {
		case strings.HasPrefix(name, backupStoreDir):
			return receiveFile(filepath.Join(in, strings.TrimPrefix(name, backupStoreDir)), body)
		default:
			data, err := io.ReadAll(io.LimitReader(body, maxBackupMeta))
			extra[strings.TrimPrefix(name, backupExtraDir)] = data
			return err
		}
	})
	if err != nil {
		_ = os.RemoveAll(in)
		return nil, err
	}
	for name, data := range extra {
		p := filepath.Join(dataDir, name)
		have, err := os.ReadFile(p)
		switch {
		case err == nil && string(have) != string(data):
			_ = os.RemoveAll(in)
			return nil, fmt.Errorf("persistence: %s differs from the backup's: remove it to restore the backup's (or keep it and restore elsewhere)", p)
		case errors.Is(err, os.ErrNotExist):
			if err := writeSynced(p, data); err != nil {
				return nil, err
			}
		case err != nil:
			return nil, err
		}
	}
	header, _ := json.Marshal(h)
	if err := SnapshotReceived(dataDir, header); err != nil {
		return nil, err
	}
	if _, _, err := InstallSnapshot(dataDir); err != nil {
		return nil, err
	}
	st, err := Open(dataDir, nil)
	if err != nil {
		return nil, err
	}
	b := st.db.NewBatch()
	for _, p := range []string{PrefixOrderLog, prefixSharedLog, PrefixClosed} {
		if err := b.DeleteRange([]byte(p), PrefixUpperBound([]byte(p)), nil); err != nil {
			_ = st.Close()
			return nil, err
		}
	}
	if err := b.Set(restoredKey(), []byte(h.ID), nil); err != nil {
		_ = st.Close()
		return nil, err
	}
	if err := b.Commit(pebble.Sync); err != nil {
		_ = st.Close()
		return nil, fmt.Errorf("persistence: detach the restored store: %w", err)
	}
	return h, st.Close()
}

func receiveFile(p string, body io.Reader) error {
	return copySynced(p, os.O_EXCL, body)
}

func restoredKey() []byte { return []byte(prefixMeta + "restored") }

// RestoredFrom returns the id of the backup the store was restored from
// (RestoreBackup; a snapshot of it carries it on), or "".
func (s *Store) RestoredFrom() (string, error) {
	v, ok, err := s.Get(restoredKey())
	if err != nil || !ok {
		return "", err
	}
	return string(v), nil
}

func backupID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}
