package pair

import (
	"encoding/hex"
	"fmt"
	"log/slog"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chainsync/chainsynctest"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// testOrder is an open order with hash n at trigger price.
func testOrder(t testing.TB, n int, price string) *orderstore.Record {
	t.Helper()
	rec := &orderstore.Record{Hash: common.BigToHash(big.NewInt(int64(n))), Version: 1, Class: chain.ClassLimit, Status: orderstore.StatusPending}
	if err := rec.Order.TriggerPrice.SetFromDecimal(price); err != nil {
		t.Fatal(err)
	}
	return rec
}

// newTestPair is a pair actor over a fresh store, driven by direct calls.
func newTestPair(t testing.TB) *pairActor {
	t.Helper()
	store, err := persistence.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	return newPairActor("p", &shared{}, store, chainsynctest.Chain(t, store), slog.New(slog.DiscardHandler))
}

// put tells the pair that order n is open at price.
func put(t testing.TB, a *pairActor, n int, price string) {
	a.orderChanged(&OrderChanged{Record: testOrder(t, n, price)})
}

// closeOrder tells the pair that order n closed.
func closeOrder(t testing.TB, a *pairActor, n int) {
	rec := testOrder(t, n, "0")
	rec.Status = orderstore.StatusCancelled
	a.orderChanged(&OrderChanged{Prev: orderstore.StatusPending, Record: rec})
}

// prices pages through a pair's book two at a time.
func prices(t *testing.T, a *pairActor) string {
	t.Helper()
	var out []string
	var after *Key
	for {
		p := a.page(&PageRequest{Limit: 2, After: after})
		for _, e := range p.Entries {
			out = append(out, e.TriggerPrice)
		}
		if p.Next == nil {
			return strings.Join(out, ",")
		}
		k, err := ParseCursor(p.Next.Cursor())
		if err != nil {
			t.Fatal(err)
		}
		after = &k
	}
}

func TestBookOrderUpdatesAndPages(t *testing.T) {
	a := newTestPair(t)
	if got := prices(t, a); got != "" {
		t.Fatalf("empty pair: %q", got)
	}
	for i, p := range []string{"30", "10", "50", "20", "40"} {
		put(t, a, i+1, p)
	}
	put(t, a, 6, "20") // equal price: ordered by hash after order 4
	if got := prices(t, a); got != "10,20,20,30,40,50" {
		t.Fatalf("book %s", got)
	}
	moved := testOrder(t, 1, "60") // a newer version at another price moves the order
	moved.Version = 2
	a.orderChanged(&OrderChanged{Prev: orderstore.StatusPending, Record: moved})
	closeOrder(t, a, 3)
	closeOrder(t, a, 99) // unknown: ignored
	if got := prices(t, a); got != "10,20,20,40,60" {
		t.Fatalf("after updates %s", got)
	}
	stale := testOrder(t, 1, "1") // an older version arriving late changes nothing
	a.orderChanged(&OrderChanged{Record: stale})
	if got := prices(t, a); got != "10,20,20,40,60" {
		t.Fatalf("after a stale version %s", got)
	}
	if a.shared.open.Load() != 5 {
		t.Fatalf("shared size %d, want 5", a.shared.open.Load())
	}
	if _, err := ParseCursor("zz"); err == nil {
		t.Fatal("bad cursor accepted")
	}
}

// A book row renders the order as the API shows it: EIP-55 maker, decimal
// amounts, RFC 3339 UTC time.
func TestRowRendersTheOrder(t *testing.T) {
	rec := testOrder(t, 7, "2000000123")
	rec.Class, rec.Status = chain.ClassDCA, orderstore.StatusActive
	rec.Order.Maker = common.HexToAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")
	rec.Order.AmountIn.SetUint64(1_000_000_000_000_000_000)
	rec.FilledIn.SetUint64(250)
	rec.CreatedAt = time.Date(2026, 11, 22, 3, 25, 51, 123456789, time.FixedZone("X", 3600))
	want := api.OrderbookRow{OrderHash: fmt.Sprintf("0x%064x", 7), OrderType: "dca", Status: "active",
		Maker: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", AmountIn: "1000000000000000000", FilledAmountIn: "250",
		TriggerPrice: "2000000123", CreatedAt: "2026-11-22T02:25:51.123456789Z"}
	if got := newOpenOrder(rec, chainstore.Order{}, false).row(); got != want {
		t.Fatalf("rendered %+v, want %+v", got, want)
	}
}

// A book that empties rebuilds its index at its present size, in order.
func TestBookShrinksAfterItEmpties(t *testing.T) {
	a := newTestPair(t)
	for i := range 2000 {
		put(t, a, i+1, fmt.Sprint(5000-i))
	}
	for i := range 1990 {
		closeOrder(t, a, i+1)
	}
	if a.peak >= 2000 || len(a.orders) != 10 || a.book.n != 10 || len(a.book.runs) != 1 {
		t.Fatalf("not rebuilt: peak %d, %d held, %d sorted in %d runs", a.peak, len(a.orders), a.book.n, len(a.book.runs))
	}
	p := a.page(&PageRequest{Limit: 20})
	if p.Total != 10 || p.Entries[0].TriggerPrice != "3001" || p.Entries[9].TriggerPrice != "3010" {
		t.Fatalf("page after the rebuild: %+v", p)
	}
}

// A pair whose chain stopped does not keep its closed orders alive in its
// trigger index: the changes it keeps for its next evaluation, its time
// heaps and its queued t/ rows stay bounded, whatever the churn. A pair
// that never evaluated (no chain) keeps no changes at all: its first
// evaluation decides every order.
func TestClosedOrdersLeaveWithoutTicks(t *testing.T) {
	a := newTestPair(t)
	traits, err := chain.EncodeTraits(chain.Traits{Deadline: 2_000_000_000, KindParamPpm: 50_000, Flags: chain.FlagTrailing})
	if err != nil {
		t.Fatal(err)
	}
	put(t, a, 1_000_000, "1")
	if len(a.trig.dirty) != 0 {
		t.Fatalf("a pair that never evaluated keeps %d changes", len(a.trig.dirty))
	}
	if d := a.evaluate(&EvaluateRequest{Ref: BlockRef{Number: 1, Time: 1_700_000_000}}); d.Err != nil || d.Decided != 1 {
		t.Fatalf("first evaluation: %+v", d)
	}
	const n = 20000
	for i := range n {
		rec := testOrder(t, i+1, "1")
		rec.Class, rec.Order.MakerTraits = chain.ClassTrailing, traits
		a.orderChanged(&OrderChanged{Record: rec})
	}
	if len(a.trig.deadlines) != n {
		t.Fatalf("%d deadlines queued for %d orders", len(a.trig.deadlines), n)
	}
	for i := range n {
		closeOrder(t, a, i+1)
	}
	tr := &a.trig
	if len(a.orders) != 1 || len(tr.dirty) > 4096+2 || len(tr.deadlines) > 1024+2 || tr.peaks.writes.len() > 0 {
		t.Fatalf("after closing every order: %d held, %d dirty, %d deadlines, %d rows queued",
			len(a.orders), len(tr.dirty), len(tr.deadlines), tr.peaks.writes.len())
	}
}

// The run index keeps the same order as one sorted slice through random
// inserts, price moves and removals, and pages walk it whole.
func TestIndexMatchesASortedSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	a := newTestPair(t)
	want := map[int]int{}       // order → price
	version := map[int]uint64{} // order → last version sent
	for step := range 20000 {
		n := rng.IntN(3000) + 1
		switch {
		case step%5 == 4:
			closeOrder(t, a, n)
			delete(want, n)
			delete(version, n)
		default:
			price := rng.IntN(400)
			rec := testOrder(t, n, fmt.Sprint(price))
			version[n]++
			rec.Version = version[n]
			a.orderChanged(&OrderChanged{Record: rec})
			want[n] = price
		}
	}
	keys := make([]Key, 0, len(want))
	for n, price := range want {
		keys = append(keys, newOpenOrder(testOrder(t, n, fmt.Sprint(price)), chainstore.Order{}, false).Key)
	}
	slices.SortFunc(keys, func(a, b Key) int {
		if a.less(b) {
			return -1
		}
		return 1
	})
	var got []Key
	var after *Key
	for {
		p := a.page(&PageRequest{Limit: 37, After: after})
		if p.Total != len(want) {
			t.Fatalf("total %d, want %d", p.Total, len(want))
		}
		for _, e := range p.Entries {
			k, err := ParseCursor(priceHex(t, e.TriggerPrice) + e.OrderHash[2:])
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, k)
		}
		if p.Next == nil {
			break
		}
		after = p.Next
	}
	if !slices.Equal(got, keys) {
		t.Fatalf("pages walk %d entries out of order (want %d)", len(got), len(keys))
	}
	if a.book.n != len(want) || len(a.orders) != len(want) {
		t.Fatalf("index holds %d, map %d, want %d", a.book.n, len(a.orders), len(want))
	}
}

// BenchmarkUpsertMillion puts orders at random prices into a pair that
// already holds a million.
func BenchmarkUpsertMillion(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	a := newTestPair(b)
	for n := range 1_000_000 {
		put(b, a, n+1, fmt.Sprint(rng.IntN(5000)))
	}
	recs := make([]*orderstore.Record, b.N)
	for i := range recs {
		recs[i] = testOrder(b, 2_000_000+i, fmt.Sprint(rng.IntN(5000)))
	}
	b.ResetTimer()
	for i := range b.N {
		a.orderChanged(&OrderChanged{Record: recs[i]})
	}
}

func TestPairKeyIsLowercaseHex(t *testing.T) {
	in := common.HexToAddress("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2")
	out := common.HexToAddress("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")
	want := strings.ToLower(in.Hex()) + "-" + strings.ToLower(out.Hex())
	if got := PairKey(in, out); got != want {
		t.Fatalf("PairKey %s, want %s", got, want)
	}
	gotIn, gotOut, ok := pairTokens(want)
	if !ok || gotIn != in || gotOut != out {
		t.Fatalf("pairTokens(%s) = %s %s %v", want, gotIn.Hex(), gotOut.Hex(), ok)
	}
}

// priceHex is a decimal price as the 64 hex digits of a cursor.
func priceHex(t *testing.T, dec string) string {
	t.Helper()
	v, err := uint256.FromDecimal(dec)
	if err != nil {
		t.Fatal(err)
	}
	b := v.Bytes32()
	return hex.EncodeToString(b[:])
}
