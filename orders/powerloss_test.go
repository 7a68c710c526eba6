package orders_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	nethttp "net/http"
	"sync"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/app/apptest"
)

// The power-loss tests run the server with its Pebble store on a crashable
// in-memory file system and take an image of it in the middle of a burst
// of concurrent requests: only what was synced survives, plus (unsynced50)
// a random half of the blocks written but not yet synced, as a disk may
// keep some. A server started on the image must show every change answered
// before the image was taken, with a consistent order key space. (kill -9
// keeps the page cache, so TestOrdersSurviveKill9 cannot show this.)

// TestPowerLossKeepsEveryAnsweredOrder: every order answered 201 before
// the image is there, pending.
func TestPowerLossKeepsEveryAnsweredOrder(t *testing.T) {
	for _, unsynced := range []int{0, 50} {
		t.Run(fmt.Sprintf("unsynced%d", unsynced), func(t *testing.T) {
			const makers, perMaker = 40, 10
			dir, fs := t.TempDir(), vfs.NewCrashableMem()
			e := newEnv(t, apptest.WithFS(fs), apptest.WithDataDir(dir))
			var reqs []burstRequest
			for range makers {
				key := newKey(t)
				for range perMaker {
					body, hash := e.build(defaultSpec("limit", key))
					reqs = append(reqs, burstRequest{"POST", "/v1/orders", body, hash, 201})
				}
			}
			kept, image := burst(t, e, reqs, unsynced, nil)
			e.srv.Close()

			after := newEnv(t, apptest.WithFS(image), apptest.WithDataDir(dir))
			for _, h := range kept {
				if rec := after.get(h); rec["status"] != "pending" {
					t.Fatalf("order %s after the power loss is %v, want pending", h.Hex(), rec["status"])
				}
			}
			n := after.checkedOrders()
			if n < len(kept) || n > len(reqs) {
				t.Fatalf("%d orders after the power loss: %d were answered before it, %d submitted", n, len(kept), len(reqs))
			}
		})
	}
}

// TestPowerLossKeepsEveryAnsweredCancel: every cancel answered 200 before
// the image is there, and no order is lost.
func TestPowerLossKeepsEveryAnsweredCancel(t *testing.T) {
	for _, unsynced := range []int{0, 50} {
		t.Run(fmt.Sprintf("unsynced%d", unsynced), func(t *testing.T) {
			const orders = 200
			dir, fs := t.TempDir(), vfs.NewCrashableMem()
			e := newEnv(t, apptest.WithFS(fs), apptest.WithDataDir(dir))
			var reqs []burstRequest
			var all []common.Hash
			for i := range orders / 10 {
				key := newKey(t)
				for range 10 {
					h := e.submit(defaultSpec("limit", key))
					all = append(all, h)
					if i%2 == 0 { // half the makers cancel all their orders
						reqs = append(reqs, burstRequest{"DELETE", "/v1/orders/" + h.Hex(), e.cancelBody(h, key), h, 200})
					}
				}
			}
			kept, image := burst(t, e, reqs, unsynced, nil)
			e.srv.Close()

			after := newEnv(t, apptest.WithFS(image), apptest.WithDataDir(dir))
			cancelled := make(map[common.Hash]bool)
			for _, h := range kept {
				cancelled[h] = true
			}
			for _, h := range all {
				rec := after.get(h)
				if cancelled[h] && rec["status"] != "cancelled" || rec["status"] != "cancelled" && rec["status"] != "pending" {
					t.Fatalf("order %s after the power loss is %v (cancel answered before it: %v)", h.Hex(), rec["status"], cancelled[h])
				}
			}
			if n := after.checkedOrders(); n != orders {
				t.Fatalf("%d orders after the power loss, want %d", n, orders)
			}
		})
	}
}

// burstRequest is one request of a burst and the status that answers it.
type burstRequest struct {
	method, path string
	body         []byte
	hash         common.Hash
	want         int
}

// burst sends reqs from 32 concurrent clients and takes a power-loss image
// of fs (keeping unsyncedPercent of the unsynced blocks) once half of them
// are answered. It returns the hashes answered before the image, and the
// image. around, when not nil, is called with the function that takes the
// image (to run it while holding what must not move meanwhile).
func burst(t *testing.T, e *env, reqs []burstRequest, unsyncedPercent int, around func(take func())) ([]common.Hash, *vfs.MemFS) {
	t.Helper()
	fs, ok := e.srv.FS().(*vfs.MemFS)
	if !ok {
		t.Fatal("the server's store is not on a crashable MemFS")
	}
	queue := make(chan burstRequest, len(reqs))
	for _, r := range reqs {
		queue <- r
	}
	close(queue)
	var (
		mu       sync.Mutex
		answered []common.Hash
		kept     []common.Hash
		image    *vfs.MemFS
		failures []string
	)
	client := &nethttp.Client{}
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for r := range queue {
				req, _ := nethttp.NewRequest(r.method, e.srv.URL+r.path, bytes.NewReader(r.body))
				req.Header.Set("X-API-Key", e.srv.APIKey)
				resp, err := client.Do(req)
				mu.Lock()
				switch {
				case err != nil:
					failures = append(failures, err.Error())
				case resp.StatusCode != r.want:
					failures = append(failures, fmt.Sprintf("%s %s: %d", r.method, r.path, resp.StatusCode))
				default:
					answered = append(answered, r.hash)
					// Under mu: every hash in kept was answered before the image.
					if image == nil && len(answered) == len(reqs)/2 {
						var rng *rand.Rand
						if unsyncedPercent > 0 {
							rng = rand.New(rand.NewPCG(uint64(len(reqs)), 7))
						}
						kept = append([]common.Hash(nil), answered...)
						take := func() { image = fs.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: unsyncedPercent, RNG: rng}) }
						if around != nil {
							around(take)
						} else {
							take()
						}
					}
				}
				mu.Unlock()
				if resp != nil {
					_ = resp.Body.Close()
				}
			}
		})
	}
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("%d requests failed, first: %s", len(failures), failures[0])
	}
	if image == nil {
		t.Fatalf("no image taken (%d answered)", len(answered))
	}
	return kept, image
}

// checkedOrders fails the test when the order key space is inconsistent
// and returns the number of stored orders.
func (e *env) checkedOrders() int {
	e.t.Helper()
	e.consistent()
	res, err := e.svc().Orders().CheckOrders()
	if err != nil {
		e.t.Fatal(err)
	}
	return res.Orders
}
