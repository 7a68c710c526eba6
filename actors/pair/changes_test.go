package pair

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// A watcher that reads the executable set once and then applies the
// changes it is given holds the set, through price moves, new orders,
// cancels, triggers and expiries (with the orders closing between
// evaluations), and a watcher that stopped is not called.
func TestWatchersFollowTheExecutableSet(t *testing.T) {
	prices := newWalkPrices()
	env := newSynthEnvAt(t, 300, prices, spreadRecord)
	ctx := context.Background()
	ref := BlockRef{Number: 1, Time: 1_700_000_000}
	if err := env.engine.Evaluate(ctx, ref); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	held := map[common.Hash]string{}
	changes, stopped := 0, 0
	stop := env.engine.WatchExecutable(func(b BlockRef, cs []ExecutableChange) {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range cs {
			if c.Delisted {
				delete(held, c.Hash)
			} else {
				held[c.Hash] = entry(c.Executable)
			}
			changes++
		}
	})
	stopOther := env.engine.WatchExecutable(func(BlockRef, []ExecutableChange) { stopped++ })
	stopOther()
	env.engine.EachExecutable("", common.Hash{}, func(x Executable) bool {
		held[x.Hash] = entry(x)
		return true
	})
	rng := rand.New(rand.NewPCG(3, 4))
	next := 300
	for round := range 30 {
		ref.Number++
		ref.Time += 12
		prices.step(20_000)
		env.create(t, next, next+5)
		next += 5
		env.mu.Lock()
		hashes := slices.Clone(env.hashes)
		env.mu.Unlock()
		env.randomTransitions(t, rng, hashes, 5, time.Unix(int64(ref.Time), 0).UTC())
		if err := env.engine.Evaluate(ctx, ref); err != nil {
			t.Fatal(err)
		}
		want := map[common.Hash]string{}
		env.engine.EachExecutable("", common.Hash{}, func(x Executable) bool {
			want[x.Hash] = entry(x)
			return true
		})
		mu.Lock()
		if !maps.Equal(held, want) {
			t.Fatalf("round %d: the watcher holds %d entries, the set %d", round, len(held), len(want))
		}
		mu.Unlock()
	}
	stop()
	if changes == 0 || stopped != 0 {
		t.Fatalf("%d changes seen; the stopped watcher was called %d times", changes, stopped)
	}
}

// entry renders what an executable entry holds besides the price and the
// block it was decided at.
func entry(x Executable) string {
	return fmt.Sprintf("%s %s %s %s %s", x.Pair, x.Class, x.Maker.Hex(), x.TokenIn.Hex(), x.FillIn)
}
