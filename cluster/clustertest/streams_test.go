package clustertest

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/internal/sse"
	"github.com/orderengine/orderengine/keeper"
)

// keeperStream is a keeper stream of one node read in the background: the
// events received, the set they describe and the reasons of removals.
type keeperStream struct {
	t      *testing.T
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	events  []sse.Event
	set     map[string]keeper.StreamOrder
	removed map[string]string
}

// openKeeperStream opens s's keeper stream for keeperAddr (resuming after
// lastID when set).
func openKeeperStream(t *testing.T, s *apptest.Server, keeperAddr common.Address, lastID string) *keeperStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/v1/keeper/stream?keeper="+keeperAddr.Hex(), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", s.APIKey)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		cancel()
		t.Fatalf("keeper stream of %s: %v %v", s.URL, err, resp)
	}
	k := &keeperStream{t: t, cancel: cancel, done: make(chan struct{}), set: map[string]keeper.StreamOrder{}, removed: map[string]string{}}
	go func() {
		defer close(k.done)
		defer resp.Body.Close()
		r := sse.NewReader(resp.Body)
		for {
			ev, err := r.Next()
			if err != nil {
				return
			}
			k.apply(ev)
		}
	}()
	t.Cleanup(func() { cancel(); <-k.done })
	return k
}

func (k *keeperStream) apply(ev sse.Event) {
	var d struct {
		Orders, Executable []keeper.StreamOrder
		Removed            []struct {
			OrderHash, Reason string
		}
	}
	_ = json.Unmarshal(ev.Data, &d)
	k.mu.Lock()
	defer k.mu.Unlock()
	k.events = append(k.events, ev)
	if ev.Name != keeper.EventBlock {
		clear(k.set)
	}
	for _, o := range append(d.Orders, d.Executable...) {
		k.set[o.OrderHash] = o
	}
	for _, r := range d.Removed {
		delete(k.set, r.OrderHash)
		k.removed[r.OrderHash] = r.Reason
	}
}

// removedAs reports the reason order h was removed with ("" not yet).
func (k *keeperStream) removedAs(h common.Hash) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.removed[h.Hex()]
}

// order returns order h as the stream holds it, once its transaction is
// built.
func (k *keeperStream) order(h common.Hash) (keeper.StreamOrder, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	o, ok := k.set[h.Hex()]
	return o, ok && o.Tx != nil
}

func (k *keeperStream) snapshot() []sse.Event {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]sse.Event(nil), k.events...)
}

func (k *keeperStream) ended() bool {
	select {
	case <-k.done:
		return true
	default:
		return false
	}
}

// checkIDs fails unless ids go forward block by block, each once.
func checkIDs(t *testing.T, what string, events []sse.Event) {
	t.Helper()
	var last uint64
	for i, ev := range events {
		num, _, _ := strings.Cut(ev.ID, "-")
		b, err := strconv.ParseUint(num, 10, 64)
		if err != nil || (i > 0 && b <= last) {
			t.Fatalf("%s: event %d id %q after block %d", what, i, ev.ID, last)
		}
		last = b
	}
}

// fillStreamed sends o's streamed transaction from key and waits for it
// to be mined.
func (c *chainCluster) fillStreamed(key *ecdsa.PrivateKey, o keeper.StreamOrder) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	data, err := hexutil.Decode(o.Tx.Data)
	if err != nil {
		c.t.Fatal(err)
	}
	client := c.dev.Client()
	opts := bind.NewKeyedTransactor(key, new(big.Int).SetUint64(c.dev.ChainID()))
	opts.Context = ctx
	tx, err := bind.NewBoundContract(c.router, servicerouter.NewServiceRouter().GetABI(), client, client, client).RawTransact(opts, data)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.dev.Mine(ctx, tx.Hash()); err != nil {
		c.t.Fatal(err)
	}
}

// A keeper stream in a cluster across the lifecycle driver's handover.
// The orders are reserved for an outside keeper (a dev maker's account),
// which the nodes' keepers leave alone, and which fills each from the
// stream's transaction once the streams announced it. A stream on a
// standby goes on while the driver closes and a standby takes over; the
// stream that was open on the closed driver resumes on a survivor with its
// Last-Event-ID; both announce the order submitted after the handover and
// its fill, without repeating an id.
func TestKeeperStreamAcrossTheDriversHandover(t *testing.T) {
	c := startChainCluster(t)
	var closed atomic.Int32
	closed.Store(-1)
	live := func(i int) bool { return int(closed.Load()) != i }
	var driver int
	c.nodes[0].WaitFor("one node driving the chain lifecycle", func() bool {
		d := c.drivers(live)
		if len(d) == 1 {
			driver = d[0]
		}
		return len(d) == 1
	})
	standby, third := (driver+1)%3, (driver+2)%3
	outside := c.dev.Accounts().Makers[1]
	reserved := chain.Traits{SlippagePpm: 50_000, AllowedSender: chain.SenderLow80(outside.Address)}
	onStandby := openKeeperStream(t, c.nodes[standby], outside.Address, "")
	onDriver := openKeeperStream(t, c.nodes[driver], outside.Address, "")

	fill := func(h common.Hash, streams ...*keeperStream) {
		t.Helper()
		var o keeper.StreamOrder
		c.nodes[standby].WaitFor("the order announced with its transaction on every stream", func() bool {
			for _, k := range streams {
				var ok bool
				if o, ok = k.order(h); !ok {
					return false
				}
			}
			return true
		})
		c.fillStreamed(outside.Key, o)
		c.nodes[standby].WaitFor("the fill announced on every stream", func() bool {
			for _, k := range streams {
				if k.removedAs(h) != keeper.ReasonFilled {
					return false
				}
			}
			return true
		})
	}
	fill(c.submitTraits(standby, 5001, reserved), onStandby, onDriver)

	closed.Store(int32(driver))
	c.nodes[driver].Close()
	c.nodes[standby].WaitFor("the stream of the closed driver ended", onDriver.ended)
	c.nodes[standby].WaitFor("a standby driving", func() bool { return len(c.drivers(live)) == 1 })

	// The closed driver's keeper resumes on a survivor.
	gone := onDriver.snapshot()
	lastID := gone[len(gone)-1].ID
	resumed := openKeeperStream(t, c.nodes[third], outside.Address, lastID)
	fill(c.submitTraits(third, 5002, reserved), onStandby, resumed)

	events := onStandby.snapshot()
	checkIDs(t, "the standby's stream", events)
	if events[0].Name != keeper.EventSnapshot {
		t.Fatalf("the standby's stream began with %s", events[0].Name)
	}
	for _, ev := range events[1:] {
		if ev.Name != keeper.EventBlock {
			t.Fatalf("the standby's stream sent %s across the handover, want block events only", ev.Name)
		}
	}
	again := resumed.snapshot()
	checkIDs(t, "the resumed stream", append(gone, again...))
	t.Logf("the closed driver's stream: %d events up to %s; resumed on node%d with %s (%d events after)", len(gone), lastID, third, again[0].Name, len(again))
}
