package keeper_test

import (
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/internal/sse"
	"github.com/orderengine/orderengine/keeper"
)

// streamConn is an open Server-Sent Events stream read in the background.
type streamConn struct {
	t      *testing.T
	resp   *http.Response
	events chan sse.Event
	cancel context.CancelFunc
}

// openStream GETs a stream with the test key (and Last-Event-ID when
// lastID is set); it fails the test unless the answer is a 200
// text/event-stream.
func openStream(t *testing.T, base, path, key, lastID string) *streamConn {
	t.Helper()
	c, status, body := tryStream(t, base, path, key, lastID)
	if c == nil {
		t.Fatalf("GET %s: %d %s", path, status, body)
	}
	return c
}

// tryStream is openStream returning a refusal's status and body instead
// of failing.
func tryStream(t *testing.T, base, path, key, lastID string) (*streamConn, int, []byte) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", key)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		return nil, resp.StatusCode, body
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("GET %s: Content-Type %q", path, ct)
	}
	c := &streamConn{t: t, resp: resp, events: make(chan sse.Event, 1024), cancel: cancel}
	go func() {
		defer close(c.events)
		r := sse.NewReader(resp.Body)
		for {
			ev, err := r.Next()
			if err != nil {
				return
			}
			c.events <- ev
		}
	}()
	t.Cleanup(c.close)
	return c, 200, nil
}

func (c *streamConn) close() {
	c.cancel()
	c.resp.Body.Close()
}

// next returns the next event, failing after 30 s.
func (c *streamConn) next() sse.Event {
	c.t.Helper()
	select {
	case ev, ok := <-c.events:
		if !ok {
			c.t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(30 * time.Second):
		c.t.Fatal("no event within 30 s")
	}
	return sse.Event{}
}

// keeperSet is the data of a snapshot or resync event; keeperBlock of a
// block event.
type keeperSet struct {
	Block     uint64               `json:"block"`
	BlockHash string               `json:"blockHash"`
	Orders    []keeper.StreamOrder `json:"orders"`
}

type keeperBlock struct {
	Block      uint64               `json:"block"`
	BlockHash  string               `json:"blockHash"`
	Executable []keeper.StreamOrder `json:"executable"`
	Removed    []struct {
		OrderHash string `json:"orderHash"`
		Reason    string `json:"reason"`
	} `json:"removed"`
}

// keeperView follows a keeper stream: the set it holds, the ids seen.
type keeperView struct {
	t    *testing.T
	srv  *apptest.Server
	c    *streamConn
	set  map[string]keeper.StreamOrder
	ids  map[string]bool
	last string
	// removed are the reasons given, by order hash.
	removed map[string]string
}

func newKeeperView(t *testing.T, srv *apptest.Server, c *streamConn) *keeperView {
	return &keeperView{t: t, srv: srv, c: c, set: map[string]keeper.StreamOrder{}, ids: map[string]bool{}, removed: map[string]string{}}
}

// apply reads one event and applies it; it returns the event's name.
func (v *keeperView) apply() string {
	v.t.Helper()
	ev := v.c.next()
	v.srv.CheckEvent("/v1/keeper/stream", ev)
	if v.ids[ev.ID] {
		v.t.Fatalf("event id %s sent twice", ev.ID)
	}
	if v.last != "" && blockOf(v.t, ev.ID) <= blockOf(v.t, v.last) {
		v.t.Fatalf("event %s after %s: ids go forward", ev.ID, v.last)
	}
	v.ids[ev.ID], v.last = true, ev.ID
	switch ev.Name {
	case keeper.EventSnapshot, keeper.EventResync:
		var s keeperSet
		if err := json.Unmarshal(ev.Data, &s); err != nil {
			v.t.Fatalf("%s: %v: %s", ev.Name, err, ev.Data)
		}
		checkBlockID(v.t, ev.ID, s.Block)
		clear(v.set)
		for _, o := range s.Orders {
			v.set[o.OrderHash] = o
		}
	case keeper.EventBlock:
		var b keeperBlock
		if err := json.Unmarshal(ev.Data, &b); err != nil {
			v.t.Fatalf("block: %v: %s", err, ev.Data)
		}
		checkBlockID(v.t, ev.ID, b.Block)
		for _, o := range b.Executable {
			if o.Block != b.Block {
				v.t.Fatalf("order %s announced in block %d says block %d", o.OrderHash, b.Block, o.Block)
			}
			v.set[o.OrderHash] = o
		}
		for _, r := range b.Removed {
			if _, ok := v.set[r.OrderHash]; !ok {
				v.t.Fatalf("block %d removes %s, which the stream had not announced", b.Block, r.OrderHash)
			}
			delete(v.set, r.OrderHash)
			v.removed[r.OrderHash] = r.Reason
		}
	default:
		v.t.Fatalf("unexpected event %q", ev.Name)
	}
	return ev.Name
}

// until applies events, mining a block before each wait, until cond holds.
func (v *keeperView) until(e *e2e, what string, cond func() bool) {
	v.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			v.t.Fatalf("timed out waiting for %s", what)
		}
		e.dev.Commit()
		v.apply()
	}
}

func blockOf(t *testing.T, id string) uint64 {
	t.Helper()
	num, _, ok := strings.Cut(id, "-")
	n, err := strconv.ParseUint(num, 10, 64)
	if !ok || err != nil {
		t.Fatalf("event id %q is not <block>-<digest>", id)
	}
	return n
}

func checkBlockID(t *testing.T, id string, block uint64) {
	t.Helper()
	if blockOf(t, id) != block {
		t.Fatalf("event id %s names another block than its data's %d", id, block)
	}
}

// sendStreamed executes a streamed order's transaction as is from the dev
// keeper's account and mines it.
func (e *e2e) sendStreamed(o keeper.StreamOrder) common.Hash {
	e.t.Helper()
	if o.Tx == nil || o.Route == nil || o.RouteBlock == nil || o.MinAmountOut == nil {
		e.t.Fatalf("streamed order %s has no transaction: %+v", o.OrderHash, o)
	}
	data, err := hexutil.Decode(o.Tx.Data)
	if err != nil {
		e.t.Fatal(err)
	}
	tx := e.send(e.dev.Accounts().Keeper.Key, common.HexToAddress(o.Tx.To), data)
	e.mine(tx)
	return tx
}

// The keeper stream through the real server and the dev chain: the set at
// connection, an order that becomes executable and is filled with the
// streamed transaction, a new one appearing; a reconnection with
// Last-Event-ID that resumes without a gap or a repeated id, one with an
// id too old that gets a resync, and malformed ids refused.
func TestKeeperStreamAcrossBlocks(t *testing.T) {
	e := newE2E(t, false)
	e.moveWETH(3000_00000000)
	keeperAddr := e.dev.Accounts().Keeper.Address
	path := "/v1/keeper/stream?keeper=" + keeperAddr.Hex()
	v := newKeeperView(t, e.srv, openStream(t, e.srv.URL, path, e.srv.APIKey, ""))
	if name := v.apply(); name != keeper.EventSnapshot || len(v.set) != 0 {
		t.Fatalf("first event %s with %d orders, want an empty snapshot", name, len(v.set))
	}

	first := e.submit("limit", 40_000_000, usdcInWeth(4000), chain.Traits{Nonce: 21, SlippagePpm: 50_000}, nil)
	v.until(e, "the limit order executable", func() bool { _, ok := v.set[first.Hex()]; return ok })
	o := v.set[first.Hex()]
	if o.FillIn != "40000000" || o.OrderType != "limit" || o.Tx == nil || o.Tx.To != e.cfg.Chain.Router || *o.RouteBlock != o.Block {
		t.Fatalf("announced %+v", o)
	}
	e.sendStreamed(o)
	v.until(e, "the filled order removed", func() bool { return v.removed[first.Hex()] != "" })
	if got := v.removed[first.Hex()]; got != keeper.ReasonFilled {
		t.Fatalf("removed with reason %q, want filled", got)
	}
	second := e.submit("limit", 30_000_000, usdcInWeth(4000), chain.Traits{Nonce: 22, SlippagePpm: 50_000}, nil)
	v.until(e, "a new order executable", func() bool { _, ok := v.set[second.Hex()]; return ok })

	// Reconnect with the last id: the blocks since, no snapshot, no id
	// seen before, and the order submitted meanwhile.
	last := v.last
	v.c.close()
	third := e.submit("limit", 20_000_000, usdcInWeth(4000), chain.Traits{Nonce: 23, SlippagePpm: 50_000}, nil)
	e.dev.Commit()
	e.dev.Commit()
	v.c = openStream(t, e.srv.URL, path, e.srv.APIKey, last)
	if name := v.apply(); name != keeper.EventBlock {
		t.Fatalf("resumed with %s, want the next block", name)
	}
	v.until(e, "the order submitted while away", func() bool { _, ok := v.set[third.Hex()]; return ok })
	if _, ok := v.set[second.Hex()]; !ok || len(v.set) != 2 {
		t.Fatalf("after the resumption the stream holds %v", v.set)
	}

	// An id older than the node keeps: a resync with the whole set.
	old := newKeeperView(t, e.srv, openStream(t, e.srv.URL, path, e.srv.APIKey, "1-0000000000000000"))
	if name := old.apply(); name != keeper.EventResync || len(old.set) != 2 {
		t.Fatalf("an old id got %s with %d orders, want a resync with 2", name, len(old.set))
	}
	// The maker withdraws the router's allowance: both orders leave,
	// unfunded.
	e.mine(e.send(e.maker.Key, e.tok("USDC"), testtoken.NewTestToken().PackApprove(common.HexToAddress(e.cfg.Chain.Router), big.NewInt(0))))
	v.until(e, "the unfunded orders removed", func() bool { return len(v.set) == 0 })
	if v.removed[second.Hex()] != keeper.ReasonUnfunded || v.removed[third.Hex()] != keeper.ReasonUnfunded {
		t.Fatalf("removed %v, want both unfunded", v.removed)
	}
	for _, bad := range []string{"garbage", "12-xyz", strings.Repeat("9", 65)} {
		if c, status, body := tryStream(t, e.srv.URL, path, e.srv.APIKey, bad); c != nil || status != 400 || !strings.Contains(string(body), "INVALID_REQUEST") {
			t.Fatalf("Last-Event-ID %q: %d %s", bad, status, body)
		}
	}
}

// The reference keeper follows the keeper stream: with a poll of an hour,
// an order that becomes executable is filled at the stream's block, from
// the stream's transaction. With the stream unreachable (a wrong base URL
// for it) the keeper polls the list instead, and fills as well.
func TestRunnerFollowsTheStreamAndFallsBackToPolling(t *testing.T) {
	e := newE2E(t, false)
	e.moveWETH(3000_00000000)
	for i, c := range []struct {
		streamURL string
		poll      time.Duration
	}{{e.srv.URL, time.Hour}, {e.srv.URL + "/no-such-prefix", 50 * time.Millisecond}} {
		r := keeper.NewRunner(e.dev.Client(), e.dev.Accounts().Keeper.Key, keeper.HTTPSource(e.srv.URL, e.srv.APIKey, nil), keeper.RunnerOptions{})
		r.Follow = keeper.NewFollower(c.streamURL, e.srv.APIKey, r.Address(), nil, nil)
		ctx, cancel := context.WithCancel(e.ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			r.Run(ctx, c.poll)
		}()
		streaming := i == 0
		if streaming {
			e.waitFor("the stream connected", r.Follow.Connected)
		}
		h := e.submit("limit", 10_000_000, usdcInWeth(4000), chain.Traits{Nonce: 51 + uint64(i), SlippagePpm: 50_000}, nil)
		e.waitFor("the order filled", func() bool { return e.order(h)["status"] == "filled" })
		if r.Follow.Connected() != streaming {
			t.Fatalf("follower of %s connected: %v", c.streamURL, r.Follow.Connected())
		}
		cancel()
		<-done
	}
}
