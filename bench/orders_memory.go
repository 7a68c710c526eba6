package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
)

// runOrderMemory is the order-memory mode (the memory target of
// docs/performance.md): it submits -n orders through the real HTTP server
// of an in-process engine and samples the Go heap (after runtime.GC) and the process RSS, per
// order, in three states: open with every order actor live, open with the
// actors passivated, and closed (cancelled) and passivated.
//
// What the harness holds is kept out of the figures: bodies are signed
// when they are sent (none is kept), and the only per-order state the
// harness keeps (the hashes and the maker keys) is allocated before the
// baseline sample, so every delta is the engine's. Order actors idle out
// after -idle, longer than the run by default, so "live" means live.
func runOrderMemory(ctx context.Context, out io.Writer, args []string) error {
	fs := flag.NewFlagSet("order-memory", flag.ContinueOnError)
	n := fs.Int("n", 100000, "orders to submit")
	conns := fs.Int("conns", 32, "concurrent keep-alive connections")
	makers := fs.Int("makers", 0, "maker wallets (0: n/10, under the per-maker limit of 10 per 10 s)")
	idle := fs.Duration("idle", 24*time.Hour, "order actor idle timeout (longer than the run: actors stay live until passivated)")
	memprofile := fs.String("memprofile", "", "write heap profiles to <prefix>.{open,passivated,closed}.pprof")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *makers <= 0 {
		*makers = max(1, (*n+9)/10)
	}
	if *memprofile != "" {
		runtime.MemProfileRate = 4096 // finer than the default 512 KiB: per-order objects are small
	}
	t, err := inProcessTarget(*idle)
	if err != nil {
		return err
	}
	defer func() { _ = t.close() }()
	s, err := newOrderSigner(t, *makers, *n, defaultReferralPpm())
	if err != nil {
		return err
	}
	base := heapAndRSS(t) // the signer's keys and hash slots are in the baseline
	fmt.Fprintf(out, "baseline: heap %d MiB, RSS %d MiB\n", base.heap>>20, base.rss>>10)
	elapsed, err := storeOrders(ctx, t, *n, *conns, s.sign)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d orders stored in %s (%.0f/s, signed as sent)\n", *n, elapsed.Round(time.Second), float64(*n)/elapsed.Seconds())
	reg := t.svc.Registry()
	// A new order is stored without an actor (it starts passivated): start
	// every order's actor with its record loaded, the state the targets
	// name ("open order held in actors").
	if err := forAll(*conns, s.hashes, func(h common.Hash) error { return reg.Warm(ctx, h) }); err != nil {
		return err
	}
	sample := func(state, profile string) error {
		m := heapAndRSS(t)
		fmt.Fprintf(out, "%-45s heap %+6.0f B/order, RSS %+6.0f B/order (heap %d MiB, spans %d MiB, RSS %d MiB)\n",
			fmt.Sprintf("%s (%d actors live):", state, reg.Live()), perOrder(m.heap, base.heap, *n),
			1024*float64(m.rss-base.rss)/float64(*n), m.heap>>20, m.spans>>20, m.rss>>10)
		if *memprofile == "" {
			return nil
		}
		pf, err := os.Create(*memprofile + "." + profile + ".pprof")
		if err != nil {
			return err
		}
		defer pf.Close()
		return pprof.WriteHeapProfile(pf)
	}
	if err := sample("open, order actors live", "open"); err != nil {
		return err
	}
	if err := forAll(*conns, s.hashes, func(h common.Hash) error { _, err := reg.Passivate(ctx, h); return err }); err != nil {
		return err
	}
	if err := sample("open, passivated", "passivated"); err != nil {
		return err
	}
	if err := closeAll(ctx, t, s.hashes, *conns); err != nil {
		return err
	}
	return sample("closed (cancelled), passivated", "closed")
}

// orderSigner signs v7.1 limit orders on demand: signOrders uses it to
// pre-sign, the order-memory mode to sign as it sends (so a million orders
// never sit in the harness's memory).
type orderSigner struct {
	t      *target
	keys   []*ecdsa.PrivateKey
	makers []common.Address
	traits uint256.Int
	ppm    int
	seed   uint64
	hashes []common.Hash
}

func newOrderSigner(t *target, makers, n, ppm int) (*orderSigner, error) {
	s := &orderSigner{t: t, keys: make([]*ecdsa.PrivateKey, makers), makers: make([]common.Address, makers),
		seed: uint64(time.Now().UnixNano()), hashes: make([]common.Hash, n), ppm: ppm}
	for i := range s.keys {
		k, err := crypto.GenerateKey()
		if err != nil {
			return nil, err
		}
		s.keys[i], s.makers[i] = k, crypto.PubkeyToAddress(k.PublicKey)
	}
	s.traits, _ = chain.EncodeTraits(chain.Traits{SlippagePpm: 5000})
	return s, nil
}

// sign returns the body of order i and records its hash. Calls for
// distinct i may run concurrently.
func (s *orderSigner) sign(i int) []byte {
	key, maker := s.keys[i%len(s.keys)], s.makers[i%len(s.keys)]
	t := s.t
	o := chain.Order{Maker: maker, Receiver: maker, TokenIn: t.in, TokenOut: t.out, Referrer: t.vault,
		ReferralFeePpm: uint32(s.ppm), MakerTraits: s.traits}
	o.Salt.SetUint64(s.seed + uint64(i))
	o.AmountIn.SetUint64(1_000_000_000_000_000_000)
	o.TriggerPrice.SetUint64(2_000_000_000 + uint64(i%5000))
	o.TriggerAmountOut, _ = chain.DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, t.decimals)
	h := chain.OrderHash(t.domain, &o)
	sig, _ := crypto.Sign(h[:], key)
	sig[64] += 27
	s.hashes[i] = h
	return []byte(`{"orderType":"limit","signature":"0x` + hex.EncodeToString(sig) + `","orderHash":"` + h.Hex() +
		`","order":{"salt":"0x` + hex.EncodeToString(o.Salt.Bytes()) + `","maker":"` + maker.Hex() + `","receiver":"` + maker.Hex() +
		`","tokenIn":"` + t.in.Hex() + `","tokenOut":"` + t.out.Hex() + `","amountIn":"` + o.AmountIn.Dec() +
		`","triggerPrice":"` + o.TriggerPrice.Dec() + `","makerTraits":"` + s.traits.Dec() + `","referrer":"` + t.vault.Hex() +
		`","referralFeePpm":` + strconv.Itoa(s.ppm) + `}}`)
}

// forAll runs fn on every hash from conns goroutines and returns the first
// error.
func forAll(conns int, hashes []common.Hash, fn func(common.Hash) error) error {
	var next atomic.Int64
	var first atomic.Value
	var wg sync.WaitGroup
	for range conns {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(hashes); i = int(next.Add(1) - 1) {
				if err := fn(hashes[i]); err != nil {
					first.CompareAndSwap(nil, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err, ok := first.Load().(error); ok {
		return err
	}
	return nil
}

// closeAll cancels and passivates every order from conns goroutines, so
// the cancels' Sync commits share fsyncs.
func closeAll(ctx context.Context, t *target, hashes []common.Hash, conns int) error {
	reg := t.svc.Registry()
	return forAll(conns, hashes, func(h common.Hash) error {
		if err := reg.Cancel(ctx, h); err != nil {
			return err
		}
		_, err := reg.Passivate(ctx, h)
		return err
	})
}

func perOrder(now, base uint64, n int) float64 { return float64(int64(now)-int64(base)) / float64(n) }

type memSample struct {
	heap  uint64 // live heap objects (HeapAlloc after a GC)
	spans uint64 // heap spans in use (HeapInuse): live objects plus fragmentation
	rss   int    // KiB
}

// heapAndRSS collects garbage, returns memory to the OS and samples the
// live heap and the RSS (KiB) of the target's process.
func heapAndRSS(t *target) memSample {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return memSample{heap: ms.HeapAlloc, spans: ms.HeapInuse, rss: rssKiB(t.pid)}
}
