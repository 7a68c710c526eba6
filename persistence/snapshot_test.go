package persistence

import (
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/orderengine/orderengine/config"
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
	accts := NewAccounts(src, nil)
	a, err := accts.CreateAccount("from the snapshot", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
	orders := NewOrders(src, NewOutbox(src, nil, nil))
	ap := orders.BeginApply("ORDERS_0")
	if _, err := ap.Commit(42); err != nil {
		t.Fatal(err)
	}
	ap.Close()
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
	mine, err := NewAccounts(old, nil).CreateAccount("only here", config.TierFree, config.BucketLimits{})
	if err != nil {
		t.Fatal(err)
	}
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
	checkAccount(t, dst, mine.ID, true)

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
	checkAccount(t, dst, a.ID, true)
	checkAccount(t, dst, mine.ID, false)
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

func checkAccount(t *testing.T, dir, id string, present bool) {
	t.Helper()
	st, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = NewAccounts(st, nil).Account(id)
	if got := err == nil; got != present {
		t.Fatalf("account %s in %s: present %v (%v), want %v", id, dir, got, err, present)
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
