package market_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/holiman/uint256"
	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/market"
	"github.com/orderengine/orderengine/persistence/chainstore"
)

// GET /v1/swaps, /v1/volume and /v1/stats through the real server (Fiber,
// Pebble, actors; every answer validated against the served OpenAPI
// document). The market data is written the way the indexer writes it:
// the real Sink inside a chainstore.Batch per block, on the server's
// own store. The blocks' logs are built here instead of mined (the e2e
// tests of keeper cover the chain → sink path); the price source is
// a fixed one so the USD figures can be asserted exactly.

// usdPricer prices one whole unit of every token (18 decimals) at $2.
type usdPricer struct{}

func (usdPricer) USD8(_ context.Context, _ common.Hash, _ common.Address, amount *big.Int) (*big.Int, bool) {
	v := new(big.Int).Mul(amount, big.NewInt(200_000_000))
	return v.Quo(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)), true
}

var (
	tokA   = common.HexToAddress("0x1000000000000000000000000000000000000001")
	tokB   = common.HexToAddress("0x2000000000000000000000000000000000000002")
	tokC   = common.HexToAddress("0x3000000000000000000000000000000000000003")
	alice  = common.HexToAddress("0x00000000000000000000000000000000000A11CE")
	bob    = common.HexToAddress("0x0000000000000000000000000000000000000B0B")
	carol  = common.HexToAddress("0x00000000000000000000000000000000000CA201")
	start  = time.Date(2026, 11, 22, 12, 30, 0, 0, time.UTC)
	ether  = new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
	hashOf = func(n uint64) common.Hash { return common.BigToHash(new(big.Int).SetUint64(n + 1_000_000)) }
)

// marketEnv is a test server with the market service plugged in and a
// writer of blocks into its store.
type marketEnv struct {
	t    *testing.T
	ts   *apptest.Server
	clk  *clock.Manual
	ch   *chainstore.Chain
	sink *market.Sink
	head uint64
}

func newMarketEnv(t *testing.T) *marketEnv {
	t.Helper()
	m := &marketEnv{t: t, clk: clock.NewManual(start)}
	m.ts = apptest.NewTestServer(t,
		apptest.WithClock(m.clk),
		apptest.WithTier(config.TierEnterprise, config.BucketLimits{Quote: 100_000, Read: 100_000, Order: 100_000}),
		// The indexer's progress as the market writes below leave it (the
		// engine runs without a chain here).
		apptest.WithChainStatus(func() chainsync.Status { return chainsync.Status{Head: m.head + 2, Cursor: m.head, LagBlocks: 2} }))
	m.ch = m.ts.System.Chain
	if err := m.ch.SetCursor(chainstore.Block{Number: 0, Hash: hashOf(0)}); err != nil {
		t.Fatal(err)
	}
	m.sink = market.NewSink(nil, usdPricer{}, nil)
	return m
}

// block applies the next block, with time at, through the sink.
func (m *marketEnv) block(at time.Time, evs ...chainsync.Event) uint64 {
	m.t.Helper()
	m.head++
	n := m.head
	b := &chainsync.Block{Number: n, Hash: hashOf(n), Parent: hashOf(n - 1), Time: uint64(at.Unix()), Events: evs}
	cb := m.ch.Begin(chainstore.Block{Number: n, Hash: b.Hash, Parent: b.Parent, Time: b.Time})
	if err := m.sink.ApplyBlock(cb, b); err != nil {
		m.t.Fatal(err)
	}
	if err := cb.Commit(64); err != nil {
		m.t.Fatal(err)
	}
	return n
}

func swapEv(idx uint, sender, receiver, in, out common.Address, amountIn *big.Int) chainsync.Event {
	return chainsync.Event{Kind: chainsync.KindSwapped, TxHash: common.BigToHash(big.NewInt(int64(idx) + 1)), LogIndex: idx,
		Swap: &servicerouter.ServiceRouterSwapped{Sender: sender, Receiver: receiver, TokenIn: in, TokenOut: out,
			AmountIn: amountIn, AmountOut: new(big.Int).Rsh(amountIn, 1), ProtocolFee: big.NewInt(3), ReferralFee: big.NewInt(1),
			Referrer: carol}}
}

// fillEv is the fill of an order this engine does not know (no tokens).
func fillEv(idx uint, maker common.Address) chainsync.Event {
	return chainsync.Event{Kind: chainsync.KindFilled, TxHash: common.BigToHash(big.NewInt(int64(idx) + 7)), LogIndex: idx,
		OrderHash: common.BigToHash(big.NewInt(int64(idx) + 99)), Maker: maker,
		Fill: &chainstore.Fill{TxHash: common.BigToHash(big.NewInt(int64(idx) + 7)), LogIndex: uint32(idx), AmountIn: *uint256.NewInt(10), AmountOut: *uint256.NewInt(9),
			KeeperFee: *uint256.NewInt(1), Keeper: bob, Executions: 1, FilledAmountIn: *uint256.NewInt(10)}}
}

type swapList struct {
	Swaps      []chainstore.SwapRecord `json:"swaps"`
	NextCursor *string                 `json:"nextCursor"`
}

func (m *marketEnv) swaps(query string) swapList {
	m.t.Helper()
	r := m.ts.Get("/v1/swaps" + query)
	if r.Status != 200 {
		m.t.Fatalf("GET /v1/swaps%s: %d %s", query, r.Status, r.Body)
	}
	var l swapList
	if err := json.Unmarshal(r.Body, &l); err != nil {
		m.t.Fatal(err)
	}
	return l
}

// walk follows nextCursor from the first page of filter ("" or
// "token=…&wallet=…") with page size limit and returns every swap, failing
// when a page is over the limit.
func (m *marketEnv) walk(filter string, limit int) []chainstore.SwapRecord {
	m.t.Helper()
	var all []chainstore.SwapRecord
	base := "?limit=" + fmt.Sprint(limit)
	if filter != "" {
		base += "&" + filter
	}
	q := base
	for pages := 0; ; pages++ {
		if pages > 10_000 {
			m.t.Fatal("pagination does not end")
		}
		l := m.swaps(q)
		if len(l.Swaps) > limit {
			m.t.Fatalf("page of %d swaps with limit %d", len(l.Swaps), limit)
		}
		all = append(all, l.Swaps...)
		if l.NextCursor == nil {
			return all
		}
		q = base + "&cursor=" + *l.NextCursor
	}
}

type pos struct {
	block uint64
	log   uint32
}

func positions(rs []chainstore.SwapRecord) []pos {
	out := make([]pos, len(rs))
	for i, r := range rs {
		out[i] = pos{r.BlockNumber, r.LogIndex}
	}
	return out
}

// TestSwapsOverHTTP: newest first, default page 100, limit 1..500, keyset
// cursor that visits every swap once and ends with null, token (either
// side) and wallet (sender/maker or receiver) filters, and bad input.
func TestSwapsOverHTTP(t *testing.T) {
	m := newMarketEnv(t)
	wallets := []common.Address{alice, bob, carol}
	pairs := [][2]common.Address{{tokA, tokB}, {tokB, tokC}, {tokC, tokA}}
	var want []chainstore.SwapRecord // oldest first
	idx := uint(0)
	for b := range 13 {
		var evs []chainsync.Event
		for range 50 {
			p := pairs[idx%3]
			evs = append(evs, swapEv(idx, wallets[idx%3], wallets[(idx/3)%3], p[0], p[1], big.NewInt(int64(idx)+1)))
			idx++
		}
		if b%4 == 0 {
			evs = append(evs, fillEv(idx, alice))
			idx++
		}
		n := m.block(start.Add(time.Duration(b)*time.Minute), evs...)
		for _, ev := range evs {
			r := chainstore.SwapRecord{BlockNumber: n, LogIndex: uint32(ev.LogIndex), Kind: "swap"}
			if ev.Kind == chainsync.KindFilled {
				r.Kind, r.Wallet = "fill", ev.Maker.Hex()
			} else {
				r.Wallet, r.Receiver, r.TokenIn, r.TokenOut = ev.Swap.Sender.Hex(), ev.Swap.Receiver.Hex(), ev.Swap.TokenIn.Hex(), ev.Swap.TokenOut.Hex()
			}
			want = append(want, r)
		}
	}
	slices.Reverse(want) // newest first
	total := len(want)   // 654

	first := m.swaps("")
	if len(first.Swaps) != 100 || first.NextCursor == nil {
		t.Fatalf("default page: %d swaps, nextCursor %v", len(first.Swaps), first.NextCursor)
	}
	if got := positions(first.Swaps); !slices.Equal(got, positions(want[:100])) {
		t.Fatalf("default page is not the newest 100 in order: %v", got[:3])
	}
	f0, s0 := first.Swaps[0], first.Swaps[1] // block 13 ends with a fill
	if f0.Kind != "fill" || f0.Wallet != alice.Hex() || f0.TokenIn != "" || f0.OrderHash == "" || f0.Keeper != bob.Hex() || f0.VolumeUSD != "" {
		t.Fatalf("fill record %+v", f0)
	}
	if s0.Kind != "swap" || s0.TxHash == "" || s0.Timestamp != start.Add(12*time.Minute).Unix() || s0.Referrer != carol.Hex() || s0.VolumeUSD != "0.00" {
		t.Fatalf("swap record %+v", s0)
	}
	if l := m.swaps("?limit=500"); len(l.Swaps) != 500 || l.NextCursor == nil {
		t.Fatalf("limit=500: %d swaps", len(l.Swaps))
	}
	if l := m.swaps("?limit=1"); len(l.Swaps) != 1 || l.NextCursor == nil {
		t.Fatalf("limit=1: %d swaps", len(l.Swaps))
	}
	for _, limit := range []int{100, 500, 7} {
		if got := m.walk("", limit); !slices.Equal(positions(got), positions(want)) {
			t.Fatalf("limit %d: walked %d swaps, want %d once each, newest first", limit, len(got), total)
		}
	}
	// Filters, each walked page by page and compared with the expectation.
	filter := func(token, wallet common.Address) []pos {
		var out []pos
		for _, r := range want {
			if token != (common.Address{}) && r.TokenIn != token.Hex() && r.TokenOut != token.Hex() {
				continue
			}
			if wallet != (common.Address{}) && r.Wallet != wallet.Hex() && r.Receiver != wallet.Hex() {
				continue
			}
			out = append(out, pos{r.BlockNumber, r.LogIndex})
		}
		return out
	}
	for _, c := range []struct {
		query         string
		token, wallet common.Address
	}{
		{"token=" + tokA.Hex(), tokA, common.Address{}},
		{"token=" + strings.ToLower(tokC.Hex()), tokC, common.Address{}},
		{"wallet=" + alice.Hex(), common.Address{}, alice},
		{"wallet=" + strings.ToLower(carol.Hex()), common.Address{}, carol},
		{"token=" + tokB.Hex() + "&wallet=" + bob.Hex(), tokB, bob},
	} {
		exp := filter(c.token, c.wallet)
		if len(exp) == 0 {
			t.Fatalf("%s: the fixture has no match", c.query)
		}
		if got := positions(m.walk(c.query, 50)); !slices.Equal(got, exp) {
			t.Errorf("%s: %d swaps, want %d", c.query, len(got), len(exp))
		}
	}
	// Bad input is 400 INVALID_REQUEST.
	m.expectInvalid("?limit=0", "?limit=501", "?limit=-1", "?limit=x", "?cursor=zz", "?cursor=00",
		"?token=0x12", "?wallet=alice")
}

// expectInvalid checks that GET /v1/swaps with each query is 400
// INVALID_REQUEST.
func (m *marketEnv) expectInvalid(queries ...string) {
	m.t.Helper()
	for _, q := range queries {
		r := m.ts.Get("/v1/swaps" + q)
		if r.Status != 400 || r.Code() != "INVALID_REQUEST" {
			m.t.Errorf("GET /v1/swaps%s: %d %s, want 400 INVALID_REQUEST", q, r.Status, r.Body)
		}
	}
}

// TestSwapsAddressFilterNeeds0x: a token or wallet filter is an address
// as the OpenAPI Address schema and GET /v1/orders?wallet= take it:
// 0x-prefixed, lowercase or EIP-55. Without the 0x (or with a broken
// checksum) it is 400 INVALID_REQUEST, never a silently empty list.
func TestSwapsAddressFilterNeeds0x(t *testing.T) {
	m := newMarketEnv(t)
	m.block(start, swapEv(0, alice, alice, tokA, tokB, ether))
	if l := m.swaps("?token=" + tokA.Hex() + "&wallet=" + alice.Hex()); len(l.Swaps) != 1 {
		t.Fatalf("checksummed filters: %d swaps", len(l.Swaps))
	}
	badSum := "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD" // one letter's case flipped
	m.expectInvalid("?token="+tokA.Hex()[2:], "?wallet="+strings.ToLower(alice.Hex()[2:]), "?wallet="+badSum)
}

// TestSwapsFilterPagesPastTheScanBudget: one request examines a bounded
// number of records; when a filtered page runs out of that budget before it
// is full, nextCursor still points past what was examined, so a client
// that follows it until null sees every match. Here the wallet's only swap
// lies under 20,050 newer swaps of others.
func TestSwapsFilterPagesPastTheScanBudget(t *testing.T) {
	m := newMarketEnv(t)
	m.block(start, swapEv(0, carol, carol, tokA, tokB, ether))
	for b := range 5 {
		evs := make([]chainsync.Event, 0, 4010)
		for i := range 4010 {
			evs = append(evs, swapEv(uint(i), alice, bob, tokB, tokC, ether))
		}
		m.block(start.Add(time.Duration(b+1)*time.Second), evs...)
	}
	first := m.swaps("?wallet=" + carol.Hex())
	if len(first.Swaps) == 0 && first.NextCursor == nil {
		t.Fatalf("first page: no swaps and nextCursor null, but the wallet has a swap in block 1")
	}
	got := m.walk("wallet="+carol.Hex(), 100)
	if len(got) != 1 || got[0].BlockNumber != 1 || got[0].Wallet != carol.Hex() {
		t.Fatalf("walking the filter found %d swaps, want carol's one in block 1", len(got))
	}
	if got := m.walk("token="+tokA.Hex(), 100); len(got) != 1 {
		t.Fatalf("walking the token filter found %d swaps, want 1", len(got))
	}
}

// TestVolumeOverHTTP: USD volume of swaps priced at their block, per pair
// and in total, over 24 h, 7 d and 30 d of whole hours ending with the
// current one.
func TestVolumeOverHTTP(t *testing.T) {
	m := newMarketEnv(t)
	now := start
	m.block(now.Add(-40*24*time.Hour), swapEv(0, alice, alice, tokA, tokB, big.NewInt(0).Mul(ether, big.NewInt(1000))))   // outside every window
	m.block(now.Add(-10*24*time.Hour), swapEv(0, alice, alice, tokA, tokB, big.NewInt(0).Mul(ether, big.NewInt(100))))    // 30 d
	m.block(now.Add(-3*24*time.Hour), swapEv(0, bob, bob, tokB, tokC, big.NewInt(0).Mul(ether, big.NewInt(10))))          // 7 d
	m.block(now.Add(-30*time.Minute), swapEv(0, bob, bob, tokA, tokB, ether), swapEv(1, carol, carol, tokC, tokA, ether)) // 24 h
	r := m.ts.Get("/v1/volume")
	if r.Status != 200 {
		t.Fatalf("GET /v1/volume: %d %s", r.Status, r.Body)
	}
	var v struct {
		AsOf  time.Time     `json:"asOf"`
		Day   market.Window `json:"24h"`
		Week  market.Window `json:"7d"`
		Month market.Window `json:"30d"`
	}
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatal(err)
	}
	if !v.AsOf.Equal(now) || v.Day.TotalUSD != "4.00" || v.Week.TotalUSD != "24.00" || v.Month.TotalUSD != "224.00" {
		t.Fatalf("volume %s", r.Body)
	}
	byPair := map[string]string{}
	for _, p := range v.Month.Pairs {
		if p.Pair != p.TokenIn+"-"+p.TokenOut {
			t.Fatalf("pair %+v", p)
		}
		byPair[p.Pair] = p.VolumeUSD
	}
	if byPair[tokA.Hex()+"-"+tokB.Hex()] != "202.00" || byPair[tokB.Hex()+"-"+tokC.Hex()] != "20.00" || byPair[tokC.Hex()+"-"+tokA.Hex()] != "2.00" {
		t.Fatalf("30 d per pair %v", byPair)
	}
	// A day later the last hour's swaps left the 24 h window.
	m.clk.Advance(24 * time.Hour)
	if err := json.Unmarshal(m.ts.Get("/v1/volume").Body, &v); err != nil || v.Day.TotalUSD != "0.00" || len(v.Day.Pairs) != 0 || v.Week.TotalUSD != "24.00" {
		t.Fatalf("a day later: %+v %v", v, err)
	}
}

// TestStatsOverHTTP: the chain counters of the applied blocks, order
// counts from the indexes (all zero here: no order service), the indexer's
// progress, live actors and the webhook delivery counters.
func TestStatsOverHTTP(t *testing.T) {
	m := newMarketEnv(t)
	m.block(start, swapEv(0, alice, alice, tokA, tokB, ether), fillEv(1, bob), fillEv(2, bob))
	m.block(start.Add(time.Second), swapEv(0, alice, alice, tokA, tokB, ether))
	r := m.ts.Get("/v1/stats")
	if r.Status != 200 {
		t.Fatalf("GET /v1/stats: %d %s", r.Status, r.Body)
	}
	var st struct {
		Orders struct {
			ByStatus map[string]int `json:"byStatus"`
		} `json:"orders"`
		OpenOrders  int                                      `json:"openOrders"`
		Fills       int                                      `json:"fills"`
		Executions  int                                      `json:"executions"`
		Swaps       int                                      `json:"swaps"`
		ActorsAlive map[string]int                           `json:"actorsAlive"`
		Indexer     struct{ Head, Cursor, LagBlocks uint64 } `json:"indexer"`
		Webhooks    *struct{ DeliveriesAttempted int }       `json:"webhooks"`
	}
	if err := json.Unmarshal(r.Body, &st); err != nil {
		t.Fatal(err)
	}
	if st.Swaps != 2 || st.Fills != 2 || st.Executions != 2 || st.OpenOrders != 0 || st.Indexer.Cursor != 2 || st.Indexer.LagBlocks != 2 ||
		st.Webhooks == nil || len(st.Orders.ByStatus) != 6 {
		t.Fatalf("stats %s", r.Body)
	}
	if _, ok := st.ActorsAlive["order"]; !ok {
		t.Fatalf("stats %s", r.Body)
	}
}
