package orderstore

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/persistencetest"
)

var (
	refA = common.HexToAddress("0x00000000000000000000000000000000000000A1")
	refB = common.HexToAddress("0x00000000000000000000000000000000000000B2")
)

// A binding written with its order lands in q/ and Referees pages through
// it by referrer, then wallet; MakerOrderCount counts the maker's orders.
func TestRefereesFromBindings(t *testing.T) {
	s := persistencetest.OpenShared(t, nil)
	o := New(s, persistence.NewOutbox(s, nil, nil))
	var makers []common.Address
	for i := range 5 {
		rec := testRecord(i, StatusPending)
		rec.Order.Maker = common.BigToAddress(uint256.NewInt(uint64(0x500 + i)).ToBig())
		ref := refA
		if i == 4 {
			ref = refB
		}
		rec.Order.Referrer = ref
		if err := o.AppendOrder(t.Context(), &Transition{Record: rec, Bind: &ref}); err != nil {
			t.Fatal(err)
		}
		makers = append(makers, rec.Order.Maker)
	}
	second := testRecord(9, StatusPending)
	second.Order.Maker = makers[0]
	mustPut(t, o, second)
	var got []RefereeBinding
	var after []byte
	for {
		page, next, err := o.Referees([]common.Address{refB, refA}, after, 2)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, page...)
		if next == nil {
			break
		}
		after = next
	}
	if len(got) != 5 || got[0].Referrer != refA || got[4].Referrer != refB || got[0].Wallet != makers[0] {
		t.Fatalf("referees: %+v", got)
	}
	if got[0].OrderHash != testRecord(0, 0).Hash || !got[0].BoundAt.Equal(testRecord(0, 0).CreatedAt) {
		t.Fatalf("binding of the first maker: %+v", got[0])
	}
	if n, err := o.MakerOrderCount(makers[0]); err != nil || n != 2 {
		t.Fatalf("order count %d, %v", n, err)
	}
}

// BuildReferees rebuilds q/ from the bindings r/: each binding dated by
// the maker's oldest order naming the referrer, or by nothing (zero time
// and hash) when the store holds no such order; a maker without a binding
// gets no row.
func TestBuildRefereesFromBindings(t *testing.T) {
	s := persistencetest.OpenShared(t, nil)
	o := New(s, persistence.NewOutbox(s, nil, nil))
	bound := testRecord(1, StatusActive)
	bound.Order.Maker, bound.Order.Referrer = common.HexToAddress("0x0000000000000000000000000000000000000D01"), refA
	later := testRecord(2, StatusActive)
	later.Order.Maker, later.Order.Referrer = bound.Order.Maker, refA
	unbound := testRecord(3, StatusActive)
	unbound.Order.Maker, unbound.Order.Referrer = common.HexToAddress("0x0000000000000000000000000000000000000D02"), refB
	if err := o.AppendOrder(t.Context(), &Transition{Record: bound, Bind: &refA}); err != nil {
		t.Fatal(err)
	}
	mustPut(t, o, later)
	mustPut(t, o, unbound)
	// A binding whose orders the store no longer holds.
	gone := common.HexToAddress("0x0000000000000000000000000000000000000D03")
	b := s.DB().NewBatch()
	_ = b.Set(append([]byte(persistence.PrefixBinding), gone[:]...), refB[:], nil)
	// The index as a store of schema 3 had it: none.
	_ = b.DeleteRange([]byte(persistence.PrefixReferee), persistence.PrefixUpperBound([]byte(persistence.PrefixReferee)), nil)
	if err := b.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if refs, _, err := o.Referees([]common.Address{refA, refB}, nil, 10); err != nil || len(refs) != 0 {
		t.Fatalf("referees before the build: %+v %v", refs, err)
	}
	for range 2 { // a build a crash interrupted runs again to the same result
		if n, err := o.BuildReferees(); err != nil || n != 2 {
			t.Fatalf("build: %d %v", n, err)
		}
	}
	refs, _, err := o.Referees([]common.Address{refA, refB}, nil, 10)
	if err != nil || len(refs) != 2 {
		t.Fatalf("referees after the build: %+v %v", refs, err)
	}
	if r := refs[0]; r.Referrer != refA || r.Wallet != bound.Order.Maker || r.OrderHash != bound.Hash || !r.BoundAt.Equal(bound.CreatedAt) {
		t.Fatalf("the bound maker's row: %+v", r)
	}
	if r := refs[1]; r.Referrer != refB || r.Wallet != gone || r.OrderHash != (common.Hash{}) || r.BoundAt.UnixNano() != 0 {
		t.Fatalf("the row of a binding without orders: %+v", r)
	}
}
