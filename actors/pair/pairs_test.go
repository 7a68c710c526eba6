package pair

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// books prints every pair's whole book (page by page), sorted by pair.
func books(t *testing.T, p *Pairs) []string {
	t.Helper()
	var keys []string
	p.reg.Each(func(key string) { keys = append(keys, key) })
	sort.Strings(keys)
	var out []string
	for _, key := range keys {
		var after *Key
		for {
			page, err := p.Page(context.Background(), key, 100, after)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range page.Entries {
				out = append(out, fmt.Sprintf("%s %+v", key, r))
			}
			if page.Next == nil {
				break
			}
			after = page.Next
		}
	}
	return out
}

func executableStrings(xs []Executable) []string {
	var out []string
	for _, x := range xs {
		out = append(out, fmt.Sprintf("%s %s %s fill=%s price=%s block=%d", x.Hash.Hex(), x.Pair, x.Class, x.FillIn, x.Price, x.Block))
	}
	return out
}

// sameAsFresh checks that the pairs' books and executable set, kept up to
// date by the change feed, equal those of new pairs loaded from the store,
// evaluated at the same block.
func sameAsFresh(t *testing.T, env *synthEnv, p *Pairs, ref BlockRef) {
	t.Helper()
	fresh := env.newPairs()
	defer fresh.Stop()
	if err := fresh.Evaluate(context.Background(), ref); err != nil {
		t.Fatal(err)
	}
	got, want := books(t, p), books(t, fresh)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("books after changes (%d orders) differ from the store's (%d orders)", len(got), len(want))
	}
	gx, wx := executableStrings(p.Executable("")), executableStrings(fresh.Executable(""))
	if strings.Join(gx, "\n") != strings.Join(wx, "\n") {
		t.Fatalf("executable set: %d orders, the store's: %d", len(gx), len(wx))
	}
}

// The pairs read the open orders from the store once; after that they
// follow the change feed. Whatever happens between ticks (creations,
// cancels, expiries, triggers, some of them during a tick), their books and
// executable set must equal what new pairs load from the store.
func TestPairsFollowTheChangeFeed(t *testing.T) {
	env := newSynthEnv(t, 200)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	ref := BlockRef{Number: 1, Time: 1_700_000_000}
	next := 200
	// The first tick runs while orders are created and cancelled.
	var wg sync.WaitGroup
	wg.Go(func() { env.create(t, next, next+100) })
	wg.Go(func() {
		for i := 0; i < 200; i += 7 {
			_, h := synthRecord(i)
			if err := env.registry.Cancel(ctx, h); err != nil {
				t.Error(err)
			}
		}
	})
	if err := env.engine.Evaluate(ctx, ref); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	next += 100
	if err := env.engine.Evaluate(ctx, ref); err != nil {
		t.Fatal(err)
	}
	sameAsFresh(t, env, env.engine, ref)
	if n := len(books(t, env.engine)); n != 300-29 {
		t.Fatalf("%d open, want %d", n, 300-29)
	}

	for round := range 4 {
		ref.Number++
		ref.Time += 12
		at := time.Unix(int64(ref.Time), 0).UTC()
		wg.Go(func() { env.create(t, next, next+50) }) // during the tick
		if err := env.engine.Evaluate(ctx, ref); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		next += 50
		env.mu.Lock()
		hashes := append([]common.Hash(nil), env.hashes...)
		env.mu.Unlock()
		env.randomTransitions(t, rng, hashes, 30, at)
		if err := env.engine.Evaluate(ctx, ref); err != nil {
			t.Fatal(err)
		}
		sameAsFresh(t, env, env.engine, ref)
		t.Logf("round %d: %d open, %d executable", round, len(books(t, env.engine)), len(env.engine.Executable("")))
	}
}

// randomTransitions cancels, expires or triggers n orders drawn from
// hashes, as their order actors decide (a closed order refuses).
func (e *synthEnv) randomTransitions(t *testing.T, rng *rand.Rand, hashes []common.Hash, n int, at time.Time) {
	t.Helper()
	ctx := context.Background()
	for range n {
		h := hashes[rng.IntN(len(hashes))]
		switch rng.IntN(3) {
		case 0:
			_ = e.registry.Cancel(ctx, h) // NOT_CANCELLABLE once closed
		case 1:
			if _, err := e.registry.Expire(ctx, h, chainstore.View{}, at); err != nil {
				t.Fatal(err)
			}
		case 2:
			if _, err := e.registry.Trigger(ctx, h, uint256.NewInt(400000), chainstore.View{}, at); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A fill the indexer stored is seen at the next tick even before the
// projection updates the order record, and a rewind of that block reads the
// chain record again.
func TestChainAheadOfTheProjection(t *testing.T) {
	env := newSynthEnv(t, 4)
	ctx := context.Background()
	ref := BlockRef{Number: 1, Time: 1_700_000_000}
	if err := env.engine.Evaluate(ctx, ref); err != nil {
		t.Fatal(err)
	}
	_, h := synthRecord(0) // a limit order, executable
	if find(env.engine.Executable(""), h) == nil {
		t.Fatal("limit order not executable")
	}
	env.engine.BlockApplied(BlockRef{Number: 2}, map[common.Hash]chainstore.Order{
		h: {Hash: h, FilledAmountIn: *uint256.NewInt(1000000), Executions: 1}})
	ref.Number = 2
	if err := env.engine.Evaluate(ctx, ref); err != nil {
		t.Fatal(err)
	}
	if find(env.engine.Executable(""), h) != nil {
		t.Fatal("order the chain filled still executable")
	}
	if b := books(t, env.engine); !strings.Contains(strings.Join(b, "\n"), h.Hex()) {
		t.Fatal("the order left the book before the projection closed it")
	}
	env.engine.BlockReverted([]common.Hash{h})
	if err := env.engine.Evaluate(ctx, ref); err != nil {
		t.Fatal(err)
	}
	x := find(env.engine.Executable(""), h)
	if x == nil || x.FillIn.String() != "1000000" {
		t.Fatalf("after the rewind: %+v", x)
	}
}

// EachExecutable starts after the cursor hash and stops when told.
func TestEachExecutableFromACursor(t *testing.T) {
	env := newSynthEnv(t, 40)
	if err := env.engine.Evaluate(context.Background(), BlockRef{Number: 1, Time: 1_700_000_000}); err != nil {
		t.Fatal(err)
	}
	all := env.engine.Executable("")
	for i := 1; i < len(all); i++ { // two pairs' lists merged
		if bytes.Compare(all[i-1].Hash[:], all[i].Hash[:]) >= 0 {
			t.Fatalf("executable %d (%s) not after %s", i, all[i].Hash, all[i-1].Hash)
		}
	}
	if len(all) != 20 { // the limit orders (i%4 == 0 or 2) and no stop-loss; trailing orders only track the peak
		t.Fatalf("%d executable", len(all))
	}
	var got []common.Hash
	env.engine.EachExecutable("", all[4].Hash, func(x Executable) bool {
		got = append(got, x.Hash)
		return len(got) < 3
	})
	if len(got) != 3 || got[0] != all[5].Hash || got[2] != all[7].Hash {
		t.Fatalf("after %s: %v", all[4].Hash, got)
	}
	pair := all[0].Pair
	n := 0
	env.engine.EachExecutable(strings.ToUpper(pair), common.Hash{}, func(x Executable) bool {
		if x.Pair != pair {
			t.Fatalf("pair %s listed for %s", x.Pair, pair)
		}
		n++
		return true
	})
	if n != 10 {
		t.Fatalf("%d executable in %s", n, pair)
	}
}

// A trailing order that closes loses its persisted peak at the next
// evaluation of its pair.
func TestClosedOrderLosesItsPeak(t *testing.T) {
	env := newSynthEnv(t, 40)
	ctx := context.Background()
	ref := BlockRef{Number: 1, Time: 1_700_000_000}
	if err := env.engine.Evaluate(ctx, ref); err != nil {
		t.Fatal(err)
	}
	_, trailing := synthRecord(3)
	if p, _ := loadPeak(env.store, trailing); p == nil {
		t.Fatal("no peak stored for the trailing order")
	}
	if err := env.registry.Cancel(ctx, trailing); err != nil {
		t.Fatal(err)
	}
	env.create(t, 40, 100)
	ref.Number++
	if err := env.engine.Evaluate(ctx, ref); err != nil {
		t.Fatal(err)
	}
	if n := len(books(t, env.engine)); n != 99 {
		t.Fatalf("%d open, want 99", n)
	}
	if p, _ := loadPeak(env.store, trailing); p != nil {
		t.Fatal("the cancelled trailing order kept its peak")
	}
	sameAsFresh(t, env, env.engine, ref)
}

// loadOpen feeds p every stored open order, as the engine does at start.
func loadOpen(p *Pairs) error {
	return p.opts.Orders.OpenOrders(func(rec *orderstore.Record) error {
		p.Changed(0, rec)
		return nil
	})
}

// A block that cannot change a pair's decisions does not ask the pair: the
// same price, no order or chain change, no decision waiting for a
// transition, and the block time before the pair's next deadline or DCA
// schedule point and not behind its last evaluation. The pair's executable
// orders are still listed, at the new block.
func TestUnchangedPairsAreNotAsked(t *testing.T) {
	env := newSynthEnv(t, 40)
	ctx := context.Background()
	ref := BlockRef{Number: 1, Time: 1_700_000_000}
	eval := func(want int) {
		t.Helper()
		if err := env.engine.Evaluate(ctx, ref); err != nil {
			t.Fatal(err)
		}
		if tick := env.engine.LastTick(); tick.Asked != want {
			t.Fatalf("block %d: %d pairs asked, want %d", ref.Number, tick.Asked, want)
		}
		if xs := env.engine.Executable(""); len(xs) != 20 || xs[0].Block != ref.Number {
			t.Fatalf("block %d: %d executable, listed at block %d", ref.Number, len(xs), xs[0].Block)
		}
		ref.Number++
		ref.Time++
	}
	eval(2) // the first evaluation decides every order
	eval(0)
	// An order of the first pair with a deadline two seconds away.
	rec, _ := synthRecord(41)
	traits := rec.Traits()
	traits.Deadline = ref.Time + 2
	var err error
	if rec.Order.MakerTraits, err = chain.EncodeTraits(traits); err != nil {
		t.Fatal(err)
	}
	if err := env.registry.Create(ctx, rec, nil); err != nil {
		t.Fatal(err)
	}
	eval(1) // the change (the new order is a stop-loss, not executable)
	eval(0)
	eval(0) // at the deadline the order is open
	eval(1) // past it: expired
	if rec, _, _ := env.orders.Load(rec.Hash); rec.Status != orderstore.StatusExpired {
		t.Fatalf("order past its deadline: %s", rec.Status)
	}
	eval(1) // the order closed
	eval(0)
	ref.Time -= 10 // a reorg to an older head
	eval(2)
}

// Readers walk the executable sets while evaluations change them: every
// walk comes out in hash order, each entry as an evaluation that had
// started left it (the race detector checks the locking).
func TestReadersWalkWhileEvaluationsRun(t *testing.T) {
	prices := newWalkPrices()
	env := newSynthEnvAt(t, 400, prices, spreadRecord)
	ctx := context.Background()
	var block atomic.Uint64
	evaluate := func() {
		n := block.Add(1)
		if err := env.engine.Evaluate(ctx, BlockRef{Number: n, Time: 1_700_000_000 + n}); err != nil {
			t.Error(err)
		}
	}
	evaluate()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for walks := 0; ; walks++ {
				select {
				case <-stop:
					if walks == 0 {
						t.Error("no walk ran")
					}
					return
				default:
				}
				started := block.Load() - 1 // the last evaluation that may have ended
				var last common.Hash
				n := 0
				env.engine.EachExecutable("", common.Hash{}, func(x Executable) bool {
					if n > 0 && bytes.Compare(x.Hash[:], last[:]) <= 0 {
						t.Errorf("walk out of order: %s after %s", x.Hash, last)
						return false
					}
					if x.Block < started {
						t.Errorf("entry of block %d in a walk that started after block %d ended", x.Block, started)
						return false
					}
					last, n = x.Hash, n+1
					return true
				})
			}
		})
	}
	for range 60 {
		prices.step(20_000)
		evaluate()
	}
	close(stop)
	wg.Wait()
}
