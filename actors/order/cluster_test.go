package order

import (
	"context"
	"errors"
	"log/slog"
	"math/big"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/kind/kindtest"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Every message the order kind accepts from other members, and its answer,
// crosses the codec unchanged.
func TestCodecRoundTrip(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 8, time.UTC)
	rec := testRecord(7)
	rec.Signature = []byte{1, 2, 3}
	bind := common.Address{9}
	view := chainstore.View{Order: chainstore.Order{Hash: rec.Hash, ActivatedBlock: 12,
		FilledAmountIn: *uint256.NewInt(5), Executions: 2, CancelTx: common.Hash{3}}, Seen: true, NonceTx: common.Hash{4}}
	fill := chainstore.Fill{OrderHash: rec.Hash, TxHash: common.Hash{5}, LogIndex: 3, AmountIn: *uint256.NewInt(40),
		AmountOut: *uint256.MustFromDecimal("123456789012345678901234567890"), Timestamp: 1_800_000_000, Executions: 2}
	msgs := []any{
		&CreateRequest{Record: rec, BindReferrer: &bind},
		&CreateRequest{Record: rec},
		&CancelRequest{}, &WarmRequest{},
		&ChainObserved{Chain: view.Order, Fills: []chainstore.Fill{fill}, At: at},
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

// newClusterOrders places an order registry on each member of a fake
// network of n, over one shared journal (the cluster's replicated one).
func newClusterOrders(t *testing.T, n int) (*kindtest.Network, []*Registry, *orderstore.Store) {
	t.Helper()
	store, err := persistence.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	journal := orderstore.New(store, persistence.NewOutbox(store, nil, nil))
	net := kindtest.NewNetwork(n)
	out := make([]*Registry, n)
	for i := range n {
		system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
		t.Cleanup(system.Shutdown)
		r := NewRegistry(system, Options{Journal: journal, Idle: time.Hour, Placement: net.Member(i)})
		t.Cleanup(r.Stop)
		net.Member(i).Host(KindName, r)
		out[i] = r
	}
	return net, out, journal
}

func fillMsg(h common.Hash, k int) *ChainObserved {
	f := chainstore.Fill{OrderHash: h, TxHash: common.BigToHash(big.NewInt(int64(k))), LogIndex: uint32(k),
		AmountIn: *uint256.NewInt(1), AmountOut: *uint256.NewInt(1), FilledAmountIn: *uint256.NewInt(uint64(k)),
		Executions: uint32(k), Timestamp: 1_800_000_000 + uint64(k)}
	return &ChainObserved{Chain: chainstore.Order{Hash: h, ActivatedBlock: 1, FilledAmountIn: f.FilledAmountIn, Executions: uint32(k), Fills: k},
		Fills: []chainstore.Fill{f}, At: time.Unix(1_800_000_000, 0).UTC()}
}

// Orders created through any member and driven through all of them at once
// end with every transition recorded once; a duplicate create through
// another member is ALREADY_EXISTS.
func TestOrdersAcrossMembers(t *testing.T) {
	_, rs, journal := newClusterOrders(t, 3)
	ctx := context.Background()
	const orders, fills = 12, 6
	for i := range orders {
		rec := testRecord(i)
		rec.Order.AmountIn = *uint256.NewInt(100)
		if err := rs[i%3].Create(ctx, rec, nil); err != nil {
			t.Fatal(err)
		}
		err := rs[(i+1)%3].Create(ctx, testRecord(i), nil)
		var e *orderengine.Error
		if !errors.As(err, &e) || e.Code != orderengine.CodeAlreadyExists {
			t.Fatalf("a duplicate create through another member: %v", err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, orders*3)
	for i := range orders {
		h := testRecord(i).Hash
		for j := range 3 {
			wg.Go(func() {
				for k := 1; k <= fills; k++ {
					res, err := rs[(j+k)%3].Observe(ctx, h, *fillMsg(h, k))
					if err == nil {
						err = res.Err
					}
					if err != nil {
						errs <- err
						return
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i := range orders {
		rec, _, err := journal.LoadOrder(testRecord(i).Hash)
		if err != nil || rec.Executions != fills || rec.Version != fills+1 {
			t.Fatalf("order %d: %+v %v", i, rec, err)
		}
	}
}

// Two activations of one order during a change of owner (a member still
// serving an order that moved) both append conditionally: the stale one's
// append is refused, it reloads and decides again, and each fill is
// recorded once.
func TestTwoActivationsAppendConditionally(t *testing.T) {
	net, rs, journal := newClusterOrders(t, 2)
	ctx := context.Background()
	rec := testRecord(1)
	rec.Order.AmountIn = *uint256.NewInt(100)
	h := rec.Hash
	old := net.Owner(codec.Key(h))
	if err := rs[old].Create(ctx, rec, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := rs[old].Observe(ctx, h, *fillMsg(h, 1)); err != nil { // loads version 1, appends 2
		t.Fatal(err)
	}
	net.Remove(old) // the other member owns the order now; the old actor stays live
	if _, err := rs[1-old].Observe(ctx, h, *fillMsg(h, 2)); err != nil {
		t.Fatal(err)
	}
	// A request that still reaches the old member (a caller with the old
	// view) is served by its stale actor, which holds version 2.
	m, err := codec.Encode(fillMsg(h, 3))
	if err != nil {
		t.Fatal(err)
	}
	ans, err := rs[old].Serve(ctx, codec.Key(h), m, false)
	if err != nil {
		t.Fatal(err)
	}
	res, err := codec.Decode(ans)
	if err != nil || res.(*Response).Err != nil || !res.(*Response).Changed {
		t.Fatalf("the stale actor's fill: %+v %v", res, err)
	}
	got, _, err := journal.LoadOrder(h)
	if err != nil || got.Executions != 3 || got.Version != 4 {
		t.Fatalf("after both activations: %+v %v", got, err)
	}
	ledger, err := journal.LoadLedger(h)
	if err != nil || len(ledger) != 3 {
		t.Fatalf("ledger %d entries, %v", len(ledger), err)
	}
}
