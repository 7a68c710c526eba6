package keeper

import (
	"context"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chainsync/chainsynctest"
)

// A trailing order with a designated keeper (allowedSender, the submit
// payload's designatedKeeper): once its trail fires it is listed only to
// that keeper (keeper=<address>), neither to another keeper nor to a
// request without keeper, and the listed transaction executes from the
// designated keeper.
func TestFiredTrailingOrderListedOnlyToItsDesignatedKeeper(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	st := newStack(t, e, true)
	orders, reg, trig := st.orders, st.reg, st.trig
	svc := NewService(Options{Pairs: trig, Routes: poolRoute{e}, RouterAddr: e.D.Router, Chain: e.Client, Registry: reg})
	evaluate := func() {
		t.Helper()
		h := e.Head()
		if err := trig.Evaluate(context.Background(), pair.BlockRef{Number: h.Number.Uint64(), Hash: h.Hash(), Time: h.Time}); err != nil {
			t.Fatal(err)
		}
	}
	listed := func(keeper string) []Item {
		t.Helper()
		v, err := svc.Executable(context.Background(), api.KeeperExecutableRequest{Keeper: keeper})
		if err != nil {
			t.Fatal(err)
		}
		return (*v).Orders
	}

	e.SetPrice("WETH", 3000_00000000)
	e.SetPrice("USDC", 1_00000000)
	o, sig, h := e.SignOrder(10_000_000, 0, chain.Traits{Nonce: 5, SlippagePpm: 300_000, KindParamPpm: 50_000,
		Flags: chain.FlagTrailing, AllowedSender: chain.SenderLow80(e.Keeper.Addr)})
	if err := reg.Create(context.Background(), chainsynctest.Record(o, sig, h, "acc", time.Now()), nil); err != nil {
		t.Fatal(err)
	}
	evaluate() // the peak: 1/3000 WETH per USDC
	if got := listed(e.Keeper.Addr.Hex()); len(got) != 0 {
		t.Fatalf("trailing order listed before its trail: %+v", got)
	}
	e.SetPrice("WETH", 3300_00000000) // 3000/3300 = 0.909 of the peak: a 5 % trail fires
	evaluate()
	if rec, _, _ := orders.Load(h); rec.TriggeredAt.IsZero() {
		t.Fatal("trail not fired")
	}
	for _, other := range []string{"", e.Deployer.Addr.Hex(), common.Address{}.Hex()} {
		if got := listed(other); len(got) != 0 {
			t.Fatalf("keeper %q sees the order designated to %s: %+v", other, e.Keeper.Addr, got)
		}
	}
	got := listed(e.Keeper.Addr.Hex())
	if len(got) != 1 || got[0].OrderHash != h.Hex() || got[0].FillIn != "10000000" || got[0].OrderType != "trailing" {
		t.Fatalf("designated keeper's list: %+v", got)
	}
	data, _ := hexutil.Decode(got[0].Tx.Data)
	e.MustSend(e.Keeper, e.D.Router, data)
	if filled, _ := e.RouterFilled(h); filled.Int64() != 10_000_000 {
		t.Fatalf("router filled %s", filled)
	}
}
