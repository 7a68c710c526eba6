package keeper

import (
	"context"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	orderengine "github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chainsync/chainsynctest"
	"github.com/orderengine/orderengine/contracts"
	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/internal/syncbuf"
	"github.com/orderengine/orderengine/market"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
	"github.com/orderengine/orderengine/routing"
)

// poolRoute routes every request through the deployment's 0.3 % USDC/WETH
// pool, like routing would, with a zero minimum.
type poolRoute struct{ e *chainsynctest.Env }

func (p poolRoute) Route(_ context.Context, rp routing.RouteParams) (*routing.RouteResponse, error) {
	var pool common.Address
	for _, pl := range p.e.D.Pools {
		if pl.Family == contracts.FamilyCPMM && pl.FeePpm == 3000 && (pl.Token0 == p.e.Tok("USDC") || pl.Token1 == p.e.Tok("USDC")) &&
			(pl.Token0 == p.e.Tok("WETH") || pl.Token1 == p.e.Tok("WETH")) {
			pool = pl.Address
		}
	}
	amount, _ := new(big.Int).SetString(rp.AmountIn, 10)
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	in := common.HexToAddress(rp.TokenIn)
	r := &routing.RouteResponse{AmountOut: "1"}
	r.Route.Targets = []string{in.Hex(), pool.Hex()}
	r.Route.Calldatas = []string{
		hexutil.Encode(p.e.Token.PackApprove(pool, amount)),
		hexutil.Encode(constantproductpool.NewConstantProductPool().PackSwap(in, max, big.NewInt(0), p.e.D.Executor)),
	}
	r.Route.MinAmountOut, r.Fees.Keeper = "0", "0"
	return r, nil
}

// A listed order whose simulation reverts with a terminal router error is
// failed with the custom error's name; a valid one is listed with a
// fillOrder that executes.
func TestExecutableFailsTerminalRevertsAndListsValidOrders(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	st := newStack(t, e, true)
	outbox, orders, reg, trig := st.outbox, st.orders, st.reg, st.trig
	svc := NewService(Options{Pairs: trig, Routes: poolRoute{e}, RouterAddr: e.D.Router, Chain: e.Client, Registry: reg})

	good, goodSig, goodHash := e.LimitOrder(1_000_000, 1)
	bad, badSig, badHash := e.LimitOrder(2_000_000, 2)
	badSig[10] ^= 0xff // no longer the maker's signature
	for _, o := range []struct {
		h   common.Hash
		rec *orderstore.Record
	}{{goodHash, chainsynctest.Record(good, goodSig, goodHash, "acc", time.Now())}, {badHash, chainsynctest.Record(bad, badSig, badHash, "acc", time.Now())}} {
		if err := reg.Create(context.Background(), o.rec, nil); err != nil {
			t.Fatal(err)
		}
	}
	h := e.Head()
	if err := trig.Evaluate(context.Background(), pair.BlockRef{Number: h.Number.Uint64(), Hash: h.Hash(), Time: h.Time}); err != nil {
		t.Fatal(err)
	}
	v, err := svc.Executable(context.Background(), api.KeeperExecutableRequest{Keeper: e.Keeper.Addr.Hex()})
	if err != nil {
		t.Fatal(err)
	}
	list := (*v)
	if len(list.Orders) != 1 || list.Orders[0].OrderHash != goodHash.Hex() || list.Orders[0].FillIn != "1000000" {
		t.Fatalf("listed %+v", list.Orders)
	}
	rec, _, _ := orders.Load(badHash)
	if rec.Status != orderstore.StatusFailed || rec.RevertName != "BadSignature" || rec.Reason == "" {
		t.Fatalf("bad order: status %s revertName %q reason %q", rec.Status, rec.RevertName, rec.Reason)
	}
	entries, _ := outbox.Scan("acc", 0, 10)
	if len(entries) != 1 || entries[0].Event.Trigger != persistence.TriggerOrderFailed || entries[0].Event.Data.RevertName != "BadSignature" {
		t.Fatalf("outbox %+v", entries)
	}
	// The listed transaction executes as is.
	data, _ := hexutil.Decode(list.Orders[0].Tx.Data)
	e.MustSend(e.Keeper, e.D.Router, data)
	if filled, _ := e.RouterFilled(goodHash); filled.Int64() != 1_000_000 {
		t.Fatalf("router filled %s", filled)
	}

	// A keeper other than the designated one does not see the order.
	des, desSig, desHash := e.SignOrder(3_000_000, 1, chain.Traits{Nonce: 3, SlippagePpm: 10_000, AllowedSender: chain.SenderLow80(e.Deployer.Addr)})
	if err := reg.Create(context.Background(), chainsynctest.Record(des, desSig, desHash, "acc", time.Now()), nil); err != nil {
		t.Fatal(err)
	}
	h = e.Head()
	if err := trig.Evaluate(context.Background(), pair.BlockRef{Number: h.Number.Uint64(), Hash: h.Hash(), Time: h.Time}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct {
		keeper common.Address
		want   bool
	}{{e.Keeper.Addr, false}, {e.Deployer.Addr, true}} {
		v, _ := svc.Executable(context.Background(), api.KeeperExecutableRequest{Keeper: k.keeper.Hex()})
		found := false
		for _, it := range (*v).Orders {
			found = found || it.OrderHash == desHash.Hex()
		}
		if found != k.want {
			t.Fatalf("keeper %s sees the designated order: %v, want %v", k.keeper, found, k.want)
		}
	}

	// Pages follow the hash order from the cursor, a malformed cursor is
	// INVALID_REQUEST, and an order cancelled since the tick is left out.
	more, moreSig, moreHash := e.LimitOrder(4_000_000, 4)
	if err := reg.Create(context.Background(), chainsynctest.Record(more, moreSig, moreHash, "acc", time.Now()), nil); err != nil {
		t.Fatal(err)
	}
	if err := trig.Evaluate(context.Background(), pair.BlockRef{Number: h.Number.Uint64(), Hash: h.Hash(), Time: h.Time}); err != nil {
		t.Fatal(err)
	}
	page := func(cursor string, limit int) ExecutableList {
		t.Helper()
		v, err := svc.Executable(context.Background(), api.KeeperExecutableRequest{Keeper: e.Deployer.Addr.Hex(), Limit: limit, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		return (*v)
	}
	both := page("", 10)
	if len(both.Orders) != 2 || both.NextCursor != nil || strings.ToLower(both.Orders[0].OrderHash) >= strings.ToLower(both.Orders[1].OrderHash) {
		t.Fatalf("all: %+v", both)
	}
	first := page("", 1)
	if len(first.Orders) != 1 || first.Orders[0].OrderHash != both.Orders[0].OrderHash || first.NextCursor == nil || *first.NextCursor != first.Orders[0].OrderHash {
		t.Fatalf("first page: %+v", first)
	}
	if second := page(*first.NextCursor, 1); len(second.Orders) != 1 || second.Orders[0].OrderHash != both.Orders[1].OrderHash {
		t.Fatalf("second page: %+v", second)
	}
	_, err = svc.Executable(context.Background(), api.KeeperExecutableRequest{Cursor: "0x12"})
	if oe := orderengine.AsError(err); err == nil || oe.Code != orderengine.CodeInvalidRequest {
		t.Fatalf("malformed cursor: %v", err)
	}
	if err := reg.Cancel(context.Background(), moreHash); err != nil {
		t.Fatal(err)
	}
	if after := page("", 10); len(after.Orders) != 1 || after.Orders[0].OrderHash != desHash.Hex() {
		t.Fatalf("after the cancel: %+v", after.Orders)
	}
}

// The reference keeper never sends what simulation says reverts, and sends
// what simulates, once while its fill is pending.
func TestRunnerSimulatesBeforeSending(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	o, sig, h := e.LimitOrder(1_000_000, 1)
	good := hexutil.Encode(e.FillData(o, sig, 1_000_000))
	badSig := append([]byte(nil), sig...)
	badSig[10] ^= 0xff
	bad := hexutil.Encode(e.FillData(o, badSig, 1_000_000))
	items := []Item{{Listing: Listing{OrderHash: "0xbad"}, Tx: TxData{To: e.D.Router.Hex(), Data: bad}}}
	src := func(context.Context, common.Address, string) ([]Item, string, error) { return items, "", nil }
	logs := &syncbuf.Buffer{}
	r := NewRunner(e.Client.(Client), e.Keeper.Key, src, RunnerOptions{Log: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	nonce := func() uint64 {
		n, err := e.Client.PendingNonceAt(context.Background(), e.Keeper.Addr)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := nonce()
	if sent, err := r.Step(context.Background()); err != nil || len(sent) != 0 || nonce() != before {
		t.Fatalf("sent %d reverting transactions (%v)", len(sent), err)
	}
	// An order that would revert is listed again every poll: its line is
	// at Debug, not Info, so a running keeper's log is not flooded.
	if out := logs.String(); !strings.Contains(out, "level=DEBUG msg=\"not executing\"") || !strings.Contains(out, "order=0xbad") || !strings.Contains(out, "revert=BadSignature") {
		t.Fatalf("the reverting order's log line:\n%s", out)
	}
	items = append(items, Item{Listing: Listing{OrderHash: "0xgood"}, Tx: TxData{To: e.D.Router.Hex(), Data: good}})
	sent, err := r.Step(context.Background())
	if err != nil || len(sent) != 1 {
		t.Fatalf("sent %d (%v)", len(sent), err)
	}
	// The simulated node's pool takes the transaction in on its own
	// goroutine: its pending nonce moves shortly after the send returns.
	deadline := time.Now().Add(5 * time.Second)
	for nonce() == before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := nonce(); n != before+1 {
		t.Fatalf("pending nonce %d after one send, want %d", n, before+1)
	}
	if again, _ := r.Step(context.Background()); len(again) != 0 {
		t.Fatal("resent while the first transaction is pending")
	}
	e.Sim.Commit()
	if filled, _ := e.RouterFilled(h); filled.Int64() != 1_000_000 {
		t.Fatalf("router filled %s", filled)
	}
	// The memory of sent orders keeps only the last resendAfter blocks.
	items = nil
	for range resendAfter {
		e.Sim.Commit()
	}
	if _, err := r.Step(context.Background()); err != nil || len(r.sent) != 0 {
		t.Fatalf("after %d blocks the runner still remembers %d sent orders (%v)", resendAfter, len(r.sent), err)
	}
}

// countingRoutes counts the routes asked for; with fail set it answers
// each with NO_ROUTE.
type countingRoutes struct {
	Router
	n    int
	fail bool
}

func (c *countingRoutes) Route(ctx context.Context, rp routing.RouteParams) (*routing.RouteResponse, error) {
	c.n++
	if c.fail {
		return nil, orderengine.Errorf(orderengine.CodeNoRoute, "no route (test)")
	}
	return c.Router.Route(ctx, rp)
}

// One request examines at most 16 listed orders per entry asked for and
// routes at most 4 of them: a page ends early at either budget with
// nextCursor on the last order examined. The examined orders' funding is
// prefetched at once, and an order its maker cannot pay (Covers) is left
// out before any route is built, so it costs no route budget.
func TestExecutablePagesWithinItsBudgets(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	st := newStack(t, e, false)
	reg, trig := st.reg, st.trig
	const n = 20
	for i := range n {
		o, sig, h := e.LimitOrder(int64(i+1)*1_000_000, uint64(10+i))
		if err := reg.Create(context.Background(), chainsynctest.Record(o, sig, h, "acc", time.Now()), nil); err != nil {
			t.Fatal(err)
		}
	}
	hd := e.Head()
	if err := trig.Evaluate(context.Background(), pair.BlockRef{Number: hd.Number.Uint64(), Hash: hd.Hash(), Time: hd.Time}); err != nil {
		t.Fatal(err)
	}
	all := trig.Executable("")
	if len(all) != n {
		t.Fatalf("%d executable", len(all))
	}
	covered := map[string]bool{all[18].FillIn.String(): true} // only this order's maker "can pay"
	var prefetched, coversAsked int
	routes := &countingRoutes{Router: poolRoute{e}}
	svc := NewService(Options{Pairs: trig, Routes: routes, RouterAddr: e.D.Router, Chain: e.Client, Registry: reg,
		Covers: func(_ context.Context, _, _ common.Address, amount *big.Int) (bool, bool) {
			coversAsked++
			return covered[amount.String()], true
		},
		Prefetch: func(_ context.Context, pairs [][2]common.Address) {
			if coversAsked != 0 {
				t.Error("Prefetch after a Covers call")
			}
			prefetched += len(pairs)
		}})
	page := func(cursor string) ExecutableList {
		t.Helper()
		prefetched, coversAsked = 0, 0
		v, err := svc.Executable(context.Background(), api.KeeperExecutableRequest{Keeper: e.Keeper.Addr.Hex(), Limit: 1, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		return (*v)
	}
	// The walk budget: 16 unfunded orders examined, none routed.
	first := page("")
	if len(first.Orders) != 0 || first.NextCursor == nil || *first.NextCursor != all[15].Hash.Hex() || routes.n != 0 || prefetched != 16 {
		t.Fatalf("first page: %d orders, cursor %v (want %s), %d routes, %d prefetched", len(first.Orders), first.NextCursor, all[15].Hash.Hex(), routes.n, prefetched)
	}
	second := page(*first.NextCursor)
	if len(second.Orders) != 1 || second.Orders[0].OrderHash != all[18].Hash.Hex() || second.NextCursor == nil ||
		*second.NextCursor != all[18].Hash.Hex() || routes.n != 1 || prefetched != 4 {
		t.Fatalf("second page: %+v, %d routes, %d prefetched", second, routes.n, prefetched)
	}
	if third := page(*second.NextCursor); len(third.Orders) != 0 || third.NextCursor != nil {
		t.Fatalf("third page: %+v", third)
	}
	// The route budget: every maker can pay, but no route can be built.
	for _, x := range all {
		covered[x.FillIn.String()] = true
	}
	routes.n, routes.fail = 0, true
	if p := page(""); len(p.Orders) != 0 || p.NextCursor == nil || *p.NextCursor != all[3].Hash.Hex() || routes.n != 4 {
		t.Fatalf("page without routes: %+v, %d routes (want 4, cursor %s)", p, routes.n, all[3].Hash.Hex())
	}
}

// senders records the sender of every simulation and passes it on to the
// real chain.
type senders struct {
	Caller
	mu   sync.Mutex
	from []common.Address
}

func (c *senders) CallContract(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error) {
	c.mu.Lock()
	c.from = append(c.from, msg.From)
	c.mu.Unlock()
	return c.Caller.CallContract(ctx, msg, block)
}

// A list for a keeper simulates from that keeper; a list without one from
// SimulationSender, never from the zero address (the keeper fee is paid to
// the sender, and a standard ERC-20 refuses a transfer to it).
func TestExecutableSimulatesFromTheKeeperOrANonZeroSender(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	st := newStack(t, e, true)
	calls := &senders{Caller: e.Client}
	svc := NewService(Options{Pairs: st.trig, Routes: poolRoute{e}, RouterAddr: e.D.Router, Chain: calls, Registry: st.reg})
	o, sig, h := e.LimitOrder(1_000_000, 1)
	if err := st.reg.Create(context.Background(), chainsynctest.Record(o, sig, h, "acc", time.Now()), nil); err != nil {
		t.Fatal(err)
	}
	head := e.Head()
	if err := st.trig.Evaluate(context.Background(), pair.BlockRef{Number: head.Number.Uint64(), Hash: head.Hash(), Time: head.Time}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct {
		keeper string
		want   common.Address
	}{{"", SimulationSender}, {e.Keeper.Addr.Hex(), e.Keeper.Addr}} {
		calls.mu.Lock()
		calls.from = nil
		calls.mu.Unlock()
		v, err := svc.Executable(context.Background(), api.KeeperExecutableRequest{Keeper: k.keeper})
		if err != nil {
			t.Fatal(err)
		}
		if n := len((*v).Orders); n != 1 {
			t.Fatalf("keeper %q: %d orders listed", k.keeper, n)
		}
		calls.mu.Lock()
		from := calls.from
		calls.mu.Unlock()
		if len(from) == 0 {
			t.Fatalf("keeper %q: nothing simulated", k.keeper)
		}
		for _, f := range from {
			if f != k.want {
				t.Fatalf("keeper %q: simulated from %s, want %s", k.keeper, f.Hex(), k.want.Hex())
			}
		}
	}
}

// threePages is a Source of three empty pages ("" → 0xa → 0xb → end)
// that records the cursors it is asked for.
func threePages(asked *[]string) Source {
	pages := map[string]string{"": "0xa", "0xa": "0xb", "0xb": ""}
	return func(_ context.Context, _ common.Address, cursor string) ([]Item, string, error) {
		*asked = append(*asked, cursor)
		return nil, pages[cursor], nil
	}
}

// The reference keeper takes the next page at each step and starts over
// after the last.
func TestRunnerFollowsTheCursor(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	var asked []string
	src := threePages(&asked)
	r := NewRunner(e.Client.(Client), e.Keeper.Key, src, RunnerOptions{})
	for range 4 {
		if _, err := r.Step(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(asked, ","); got != ",0xa,0xb," {
		t.Fatalf("cursors asked: %q", got)
	}
	// Sweep (keeper --once) starts from the first page, wherever the
	// steps left off, and stops after the last.
	asked = nil
	if _, err := r.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(asked, ","); got != ",0xa,0xb" {
		t.Fatalf("cursors asked by Sweep: %q", got)
	}
	// A page refused with a Retry-After is asked again after the wait (a
	// named fake of the API's 429; HTTPSource's own reading of a real 429
	// is TestHTTPSourceReportsTheAPIRefusalAndItsRetryAfter).
	asked, limited := nil, true
	r.source = func(ctx context.Context, k common.Address, cursor string) ([]Item, string, error) {
		if cursor == "0xa" && limited {
			limited = false
			asked = append(asked, "429")
			return nil, "", &APIError{Status: 429, Code: "RATE_LIMITED", RetryAfter: time.Millisecond}
		}
		return src(ctx, k, cursor)
	}
	if _, err := r.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(asked, ","); got != ",429,0xa,0xb" {
		t.Fatalf("cursors asked by Sweep through a 429: %q", got)
	}
}

// stack is the order side a keeper service reads: orders on a Pebble store
// in a temp dir, their registry, and the pairs (with oracle prices from the
// simulated chain when priced), fed by the registry's change feed.
type stack struct {
	outbox *persistence.Outbox
	orders *orderstore.Store
	reg    *order.Registry
	trig   *pair.Pairs
}

func newStack(t *testing.T, e *chainsynctest.Env, priced bool) stack {
	t.Helper()
	store := chainsynctest.OpenStore(t, t.TempDir())
	t.Cleanup(func() { _ = store.Close() })
	outbox := persistence.NewOutbox(store, nil, nil)
	orders := orderstore.New(store, outbox)
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	var trig *pair.Pairs
	reg := order.NewRegistry(system, order.Options{Journal: orders,
		Feed: func(prev orderstore.Status, rec *orderstore.Record, _ *common.Address) {
			trig.Changed(prev, rec)
		}})
	opts := pair.Options{System: system, Store: store, Chain: chainsynctest.Chain(t, store), Orders: orders, Registry: reg}
	if priced {
		opts.Prices = market.NewOraclePricer(e.Client.(market.HashCaller), e.D.Oracle, nil)
	}
	trig = pair.New(opts)
	t.Cleanup(trig.Stop)
	return stack{outbox: outbox, orders: orders, reg: reg, trig: trig}
}
