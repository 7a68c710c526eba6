package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/gofiber/fiber/v2"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/orders"
)

// orderFlags are the flags of the submit and order-read modes.
type orderFlags struct {
	url, key        string
	n, conns, rate  int
	makers, pid     int
	tokenIn, tokOut string
	decimals        int
	ppm             int
	vault           string
	cpuprofile      string
	traceFile       string
	floorprofile    string
	floor           bool
	reads, rounds   int
	roundsSet       bool
	cluster         int
}

func parseOrderFlags(name string, args []string) (orderFlags, error) {
	var f orderFlags
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&f.url, "url", "", "base URL of a running server (empty: start an engine with the order service in this process)")
	fs.StringVar(&f.key, "key", "", "API key for -url (its tier must allow the rate)")
	fs.IntVar(&f.n, "n", 20000, "orders to submit")
	fs.IntVar(&f.conns, "conns", 32, "concurrent keep-alive connections")
	fs.IntVar(&f.rate, "rate", 0, "target submits per second (0: flat out)")
	fs.IntVar(&f.makers, "makers", 0, "maker wallets (0: n/10, so the default per-maker limit of 10 per 10 s is not hit)")
	fs.IntVar(&f.pid, "pid", 0, "server pid whose RSS is reported (0: this process with the in-process engine)")
	fs.StringVar(&f.tokenIn, "token-in", "", "tokenIn for -url (registry token with its decimals)")
	fs.StringVar(&f.tokOut, "token-out", "", "tokenOut for -url")
	fs.IntVar(&f.decimals, "decimals-in", 18, "decimals of -token-in")
	fs.IntVar(&f.ppm, "referral-ppm", -1, "referralFeePpm of the limit × pair-class cell (-1: the default policy's limit × major)")
	fs.StringVar(&f.vault, "vault", "", "fee vault for -url (default: GET /v1/config feeVault)")
	fs.IntVar(&f.reads, "reads", 0, "order-read: requests per target per round (0: 4 × n)")
	fs.IntVar(&f.rounds, "rounds", 3, "order-read: alternating rounds; submit: rounds of submits alternating with the floor, each of -n fresh orders (default 1 for submit)")
	fs.IntVar(&f.cluster, "cluster", 0, "run N engines in this process as one JetStream cluster and submit to the first (0: one engine, the Pebble journal)")
	fs.BoolVar(&f.floor, "floor", true, "submit: also measure the floor (HTTP exchange plus one Ecrecover, nothing else) with the same client and bodies")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write a CPU profile of the load phase (in-process engine: server and harness)")
	fs.StringVar(&f.traceFile, "trace", "", "submit: write an execution trace of the load phase (go tool trace; -pprof=sync shows where requests wait)")
	fs.StringVar(&f.floorprofile, "floorprofile", "", "submit: write a CPU profile of the floor's load phase")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	fs.Visit(func(fl *flag.Flag) { f.roundsSet = f.roundsSet || fl.Name == "rounds" })
	if f.makers <= 0 {
		n := f.n
		if name == "submit" && f.roundsSet {
			n *= max(1, f.rounds) // every round's orders are fresh
		}
		f.makers = max(1, (n+9)/10)
	}
	if f.ppm < 0 {
		f.ppm = defaultReferralPpm()
	}
	return f, nil
}

// defaultReferralPpm is the referralFeePpm the default fee policy allows
// for a limit order on a major pair.
func defaultReferralPpm() int {
	return int(config.Default().Routing.FeePolicy["limit"][config.ClassMajor].ReferralPpm)
}

// target is the server the order modes drive.
type target struct {
	addr, key    string
	domain       *chain.Domain
	vault        common.Address
	in, out      common.Address
	decimals     uint8
	pid          int
	close        func() error
	inProcessRSS bool
	// svc is the in-process order service (nil with -url).
	svc *orders.Service
}

// Addresses of the in-process engine's registry (no chain behind it: the
// order path is measured up to and including the durable commit).
var (
	benchRouter = common.HexToAddress("0x00000000000000000000000000000000000A11CE")
	benchVault  = common.HexToAddress("0x000000000000000000000000000000000000FEE5")
	benchIn     = common.HexToAddress("0x1000000000000000000000000000000000000001")
	benchOut    = common.HexToAddress("0x2000000000000000000000000000000000000002")
)

// openTarget connects to -url, or starts an in-process engine with the
// order service over a two-token registry.
func openTarget(f orderFlags) (*target, error) {
	if f.url != "" {
		return remoteTarget(f)
	}
	if f.cluster > 0 {
		return clusterTarget(f.cluster)
	}
	return inProcessTarget(0)
}

// inProcessTarget starts an engine with the order service (no chain,
// the bench tokens with oracle prices), its order actors passivated after
// idle (0: the default).
func inProcessTarget(idle time.Duration) (*target, error) {
	e, err := startEngine(engineOptions{orders: true, idle: idle})
	if err != nil {
		return nil, err
	}
	return orderTarget(e), nil
}

// orderTarget is the in-process target of e; its close closes e.
func orderTarget(e *engineServer) *target {
	return &target{addr: e.addr, key: e.apiKey, domain: chain.NewRouterDomain(4663, benchRouter), vault: benchVault,
		in: benchIn, out: benchOut, decimals: 18, pid: os.Getpid(), close: e.close, inProcessRSS: true, svc: e.sys.OrderAPI}
}

func remoteTarget(f orderFlags) (*target, error) {
	addr := strings.TrimPrefix(strings.TrimPrefix(f.url, "http://"), "https://")
	status, body, err := fetch(addr, "/v1/config", nil)
	if err != nil || status != 200 {
		return nil, fmt.Errorf("GET /v1/config: %d %v", status, err)
	}
	var cfg struct {
		ChainID  uint64 `json:"chainId"`
		Router   string `json:"router"`
		FeeVault string `json:"feeVault"`
	}
	if err := json.Unmarshal(body, &cfg); err != nil {
		return nil, err
	}
	vault := cfg.FeeVault
	if f.vault != "" {
		vault = f.vault
	}
	if !common.IsHexAddress(f.tokenIn) || !common.IsHexAddress(f.tokOut) || !common.IsHexAddress(vault) {
		return nil, fmt.Errorf("-url needs -token-in, -token-out and a fee vault")
	}
	return &target{addr: addr, key: f.key, domain: chain.NewRouterDomain(cfg.ChainID, common.HexToAddress(cfg.Router)),
		vault: common.HexToAddress(vault), in: common.HexToAddress(f.tokenIn), out: common.HexToAddress(f.tokOut),
		decimals: uint8(f.decimals), pid: f.pid, close: func() error { return nil }}, nil
}

// signOrders pre-signs n v7.1 limit orders from makers wallets on every
// core and returns their bodies and hashes.
func signOrders(t *target, f orderFlags) ([][]byte, []common.Hash, error) {
	s, err := newOrderSigner(t, f.makers, f.n, f.ppm)
	if err != nil {
		return nil, nil, err
	}
	bodies := make([][]byte, f.n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < f.n; i = int(next.Add(1) - 1) {
				bodies[i] = s.sign(i)
			}
		})
	}
	wg.Wait()
	return bodies, s.hashes, nil
}

// drive sends n requests built by req(i) over conns connections, at rate
// per second (0: flat out), with a progress line on stderr. It returns the
// latencies, the answers by status and code, and the elapsed time.
func drive(ctx context.Context, addr string, n, conns, rate int, req request) (lat []time.Duration, codes map[string]int, elapsed time.Duration) {
	return driveSpread(ctx, []string{addr}, n, conns, rate, req)
}

// driveSpread is drive over several servers: connection j goes to
// addrs[j mod len(addrs)], so the connections, and with them the
// requests, spread round-robin over the servers.
func driveSpread(ctx context.Context, addrs []string, n, conns, rate int, req request) (lat []time.Duration, codes map[string]int, elapsed time.Duration) {
	var next, done atomic.Int64
	var mu sync.Mutex
	codes = map[string]int{}
	lat = make([]time.Duration, 0, n)
	start := time.Now()
	stop, drawn := make(chan struct{}), make(chan struct{})
	go progress(n, &done, start, stop, drawn)
	var wg sync.WaitGroup
	for j := range conns {
		wg.Go(func() {
			c := &rawConn{addr: addrs[j%len(addrs)]}
			defer c.close()
			var buf []byte
			mine := make([]time.Duration, 0, n/conns+1)
			local := map[string]int{}
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				if rate > 0 {
					if wait := time.Until(start.Add(time.Duration(float64(i) / float64(rate) * float64(time.Second)))); wait > 0 {
						time.Sleep(wait)
					}
				}
				buf = req(i, buf[:0])
				t0 := time.Now()
				status, body, err := c.do(buf, 30*time.Second)
				mine = append(mine, time.Since(t0))
				done.Add(1)
				switch {
				case err != nil:
					local["transport: "+err.Error()]++
				default:
					local[answerKey(status, body)]++
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			for k, v := range local {
				codes[k] += v
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed = time.Since(start)
	close(stop)
	<-drawn // the bar's last line is out before the caller prints its report
	return lat, codes, elapsed
}

func answerKey(status int, body []byte) string {
	if status < 300 {
		return strconv.Itoa(status)
	}
	var e struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(body, &e)
	return strconv.Itoa(status) + " " + e.Code
}

// progressOut is where drive draws its progress bar (a variable for the
// tests).
var progressOut io.Writer = os.Stderr

// progress draws a bar on progressOut every 250 ms and, when stop closes,
// once more with the final count (so a run shorter than one tick shows its
// bar too) before it closes drawn.
func progress(n int, done *atomic.Int64, start time.Time, stop <-chan struct{}, drawn chan<- struct{}) {
	defer close(drawn)
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	draw := func() {
		d := int(done.Load())
		w := 40 * d / max(n, 1)
		fmt.Fprintf(progressOut, "\r[%s%s] %d/%d  %.0f/s ", strings.Repeat("=", w), strings.Repeat(" ", 40-w), d, n,
			float64(d)/time.Since(start).Seconds())
	}
	for {
		select {
		case <-stop:
			draw()
			fmt.Fprintln(progressOut)
			return
		case <-t.C:
			draw()
		}
	}
}

// report prints throughput, latency percentiles and answers by code.
func report(out io.Writer, what string, lat []time.Duration, codes map[string]int, elapsed time.Duration) float64 {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(math.Ceil(p*float64(len(lat))))-1)]
	}
	rps := float64(len(lat)) / elapsed.Seconds()
	fmt.Fprintf(out, "%s: %d requests in %s = %.0f/s   p50 %s  p90 %s  p99 %s  max %s\n", what, len(lat), elapsed.Round(time.Millisecond),
		rps, pct(0.5).Round(time.Microsecond), pct(0.9).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), pct(1).Round(time.Microsecond))
	keys := make([]string, 0, len(codes))
	for k := range codes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(out, "  %-40s %d\n", k, codes[k])
	}
	return rps
}

// rssKiB reads VmRSS of pid from /proc.
func rssKiB(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			n, _ := strconv.Atoi(strings.Fields(line)[1])
			return n
		}
	}
	return -1
}

// postOrder builds request i of a drive as POST /v1/orders with body(i).
func postOrder(addr, key string, body func(i int) []byte) request {
	return func(i int, dst []byte) []byte {
		return httpRequest(dst, addr, "POST", "/v1/orders", body(i), "Content-Type", "application/json", "X-API-Key", key)
	}
}

// storeOrders posts n orders (body i for order i) to t flat out over conns
// connections, as the modes that need a store of orders do before they
// measure; it fails unless every order was answered 201.
func storeOrders(ctx context.Context, t *target, n, conns int, body func(i int) []byte) (time.Duration, error) {
	_, codes, elapsed := drive(ctx, t.addr, n, conns, 0, postOrder(t.addr, t.key, body))
	if codes["201"] != n {
		return elapsed, fmt.Errorf("storing orders: %v", codes)
	}
	return elapsed, nil
}

// durableRate is the rate of submits answered 201: a refused submit
// (429, 400, ...) is no durable submit, so the ratios leave it out.
func durableRate(codes map[string]int, elapsed time.Duration) float64 {
	return float64(codes["201"]) / elapsed.Seconds()
}

// floorRate is what the machine gives a submit that costs only the HTTP
// exchange and one signature recovery: a bare Fiber handler (no
// middleware, no parsing, no store) that recovers a fixed signature and
// answers 201, driven by the same client over the same connections with
// the same bodies. It bounds what any server doing the mandatory recovery
// could reach here with the harness on the same cores.
func floorRate(ctx context.Context, bodies [][]byte, conns int) (float64, time.Duration, error) {
	key, _ := crypto.GenerateKey()
	msg := crypto.Keccak256([]byte("floor"))
	sig, _ := crypto.Sign(msg, key)
	answer := []byte(`{"success":true,"orderHash":"0x` + strings.Repeat("00", 32) + `"}`)
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	app.Post("/v1/orders", func(c *fiber.Ctx) error {
		if _, err := crypto.Ecrecover(msg, sig); err != nil {
			return err
		}
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Status(201).Send(answer)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, 0, err
	}
	go func() { _ = app.Listener(ln) }()
	defer func() { _ = app.Shutdown() }()
	addr := ln.Addr().String()
	cpu0 := processCPU()
	_, codes, elapsed := drive(ctx, addr, len(bodies), conns, 0, postOrder(addr, "floor", func(i int) []byte { return bodies[i] }))
	cpu := processCPU() - cpu0
	if codes["201"] != len(bodies) {
		return 0, 0, fmt.Errorf("floor server answered %v", codes)
	}
	return float64(len(bodies)) / elapsed.Seconds(), cpu / time.Duration(len(bodies)), nil
}

// bestEcrecoverRate is the best of n windows of ecrecoverRate, after a
// GC: the reference should be what the machine can do (a single window
// right after signing read as low as 34k/s while the floor server ran at
// 35k/s), so the ratio errs on the strict side.
func bestEcrecoverRate(n int, window time.Duration) float64 {
	runtime.GC()
	best := 0.0
	for range n {
		best = max(best, ecrecoverRate(window))
	}
	return best
}

// ecrecoverRate measures bare crypto.Ecrecover per second on every core
// for d: the reference the submit target is a share of.
func ecrecoverRate(d time.Duration) float64 {
	key, _ := crypto.GenerateKey()
	msg := crypto.Keccak256([]byte("bench"))
	sig, _ := crypto.Sign(msg, key)
	var total atomic.Int64
	var wg sync.WaitGroup
	deadline := time.Now().Add(d)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			n := int64(0)
			for time.Now().Before(deadline) {
				for range 64 {
					_, _ = crypto.Ecrecover(msg, sig)
				}
				n += 64
			}
			total.Add(n)
		})
	}
	wg.Wait()
	return float64(total.Load()) / d.Seconds()
}

// runSubmit is the submit mode: pre-signed orders posted flat out or at a
// rate, against bare Ecrecover × cores measured in the same run. With
// -rounds N (N > 1) it alternates N submit loads of -n fresh orders with N
// floor loads (submit first in odd rounds, the floor first in even ones),
// so that the machine's drift between minutes weighs on both sides, and
// reports each round's ratios and their medians.
func runSubmit(ctx context.Context, out io.Writer, args []string) error {
	f, err := parseOrderFlags("submit", args)
	if err != nil {
		return err
	}
	rounds := 1
	if f.roundsSet {
		rounds = max(1, f.rounds)
	}
	t, err := openTarget(f)
	if err != nil {
		return err
	}
	defer func() { _ = t.close() }()
	if f.cluster > 0 {
		clusterNote(out, f.cluster)
	}
	all := f
	all.n = rounds * f.n
	fmt.Fprintf(out, "mode submit: signing %d v7.1 limit orders from %d makers...\n", all.n, f.makers)
	bodies, _, err := signOrders(t, all)
	if err != nil {
		return err
	}
	ecr := bestEcrecoverRate(3, time.Second)
	rss0 := rssKiB(t.pid)
	if rounds == 1 {
		if _, err := submitRound(ctx, out, t, f, bodies, ecr, true); err != nil {
			return err
		}
	} else {
		if !f.floor {
			return fmt.Errorf("submit: -rounds alternates submits with the floor; it needs -floor")
		}
		var ratios, cpuRatios []float64
		for r := range rounds {
			fmt.Fprintf(out, "round %d of %d\n", r+1, rounds)
			res, err := submitRound(ctx, out, t, f, bodies[r*f.n:(r+1)*f.n], ecr, r%2 == 0)
			if err != nil {
				return err
			}
			f.cpuprofile, f.floorprofile, f.traceFile = "", "", "" // the first round's
			ratios = append(ratios, res.ratio)
			if res.cpuRatio > 0 {
				cpuRatios = append(cpuRatios, res.cpuRatio)
			}
		}
		fmt.Fprintf(out, "over %d rounds: durable submits are %.1f %% of the floor (median; %.1f–%.1f %%, target ≥ 50 %%)",
			rounds, 100*quantile(ratios, 0.5), 100*quantile(ratios, 0), 100*quantile(ratios, 1))
		if len(cpuRatios) > 0 {
			fmt.Fprintf(out, "; a submit's CPU is %.2f × the floor's (median; %.2f–%.2f ×, target ≤ 2 ×)",
				quantile(cpuRatios, 0.5), quantile(cpuRatios, 0), quantile(cpuRatios, 1))
		}
		fmt.Fprintln(out)
	}
	if rss := rssKiB(t.pid); rss > 0 {
		fmt.Fprintf(out, "server RSS (pid %d%s): %d KiB before, %d KiB after\n", t.pid, map[bool]string{true: ", harness in the same process"}[t.inProcessRSS], rss0, rss)
	}
	return nil
}

// submitResult is one round of the submit mode: durable submits as a
// share of the floor's rate, and a submit's CPU as a multiple of a floor
// request's (0 when not measured).
type submitResult struct{ ratio, cpuRatio float64 }

// submitRound posts bodies (fresh orders) and, with -floor, the floor's
// load with the same bodies, submits first or the floor first, with the
// profiles and the trace f asks for (runSubmit asks for them in the first
// round only).
func submitRound(ctx context.Context, out io.Writer, t *target, f orderFlags, bodies [][]byte, ecr float64, submitFirst bool) (submitResult, error) {
	var res submitResult
	var floor float64
	var floorCPU time.Duration
	runFloor := func() error {
		stopProfile, err := startProfiles("", f.floorprofile)
		if err != nil {
			return err
		}
		floor, floorCPU, err = floorRate(ctx, bodies, f.conns)
		stopProfile()
		return err
	}
	if f.floor && !submitFirst {
		if err := runFloor(); err != nil {
			return res, err
		}
	}
	stopProfile, err := startProfiles(f.traceFile, f.cpuprofile)
	if err != nil {
		return res, err
	}
	cpu0 := processCPU()
	lat, codes, elapsed := drive(ctx, t.addr, len(bodies), f.conns, f.rate, postOrder(t.addr, t.key, func(i int) []byte { return bodies[i] }))
	cpu := processCPU() - cpu0
	stopProfile()
	report(out, "submit", lat, codes, elapsed)
	rps := durableRate(codes, elapsed)
	perSubmit := float64(cpu.Nanoseconds()) / float64(len(bodies))
	if t.inProcessRSS {
		fmt.Fprintf(out, "CPU (server and harness): %.0f µs per submit, %.2f cores busy\n", perSubmit/1e3, cpu.Seconds()/elapsed.Seconds())
	}
	fmt.Fprintf(out, "bare Ecrecover × %d cores: %.0f/s; durable submits (201: %.0f/s) are %.1f %% of it (target ≥ 40 %%)\n",
		runtime.GOMAXPROCS(0), ecr, rps, 100*rps/ecr)
	if !f.floor {
		return res, nil
	}
	if submitFirst {
		if err := runFloor(); err != nil {
			return res, err
		}
	}
	res.ratio = rps / floor
	fmt.Fprintf(out, "floor (same client and bodies; a bare Fiber POST handler doing one Ecrecover, no parse, no store): %.0f/s = %.1f %% of bare Ecrecover; durable submits are %.1f %% of the floor (target ≥ 50 %%)\n",
		floor, 100*floor/ecr, 100*res.ratio)
	fmt.Fprintf(out, "floor CPU (server and harness): %.0f µs per request", float64(floorCPU.Nanoseconds())/1e3)
	if t.inProcessRSS && floorCPU > 0 {
		res.cpuRatio = perSubmit / float64(floorCPU.Nanoseconds())
		fmt.Fprintf(out, "; a durable submit costs %.0f µs, %.2f × the floor's (target ≤ 2 ×)", perSubmit/1e3, res.cpuRatio)
	}
	fmt.Fprintln(out)
	return res, nil
}
