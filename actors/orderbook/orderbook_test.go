package orderbook

import (
	"context"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
)

// testOrder is an open order with hash n at trigger price.
func testOrder(t testing.TB, n int, price string) *persistence.OrderRecord {
	t.Helper()
	rec := &persistence.OrderRecord{Hash: common.BigToHash(big.NewInt(int64(n))), Class: chain.ClassLimit, Status: persistence.StatusPending}
	if err := rec.Order.TriggerPrice.SetFromDecimal(price); err != nil {
		t.Fatal(err)
	}
	return rec
}

func entry(t testing.TB, n int, price string) *Entry { return NewEntry(testOrder(t, n, price)) }

// prices pages through a book two at a time.
func prices(t *testing.T, b *Books, pair string) string {
	t.Helper()
	var out []string
	var after *Key
	for {
		p, err := b.Page(context.Background(), pair, 2, after)
		if err != nil {
			t.Fatal(err)
		}
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
	system := actor.NewActorSystem()
	defer system.Shutdown()
	b := New(system, slog.New(slog.DiscardHandler), 0)
	if got := prices(t, b, "none"); got != "" {
		t.Fatalf("unknown pair: %q", got)
	}
	for i, p := range []string{"30", "10", "50", "20", "40"} {
		b.Upsert("p", entry(t, i+1, p))
	}
	b.Upsert("p", entry(t, 6, "20")) // equal price: ordered by hash after order 4
	if got := prices(t, b, "p"); got != "10,20,20,30,40,50" {
		t.Fatalf("book %s", got)
	}
	b.Upsert("p", entry(t, 1, "60")) // a price change moves the order
	b.Remove("p", entry(t, 3, "50").Hash)
	b.Remove("p", entry(t, 99, "1").Hash) // unknown: ignored
	if got := prices(t, b, "p"); got != "10,20,20,40,60" {
		t.Fatalf("after updates %s", got)
	}
	if _, err := ParseCursor("zz"); err == nil {
		t.Fatal("bad cursor accepted")
	}
}

// An entry renders the order as the API shows it: EIP-55 maker, decimal
// amounts, RFC 3339 UTC time.
func TestEntryRendersTheOrder(t *testing.T) {
	rec := testOrder(t, 7, "2000000123")
	rec.Class, rec.Status = chain.ClassDCA, persistence.StatusActive
	rec.Order.Maker = common.HexToAddress("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")
	rec.Order.AmountIn.SetUint64(1_000_000_000_000_000_000)
	rec.FilledIn.SetUint64(250)
	rec.CreatedAt = time.Date(2026, 11, 22, 3, 25, 51, 123456789, time.FixedZone("X", 3600))
	want := Row{OrderHash: fmt.Sprintf("0x%064x", 7), OrderType: "dca", Status: "active",
		Maker: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", AmountIn: "1000000000000000000", FilledAmountIn: "250",
		TriggerPrice: "2000000123", CreatedAt: "2026-11-22T02:25:51.123456789Z"}
	if got := NewEntry(rec).Row(); got != want {
		t.Fatalf("rendered %+v, want %+v", got, want)
	}
}

// A book that empties rebuilds its index at its present size, in order.
func TestBookShrinksAfterItEmpties(t *testing.T) {
	b := &bookActor{byHash: make(map[[32]byte]*Entry)}
	for i := range 2000 {
		b.upsert(entry(t, i+1, fmt.Sprint(5000-i)))
	}
	for i := range 1990 {
		b.remove(entry(t, i+1, "0").Hash)
	}
	if b.peak >= 2000 || len(b.byHash) != 10 || b.sorted.n != 10 || len(b.sorted.runs) != 1 {
		t.Fatalf("not rebuilt: peak %d, %d indexed, %d sorted in %d runs", b.peak, len(b.byHash), b.sorted.n, len(b.sorted.runs))
	}
	p := b.page(&PageRequest{Limit: 20})
	if p.Total != 10 || p.Entries[0].TriggerPrice != "3001" || p.Entries[9].TriggerPrice != "3010" {
		t.Fatalf("page after the rebuild: %+v", p)
	}
}

// The run index keeps the same order as one sorted slice through random
// inserts, price moves and removals, and pages walk it whole.
func TestIndexMatchesASortedSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	b := &bookActor{byHash: make(map[[32]byte]*Entry)}
	want := map[int]int{} // order → price
	for step := range 20000 {
		n := rng.IntN(3000) + 1
		switch {
		case step%5 == 4:
			b.remove(entry(t, n, "0").Hash)
			delete(want, n)
		default:
			price := rng.IntN(400)
			b.upsert(entry(t, n, fmt.Sprint(price)))
			want[n] = price
		}
	}
	keys := make([]Key, 0, len(want))
	for n, price := range want {
		keys = append(keys, entry(t, n, fmt.Sprint(price)).Key)
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
		p := b.page(&PageRequest{Limit: 37, After: after})
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
	if b.sorted.n != len(want) || len(b.byHash) != len(want) {
		t.Fatalf("index holds %d, map %d, want %d", b.sorted.n, len(b.byHash), len(want))
	}
}

// BenchmarkUpsertMillion inserts orders at random prices into a book that
// already holds a million.
func BenchmarkUpsertMillion(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	book := &bookActor{byHash: make(map[[32]byte]*Entry)}
	mk := func(n int) *Entry { return entry(b, n, fmt.Sprint(rng.IntN(5000))) }
	for n := range 1_000_000 {
		book.upsert(mk(n + 1))
	}
	entries := make([]*Entry, b.N)
	for i := range entries {
		entries[i] = mk(2_000_000 + i)
	}
	b.ResetTimer()
	for i := range b.N {
		book.upsert(entries[i])
	}
}

func TestPairKeyIsLowercaseHex(t *testing.T) {
	in := common.HexToAddress("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2")
	out := common.HexToAddress("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")
	want := strings.ToLower(in.Hex()) + "-" + strings.ToLower(out.Hex())
	if got := PairKey(in, out); got != want {
		t.Fatalf("PairKey %s, want %s", got, want)
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
