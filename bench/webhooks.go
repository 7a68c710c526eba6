package main

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/config"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// webhookFlags are the knobs of the webhooks mode.
type webhookFlags struct {
	endpoints, events, rate, producers int
	// timeline, when positive, prints what happened around the deliveries
	// slower than it (webhooks_probe.go).
	timeline time.Duration
	// trace and cpuprofile name files for runtime/trace and pprof.
	trace, cpuprofile string
	out               io.Writer
}

// runWebhooks measures signed deliveries per second from the outbox to a
// local receiver that answers at once, and the enqueue-to-delivery latency
// (from the producer's outbox commit to the receiver's handler).
func runWebhooks(ctx context.Context, out io.Writer, args []string) error {
	var f webhookFlags
	fs := flag.NewFlagSet("webhooks", flag.ContinueOnError)
	fs.IntVar(&f.endpoints, "endpoints", 100, "endpoints, one account each, all at the local receiver")
	fs.IntVar(&f.events, "events", 50000, "events written to the outbox (one delivery each)")
	fs.IntVar(&f.rate, "rate", 0, "offered events per second (0: as fast as the producers go)")
	fs.IntVar(&f.producers, "producers", 64, "concurrent producers committing outbox batches")
	fs.DurationVar(&f.timeline, "timeline", 0, "print the collector and Pebble activity around deliveries slower than this")
	fs.StringVar(&f.trace, "trace", "", "write a runtime/trace of the measurement to this file")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write a CPU profile of the measurement to this file")
	requests := fs.Int("requests", 0, "same as -events (shared harness flag)")
	fs.Int("rounds", 1, "ignored (shared harness flag)")
	fs.Int("conns", 0, "ignored (shared harness flag)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *requests > 0 {
		f.events = *requests
	}
	f.out = out
	r, err := webhookLoad(ctx, f)
	if err != nil {
		return err
	}
	offered := "max"
	if f.rate > 0 {
		offered = strconv.Itoa(f.rate) + "/s"
	}
	fmt.Fprintf(out, "mode webhooks: %d endpoints, %d events, offered %s, %d producers\n", f.endpoints, f.events, offered, f.producers)
	fmt.Fprintf(out, "  delivered %d (verified signatures, %d duplicates) in %v: %.0f deliveries/s\n",
		r.delivered, r.duplicates, r.elapsed.Round(time.Millisecond), float64(r.delivered)/r.elapsed.Seconds())
	fmt.Fprintf(out, "  enqueue-to-delivery p50 %v  p99 %v  max %v\n", r.p50, r.p99, r.max)
	if r.warm.n > 0 {
		fmt.Fprintf(out, "  enqueued after the first %v (%d): p50 %v  p99 %v  max %v\n", webhookWarmUp, r.warm.n, r.warm.p50, r.warm.p99, r.warm.max)
	}
	perDelivery := r.cpu / time.Duration(max(r.delivered, 1))
	fmt.Fprintf(out, "  process CPU %v = %v per delivery (engine and receiver): %.0f deliveries/s per fully available core\n",
		r.cpu.Round(time.Millisecond), perDelivery.Round(time.Microsecond), float64(time.Second)/float64(perDelivery))
	return nil
}

// webhookResult is one measurement.
type webhookResult struct {
	delivered, duplicates int
	elapsed               time.Duration
	p50, p99, max         time.Duration
	// warm are the latencies of the events enqueued after webhookWarmUp:
	// the engine past its start (its connections dialled, its actors
	// started, Pebble's memtables grown to their size).
	warm struct {
		n             int
		p50, p99, max time.Duration
	}
	// cpu is the process CPU time (user + system) of the measurement.
	cpu time.Duration
}

// webhookWarmUp is how long after its start the measurement also reports
// the latencies of the events enqueued from then on.
const webhookWarmUp = time.Second

// webhookLoad runs one measurement on a fresh store.
func webhookLoad(ctx context.Context, f webhookFlags) (webhookResult, error) {
	dir, err := os.MkdirTemp("", "bench-webhooks-")
	if err != nil {
		return webhookResult{}, err
	}
	defer os.RemoveAll(dir)
	quiet := slog.New(slog.DiscardHandler)
	store, err := persistence.Open(dir, quiet)
	if err != nil {
		return webhookResult{}, err
	}
	defer store.Close()
	outbox := persistence.NewOutbox(store, quiet, nil)
	orders := orderstore.New(store, outbox)
	if err := orders.LoadHashFilter(); err != nil { // as the engine does at start
		return webhookResult{}, err
	}
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	defer system.Shutdown()
	m, err := webhook.New(webhook.Options{
		Config: config.Default().Webhooks, Dev: true, DataDir: dir,
		Store: store, Outbox: outbox, System: system, Clock: clock.Real{}, Log: quiet,
	})
	if err != nil {
		return webhookResult{}, err
	}
	defer m.Close()

	rc, err := startBenchReceiver(f.events)
	if err != nil {
		return webhookResult{}, err
	}
	defer rc.srv.Close()
	accounts := make([]string, f.endpoints)
	for i := range accounts {
		accounts[i] = fmt.Sprintf("acc_bench%04d", i)
		ep, err := m.Create(ctx, accounts[i], fmt.Sprintf("http://%s/e/%d", rc.addr, i), nil)
		if err != nil {
			return webhookResult{}, err
		}
		rc.secrets = append(rc.secrets, ep.Secret)
	}

	stopProfiles, err := startProfiles(f.trace, f.cpuprofile)
	if err != nil {
		return webhookResult{}, err
	}
	var pr *probe
	if f.timeline > 0 {
		pr = startProbe(store.DB())
	}
	tokens := pace(ctx, f.rate, f.events)
	cpu0 := processCPU()
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, f.producers)
	for range f.producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= f.events {
					return
				}
				if tokens != nil {
					<-tokens
				}
				if err := produce(orders, rc, accounts[i%len(accounts)], i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return webhookResult{}, err
	}
	select {
	case <-rc.done:
	case <-time.After(2 * time.Minute):
		return webhookResult{}, fmt.Errorf("webhooks: %d of %d delivered after 2 minutes", rc.count.Load(), f.events)
	case <-ctx.Done():
		return webhookResult{}, ctx.Err()
	}
	if rc.bad.Load() > 0 {
		return webhookResult{}, fmt.Errorf("webhooks: %d deliveries failed signature verification", rc.bad.Load())
	}
	cpu := processCPU() - cpu0
	stopProfiles()
	if pr != nil {
		ps := pr.finish()
		printStorage(f.out, store.DB(), ps)
		printTimeline(f.out, start, rc.samples(), ps, f.timeline)
	}
	elapsed := rc.last.Sub(start)
	var lat, warm []time.Duration
	for _, d := range rc.samples() {
		lat = append(lat, d.total)
		if d.enq.Sub(start) >= webhookWarmUp {
			warm = append(warm, d.total)
		}
	}
	q := func(lat []time.Duration, p float64) time.Duration {
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	slices.Sort(lat)
	r := webhookResult{
		delivered: len(lat), duplicates: int(rc.dups.Load()), elapsed: elapsed,
		p50: q(lat, 0.50), p99: q(lat, 0.99), max: lat[len(lat)-1], cpu: cpu,
	}
	if len(warm) > 0 {
		slices.Sort(warm)
		r.warm.n, r.warm.p50, r.warm.p99, r.warm.max = len(warm), q(warm, 0.50), q(warm, 0.99), warm[len(warm)-1]
	}
	return r, nil
}

// processCPU returns the CPU time this process used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// produce writes one event the way a state transition does: appended to
// the order journal with the transition that emits it (here a new order,
// the n-th, carrying the event).
func produce(orders *orderstore.Store, rc *benchReceiver, account string, n int) error {
	id := persistence.NewEventID()
	s := &sentEvent{enq: time.Now()}
	rc.sent.Store(id, s)
	now := time.Now().UTC()
	// An order hash is a keccak output: uniform bits, which the order
	// journal's hash filter relies on.
	var seed [8]byte
	binary.BigEndian.PutUint64(seed[:], uint64(n)+1)
	h := crypto.Keccak256Hash(seed[:])
	rec := &orderstore.Record{
		Hash: h, Version: 1, Class: chain.ClassLimit, Status: orderstore.StatusPending,
		Order:     chain.Order{Maker: common.Address{1}, TokenIn: common.Address{2}, TokenOut: common.Address{3}},
		AccountID: account, CreatedAt: now, UpdatedAt: now,
	}
	err := orders.AppendOrder(context.Background(), &orderstore.Transition{Record: rec, Events: []persistence.OutboxEvent{{
		ID: id, Trigger: persistence.TriggerOrderFilled, Data: persistence.EventData{
			OrderType: "limit", Pair: "0x1111111111111111111111111111111111111111-0x2222222222222222222222222222222222222222",
			AmountIn: "1000000000000000000", AmountOut: "2000000", OrderHash: h.Hex(), TxHash: "0x" + strings.Repeat("cd", 32),
		}}}})
	s.committed.Store(int64(time.Since(s.enq)))
	return err
}

// sentEvent is an event on its way: when it was enqueued and how long its
// producer's commit took (zero until it returned).
type sentEvent struct {
	enq       time.Time
	committed atomic.Int64
}

// pace returns a channel that yields n tokens at rate per second, or nil for
// no pacing.
func pace(ctx context.Context, rate, n int) <-chan struct{} {
	if rate <= 0 {
		return nil
	}
	ch := make(chan struct{}, 1024)
	go func() {
		defer close(ch)
		start := time.Now()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		sent := 0
		for sent < n {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				due := min(n, int(now.Sub(start).Seconds()*float64(rate)))
				for ; sent < due; sent++ {
					ch <- struct{}{}
				}
			}
		}
	}()
	return ch
}

// benchReceiver answers 204 at once after verifying the signature, and
// records the enqueue-to-delivery latency of each first delivery.
type benchReceiver struct {
	srv     *http.Server
	addr    string
	secrets []string
	sent    sync.Map // delivery id → *sentEvent
	total   int
	count   atomic.Int64
	dups    atomic.Int64
	bad     atomic.Int64
	done    chan struct{}

	mu   sync.Mutex
	lat  []deliverySample
	last time.Time
}

func startBenchReceiver(total int) (*benchReceiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	rc := &benchReceiver{addr: ln.Addr().String(), total: total, done: make(chan struct{}), lat: make([]deliverySample, 0, total)}
	rc.srv = &http.Server{Handler: rc, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = rc.srv.Serve(ln) }()
	return rc, nil
}

// ServeHTTP handles one delivery.
func (rc *benchReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	now := time.Now()
	i, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/e/"))
	if i < 0 || i >= len(rc.secrets) || webhook.Verify(r.Header.Get(webhook.HeaderSignature), body, rc.secrets[i], now, webhook.DefaultTolerance) != nil {
		rc.bad.Add(1)
	}
	v, ok := rc.sent.LoadAndDelete(r.Header.Get(webhook.HeaderDelivery))
	if !ok {
		rc.dups.Add(1)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	se := v.(*sentEvent)
	rc.mu.Lock()
	rc.lat = append(rc.lat, deliverySample{enq: se.enq, commit: time.Duration(se.committed.Load()), total: now.Sub(se.enq)})
	rc.last = now
	rc.mu.Unlock()
	if int(rc.count.Add(1)) == rc.total {
		close(rc.done)
	}
	w.WriteHeader(http.StatusNoContent)
}

func (rc *benchReceiver) samples() []deliverySample {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.lat)
}
