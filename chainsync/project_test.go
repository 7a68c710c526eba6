package chainsync

import (
	"context"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/chainsync/chainsynctest"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// projEnv is the indexer with the real order actors behind the projector.
type projEnv struct {
	*chainsynctest.Env
	store    *persistence.Store
	outbox   *persistence.Outbox
	orders   *orderstore.Store
	registry *order.Registry
	ix       *Indexer
	proj     *Projector
}

func newProjEnv(t *testing.T) *projEnv {
	t.Helper()
	return newDrivenProjEnv(t, nil)
}

// newDrivenProjEnv is newProjEnv with a projector that drives while drive
// reports true (nil: always).
func newDrivenProjEnv(t *testing.T, drive func() bool) *projEnv {
	t.Helper()
	e := &projEnv{Env: chainsynctest.NewEnv(t)}
	e.store = chainsynctest.OpenStore(t, t.TempDir())
	t.Cleanup(func() { _ = e.store.Close() })
	e.outbox = persistence.NewOutbox(e.store, nil, nil)
	e.orders = orderstore.New(e.store, e.outbox)
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	e.registry = order.NewRegistry(system, order.Options{Journal: e.orders})
	ch := chainsynctest.Chain(t, e.store)
	e.proj = NewProjector(ch, e.orders, e.registry, ProjectorOptions{Drive: drive})
	var err error
	e.ix, err = New(e.Client, e.store, nil, Options{Router: e.D.Router, StartBlock: e.D.Block, Observers: []Observer{e.proj}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// submit stores o as a pending order of account "acc".
func (e *projEnv) submit(o servicerouter.Order, sig []byte, h common.Hash) {
	e.T.Helper()
	if err := e.registry.Create(context.Background(), chainsynctest.Record(o, sig, h, "acc", time.Now()), nil); err != nil {
		e.T.Fatal(err)
	}
}

func (e *projEnv) sync() {
	e.T.Helper()
	sync1(e.T, e.ix)
	if err := e.proj.CatchUp(context.Background()); err != nil {
		e.T.Fatal(err)
	}
}

func (e *projEnv) events() []string {
	e.T.Helper()
	entries, err := e.outbox.Scan("acc", 0, 100)
	if err != nil {
		e.T.Fatal(err)
	}
	var out []string
	for _, en := range entries {
		out = append(out, en.Event.Trigger+" "+en.Event.Data.OrderHash[:10])
	}
	return out
}

func TestProjectorDrivesOrderRecords(t *testing.T) {
	e := newProjEnv(t)
	o, sig, h := e.LimitOrder(1_000_000_000, 11)
	e.submit(o, sig, h)
	r1 := e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 400_000_000))
	e.sync()
	rec, _, _ := e.orders.Load(h)
	if rec.Status != orderstore.StatusActive || rec.FilledIn.Dec() != "400000000" || rec.Executions != 1 {
		t.Fatalf("after a partial fill: %+v", rec)
	}
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 600_000_000))
	e.sync()
	e.sync() // idempotent: nothing changes on a second pass
	rec, _, _ = e.orders.Load(h)
	co := checkOrder(t, e.Env, e.ix, h, 2)
	if rec.Status != orderstore.StatusFilled || rec.FilledIn.Dec() != "1000000000" || rec.FilledOut.Dec() != co.FilledAmountOut.Dec() {
		t.Fatalf("after the last fill: %+v (chain %+v)", rec, co)
	}
	fills, err := e.ix.Chain().Fills(h)
	if err != nil || len(fills) != 2 || fills[0].TxHash != r1.TxHash || fills[0].Keeper != e.Keeper.Addr {
		t.Fatalf("fills through the order layer: %+v %v", fills, err)
	}
	sum := new(big.Int)
	for _, f := range fills {
		sum.Add(sum, f.AmountOut.ToBig())
	}
	if sum.String() != rec.FilledOut.Dec() {
		t.Fatalf("fills sum %s, record %s", sum, rec.FilledOut.Dec())
	}
	got := e.events()
	if len(got) != 2 || got[0] != "order.filled "+h.Hex()[:10] || got[1] != got[0] {
		t.Fatalf("outbox %v, want two order.filled", got)
	}

	// Nonce invalidation cancels every open order of the maker with it.
	o2, sig2, h2 := e.LimitOrder(5_000_000, 12)
	o3, sig3, h3 := e.LimitOrder(6_000_000, 13)
	e.submit(o2, sig2, h2)
	e.submit(o3, sig3, h3)
	e.MustSend(e.Maker, e.D.Router, e.Router.PackInvalidateNonce(big.NewInt(12)))
	e.sync()
	if rec, _, _ := e.orders.Load(h2); rec.Status != orderstore.StatusCancelled {
		t.Fatalf("nonce 12 order: %s", rec.Status)
	}
	if rec, _, _ := e.orders.Load(h3); rec.Status != orderstore.StatusPending {
		t.Fatalf("nonce 13 order: %s", rec.Status)
	}
	// On-chain cancel of the other.
	e.MustSend(e.Maker, e.D.Router, e.Router.PackCancel(o3))
	e.sync()
	if rec, _, _ := e.orders.Load(h3); rec.Status != orderstore.StatusCancelled {
		t.Fatalf("cancelled on chain: %s", rec.Status)
	}
	got = e.events()
	if len(got) != 4 || got[2] != "order.cancelled "+h2.Hex()[:10] || got[3] != "order.cancelled "+h3.Hex()[:10] {
		t.Fatalf("outbox %v", got)
	}
	_ = sig3
}

// A crash between the indexer's commit and the projection is repaired by
// the next CatchUp: the fill reaches the order record exactly once.
func TestProjectorCatchesUpAfterCrash(t *testing.T) {
	e := newProjEnv(t)
	o, sig, h := e.LimitOrder(1_000_000_000, 21)
	e.submit(o, sig, h)
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 100_000_000))
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 100_000_000))
	sync1(t, e.ix) // indexed, not projected ("crash" here)
	if rec, _, _ := e.orders.Load(h); rec.Status != orderstore.StatusPending {
		t.Fatalf("projected without CatchUp: %+v", rec)
	}
	fresh := NewProjector(chainsynctest.Chain(t, e.store), e.orders, e.registry, ProjectorOptions{})
	for range 2 {
		if err := fresh.CatchUp(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	rec, _, _ := e.orders.Load(h)
	if rec.FilledIn.Dec() != "200000000" || rec.Executions != 2 || len(e.events()) != 2 {
		t.Fatalf("after catch-up: %+v, events %v", rec, e.events())
	}
}

// ProjectorOptions.Drive: while the node does not drive, the projector sends nothing
// and keeps its cursor; once it drives it projects every block since, and
// projecting again blocks another driver already projected (a new
// driver's cursor is behind) records nothing twice.
func TestProjectorDrivesOnlyWhileDriving(t *testing.T) {
	var driving atomic.Bool
	e := newDrivenProjEnv(t, driving.Load)
	o, sig, h := e.LimitOrder(1_000_000_000, 31)
	e.submit(o, sig, h)
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 300_000_000))
	e.sync()
	ch := chainsynctest.Chain(t, e.store)
	if rec, _, _ := e.orders.Load(h); rec.Status != orderstore.StatusPending || len(e.events()) != 0 {
		t.Fatalf("projected while not driving: %+v, events %v", rec, e.events())
	}
	if proj, err := ch.Projected(); err != nil || proj != 0 {
		t.Fatalf("cursor moved while not driving: %d %v", proj, err)
	}
	driving.Store(true)
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 700_000_000))
	e.sync()
	rec, _, _ := e.orders.Load(h)
	if rec.Status != orderstore.StatusFilled || rec.Executions != 2 || len(e.events()) != 2 {
		t.Fatalf("after driving: %+v, events %v", rec, e.events())
	}
	// A driver whose cursor is behind what another driver projected.
	if err := ch.SetProjected(0); err != nil {
		t.Fatal(err)
	}
	if err := e.proj.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	again, _, _ := e.orders.Load(h)
	if again.Version != rec.Version || len(e.events()) != 2 {
		t.Fatalf("projected twice: version %d after %d, events %v", again.Version, rec.Version, e.events())
	}
}
