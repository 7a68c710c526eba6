package pair

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/chainsync/chainsynctest"
	"github.com/orderengine/orderengine/contracts"
	"github.com/orderengine/orderengine/contracts/bindings/oracle"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/market"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// env is the simulated chain with the indexer, projector, order actors and
// the pairs over one store.
type env struct {
	*chainsynctest.Env
	store    *persistence.Store
	outbox   *persistence.Outbox
	orders   *orderstore.Store
	registry *order.Registry
	ix       *chainsync.Indexer
	proj     *chainsync.Projector
	trig     *Pairs
	system   *actor.ActorSystem
	prices   *market.OraclePricer
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{Env: chainsynctest.NewEnv(t)}
	e.store = chainsynctest.OpenStore(t, t.TempDir())
	t.Cleanup(func() { _ = e.store.Close() })
	e.outbox = persistence.NewOutbox(e.store, nil, nil)
	e.orders = orderstore.New(e.store, e.outbox)
	e.system = actor.NewActorSystem()
	t.Cleanup(e.system.Shutdown)
	// The change feed goes to whichever pairs run (restart replaces them).
	e.registry = order.NewRegistry(e.system, order.Options{Journal: e.orders,
		Feed: func(prev orderstore.Status, rec *orderstore.Record, _ *common.Address) {
			e.trig.Changed(prev, rec)
		}})
	e.prices = market.NewOraclePricer(e.Client.(market.HashCaller), e.D.Oracle, nil)
	e.restart()
	t.Cleanup(func() { e.trig.Stop() })
	return e
}

// restart builds a fresh indexer, projector and pairs over the
// same store (what a process restart does).
func (e *env) restart() {
	e.T.Helper()
	if e.trig != nil {
		e.trig.Stop() // its pair actors' peaks in memory are gone with it
	}
	ch := chainsynctest.Chain(e.T, e.store)
	e.proj = chainsync.NewProjector(ch, e.orders, e.registry, chainsync.ProjectorOptions{})
	e.trig = New(Options{System: e.system, Store: e.store, Chain: ch, Orders: e.orders, Registry: e.registry, Prices: e.prices})
	if err := loadOpen(e.trig); err != nil {
		e.T.Fatal(err)
	}
	// Both observe the indexer, as in app.System: the pairs
	// takes the chain records of applied blocks before the projection.
	var err error
	e.ix, err = chainsync.New(e.Client, e.store, nil, chainsync.Options{Router: e.D.Router, StartBlock: e.D.Block,
		Observers: []chainsync.Observer{e.proj, chainsync.ObserverFuncs{
			OnApplied: func(b *chainsync.Block) {
				e.trig.BlockApplied(BlockRef{Number: b.Number, Hash: b.Hash, Time: b.Time}, b.ChainOrders())
			},
			OnReverted: func(blk chainstore.Block) { e.trig.BlockReverted(blk.Touched) },
		}}})
	if err != nil {
		e.T.Fatal(err)
	}
}

// tick indexes up to the head, projects, and evaluates at the head.
func (e *env) tick() []Executable {
	e.T.Helper()
	return e.evaluate(true)
}

// evaluate indexes up to the head, projects when project is set (else the
// engine sees the applied blocks before the projector has run), and
// evaluates at the head.
func (e *env) evaluate(project bool) []Executable {
	e.T.Helper()
	ctx := context.Background()
	if err := e.ix.Sync(ctx); err != nil {
		e.T.Fatal(err)
	}
	if project {
		if err := e.proj.CatchUp(ctx); err != nil {
			e.T.Fatal(err)
		}
	}
	h := e.Head()
	if err := e.trig.Evaluate(ctx, BlockRef{Number: h.Number.Uint64(), Hash: h.Hash(), Time: h.Time}); err != nil {
		e.T.Fatal(err)
	}
	return e.trig.Executable("")
}

func (e *env) submit(o servicerouter.Order, sig []byte, h common.Hash, created time.Time) {
	e.T.Helper()
	if err := e.registry.Create(context.Background(), chainsynctest.Record(o, sig, h, "acc", created), nil); err != nil {
		e.T.Fatal(err)
	}
}

func (e *env) record(h common.Hash) *orderstore.Record {
	e.T.Helper()
	rec, ok, err := e.orders.Load(h)
	if err != nil || !ok {
		e.T.Fatalf("order %s: %v", h, err)
	}
	return rec
}

// triggers returns every outbox trigger, in outbox order.
func (e *env) triggers() []string {
	e.T.Helper()
	return e.eventsOf(common.Hash{})
}

func find(xs []Executable, h common.Hash) *Executable {
	for i := range xs {
		if xs[i].Hash == h {
			return &xs[i]
		}
	}
	return nil
}

// usdcInWeth is the oracle price of 1 USDC in raw WETH at a WETH USD price.
func usdcInWeth(wethUSD int64) *big.Int {
	return new(big.Int).Quo(new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil), big.NewInt(wethUSD))
}

func TestStopLossFiresAndKeeperFillCompletes(t *testing.T) {
	e := newEnv(t)
	e.SetPrice("WETH", 3000_00000000)
	e.SetPrice("USDC", 1_00000000)
	trigger := usdcInWeth(3500) // fires once WETH is above $3500
	o, sig, h := e.SignOrder(100_000_000, trigger.Uint64(), chain.Traits{Nonce: 1, SlippagePpm: 300_000, Flags: chain.FlagStopLoss})
	e.submit(o, sig, h, time.Now())
	if x := find(e.tick(), h); x != nil {
		t.Fatal("stop-loss executable above its trigger")
	}
	if rec := e.record(h); !rec.TriggeredAt.IsZero() {
		t.Fatal("triggered above the trigger price")
	}
	e.SetPrice("WETH", 4000_00000000)
	x := find(e.tick(), h)
	if x == nil || x.FillIn.String() != "100000000" || x.Price.Cmp(usdcInWeth(4000)) != 0 {
		t.Fatalf("executable after the drop: %+v", x)
	}
	if rec := e.record(h); rec.TriggeredAt.IsZero() || rec.TriggeredAt.Unix() != int64(e.Now()) {
		t.Fatalf("triggeredAt %v, block time %d", rec.TriggeredAt, e.Now())
	}
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, x.FillIn.Int64()))
	if x := find(e.tick(), h); x != nil {
		t.Fatal("filled order still executable")
	}
	rec := e.record(h)
	if rec.Status != orderstore.StatusFilled || rec.FilledIn.Dec() != "100000000" {
		t.Fatalf("after the fill: %+v", rec)
	}
	if got := e.triggers(); len(got) != 2 || got[0] != persistence.TriggerStopTriggered || got[1] != persistence.TriggerOrderFilled {
		t.Fatalf("outbox %v", got)
	}
}

func TestTrailingPeakSurvivesRestart(t *testing.T) {
	e := newEnv(t)
	e.SetPrice("WETH", 3000_00000000)
	o, sig, h := e.SignOrder(10_000_000, 0, chain.Traits{Nonce: 2, SlippagePpm: 300_000, KindParamPpm: 100_000, Flags: chain.FlagTrailing})
	e.submit(o, sig, h, time.Now())
	e.tick()
	e.SetPrice("WETH", 2500_00000000) // USDC worth more WETH: new peak
	if find(e.tick(), h) != nil {
		t.Fatal("fired at the peak")
	}
	e.restart()
	// 2500/2800 = 0.893: more than 10% under the peak, which only the
	// persisted peak knows (a fresh peak would start here).
	e.SetPrice("WETH", 2800_00000000)
	if x := find(e.tick(), h); x == nil {
		t.Fatal("trailing did not fire after restart: peak lost")
	}
	if rec := e.record(h); rec.TriggeredAt.IsZero() {
		t.Fatal("triggeredAt not recorded")
	}
	e.SetPrice("WETH", 2700_00000000) // still executable once fired
	x := find(e.tick(), h)
	if x == nil {
		t.Fatal("fired trailing order left the list before its fill")
	}
	if p, _ := loadPeak(e.store, h); p == nil {
		t.Fatal("no persisted peak while the order is open")
	}
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, x.FillIn.Int64()))
	e.tick()
	if rec := e.record(h); rec.Status != orderstore.StatusFilled {
		t.Fatalf("status %s", rec.Status)
	}
	if p, _ := loadPeak(e.store, h); p != nil {
		t.Fatal("peak row kept after the order closed")
	}
}

func TestDCAScheduleAcrossRestartAndStall(t *testing.T) {
	e := newEnv(t)
	e.SetPrice("WETH", 3000_00000000)
	o, sig, h := e.SignOrder(3_000_000, 0, chain.Traits{Nonce: 3, SlippagePpm: 300_000, KindParamPpm: 100_000,
		IntervalSeconds: 3600, TotalExecutions: 3, Flags: chain.FlagDCA})
	e.submit(o, sig, h, time.Unix(int64(e.Now()), 0))
	x := find(e.tick(), h)
	if x == nil || x.FillIn.String() != "1000000" {
		t.Fatalf("first leg: %+v", x)
	}
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 1_000_000))
	if find(e.tick(), h) != nil {
		t.Fatal("second leg due right after the first")
	}
	e.restart()
	if err := contracts.AdjustTime(e.Sim, 3600*time.Second); err != nil {
		t.Fatal(err)
	}
	e.Sim.Commit()
	x = find(e.tick(), h)
	if x == nil || x.FillIn.String() != "1000000" {
		t.Fatalf("second leg after restart: %+v", x)
	}
	if rec := e.record(h); rec.Stalled || rec.Executions != 1 || rec.Status != orderstore.StatusActive {
		t.Fatalf("record %+v", rec)
	}
	// 400 s late with a 360 s grace: stalled.
	if err := contracts.AdjustTime(e.Sim, 400*time.Second); err != nil {
		t.Fatal(err)
	}
	e.Sim.Commit()
	e.tick()
	if rec := e.record(h); !rec.Stalled {
		t.Fatal("late leg not stalled")
	}
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 1_000_000))
	e.tick()
	if rec := e.record(h); rec.Stalled {
		t.Fatal("stall not cleared after the leg executed")
	}
	if err := contracts.AdjustTime(e.Sim, 3600*time.Second); err != nil {
		t.Fatal(err)
	}
	e.Sim.Commit()
	x = find(e.tick(), h)
	if x == nil || x.FillIn.String() != "1000000" {
		t.Fatalf("last leg: %+v", x)
	}
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 1_000_000))
	e.tick()
	rec := e.record(h)
	if rec.Status != orderstore.StatusFilled || rec.Executions != 3 {
		t.Fatalf("after the last leg: %+v", rec)
	}
	if got := e.triggers(); len(got) != 2 || got[0] != persistence.TriggerDCAStalled || got[1] != persistence.TriggerDCACompleted {
		t.Fatalf("outbox %v", got)
	}
}

func TestExpiryByBlockTime(t *testing.T) {
	e := newEnv(t)
	deadline := e.Now() + 100
	o, sig, h := e.SignOrder(1_000_000, 1, chain.Traits{Nonce: 4, Deadline: deadline, SlippagePpm: 10_000})
	e.submit(o, sig, h, time.Now())
	if find(e.tick(), h) == nil {
		t.Fatal("limit order not executable before its deadline")
	}
	if err := contracts.AdjustTime(e.Sim, 200*time.Second); err != nil {
		t.Fatal(err)
	}
	e.Sim.Commit()
	if find(e.tick(), h) != nil {
		t.Fatal("expired order executable")
	}
	if rec := e.record(h); rec.Status != orderstore.StatusExpired {
		t.Fatalf("status %s", rec.Status)
	}
	if got := e.triggers(); len(got) != 1 || got[0] != persistence.TriggerOrderExpired {
		t.Fatalf("outbox %v", got)
	}
}

// A stale oracle answer (older than the oracle's maxAge at the evaluated
// block, where the router reverts with OracleStale) decides nothing: the
// stop-loss neither fires nor is listed until a fresh answer arrives.
func TestStaleOraclePriceDecidesNothing(t *testing.T) {
	e := newEnv(t)
	e.MustSend(e.Deployer, e.D.Oracle, oracle.NewOracle().PackSetMaxAge(big.NewInt(60)))
	e.SetPrice("USDC", 1_00000000)
	e.SetPrice("WETH", 4000_00000000) // past the trigger below
	o, sig, h := e.SignOrder(100_000_000, usdcInWeth(3500).Uint64(), chain.Traits{Nonce: 1, SlippagePpm: 300_000, Flags: chain.FlagStopLoss})
	e.submit(o, sig, h, time.Now())
	if err := contracts.AdjustTime(e.Sim, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	e.Sim.Commit()
	if x := find(e.tick(), h); x != nil {
		t.Fatalf("executable on a stale price: %+v", x)
	}
	if rec := e.record(h); !rec.TriggeredAt.IsZero() {
		t.Fatal("stop.triggered on a stale price")
	}
	e.SetPrice("USDC", 1_00000000)
	e.SetPrice("WETH", 4000_00000000)
	if x := find(e.tick(), h); x == nil {
		t.Fatal("not executable once the price is fresh")
	}
	if rec := e.record(h); rec.TriggeredAt.IsZero() {
		t.Fatal("not triggered once the price is fresh")
	}
}
