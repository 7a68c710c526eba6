package orders_test

import (
	"encoding/json"
	"fmt"
	"io"
	nethttp "net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/internal/clock"
)

// TestPowerLossKeepsEveryWebhook cancels orders from 32 concurrent clients
// while their order.cancelled events are fanned out and delivered to three
// endpoints of the account (every trigger; order.cancelled only;
// order.filled only), some first attempts answered 503 so retries are
// outstanding, and takes a power-loss image of the store in the middle. A
// server started on the image must deliver the event of every order the
// image holds cancelled (which includes every cancel answered before the
// image) to both subscribed endpoints, under one event id per order and
// endpoint across both lives (a receiver dedupes on it); and nothing else:
// no delivery, before the image or after the restart, for an order the
// image does not hold cancelled, and none to the order.filled endpoint.
func TestPowerLossKeepsEveryWebhook(t *testing.T) {
	for _, unsynced := range []int{0, 50} {
		t.Run(fmt.Sprintf("unsynced%d", unsynced), func(t *testing.T) {
			const makers, perMaker = 30, 10
			dir, fs := t.TempDir(), vfs.NewCrashableMem()
			e := newEnv(t, apptest.WithFS(fs), apptest.WithDataDir(dir))
			rc := newHookReceiver(t)
			secrets := map[string]string{}
			for path, events := range map[string][]string{"/all": nil, "/cancelled": {"order.cancelled"}, "/filled": {"order.filled"}} {
				body, _ := json.Marshal(map[string]any{"url": rc.srv.URL + path, "events": events})
				r := e.srv.Do("POST", "/v1/webhooks", body, map[string]string{"X-API-Key": e.srv.APIKey})
				if r.Status != 201 {
					t.Fatalf("create webhook %s: %d %s", path, r.Status, r.Body)
				}
				var created struct{ Secret string }
				if err := json.Unmarshal(r.Body, &created); err != nil {
					t.Fatal(err)
				}
				secrets[path] = created.Secret
			}
			rc.secrets = secrets

			var reqs []burstRequest
			var all []common.Hash
			for range makers {
				key := newKey(t)
				for range perMaker {
					h := e.submit(defaultSpec("limit", key))
					all = append(all, h)
					reqs = append(reqs, burstRequest{"DELETE", "/v1/orders/" + h.Hex(), e.cancelBody(h, key), h, 200})
				}
			}
			rc.failFirst.Store(true)
			kept, image := burst(t, e, reqs, unsynced, func(take func()) {
				// No delivery is recorded while the image is taken: the ones
				// recorded before it happened before the power loss.
				rc.mu.Lock()
				defer rc.mu.Unlock()
				take()
				rc.beforeImage = len(rc.got)
			})
			e.srv.Close()
			rc.mu.Lock()
			lifeOne := append([]hookDelivery(nil), rc.got[:rc.beforeImage]...)
			rc.got = rc.got[:0]
			rc.mu.Unlock()
			rc.failFirst.Store(false)

			// The second life runs an hour later on its own clock: the
			// receiver tells the lives' deliveries apart by their signed
			// time, because the first life's attempts in flight when it
			// closed (Close does not wait for them) may still arrive.
			// Retries scheduled on the first life's clock (5 s after a 503)
			// are due at once.
			clk2 := clock.NewManual(lifeOneStart.Add(time.Hour))
			after := newEnv(t, apptest.WithFS(image), apptest.WithDataDir(dir), apptest.WithClock(clk2))
			after.clk = clk2
			cancelled := map[string]bool{}
			for _, h := range all {
				if after.get(h)["status"] == "cancelled" {
					cancelled[h.Hex()] = true
				}
			}
			for _, h := range kept {
				if !cancelled[h.Hex()] {
					t.Fatalf("cancel of %s answered before the power loss, not in the image", h.Hex())
				}
			}
			after.srv.Webhooks.Wake()

			acked := func(ds []hookDelivery) map[string]bool {
				out := map[string]bool{}
				for _, d := range ds {
					if d.status == 200 {
						out[d.path+" "+d.orderHash] = true
					}
				}
				return out
			}
			missing := func() []string {
				rc.mu.Lock()
				got := acked(append(append([]hookDelivery(nil), lifeOne...), rc.lifeTwo()...))
				rc.mu.Unlock()
				var out []string
				for h := range cancelled {
					for _, path := range []string{"/all", "/cancelled"} {
						if !got[path+" "+h] {
							out = append(out, path+" "+h)
						}
					}
				}
				return out
			}
			deadline := time.Now().Add(15 * time.Second)
			for m := missing(); len(m) > 0; m = missing() {
				if time.Now().After(deadline) {
					t.Fatalf("%d of %d events not delivered after the restart, e.g. %s", len(m), 2*len(cancelled), m[0])
				}
				time.Sleep(5 * time.Millisecond)
			}

			rc.mu.Lock()
			every := append(append([]hookDelivery(nil), lifeOne...), rc.lifeTwo()...)
			rc.mu.Unlock()
			ids := map[string]string{}
			for _, d := range every {
				if d.err != "" {
					t.Fatalf("delivery %s to %s: %s", d.eventID, d.path, d.err)
				}
				if d.path == "/filled" {
					t.Fatalf("order.filled endpoint received %s %s", d.trigger, d.orderHash)
				}
				if d.trigger != "order.cancelled" || !cancelled[d.orderHash] {
					t.Fatalf("delivery of %s %s, whose cause the image does not hold", d.trigger, d.orderHash)
				}
				k := d.path + " " + d.orderHash
				if id, ok := ids[k]; ok && id != d.eventID {
					t.Fatalf("order %s reached %s under two event ids, %s and %s", d.orderHash, d.path, id, d.eventID)
				}
				ids[k] = d.eventID
			}
			t.Logf("%d cancels answered before the image, %d cancelled in it, %d deliveries before it, %d after the restart",
				len(kept), len(cancelled), len(lifeOne), len(every)-len(lifeOne))
		})
	}
}

// hookReceiver records every webhook request it gets on three paths (one
// endpoint each), checks its signature, and answers 503 to the first
// attempt of every third event while failFirst is set.
type hookReceiver struct {
	srv       *httptest.Server
	secrets   map[string]string
	failFirst atomic.Bool

	mu          sync.Mutex
	got         []hookDelivery
	beforeImage int
	seen        map[string]int
}

type hookDelivery struct {
	path, eventID, trigger, orderHash string
	status                            int
	err                               string
	life                              int // 1 or 2: whose clock signed it
}

// lifeOneStart is the first life's (manual, unmoving) clock; the second
// life's is an hour later.
var lifeOneStart = time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)

// lifeTwo returns the deliveries recorded since the reset but those the
// first life signed: its attempts still in flight when it closed arrive
// later, and are part of neither life's record (they were sent after the
// image). Unclassified ones (a bad signature) are kept, so they fail.
func (rc *hookReceiver) lifeTwo() []hookDelivery {
	var out []hookDelivery
	for _, d := range rc.got {
		if d.life != 1 {
			out = append(out, d)
		}
	}
	return out
}

func newHookReceiver(t *testing.T) *hookReceiver {
	rc := &hookReceiver{seen: map[string]int{}}
	rc.srv = httptest.NewServer(nethttp.HandlerFunc(func(w nethttp.ResponseWriter, r *nethttp.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body struct {
			ID      string `json:"id"`
			Trigger string `json:"trigger"`
			Data    struct {
				OrderHash string `json:"orderHash"`
			} `json:"data"`
		}
		d := hookDelivery{path: r.URL.Path, status: 200}
		if err := json.Unmarshal(raw, &body); err != nil {
			d.err = err.Error()
		}
		d.eventID, d.trigger, d.orderHash = body.ID, body.Trigger, body.Data.OrderHash
		if body.ID != r.Header.Get(webhook.HeaderDelivery) {
			d.err = "body id " + body.ID + " != " + webhook.HeaderDelivery + " " + r.Header.Get(webhook.HeaderDelivery)
		}
		// The signature's time is the server's (manual) clock: the first
		// life's, or the second's an hour later.
		sig, secret := r.Header.Get(webhook.HeaderSignature), rc.secrets[d.path]
		switch {
		case webhook.Verify(sig, raw, secret, lifeOneStart, time.Minute) == nil:
			d.life = 1
		case webhook.Verify(sig, raw, secret, lifeOneStart.Add(time.Hour), time.Minute) == nil:
			d.life = 2
		default:
			d.err = "signed at a time of neither life"
			if err := webhook.Verify(sig, raw, secret, lifeOneStart, 48*time.Hour); err != nil {
				d.err = "signature: " + err.Error()
			}
		}
		rc.mu.Lock()
		rc.seen[d.path+d.eventID]++
		if rc.failFirst.Load() && rc.seen[d.path+d.eventID] == 1 && len(d.orderHash) > 2 && d.orderHash[len(d.orderHash)-1]%3 == 0 {
			d.status = 503
		}
		rc.got = append(rc.got, d)
		rc.mu.Unlock()
		w.WriteHeader(d.status)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}
