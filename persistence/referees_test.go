package persistence

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

var (
	refA = common.HexToAddress("0x00000000000000000000000000000000000000A1")
	refB = common.HexToAddress("0x00000000000000000000000000000000000000B2")
)

// A binding written with its order lands in q/ and Referees pages through
// it by referrer, then wallet; MakerOrderCount counts the maker's orders.
func TestRefereesFromBindings(t *testing.T) {
	s := openTemp(t, t.TempDir())
	defer s.Close()
	o := NewOrders(s, NewOutbox(s, nil, nil))
	var makers []common.Address
	for i := range 5 {
		rec := testRecord(i, StatusPending)
		rec.Order.Maker = common.BigToAddress(uint256.NewInt(uint64(0x500 + i)).ToBig())
		ref := refA
		if i == 4 {
			ref = refB
		}
		rec.Order.Referrer = ref
		if err := o.AppendOrder(t.Context(), &OrderTransition{Record: rec, Bind: &ref}); err != nil {
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
