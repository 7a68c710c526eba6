package chainstore

import (
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

var (
	refA   = common.HexToAddress("0x00000000000000000000000000000000000000A1")
	refB   = common.HexToAddress("0x00000000000000000000000000000000000000B2")
	tokenX = common.HexToAddress("0x0000000000000000000000000000000000000C01")
	tokenY = common.HexToAddress("0x0000000000000000000000000000000000000C02")
)

// applyAccruals writes one block per row group, as the indexer's sink
// would.
func applyAccruals(t *testing.T, c *Chain, first uint64, perBlock [][]Accrual) {
	t.Helper()
	parent := common.Hash{}
	if cur, ok, _ := c.Cursor(); ok {
		parent = cur.Hash
	}
	for i, rows := range perBlock {
		n := first + uint64(i)
		blk := Block{Number: n, Hash: common.Hash{byte(n)}, Parent: parent, Time: 1_800_000_000 + n*10}
		cb := c.Begin(blk)
		for j := range rows {
			a := rows[j]
			a.BlockNumber, a.Timestamp = n, blk.Time
			if err := PutAccrual(cb, &a); err != nil {
				t.Fatal(err)
			}
		}
		if err := cb.Commit(100); err != nil {
			t.Fatal(err)
		}
		parent = blk.Hash
	}
}

func acc(ref, token common.Address, log uint32, amount uint64) Accrual {
	h := common.Hash{byte(log), 9}
	return Accrual{Referrer: ref, Token: token, LogIndex: log, Amount: *uint256.NewInt(amount), TxHash: common.Hash{byte(log)}, OrderHash: &h}
}

// Accruals of two referrers merge newest first; pages of every size walk
// the same sequence; time and token filters and the totals agree with the
// rows; a rewind removes a block's rows.
func TestAccrualsPaginateFilterAndRewind(t *testing.T) {
	s := persistencetest.Open(t, t.TempDir())
	defer s.Close()
	c := mustChain(t, s)
	swap := acc(refB, tokenY, 4, 5)
	swap.OrderHash = nil
	applyAccruals(t, c, 1, [][]Accrual{
		{acc(refA, tokenX, 0, 100), acc(refB, tokenX, 1, 7)},
		{acc(refA, tokenY, 2, 30)},
		{acc(refA, tokenX, 3, 1), swap, acc(refA, tokenX, 5, 2)},
	})
	p := NewPlatform(s)
	both := []common.Address{refA, refB}
	all, next, err := p.Accruals(both, AccrualFilter{}, nil, 100)
	if err != nil || next != nil || len(all) != 6 {
		t.Fatalf("all: %d rows, next %x, %v", len(all), next, err)
	}
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		if a.BlockNumber < b.BlockNumber || (a.BlockNumber == b.BlockNumber && a.LogIndex < b.LogIndex) {
			t.Fatalf("not newest first at %d: %+v then %+v", i, a, b)
		}
	}
	if all[1].OrderHash != nil || all[1].Referrer != refB || all[1].Amount.Uint64() != 5 {
		t.Fatalf("the swap row: %+v", all[1])
	}
	for size := 1; size <= 6; size++ {
		var walked []Accrual
		var after []byte
		for {
			page, next, err := p.Accruals(both, AccrualFilter{}, after, size)
			if err != nil {
				t.Fatal(err)
			}
			walked = append(walked, page...)
			if next == nil {
				break
			}
			after = next
		}
		if len(walked) != len(all) {
			t.Fatalf("pages of %d walked %d rows, want %d", size, len(walked), len(all))
		}
		for i := range walked {
			if walked[i].TxHash != all[i].TxHash || walked[i].Referrer != all[i].Referrer {
				t.Fatalf("pages of %d: row %d differs", size, i)
			}
		}
	}
	// Block 2 alone by time; tokenX of refA.
	blk2 := uint64(1_800_000_020)
	rows, _, _ := p.Accruals(both, AccrualFilter{From: blk2, To: blk2 + 1}, nil, 100)
	if len(rows) != 1 || rows[0].BlockNumber != 2 {
		t.Fatalf("time range of block 2: %+v", rows)
	}
	rows, _, _ = p.Accruals([]common.Address{refA}, AccrualFilter{Token: &tokenX}, nil, 100)
	if len(rows) != 3 {
		t.Fatalf("refA tokenX: %d rows", len(rows))
	}
	totals, err := p.AccrualTotals(both, AccrualFilter{From: blk2})
	if err != nil || totals[tokenX].Uint64() != 3 || totals[tokenY].Uint64() != 35 {
		t.Fatalf("totals from block 2: %v %v", totals, err)
	}
	if _, _, err := c.Rewind(); err != nil {
		t.Fatal(err)
	}
	rows, _, _ = p.Accruals(both, AccrualFilter{}, nil, 100)
	if len(rows) != 3 || rows[0].BlockNumber != 2 {
		t.Fatalf("after rewinding block 3: %+v", rows)
	}
}

// TestMigrateToSchema4BuildsPlatformRecords writes a schema-3 store with
// a bound and an unbound maker's fills and a direct swap as swap records,
// and the last block's undo record; the migration builds the referee
// index through the order records and p/, and rewinding that block
// afterwards removes exactly its rows and its volume.
func TestMigrateToSchema4BuildsPlatformRecords(t *testing.T) {
	dir := t.TempDir()
	s := persistencetest.Open(t, dir)
	c := mustChain(t, s)
	bound := chain.Order{Maker: common.HexToAddress("0x0000000000000000000000000000000000000D01"), Referrer: refA, TokenIn: tokenX, TokenOut: tokenY}
	unbound := chain.Order{Maker: common.HexToAddress("0x0000000000000000000000000000000000000D02"), Referrer: refB, TokenIn: tokenY, TokenOut: tokenX}
	boundHash, unboundHash := common.Hash{0xB1}, common.Hash{0xB2}
	orders := &fakeOrders{
		orders:   map[common.Hash]chain.Order{boundHash: bound, unboundHash: unbound},
		bindings: map[common.Address]common.Address{bound.Maker: refA},
	}
	// Blocks 1 and 2 with their swap records; block 2 keeps an undo record.
	applyAccruals(t, c, 1, [][]Accrual{nil, nil})
	b := s.DB().NewBatch()
	for _, r := range []SwapRecord{
		{Kind: "fill", BlockNumber: 1, LogIndex: 0, Timestamp: 1_800_000_010, TxHash: common.Hash{1}.Hex(), OrderHash: boundHash.Hex(), AmountIn: "1000", ReferralFee: "11"},
		{Kind: "fill", BlockNumber: 1, LogIndex: 1, Timestamp: 1_800_000_010, TxHash: common.Hash{1}.Hex(), OrderHash: unboundHash.Hex(), AmountIn: "50", ReferralFee: "3"},
		{Kind: "swap", BlockNumber: 2, LogIndex: 0, Timestamp: 1_800_000_020, TxHash: common.Hash{2}.Hex(), Referrer: refA.Hex(), TokenOut: tokenX.Hex(), AmountIn: "9", ReferralFee: "4"},
		{Kind: "fill", BlockNumber: 2, LogIndex: 1, Timestamp: 1_800_000_020, TxHash: common.Hash{2}.Hex(), OrderHash: boundHash.Hex(), AmountIn: "500", ReferralFee: "6"},
		{Kind: "fill", BlockNumber: 2, LogIndex: 2, Timestamp: 1_800_000_020, TxHash: common.Hash{2}.Hex(), OrderHash: common.Hash{0xEE}.Hex(), AmountIn: "1", ReferralFee: "1"},
	} {
		v, _ := json.Marshal(r)
		_ = b.Set(swapKey(r.BlockNumber, r.LogIndex), v, nil)
	}
	var ver [4]byte
	binary.BigEndian.PutUint32(ver[:], 3)
	_ = b.Set(schemaKey(), ver[:], nil)
	if err := b.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openMigrating(t, dir, orders)
	defer s.Close()
	if v, _, _ := s.Get(schemaKey()); binary.BigEndian.Uint32(v) != persistence.SchemaVersion {
		t.Fatalf("schema %x after the migration", v)
	}
	if orders.built != 1 {
		t.Fatalf("the referee index was built %d times, want once", orders.built)
	}
	p := NewPlatform(s)
	rows, _, err := p.Accruals([]common.Address{refA, refB}, AccrualFilter{}, nil, 10)
	if err != nil || len(rows) != 4 {
		t.Fatalf("accruals after the migration: %d %v", len(rows), err)
	}
	if rows[0].OrderHash == nil || *rows[0].OrderHash != boundHash || rows[0].Token != tokenY || rows[0].Amount.Uint64() != 6 ||
		rows[1].OrderHash != nil || rows[1].Token != tokenX || rows[1].Amount.Uint64() != 4 || rows[2].Referrer != refB || rows[3].Amount.Uint64() != 11 {
		t.Fatalf("accrual rows: %+v", rows)
	}
	vol, _ := p.RefereeVolume(refA, bound.Maker)
	if len(vol) != 1 || vol[0].Token != tokenX || vol[0].Amount.Uint64() != 1500 {
		t.Fatalf("referee volume: %+v", vol)
	}
	if vol, _ := p.RefereeVolume(refB, unbound.Maker); len(vol) != 0 {
		t.Fatalf("an unbound maker has volume: %+v", vol)
	}
	c = mustChain(t, s)
	if _, _, err := c.Rewind(); err != nil {
		t.Fatal(err)
	}
	rows, _, _ = p.Accruals([]common.Address{refA, refB}, AccrualFilter{}, nil, 10)
	vol, _ = p.RefereeVolume(refA, bound.Maker)
	if len(rows) != 2 || rows[0].BlockNumber != 1 || len(vol) != 1 || vol[0].Amount.Uint64() != 1000 {
		t.Fatalf("after rewinding block 2: rows %+v volume %+v", rows, vol)
	}
}

// schemaKey is the core's key of the schema version (persistence/keys.go).
func schemaKey() []byte { return []byte("m/schema") }

// noWebhooks stands in for the webhook records' step (webhookstore's, which
// has its own tests): these fixtures hold no webhook record.
var noWebhooks = persistence.Migration{From: 4, Name: "no webhook records", Run: func(*persistence.Store) (int, error) { return 0, nil }}

// openMigrating opens the store in dir with the platform records' step
// over orders and a stand-in for the webhook records' one.
func openMigrating(t *testing.T, dir string, orders *fakeOrders) *persistence.Store {
	t.Helper()
	steps := Migrations(func(*persistence.Store) Orders { return orders })
	s, err := persistence.OpenWith(dir, persistence.Options{Migrations: append(steps, noWebhooks)})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return s
}

// fakeOrders stands in for the order records (persistence/orderstore's,
// which this package does not import; its own tests cover its referee
// index): the signed orders by hash and the referral bindings by maker.
// It counts the builds of the referee index.
type fakeOrders struct {
	orders   map[common.Hash]chain.Order
	bindings map[common.Address]common.Address
	built    int
}

func (f *fakeOrders) BuildReferees() (int, error) {
	f.built++
	return len(f.bindings), nil
}

func (f *fakeOrders) Terms(h common.Hash) (chain.Order, bool, error) {
	o, ok := f.orders[h]
	return o, ok, nil
}

func (f *fakeOrders) Binding(maker common.Address) (common.Address, bool, error) {
	r, ok := f.bindings[maker]
	return r, ok, nil
}

// A store that needs the platform records' step does not open without
// it, and says which step it lacks.
func TestPlatformMigrationNeededToOpen(t *testing.T) {
	dir := t.TempDir()
	s := persistencetest.Open(t, dir)
	var ver [4]byte
	binary.BigEndian.PutUint32(ver[:], 3)
	if err := s.DB().Set(schemaKey(), ver[:], pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	only := persistence.Options{Migrations: []persistence.Migration{noWebhooks}}
	if s, err := persistence.OpenWith(dir, only); err == nil || !strings.Contains(err.Error(), "platform records") {
		if s != nil {
			_ = s.Close()
		}
		t.Fatalf("a schema-3 store opened without its platform step: %v", err)
	}
	s = openMigrating(t, dir, &fakeOrders{})
	defer s.Close()
	if v, _, _ := s.Get(schemaKey()); binary.BigEndian.Uint32(v) != persistence.SchemaVersion {
		t.Fatalf("schema %x after the migration", v)
	}
}
