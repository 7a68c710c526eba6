package persistence

import (
	"bytes"
	"encoding/binary"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// TestSnapshotInstall: a checkpoint of a store, received into another data
// folder's incoming folder, replaces that folder's store only once marked
// whole: unmarked, it is removed and the store stays; marked, the store
// then holds the checkpoint's records and positions and not its own, and
// what else the folder holds (the JetStream store, tokens) stays. An
// install stopped half way (some files linked, the old ones gone) is
// finished by the next call.
func TestSnapshotInstall(t *testing.T) {
	src, err := Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	a := putRecord(t, src, "acc_snapshot")
	setPosition(t, src, "ORDERS_0", 42)
	want, err := src.Positions()
	if err != nil || want["ORDERS_0"] != 42 {
		t.Fatalf("positions %v (%v)", want, err)
	}
	cp := filepath.Join(t.TempDir(), "cp")
	if err := src.Checkpoint(cp); err != nil {
		t.Fatal(err)
	}
	if got, err := SnapshotPositions(cp); err != nil || !maps.Equal(got, want) {
		t.Fatalf("the checkpoint's positions %v (%v), want %v", got, err, want)
	}

	dst := t.TempDir()
	old, err := Open(dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	mine := putRecord(t, old, "acc_only_here")
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	for _, keep := range []string{"jetstream/store.dat", "admin.token", "serve.log"} {
		p := filepath.Join(dst, keep)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(keep), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	receive := func() {
		in := filepath.Join(dst, SnapshotIncoming)
		if err := os.MkdirAll(in, 0o700); err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(cp)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(cp, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(in, e.Name()), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}

	// Not marked whole: removed, the store untouched.
	receive()
	if _, installed, err := InstallSnapshot(dst); err != nil || installed {
		t.Fatalf("an unmarked snapshot: installed %v (%v)", installed, err)
	}
	if _, err := os.Stat(filepath.Join(dst, SnapshotIncoming)); !os.IsNotExist(err) {
		t.Fatalf("the unmarked snapshot's folder is still there (%v)", err)
	}
	checkRecord(t, dst, mine, true)

	// Marked whole, then stopped half way: the store's files gone, one of
	// the snapshot's linked.
	receive()
	if err := SnapshotReceived(dst, []byte(`{"id":"test"}`)); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dst)
	for _, e := range entries {
		if e.Type().IsRegular() && storeFile(e.Name()) {
			if err := os.Remove(filepath.Join(dst, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	in, _ := os.ReadDir(filepath.Join(dst, SnapshotIncoming))
	for _, e := range in {
		if storeFile(e.Name()) {
			if err := os.Link(filepath.Join(dst, SnapshotIncoming, e.Name()), filepath.Join(dst, e.Name())); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	manifest, installed, err := InstallSnapshot(dst)
	if err != nil || !installed || string(manifest) != `{"id":"test"}` {
		t.Fatalf("install: %v %q (%v)", installed, manifest, err)
	}
	checkRecord(t, dst, a, true)
	checkRecord(t, dst, mine, false)
	st, err := Open(dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := st.Positions(); err != nil || !maps.Equal(got, want) {
		t.Fatalf("installed positions %v (%v), want %v", got, err, want)
	}
	_ = st.Close()
	for _, keep := range []string{"jetstream/store.dat", "admin.token", "serve.log"} {
		if data, err := os.ReadFile(filepath.Join(dst, keep)); err != nil || string(data) != keep {
			t.Fatalf("%s after the install: %q (%v)", keep, data, err)
		}
	}
}

// setPosition stores seq as the position of the replicated order log
// named log, as the order store writes it with what it applied
// (orderstore.ApplyBatch).
func setPosition(t *testing.T, s *Store, log string, seq uint64) {
	t.Helper()
	if err := s.db.Set([]byte(PrefixOrderLog+log), binary.BigEndian.AppendUint64(nil, seq), pebble.Sync); err != nil {
		t.Fatal(err)
	}
}

// putRecord writes an account record (its bytes do not matter here) and
// returns its key.
func putRecord(t *testing.T, s *Store, id string) []byte {
	t.Helper()
	key := []byte(PrefixAccount + id)
	if err := s.db.Set(key, []byte(`{"id":"`+id+`"}`), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	return key
}

// checkRecord opens the store in dir and checks whether it holds key.
func checkRecord(t *testing.T, dir string, key []byte, present bool) {
	t.Helper()
	st, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, got, err := st.Get(key)
	if err != nil || got != present {
		t.Fatalf("record %q in %s: present %v (%v), want %v", key, dir, got, err, present)
	}
}

func TestStoreFile(t *testing.T) {
	for name, want := range map[string]bool{
		"000012.sst": true, "000013.log": true, "000014-001.log": true, "000015.blob": true,
		"MANIFEST-000001": true, "OPTIONS-000003": true, "CURRENT": true, "LOCK": true,
		"marker.manifest.000002.MANIFEST-000001": true, "marker.format-version.000001.013": true,
		"temporary.000004.dbtmp": true,
		"serve.log":              false, "admin.token": false, "webhook-secrets.key": false, "jetstream": false,
		"backup-1.tmp": false, ".log": false, "a1.sst": false,
	} {
		if got := storeFile(name); got != want {
			t.Errorf("storeFile(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestStoreBackupRestore: a store backup reads back whole and restores
// into an empty folder as the same records, with the extra files beside
// the store, detached from the logs (no positions, no closed-order index)
// and marked with the backup's id; a cut, a changed byte or trailing
// bytes are refused with nothing installed; a folder holding a store, or
// a different extra file, refuses the restore.
func TestStoreBackupRestore(t *testing.T) {
	srcDir := t.TempDir()
	src, err := Open(srcDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	a := putRecord(t, src, "acc_backed_up")
	setPosition(t, src, "ORDERS_1", 7)
	keyFile := filepath.Join(srcDir, "webhook-secrets.key")
	if err := os.WriteFile(keyFile, []byte("secret key"), 0o600); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	h, err := src.Backup(&buf, srcDir, BackupHeader{Cluster: "c", Node: "n1", OrderPartitions: 4},
		map[string]string{"webhook-secrets.key": keyFile, "absent": filepath.Join(srcDir, "nope")})
	if err != nil {
		t.Fatal(err)
	}
	if h.Positions["ORDERS_1"] != 7 || len(h.Extra) != 1 || h.ID == "" || h.Node != "n1" {
		t.Fatalf("header %+v", h)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(srcDir, "backup-*")); len(leftovers) != 0 {
		t.Fatalf("the backup left %v", leftovers)
	}
	whole := buf.Bytes()
	if _, err := ReadBackup(bytes.NewReader(whole), nil); err != nil {
		t.Fatal(err)
	}
	changed := bytes.Clone(whole)
	changed[len(changed)/2] ^= 1
	for name, bad := range map[string][]byte{
		"cut":      whole[:len(whole)*2/3],
		"changed":  changed,
		"trailing": append(bytes.Clone(whole[:len(whole)-1024]), whole...),
		"empty":    nil,
	} {
		dir := t.TempDir()
		if _, err := RestoreBackup(bytes.NewReader(bad), dir); !errors.Is(err, ErrBadBackup) {
			t.Fatalf("%s backup: %v, want ErrBadBackup", name, err)
		}
		if ok, _ := StoreExists(dir); ok {
			t.Fatalf("%s backup installed a store", name)
		}
	}

	dst := t.TempDir()
	got, err := RestoreBackup(bytes.NewReader(whole), dst)
	if err != nil || got.ID != h.ID {
		t.Fatalf("restore: %+v %v", got, err)
	}
	st, err := Open(dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := st.Get(a); !ok || err != nil {
		t.Fatalf("the restored account: %v %v", ok, err)
	}
	if pos, err := st.Positions(); err != nil || len(pos) != 0 {
		t.Fatalf("a restored store's positions %v (%v), want none", pos, err)
	}
	if id, err := st.RestoredFrom(); err != nil || id != h.ID {
		t.Fatalf("restored from %q (%v), want %q", id, err, h.ID)
	}
	_ = st.Close()
	if data, err := os.ReadFile(filepath.Join(dst, "webhook-secrets.key")); err != nil || string(data) != "secret key" {
		t.Fatalf("the restored key file: %q %v", data, err)
	}
	if _, err := RestoreBackup(bytes.NewReader(whole), dst); err == nil || !strings.Contains(err.Error(), "holds a store") {
		t.Fatalf("a restore over a store: %v", err)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "webhook-secrets.key"), []byte("another key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := RestoreBackup(bytes.NewReader(whole), other); err == nil || !strings.Contains(err.Error(), "differs") {
		t.Fatalf("a restore beside another key: %v", err)
	}
}
