package order

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/persistence"
)

// Every message the order kind accepts from other members, and its answer,
// crosses the codec unchanged.
func TestCodecRoundTrip(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 8, time.UTC)
	rec := testRecord(7)
	rec.Signature = []byte{1, 2, 3}
	bind := common.Address{9}
	view := persistence.ChainView{Order: persistence.ChainOrder{Hash: rec.Hash, ActivatedBlock: 12,
		FilledAmountIn: *uint256.NewInt(5), Executions: 2, CancelTx: common.Hash{3}}, Seen: true, NonceTx: common.Hash{4}}
	fill := persistence.Fill{OrderHash: rec.Hash, TxHash: common.Hash{5}, LogIndex: 3, AmountIn: *uint256.NewInt(40),
		AmountOut: *uint256.MustFromDecimal("123456789012345678901234567890"), Timestamp: 1_800_000_000, Executions: 2}
	msgs := []any{
		&CreateRequest{Record: rec, BindReferrer: &bind},
		&CreateRequest{Record: rec},
		&CancelRequest{}, &WarmRequest{},
		&ChainObserved{Chain: view.Order, Fills: []persistence.Fill{fill}, At: at},
		&NonceInvalidated{TxHash: common.Hash{6}, At: at},
		&ResyncRequest{Chain: view, At: at},
		&ExpireRequest{Chain: view, At: at},
		&FailRequest{Reason: "no route", RevertName: "Slippage", At: at},
		&TriggerRequest{Price: *uint256.NewInt(77), Chain: view, At: at},
		&StallRequest{Stalled: true, Chain: view, At: at},
		&Response{Record: rec, Changed: true},
		&Response{},
		&Response{Record: rec, Err: orderengine.Errorf(orderengine.CodeNotCancellable, "order is active")},
	}
	for _, msg := range msgs {
		m, err := codec.Encode(msg)
		if err != nil {
			t.Fatalf("encode %T: %v", msg, err)
		}
		back, err := codec.Decode(m)
		if err != nil {
			t.Fatalf("decode %s: %v", m.Type, err)
		}
		if !reflect.DeepEqual(back, msg) {
			t.Fatalf("%s changed across the codec:\n got %#v\nwant %#v", m.Type, back, msg)
		}
	}
	// Any other error arrives as INTERNAL with its text.
	m, err := codec.Encode(&Response{Err: errors.New("disk full")})
	if err != nil {
		t.Fatal(err)
	}
	back, err := codec.Decode(m)
	if err != nil {
		t.Fatal(err)
	}
	var e *orderengine.Error
	if !errors.As(back.(*Response).Err, &e) || e.Code != orderengine.CodeInternal {
		t.Fatalf("a plain error crossed as %v", back.(*Response).Err)
	}
	if _, err := codec.Encode(&struct{}{}); err == nil {
		t.Fatal("a message the kind does not accept from other members was encoded")
	}
	h, err := codec.Parse(codec.Key(rec.Hash))
	if err != nil || h != rec.Hash {
		t.Fatalf("identity %s: %v %v", codec.Key(rec.Hash), h, err)
	}
	if _, err := codec.Parse("0x12"); err == nil {
		t.Fatal("a short hash parsed")
	}
}
