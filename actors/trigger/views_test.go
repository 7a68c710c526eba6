package trigger

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/persistence"
)

// viewString is what a tick decides an order by, printed.
func viewString(v *orderView) string {
	return fmt.Sprintf("%s %s %s in=%s out=%s traits=%+v amount=%s recFilled=%s filled=%s trigger=%s triggered=%v stalled=%v dca=%+v created=%d chain=%d/%d/%d",
		v.hash.Hex(), v.pair, v.class, v.tokenIn.Hex(), v.tokenOut.Hex(), v.traits, v.amountIn, v.recFilled, v.filled,
		v.trigger, v.triggered, v.stalled, v.dca, v.createdAt.UnixNano(), v.executions, v.firstExecution, v.lastExecution)
}

// openViews prints an engine's open set, sorted, with each pair's list
// checked against the index.
func openViews(t *testing.T, e *Engine) []string {
	t.Helper()
	var out []string
	n := 0
	for pair, p := range e.open.pairs {
		if len(p.added) != 0 || len(p.dropped) != 0 {
			t.Fatalf("pair %s not settled after a tick", pair)
		}
		for i, v := range p.list {
			if e.open.views[v.hash] != v || v.pair != pair {
				t.Fatalf("pair %s: view %s at %d is not the indexed one", pair, v.hash, i)
			}
			if i > 0 && bytes.Compare(p.list[i-1].hash[:], v.hash[:]) >= 0 {
				t.Fatalf("pair %s: view %d out of hash order", pair, i)
			}
		}
		n += len(p.list)
	}
	if n != len(e.open.views) {
		t.Fatalf("%d views in pairs, %d indexed", n, len(e.open.views))
	}
	for _, v := range e.open.views {
		out = append(out, viewString(v))
	}
	sort.Strings(out)
	return out
}

func executableStrings(xs []Executable) []string {
	var out []string
	for _, x := range xs {
		out = append(out, fmt.Sprintf("%s %s %s fill=%s price=%s block=%d", x.Hash.Hex(), x.Pair, x.Class, x.FillIn, x.Price, x.Block))
	}
	return out
}

// sameAsFresh checks that the engine's open set and executable set, kept up
// to date from changes since its first tick, equal those of a new engine
// that loads everything from the store at the same block.
func sameAsFresh(t *testing.T, env *synthEnv, e *Engine, ref BlockRef) {
	t.Helper()
	fresh := New(Options{Store: env.store, Chain: persistence.NewChain(env.store), Orders: env.orders,
		Registry: env.registry, Prices: fixedPrices{}})
	defer fresh.Stop()
	if err := fresh.Evaluate(context.Background(), ref); err != nil {
		t.Fatal(err)
	}
	got, want := openViews(t, e), openViews(t, fresh)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("open set after changes (%d orders) differs from the store's (%d orders)", len(got), len(want))
	}
	gx, wx := executableStrings(e.Executable("")), executableStrings(fresh.Executable(""))
	if strings.Join(gx, "\n") != strings.Join(wx, "\n") {
		t.Fatalf("executable set: %d orders, the store's: %d", len(gx), len(wx))
	}
}

// The engine reads the open orders from the store once; after that it
// follows the registry's changes. Whatever happens between ticks
// (creations, cancels, expiries, triggers, some of them during a tick),
// its open set and executable set must equal what a new engine loads from
// the store.
func TestOpenSetFollowsTheRegistry(t *testing.T) {
	env := newSynthEnv(t, 200)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	ref := BlockRef{Number: 1, Time: 1_700_000_000}
	next := 200
	// The first tick loads the store while orders are created and
	// cancelled: those changed during the load are read again.
	var wg sync.WaitGroup
	wg.Go(func() { env.create(t, next, next+100) })
	wg.Go(func() {
		for i := 0; i < 200; i += 7 {
			_, h := synthRecord(i)
			if _, err := env.registry.Cancel(ctx, h); err != nil {
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
	if len(env.engine.open.views) != 300-29 {
		t.Fatalf("%d open, want %d", len(env.engine.open.views), 300-29)
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
		for range 30 {
			h := hashes[rng.IntN(len(hashes))]
			switch rng.IntN(3) {
			case 0:
				_, _ = env.registry.Cancel(ctx, h) // NOT_CANCELLABLE once closed
			case 1:
				if _, err := env.registry.Expire(ctx, h, persistence.ChainView{}, at); err != nil {
					t.Fatal(err)
				}
			case 2:
				if _, err := env.registry.Trigger(ctx, h, uint256.NewInt(400000), persistence.ChainView{}, at); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := env.engine.Evaluate(ctx, ref); err != nil {
			t.Fatal(err)
		}
		sameAsFresh(t, env, env.engine, ref)
		t.Logf("round %d: %d open, %d executable", round, len(env.engine.open.views), len(env.engine.Executable("")))
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
	env.engine.Applied(&chainsync.Block{Number: 2, Events: []chainsync.Event{{Kind: chainsync.KindFilled, OrderHash: h,
		Order: &persistence.ChainOrder{Hash: h, FilledAmountIn: *uint256.NewInt(1000000), Executions: 1}}}})
	ref.Number = 2
	if err := env.engine.Evaluate(ctx, ref); err != nil {
		t.Fatal(err)
	}
	if find(env.engine.Executable(""), h) != nil {
		t.Fatal("order the chain filled still executable")
	}
	if rec := env.engine.open.views[h]; rec == nil || rec.recFilled.Sign() != 0 || rec.executions != 1 {
		t.Fatalf("view %+v", rec)
	}
	env.engine.Reverted(persistence.ChainBlock{Number: 2, Touched: []common.Hash{h}})
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

// Past maxPending changes between two ticks the engine drops them and
// reloads the open set from the store: memory stays bounded, the set is
// still right, and an order that closed meanwhile still loses its trailing
// peak.
func TestOverflowReloadsFromTheStore(t *testing.T) {
	env := newSynthEnv(t, 40)
	env.engine.maxPending = 10
	ctx := context.Background()
	ref := BlockRef{Number: 1, Time: 1_700_000_000}
	if err := env.engine.Evaluate(ctx, ref); err != nil {
		t.Fatal(err)
	}
	_, trailing := synthRecord(3)
	if p, _ := loadPeak(env.store, trailing); p == nil {
		t.Fatal("no peak stored for the trailing order")
	}
	if _, err := env.registry.Cancel(ctx, trailing); err != nil {
		t.Fatal(err)
	}
	env.create(t, 40, 100)
	env.engine.pmu.Lock()
	held, overflow := len(env.engine.pending.records), env.engine.pending.overflow
	env.engine.pmu.Unlock()
	if !overflow || held > 10 {
		t.Fatalf("after 61 changes: %d held, overflow %v", held, overflow)
	}
	ref.Number++
	if err := env.engine.Evaluate(ctx, ref); err != nil {
		t.Fatal(err)
	}
	if len(env.engine.open.views) != 99 {
		t.Fatalf("%d open after the reload, want 99", len(env.engine.open.views))
	}
	if p, _ := loadPeak(env.store, trailing); p != nil {
		t.Fatal("the cancelled trailing order kept its peak")
	}
	sameAsFresh(t, env, env.engine, ref)
}
