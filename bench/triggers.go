package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/app"
)

// triggerFlags are the triggers mode's flags.
type triggerFlags struct {
	n, pairs, makers, conns int
	idle, interval          time.Duration
	blocks                  int
	moving                  []int
	movePpm                 int64
	cpuprofile              string
}

// runTriggers is the triggers mode (the trigger targets of
// docs/performance.md): it appends -n open orders over -pairs pairs to a
// new store through the order journal (no HTTP, no signatures), starts the
// engine on it (the restart path: every open order into its pair and
// maker), and measures
//
//   - the first evaluation, which decides every order;
//   - the RSS and Go heap per open order after it;
//   - the process's CPU while idle, first without blocks, then with one
//     evaluation per -interval at unchanged prices;
//   - for each count of -moving tokens, -blocks evaluations back to back,
//     each after a price move of that many tokens (of two per pair) by up
//     to -move-ppm: evaluation and apply times (p50, p99, max), pairs
//     asked, orders decided and transitions sent per block.
//
// Prices are a synthetic oracle (bench/triggers_market.go); the decided
// transitions go to the real order actors, whose writes are fsynced.
func runTriggers(ctx context.Context, out io.Writer, args []string) error {
	f, err := parseTriggerFlags(args)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "orderengine-triggers-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	m := newMarket(f.pairs, 1)
	now := time.Now().Truncate(time.Second)
	took, err := loadOrders(ctx, dir, m, f.n, f.makers, f.conns, now)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "mode triggers: %d open orders over %d pairs appended through the journal in %s (%.0f/s)\n",
		f.n, f.pairs, took.Round(time.Second), float64(f.n)/took.Seconds())
	base := selfMemory()
	cfg, opts, err := benchConfig(dir, engineOptions{orders: true})
	if err != nil {
		return err
	}
	opts.Prices = m
	start := time.Now()
	sys, err := app.New(ctx, cfg, slog.New(slog.DiscardHandler), opts)
	if err != nil {
		return err
	}
	defer func() { _ = sys.Close() }()
	if err := sys.Start(ctx); err != nil {
		return err
	}
	b := &blocks{pairs: sys.Pairs, time: uint64(now.Unix())}
	if err := b.next(ctx, 1); err != nil {
		return err
	}
	first := b.pairs.LastTick()
	fmt.Fprintf(out, "engine started and first evaluation done in %s: %d open, %d decided in %s, %d executable\n",
		time.Since(start).Round(time.Millisecond), first.Open, first.Decided, first.Evaluation.Round(time.Millisecond),
		len(sys.Pairs.Executable("")))
	mem := selfMemory()
	fmt.Fprintf(out, "memory per open order: RSS %.0f B, Go heap %.0f B (RSS %d MiB, heap %d MiB; baseline before the engine: RSS %d MiB)\n",
		1024*float64(mem.rss-base.rss)/float64(first.Open), perOrder(mem.heap, base.heap, first.Open), mem.rss>>10, mem.heap>>20, base.rss>>10)
	if err := b.idle(ctx, out, f); err != nil {
		return err
	}
	return b.moves(ctx, out, m, f)
}

func parseTriggerFlags(args []string) (triggerFlags, error) {
	fs := flag.NewFlagSet("triggers", flag.ContinueOnError)
	var f triggerFlags
	fs.IntVar(&f.n, "n", 1_000_000, "open orders")
	fs.IntVar(&f.pairs, "pairs", 1000, "pairs the orders are spread over")
	fs.IntVar(&f.makers, "makers", 0, "maker wallets (0: n/10)")
	fs.IntVar(&f.conns, "conns", 256, "goroutines appending to the journal")
	fs.DurationVar(&f.idle, "idle", 30*time.Second, "length of each idle measurement")
	fs.DurationVar(&f.interval, "interval", time.Second, "block interval while idle (the block time advances as much)")
	fs.IntVar(&f.blocks, "blocks", 300, "blocks with a price move per count of -moving, evaluated back to back")
	moving := fs.String("moving", "1,20,200,all", "counts of tokens whose price moves at each block (all: every token)")
	fs.Int64Var(&f.movePpm, "move-ppm", 5000, "largest price step of a moving token, in parts per million")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write CPU profiles to <prefix>.{idle,move}.pprof")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if f.makers <= 0 {
		f.makers = max(1, f.n/10)
	}
	for _, s := range strings.Split(*moving, ",") {
		n, err := strconv.Atoi(s)
		if s == "all" {
			n, err = 2*f.pairs, nil
		}
		if err != nil || n < 1 {
			return f, fmt.Errorf("triggers: -moving %q: counts of tokens, or all", *moving)
		}
		f.moving = append(f.moving, n)
	}
	if f.n < 1 || f.pairs < 1 || f.blocks < 1 || f.interval <= 0 || f.movePpm < 0 {
		return f, fmt.Errorf("triggers: -n, -pairs, -blocks and -interval must be positive, -move-ppm not negative")
	}
	return f, nil
}

// blocks feeds the pairs synthetic blocks: numbers from 1, times from the
// load time on.
type blocks struct {
	pairs  *pair.Pairs
	number uint64
	time   uint64
}

// next evaluates the next block, dt seconds after the last.
func (b *blocks) next(ctx context.Context, dt uint64) error {
	b.number++
	b.time += dt
	return b.pairs.Evaluate(ctx, pair.BlockRef{Number: b.number, Time: b.time})
}

// idle measures the process's CPU over f.idle with no block, then with a
// block every f.interval at unchanged prices.
func (b *blocks) idle(ctx context.Context, out io.Writer, f triggerFlags) error {
	stop, err := startProfiles("", profileName(f.cpuprofile, "idle"))
	if err != nil {
		return err
	}
	defer stop()
	for _, withBlocks := range []bool{false, true} {
		cpu0, start := processCPU(), time.Now()
		decided, n := 0, 0
		tick := time.NewTicker(f.interval)
		for time.Since(start) < f.idle {
			select {
			case <-ctx.Done():
				tick.Stop()
				return ctx.Err()
			case <-tick.C:
			}
			if withBlocks {
				if err := b.next(ctx, uint64(max(1, f.interval/time.Second))); err != nil {
					tick.Stop()
					return err
				}
				decided += b.pairs.LastTick().Decided
				n++
			}
		}
		tick.Stop()
		wall := time.Since(start)
		what := "idle, no block"
		if withBlocks {
			what = fmt.Sprintf("idle, a block every %s at unchanged prices (%d blocks, %.1f orders decided per block)", f.interval, n, float64(decided)/float64(max(1, n)))
		}
		fmt.Fprintf(out, "%s: %.2f %% of a core over %s\n", what, 100*(processCPU()-cpu0).Seconds()/wall.Seconds(), wall.Round(time.Second))
	}
	return nil
}

// moves evaluates f.blocks blocks back to back for each count of moving
// tokens, each after a price move, and reports the evaluation and apply
// times.
func (b *blocks) moves(ctx context.Context, out io.Writer, m *market, f triggerFlags) error {
	stop, err := startProfiles("", profileName(f.cpuprofile, "move"))
	if err != nil {
		return err
	}
	defer stop()
	for _, n := range f.moving {
		var eval, apply []time.Duration
		asked, decided, transitions := 0, 0, 0
		cpu0, start := processCPU(), time.Now()
		for range f.blocks {
			m.step(n, f.movePpm)
			if err := b.next(ctx, 1); err != nil {
				return err
			}
			t := b.pairs.LastTick()
			eval, apply = append(eval, t.Evaluation), append(apply, t.Apply)
			asked += t.Asked
			decided += t.Decided
			transitions += t.Transitions
		}
		cpu, wall := processCPU()-cpu0, time.Since(start)
		per := func(v int) float64 { return float64(v) / float64(f.blocks) }
		fmt.Fprintf(out, "%d blocks, each after %d of %d tokens moved by up to %.2f %%: %.1f pairs asked, %.0f orders decided, %.1f transitions per block\n",
			f.blocks, n, len(m.tokens), float64(f.movePpm)/1e4, per(asked), per(decided), per(transitions))
		fmt.Fprintf(out, "  evaluation (decide and publish): %s\n", percentiles(eval))
		fmt.Fprintf(out, "  sending the transitions:         %s\n", percentiles(apply))
		fmt.Fprintf(out, "  process CPU %.2f ms per block (%.2f cores over %s)\n", float64(cpu.Microseconds())/1e3/float64(f.blocks),
			cpu.Seconds()/wall.Seconds(), wall.Round(time.Millisecond))
	}
	return nil
}

// percentiles renders p50, p99 and the maximum of d (sorted in place).
func percentiles(d []time.Duration) string {
	slices.Sort(d)
	q := func(p float64) time.Duration {
		return d[min(len(d)-1, int(p*float64(len(d))))].Round(10 * time.Microsecond)
	}
	return fmt.Sprintf("p50 %s  p99 %s  max %s", q(0.5), q(0.99), q(1))
}

func profileName(prefix, phase string) string {
	if prefix == "" {
		return ""
	}
	return prefix + "." + phase + ".pprof"
}

// selfMemory collects garbage, returns memory to the OS and samples this
// process's live heap and RSS (KiB).
func selfMemory() memSample {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return memSample{heap: ms.HeapAlloc, spans: ms.HeapInuse, rss: rssKiB(os.Getpid())}
}
