package service_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	nethttp "net/http"
	"sync"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/http/testserver"
)

// TestPowerLossKeepsEveryAnsweredOrder submits orders from concurrent
// clients to a server whose Pebble store lives on a crashable in-memory
// file system, and takes a power-loss image of it in the middle of the
// burst: only what was synced survives, plus (in the second case) a random
// half of the blocks written but not yet synced, as a disk may keep some.
// A server started on that image must hold every order answered 201 before
// the image was taken, with a consistent order key space (kill -9 keeps
// the page cache, so TestOrdersSurviveKill9 cannot show this).
func TestPowerLossKeepsEveryAnsweredOrder(t *testing.T) {
	for _, unsynced := range []int{0, 50} {
		t.Run(fmt.Sprintf("unsynced%d", unsynced), func(t *testing.T) {
			powerLoss(t, unsynced)
		})
	}
}

func powerLoss(t *testing.T, unsyncedPercent int) {
	const makers, perMaker, clients = 40, 10, 32
	dir := t.TempDir()
	fs := vfs.NewCrashableMem()
	e := newEnv(t, testserver.WithFS(fs), testserver.WithDataDir(dir))

	type job struct {
		body []byte
		hash common.Hash
	}
	jobs := make(chan job, makers*perMaker)
	for range makers {
		key := newKey(t)
		for range perMaker {
			body, hash := e.build(defaultSpec("limit", key))
			jobs <- job{body, hash}
		}
	}
	close(jobs)

	var (
		mu       sync.Mutex
		answered []common.Hash
		image    *vfs.MemFS
		kept     []common.Hash
		failures []string
	)
	// The image is taken under mu, once half the orders are answered: every
	// hash in kept was answered before it.
	crash := func() {
		var rng *rand.Rand
		if unsyncedPercent > 0 {
			rng = rand.New(rand.NewPCG(uint64(len(answered)), 7))
		}
		kept = append([]common.Hash(nil), answered...)
		image = fs.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: unsyncedPercent, RNG: rng})
	}
	client := &nethttp.Client{}
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for j := range jobs {
				req, _ := nethttp.NewRequest("POST", e.srv.URL+"/v1/orders", bytes.NewReader(j.body))
				req.Header.Set("X-API-Key", e.srv.APIKey)
				resp, err := client.Do(req)
				mu.Lock()
				switch {
				case err != nil:
					failures = append(failures, err.Error())
				case resp.StatusCode != 201:
					failures = append(failures, fmt.Sprintf("%s: %d", j.hash.Hex(), resp.StatusCode))
				default:
					answered = append(answered, j.hash)
					if image == nil && len(answered) == makers*perMaker/2 {
						crash()
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
		t.Fatalf("%d submits failed, first: %s", len(failures), failures[0])
	}
	if image == nil || len(kept) != makers*perMaker/2 {
		t.Fatalf("no image taken (%d answered)", len(answered))
	}
	e.srv.Close()

	after := newEnv(t, testserver.WithFS(image), testserver.WithDataDir(dir))
	for _, h := range kept {
		if rec := after.get(h); rec["status"] != "pending" {
			t.Fatalf("order %s after the power loss: %v", h.Hex(), rec)
		}
	}
	after.consistent()
	res, err := after.svc.Orders().CheckOrders()
	if err != nil {
		t.Fatal(err)
	}
	if res.Orders < len(kept) || res.Orders > makers*perMaker {
		t.Fatalf("%d orders after the power loss: %d were answered before it, %d submitted", res.Orders, len(kept), makers*perMaker)
	}
	t.Logf("%d orders answered before the image, %d in it", len(kept), res.Orders)
}
