package market

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
)

// fixedPricer prices every token at $2 per whole unit of 6 decimals.
type fixedPricer struct{}

func (fixedPricer) USD8(_ context.Context, _ common.Hash, _ common.Address, amount *big.Int) (*big.Int, bool) {
	v := new(big.Int).Mul(amount, big.NewInt(200_000_000))
	return v.Quo(v, big.NewInt(1_000_000)), true
}

var (
	tokA   = common.HexToAddress("0x00000000000000000000000000000000000000aa")
	tokB   = common.HexToAddress("0x00000000000000000000000000000000000000bb")
	alice  = common.HexToAddress("0x0000000000000000000000000000000000000a11")
	bob    = common.HexToAddress("0x0000000000000000000000000000000000000b0b")
	t0     = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	hashOf = func(n uint64) common.Hash { return common.BigToHash(new(big.Int).SetUint64(n + 1000)) }
)

func swapEvent(sender common.Address, in, out common.Address, amountIn int64, idx uint) chainsync.Event {
	return chainsync.Event{Kind: chainsync.KindSwapped, TxHash: common.BigToHash(big.NewInt(int64(idx) + 1)), LogIndex: idx,
		Swap: &servicerouter.ServiceRouterSwapped{Sender: sender, Receiver: sender, TokenIn: in, TokenOut: out,
			AmountIn: big.NewInt(amountIn), AmountOut: big.NewInt(amountIn / 2), ProtocolFee: big.NewInt(1), ReferralFee: big.NewInt(0)}}
}

// applyBlock runs the sink on one synthetic block and commits it.
func applyBlock(t *testing.T, ch *chainstore.Chain, sink *Sink, n uint64, at time.Time, evs ...chainsync.Event) {
	t.Helper()
	b := &chainsync.Block{Number: n, Hash: hashOf(n), Parent: hashOf(n - 1), Time: uint64(at.Unix()), Events: evs}
	cb := ch.Begin(chainstore.Block{Number: n, Hash: b.Hash, Parent: b.Parent, Time: b.Time})
	if err := sink.ApplyBlock(cb, b); err != nil {
		t.Fatal(err)
	}
	if err := cb.Commit(64); err != nil {
		t.Fatal(err)
	}
}

func TestSwapsVolumeStats(t *testing.T) {
	s, err := persistence.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ch, err := chainstore.New(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.SetCursor(chainstore.Block{Number: 0, Hash: hashOf(0)}); err != nil {
		t.Fatal(err)
	}
	sink := NewSink(nil, fixedPricer{}, nil)
	now := t0
	svc := NewService(s, func() time.Time { return now }, ServiceOptions{
		Indexer: func() *chainsync.Status { return &chainsync.Status{Head: 9, Cursor: 8, LagBlocks: 1} },
	})
	// 40 days ago (outside every window), 3 days ago, 1 hour ago.
	applyBlock(t, ch, sink, 1, t0.Add(-40*24*time.Hour), swapEvent(alice, tokA, tokB, 1_000_000, 0))
	applyBlock(t, ch, sink, 2, t0.Add(-72*time.Hour), swapEvent(bob, tokA, tokB, 5_000_000, 0), swapEvent(alice, tokB, tokA, 3_000_000, 1))
	applyBlock(t, ch, sink, 3, t0.Add(-time.Hour), swapEvent(alice, tokA, tokB, 10_000_000, 0))

	v, _ := svc.Volume(context.Background())
	vol := (*v)
	if vol.Day.TotalUSD != "20.00" || vol.Week.TotalUSD != "36.00" || vol.Month.TotalUSD != "36.00" {
		t.Fatalf("volume %+v", vol)
	}
	if len(vol.Week.Pairs) != 2 {
		t.Fatalf("per-pair %+v", vol.Week.Pairs)
	}
	if got := svc.Volume30dUSD(tokA); got.Int64() != 36 {
		t.Fatalf("30d volume of A: %s", got)
	}

	// Newest first, filter by wallet, pagination.
	page := func(req api.SwapsRequest) SwapList {
		r, err := svc.Swaps(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return (*r)
	}
	all := page(api.SwapsRequest{})
	if len(all.Swaps) != 4 || all.Swaps[0].BlockNumber != 3 || all.Swaps[3].BlockNumber != 1 || all.NextCursor != nil {
		t.Fatalf("all swaps %+v", all)
	}
	p1 := page(api.SwapsRequest{Wallet: alice.Hex(), Limit: 2})
	if len(p1.Swaps) != 2 || p1.NextCursor == nil || p1.Swaps[1].LogIndex != 1 {
		t.Fatalf("page 1 %+v", p1)
	}
	p2 := page(api.SwapsRequest{Wallet: alice.Hex(), Limit: 2, Cursor: *p1.NextCursor})
	if len(p2.Swaps) != 1 || p2.Swaps[0].BlockNumber != 1 || p2.NextCursor != nil {
		t.Fatalf("page 2 %+v", p2)
	}
	if _, err := svc.Swaps(context.Background(), api.SwapsRequest{Limit: 501}); err == nil {
		t.Fatal("limit 501 accepted")
	}

	st, _ := svc.Stats(context.Background())
	raw, _ := json.Marshal(st)
	body := (*st)
	if body.Swaps != 4 || body.Indexer == nil || body.Indexer.LagBlocks != 1 {
		t.Fatalf("stats %s", raw)
	}

	// A rewind of block 3 takes its swap and volume away.
	if _, _, err := ch.Rewind(); err != nil {
		t.Fatal(err)
	}
	v, _ = svc.Volume(context.Background())
	if got := (*v).Day.TotalUSD; got != "0.00" {
		t.Fatalf("24h volume after rewind %s", got)
	}
	if got := page(api.SwapsRequest{}); len(got.Swaps) != 3 {
		t.Fatalf("swaps after rewind %d", len(got.Swaps))
	}
	if st, _ := svc.Stats(context.Background()); (*st).Swaps != 3 {
		t.Fatalf("stats after rewind %+v", st)
	}
}

func TestFormatUSD8(t *testing.T) {
	for in, want := range map[int64]string{0: "0.00", 1_000_000: "0.01", 123_456_789_012: "1234.56", 99_999_999: "0.99"} {
		if got := FormatUSD8(big.NewInt(in)); got != want {
			t.Fatalf("FormatUSD8(%d) = %s, want %s", in, got, want)
		}
	}
}
