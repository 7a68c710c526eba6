package orders_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/orderengine/orderengine/config"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/cockroachdb/pebble/v2/vfs/errorfs"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/persistence"
)

// TestStorageFailureIsFailStop fails the writes of the store's WAL (a full
// or broken disk) under a running server. The submit and the cancel that
// hit the failure answer 500 INTERNAL, and from then on every request does
// (also once the disk is writable again): Pebble has already applied the
// failed batches to its memtable, so the order answered 500 must not read
// as pending, nor a retried submit answer 409, nor the failed cancel's
// event reach the outbox's consumers. A server restarted on what the disk
// kept holds the order pending, not the other, and no event to deliver.
func TestStorageFailureIsFailStop(t *testing.T) {
	var broken atomic.Bool
	dir, mem := t.TempDir(), vfs.NewCrashableMem()
	fs := errorfs.Wrap(mem, errorfs.InjectorFunc(func(op errorfs.Op) error {
		if broken.Load() && op.Kind.ReadOrWrite() == errorfs.OpIsWrite && strings.HasSuffix(op.Path, ".log") {
			return errorfs.ErrInjected
		}
		return nil
	}))
	e := newEnv(t, apptest.WithFS(fs), apptest.WithDataDir(dir))
	rc := e.receiver()
	key := newKey(t)
	h1 := e.submit(defaultSpec("limit", key))
	body2, h2 := e.build(defaultSpec("limit", key))

	broken.Store(true)
	internal := func(what string, r *apptest.Response) {
		t.Helper()
		if r.Status != 500 || r.Code() != string(orderengine.CodeInternal) {
			t.Fatalf("%s after the storage failure: %d %s, want 500 INTERNAL", what, r.Status, r.Body)
		}
	}
	internal("submit", e.submitRaw(body2))
	internal("cancel", e.cancel(h1, key))
	if err := e.srv.System.Store.Err(); !errors.Is(err, persistence.ErrStoreFailed) {
		t.Fatalf("store error %v, want ErrStoreFailed", err)
	}
	broken.Store(false) // the disk is writable again: the store stays failed
	internal("get of the failed submit", e.srv.Get("/v1/orders/"+h2.Hex()))
	internal("retried submit", e.submitRaw(body2))
	internal("get of the failed cancel's order", e.srv.Get("/v1/orders/"+h1.Hex()))
	internal("healthz", e.srv.Raw(e.srv.URL, "GET", "/healthz", nil, nil))
	if _, err := e.srv.System.Outbox.Scan(e.srv.AccountID, 0, 10); !errors.Is(err, persistence.ErrStoreFailed) {
		t.Fatalf("outbox scan after the failure: %v, want ErrStoreFailed", err)
	}
	// The other writers (accounts, webhooks, the chain indexer) are refused
	// by the store too, instead of reaching Pebble's failed log.
	if _, err := e.srv.System.Accounts.CreateAccount("after the failure", config.TierFree, config.BucketLimits{}); !errors.Is(err, persistence.ErrStoreFailed) {
		t.Fatalf("account write after the failure: %v, want ErrStoreFailed", err)
	}
	if err := e.srv.System.Chain.SetProjected(1); !errors.Is(err, persistence.ErrStoreFailed) {
		t.Fatalf("chain write after the failure: %v, want ErrStoreFailed", err)
	}

	image := mem.CrashClone(vfs.CrashCloneCfg{})
	account := e.srv.AccountID
	e.srv.Close()
	after := newEnv(t, apptest.WithFS(image), apptest.WithDataDir(dir))
	if st := after.get(h1)["status"]; st != "pending" {
		t.Fatalf("order of the failed cancel is %v after the restart, want pending", st)
	}
	if r := after.srv.Get("/v1/orders/" + h2.Hex()); r.Status != 404 {
		t.Fatalf("order of the failed submit after the restart: %d %s, want 404", r.Status, r.Body)
	}
	if left, err := after.srv.System.Outbox.Scan(account, 0, 10); err != nil || len(left) != 0 {
		t.Fatalf("outbox after the restart: %v %+v, want empty", err, left)
	}
	if rc.has("order.cancelled", h1) {
		t.Fatal("order.cancelled delivered for a cancel answered 500")
	}
	if r := after.submitRaw(body2); r.Status != 201 {
		t.Fatalf("submit after the restart: %d %s", r.Status, r.Body)
	}
}

// TestUnknownOutcomeIsStatedAsOne fails the fsync of the store's WAL while
// a submit is being made durable: the write was handed to the disk, and
// whether it is there after a restart is unknown (a disk may have written
// it and failed to say so). The 500 says so and that resubmitting the same
// signed order is safe; after the restart the resubmit answers 201 when
// the write was lost and 409 ALREADY_EXISTS when it was kept, and either
// way the order is stored once and reads pending.
func TestUnknownOutcomeIsStatedAsOne(t *testing.T) {
	for _, c := range []struct {
		name string
		kept int // percent of the unsynced writes the disk kept
		want int
	}{
		{"the write was lost", 0, 201},
		{"the write reached the disk", 100, 409},
	} {
		t.Run(c.name, func(t *testing.T) {
			var broken atomic.Bool
			dir, mem := t.TempDir(), vfs.NewCrashableMem()
			fs := errorfs.Wrap(mem, errorfs.InjectorFunc(func(op errorfs.Op) error {
				sync := op.Kind == errorfs.OpFileSync || op.Kind == errorfs.OpFileSyncData || op.Kind == errorfs.OpFileSyncTo
				if broken.Load() && sync && strings.HasSuffix(op.Path, ".log") {
					return errorfs.ErrInjected
				}
				return nil
			}))
			e := newEnv(t, apptest.WithFS(fs), apptest.WithDataDir(dir))
			key := newKey(t)
			body, h := e.build(defaultSpec("limit", key))

			broken.Store(true)
			r := e.submitRaw(body)
			var msg struct{ Error string }
			_ = json.Unmarshal(r.Body, &msg)
			if r.Status != 500 || r.Code() != string(orderengine.CodeInternal) ||
				!strings.Contains(msg.Error, "may or may not have been stored") ||
				!strings.Contains(msg.Error, "Resubmitting the same signed order is safe") {
				t.Fatalf("submit while the fsync fails: %d %s", r.Status, r.Body)
			}
			image := mem.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: c.kept, RNG: rand.New(rand.NewPCG(1, 2))})
			e.srv.Close()

			after := newEnv(t, apptest.WithFS(image), apptest.WithDataDir(dir))
			r = after.submitRaw(body)
			if r.Status != c.want || (c.want == 409 && r.Code() != string(orderengine.CodeAlreadyExists)) {
				t.Fatalf("resubmit after the restart: %d %s, want %d", r.Status, r.Body, c.want)
			}
			if st := after.get(h)["status"]; st != "pending" {
				t.Fatalf("order after the resubmit: %v, want pending", st)
			}
			if r := after.submitRaw(body); r.Status != 409 {
				t.Fatalf("a second resubmit: %d %s, want 409", r.Status, r.Body)
			}
		})
	}
}
