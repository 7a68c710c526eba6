package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"math/rand/v2"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/app"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chain/devchain"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/internal/syncbuf"
	"github.com/orderengine/orderengine/keeper"
)

// The streams mode (docs/performance.md, "Streams"):
//
//   - latency: trigger-to-fill of the reference keeper following the keeper
//     stream against the same keeper polling GET /v1/keeper/executable
//     (lifecycle.keeperPoll, 500 ms), on the embedded dev chain: rounds
//     alternate the two keepers; each round submits a limit order that is
//     executable at once, at a random phase of the block interval, and
//     measures the blocks from the first block the engine found it
//     executable (the block of its first announcement on an observer's
//     keeper stream) to the block of its fill, and the time from that
//     announcement to the keeper's transaction reaching the node's pool
//     (the keeper's pending nonce moving);
//   - fanout: open streams (streams_fanout.go).

func runStreams(ctx context.Context, out io.Writer, args []string) error {
	fs := flag.NewFlagSet("streams", flag.ContinueOnError)
	part := fs.String("part", "all", "latency, fanout or all")
	rounds := fs.Int("rounds", 40, "latency: orders per keeper (alternating)")
	block := fs.Duration("block", time.Second, "latency: the dev chain's block interval")
	poll := fs.Duration("poll", 500*time.Millisecond, "latency: the polling keeper's period (lifecycle.keeperPoll)")
	streams := fs.Int("streams", 1000, "fanout: open keeper streams")
	fanBlock := fs.Duration("fanout-block", 100*time.Millisecond, "fanout: the dev chain's block interval")
	window := fs.Duration("window", 10*time.Second, "fanout: the CPU measuring window, with and without streams")
	profile := fs.String("cpuprofile", "", "fanout: write a CPU profile of the window with the streams open to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *part == "latency" || *part == "all" {
		if err := streamLatency(ctx, out, *rounds, *block, *poll); err != nil {
			return err
		}
	}
	if *part == "fanout" || *part == "all" {
		return streamFanout(ctx, out, *streams, *fanBlock, *window, *profile)
	}
	return nil
}

// chainEngine is an engine on the embedded dev chain (blocks every
// interval, its dev keeper off) with one API key, and the dev chain.
type chainEngine struct {
	sys    *app.System
	dev    *devchain.DevChain
	cfg    config.Config
	base   string
	apiKey string
	dir    string
}

func startChainEngine(ctx context.Context, interval time.Duration, tune func(*config.Config)) (*chainEngine, error) {
	base := config.Default()
	cc := base.Chain
	cc.DevRPCListen, cc.BlockInterval = "", interval
	dev, err := devchain.Start(ctx, cc, nil, devchain.WithFeePolicy(base.Routing.FeePolicy))
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "orderengine-bench-streams-")
	if err != nil {
		_ = dev.Close()
		return nil, err
	}
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.HTTP.Listen, cfg.HTTP.AdminListen = "127.0.0.1:0", "127.0.0.1:0"
	big := config.BucketLimits{Quote: 1 << 30, Read: 1 << 30, Order: 1 << 30}
	cfg.Limits.Free, cfg.Limits.Builder = big, big
	cfg.Limits.MakerSubmits, cfg.Limits.MakerOpenOrders = 1<<20, 1<<20
	cfg.Lifecycle.DevKeeper = false
	dev.Deployment().ApplyTo(&cfg)
	cfg.Chain.ChainID = dev.ChainID()
	if tune != nil {
		tune(&cfg)
	}
	sys, err := app.New(ctx, cfg, slog.New(slog.DiscardHandler), app.Options{Chain: devchain.ConnOf(dev)})
	if err == nil {
		err = sys.Start(ctx)
	}
	if err != nil {
		_ = dev.Close()
		_ = os.RemoveAll(dir)
		return nil, err
	}
	e := &chainEngine{sys: sys, dev: dev, cfg: cfg, base: "http://" + sys.HTTP.Addr(), dir: dir}
	acct, err := sys.Accounts.CreateAccount("bench", config.TierFree, config.BucketLimits{})
	if err == nil {
		e.apiKey, _, err = sys.Accounts.IssueKey(acct.ID)
	}
	if err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

func (e *chainEngine) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = e.sys.Shutdown(ctx)
	_ = e.sys.Close()
	_ = e.dev.Close()
	_ = os.RemoveAll(e.dir)
}

func (e *chainEngine) token(symbol string) common.Address {
	tk, _ := e.dev.Deployment().Token(symbol)
	return tk.Address
}

// fundMaker gives the dev maker USDC and the router's allowance.
func (e *chainEngine) fundMaker(ctx context.Context) error {
	maker := e.dev.Accounts().Makers[0]
	usdc := e.token("USDC")
	h, err := e.dev.Faucet(ctx, maker.Address, usdc, big.NewInt(1_000_000_000_000))
	if err != nil {
		return err
	}
	if _, err := e.dev.Mine(ctx, h); err != nil {
		return err
	}
	c := e.dev.Client()
	opts := bind.NewKeyedTransactor(maker.Key, new(big.Int).SetUint64(e.dev.ChainID()))
	opts.Context = ctx
	tt := testtoken.NewTestToken()
	tx, err := bind.NewBoundContract(usdc, tt.GetABI(), c, c, c).RawTransact(opts, tt.PackApprove(common.HexToAddress(e.cfg.Chain.Router), new(big.Int).Lsh(big.NewInt(1), 255)))
	if err != nil {
		return err
	}
	_, err = e.dev.Mine(ctx, tx.Hash())
	return err
}

// submitLimit signs and posts a limit order of the dev maker selling
// amountIn USDC for WETH at $4000 (the market is near $3000: executable at
// once).
func (e *chainEngine) submitLimit(salt, amountIn uint64) (common.Hash, error) {
	maker := e.dev.Accounts().Makers[0]
	ppm := e.cfg.Routing.FeePolicy[config.KindLimit][config.ClassMajor].ReferralPpm
	vault := common.HexToAddress(e.cfg.Chain.FeeVault)
	traits, _ := chain.EncodeTraits(chain.Traits{Nonce: salt, SlippagePpm: 50_000})
	o := chain.Order{Maker: maker.Address, Receiver: maker.Address, TokenIn: e.token("USDC"), TokenOut: e.token("WETH"),
		Referrer: vault, ReferralFeePpm: ppm, MakerTraits: traits}
	o.Salt.SetUint64(salt)
	o.AmountIn.SetUint64(amountIn)
	o.TriggerPrice.SetUint64(new(big.Int).Quo(big.NewInt(1e18), big.NewInt(4000)).Uint64())
	o.TriggerAmountOut, _ = chain.DeriveTriggerAmountOut(&o.AmountIn, &o.TriggerPrice, 6)
	h := chain.OrderHash(chain.NewRouterDomain(e.dev.ChainID(), common.HexToAddress(e.cfg.Chain.Router)), &o)
	sig, err := crypto.Sign(h[:], maker.Key)
	if err != nil {
		return h, err
	}
	sig[64] += 27
	body, _ := json.Marshal(map[string]any{"orderType": "limit", "signature": "0x" + hex.EncodeToString(sig), "orderHash": h.Hex(),
		"order": map[string]any{"salt": "0x" + hex.EncodeToString(o.Salt.Bytes()), "maker": maker.Address.Hex(), "receiver": maker.Address.Hex(),
			"tokenIn": o.TokenIn.Hex(), "tokenOut": o.TokenOut.Hex(), "amountIn": o.AmountIn.Dec(), "triggerPrice": o.TriggerPrice.Dec(),
			"makerTraits": traits.Dec(), "referrer": vault.Hex(), "referralFeePpm": ppm}})
	req, _ := http.NewRequest(http.MethodPost, e.base+"/v1/orders", strings.NewReader(string(body)))
	req.Header.Set("X-API-Key", e.apiKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return h, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 201 {
		b, _ := io.ReadAll(resp.Body)
		return h, fmt.Errorf("submit: %d %s", resp.StatusCode, b)
	}
	return h, nil
}

// fillBlock returns the block of order h's first fill (0: none yet).
func (e *chainEngine) fillBlock(h common.Hash) uint64 {
	fills, err := e.sys.Chain.Fills(h)
	if err != nil || len(fills) == 0 {
		return 0
	}
	return fills[0].BlockNumber
}

// latencySample is one round's measures.
type latencySample struct {
	blocks uint64
	send   time.Duration
}

func streamLatency(ctx context.Context, out io.Writer, rounds int, interval, poll time.Duration) error {
	e, err := startChainEngine(ctx, interval, nil)
	if err != nil {
		return err
	}
	defer e.close()
	if err := e.fundMaker(ctx); err != nil {
		return err
	}
	keeperAcct := e.dev.Accounts().Keeper
	fmt.Fprintf(out, "streams latency: %d orders per keeper, blocks every %v, polling keeper every %v\n", rounds, interval, poll)
	samples := map[bool][]latencySample{}
	salt := uint64(time.Now().UnixNano())
	for i := range 2 * rounds {
		streaming := i%2 == 0
		s, err := latencyRound(ctx, e, keeperAcct.Key, streaming, poll, interval, salt+uint64(i))
		if err != nil {
			return fmt.Errorf("round %d (streaming %v): %w", i, streaming, err)
		}
		samples[streaming] = append(samples[streaming], s)
	}
	for _, streaming := range []bool{true, false} {
		name := map[bool]string{true: "streaming", false: "polling"}[streaming]
		ss := samples[streaming]
		blocks := make([]float64, len(ss))
		sends := make([]float64, len(ss))
		for i, s := range ss {
			blocks[i], sends[i] = float64(s.blocks), float64(s.send.Microseconds())/1000
		}
		fmt.Fprintf(out, "%-9s trigger-to-fill blocks p50 %.0f p99 %.0f max %.0f; listed-to-sent ms p50 %.1f p99 %.1f max %.1f\n",
			name, quantile(blocks, 0.5), quantile(blocks, 0.99), quantile(blocks, 1), quantile(sends, 0.5), quantile(sends, 0.99), quantile(sends, 1))
	}
	return nil
}

// latencyRound runs a fresh keeper (streaming or polling), submits one
// executable order at a random phase of the block interval and measures
// it until its fill is indexed: the block the pairs first listed it
// executable at, the fill's block, and the time from that listing (seen
// by polling the pairs' set every millisecond) to the keeper's
// transaction reaching the node's pool (its pending nonce moving).
func latencyRound(ctx context.Context, e *chainEngine, key *ecdsa.PrivateKey, streaming bool, poll, interval time.Duration, salt uint64) (latencySample, error) {
	logs := &syncbuf.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	r := keeper.NewRunner(e.dev.Client(), key, keeper.HTTPSource(e.base, e.apiKey, nil), keeper.RunnerOptions{Log: log})
	if streaming {
		r.Follow = keeper.NewFollower(e.base, e.apiKey, r.Address(), nil, log)
	}
	fail := func(err error) (latencySample, error) {
		return latencySample{}, fmt.Errorf("%w; the keeper's log:\n%s", err, logs.String())
	}
	// The keeper starts at a random phase of the block interval, as a
	// long-running one would be, polling or not.
	time.Sleep(rand.N(interval))
	rctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); r.Run(rctx, poll) }()
	defer func() { stop(); <-done }()
	if streaming {
		for deadline := time.Now().Add(10 * time.Second); !r.Follow.Connected(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				return fail(fmt.Errorf("the keeper's stream did not connect"))
			}
		}
	}
	time.Sleep(rand.N(interval))
	client := e.dev.Client()
	nonce, err := client.PendingNonceAt(ctx, r.Address())
	if err != nil {
		return latencySample{}, err
	}
	h, err := e.submitLimit(salt, 1_000_000)
	if err != nil {
		return latencySample{}, err
	}
	var listedAt, sentAt time.Time
	var listedBlock uint64
	for deadline := time.Now().Add(30 * time.Second); listedAt.IsZero() || sentAt.IsZero(); time.Sleep(time.Millisecond) {
		if listedAt.IsZero() {
			e.sys.Pairs.EachExecutable("", common.Hash{}, func(x pair.Executable) bool {
				if x.Hash == h {
					listedAt, listedBlock = time.Now(), x.Block
					return false
				}
				return true
			})
		}
		if n, err := client.PendingNonceAt(ctx, r.Address()); err == nil && n > nonce && sentAt.IsZero() {
			sentAt = time.Now()
		}
		if time.Now().After(deadline) {
			return fail(fmt.Errorf("order %s: listed %v, sent %v", h.Hex(), !listedAt.IsZero(), !sentAt.IsZero()))
		}
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if b := e.fillBlock(h); b != 0 {
			return latencySample{blocks: b - listedBlock, send: sentAt.Sub(listedAt)}, nil
		}
		if time.Now().After(deadline) {
			return fail(fmt.Errorf("order %s not filled", h.Hex()))
		}
	}
}

// quantile returns the q-quantile of v (nearest rank; q = 1 the maximum).
func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	i := int(q*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}
