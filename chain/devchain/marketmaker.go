package devchain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/contracts/bindings/oracle"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// gasSwap is the fixed gas limit of a market-maker swap: not estimated,
// because a step's swaps are sent before the approvals and funding of the
// same block are mined. Generous (a swap uses about half of it): the dev
// chain runs the newest forks' storage pricing.
const gasSwap = 600_000

// oracleGas is the fixed gas limit of an oracle write of n prices. An
// estimate is too low when the latest block wrote the same slots (as the
// previous step did), so it is not used.
func oracleGas(n int) uint64 { return 150_000 + 150_000*uint64(n) }

// MarketMaker moves the dev chain's prices: each step draws a new USD
// target for every volatile token (a bounded random walk around its seeded
// price, seeded RNG), swaps through every constant-product pool so its price
// lands on the ratio of its tokens' targets, and writes the oracle with the
// prices the pools then quote (stable tokens keep their seeded price and are
// rewritten so they never go stale). Swaps come from the market-maker
// account; oracle writes from the deployer (the oracle's owner).
type MarketMaker struct {
	cfg    config.MarketMakerConfig
	logger *slog.Logger
	client Client
	dep    *Deployment
	swaps  *sender
	owner  *sender

	pool   *constantproductpool.ConstantProductPool
	oracle *oracle.Oracle
	token  *testtoken.TestToken // the ERC-20 surface of every token

	mu    sync.Mutex // guards rng and walks
	rng   *rand.Rand
	walks map[common.Address]*walk
}

func newMarketMaker(cfg config.MarketMakerConfig, logger *slog.Logger, client Client, dep *Deployment, swaps, owner *sender) *MarketMaker {
	m := &MarketMaker{
		cfg: cfg, logger: logger.With("component", "marketmaker"), client: client, dep: dep,
		swaps: swaps, owner: owner,
		pool:   constantproductpool.NewConstantProductPool(),
		oracle: oracle.NewOracle(),
		token:  testtoken.NewTestToken(),
		rng:    rand.New(rand.NewPCG(uint64(cfg.Seed), uint64(cfg.Seed)^0x9e3779b97f4a7c15)),
		walks:  map[common.Address]*walk{},
	}
	for _, t := range dep.Tokens {
		if t.Class != config.ClassStable && !t.FeeOnTransfer && t.PriceUSD != nil && t.PriceUSD.Sign() > 0 {
			m.walks[t.Address] = newWalk(t.PriceUSD, cfg.MaxStepPpm, cfg.MaxDeviationPpm)
		}
	}
	return m
}

// Bounds are the lowest and highest USD answer (8 decimals) the walk may
// give token; ok is false for a token that does not walk.
func (m *MarketMaker) Bounds(token common.Address) (lo, hi *big.Int, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	w, ok := m.walks[token]
	if !ok {
		return nil, nil, false
	}
	return new(big.Int).Set(w.lo), new(big.Int).Set(w.hi), true
}

// walkedPools are the constant-product pools the market maker trades: both
// tokens priced, none fee-on-transfer.
func (m *MarketMaker) walkedPools() []Pool {
	var out []Pool
	for _, p := range m.dep.Pools {
		if p.Family != FamilyCPMM {
			continue
		}
		t0, ok0 := m.dep.TokenAt(p.Token0)
		t1, ok1 := m.dep.TokenAt(p.Token1)
		if !ok0 || !ok1 || t0.FeeOnTransfer || t1.FeeOnTransfer || t0.PriceUSD == nil || t1.PriceUSD == nil {
			continue
		}
		out = append(out, p)
	}
	return out
}

// prepare funds the market-maker account with every token it trades (ten
// times the pools' depth) and approves the pools; the caller mines the
// returned transactions.
func (m *MarketMaker) prepare(ctx context.Context, faucet func(context.Context, common.Address, common.Address, *big.Int) (common.Hash, error)) ([]common.Hash, error) {
	depth := map[common.Address]*big.Int{}
	add := func(token common.Address, r *big.Int) {
		if depth[token] == nil {
			depth[token] = new(big.Int)
		}
		depth[token].Add(depth[token], r)
	}
	var hashes []common.Hash
	for _, p := range m.walkedPools() {
		r, err := m.reserves(ctx, p.Address)
		if err != nil {
			return nil, err
		}
		add(p.Token0, r.Arg0)
		add(p.Token1, r.Arg1)
		for _, token := range []common.Address{p.Token0, p.Token1} {
			tx, err := m.swaps.send(ctx, token, m.token.PackApprove(p.Address, maxUint256()), nil, 0)
			if err != nil {
				return nil, fmt.Errorf("devchain: market maker approve %s for pool %s: %w", token, p.Address, err)
			}
			hashes = append(hashes, tx.Hash())
		}
	}
	for token, d := range depth {
		amount := new(big.Int).Mul(d, big.NewInt(10))
		h, err := faucet(ctx, m.swaps.from, token, amount)
		if err != nil {
			return nil, fmt.Errorf("devchain: fund market maker with %s: %w", token, err)
		}
		hashes = append(hashes, h)
	}
	return hashes, nil
}

func (m *MarketMaker) reserves(ctx context.Context, pool common.Address) (constantproductpool.GetReservesOutput, error) {
	r, err := bind.Call(m.pool.Instance(m.client, pool), &bind.CallOpts{Context: ctx}, m.pool.PackGetReserves(), m.pool.UnpackGetReserves)
	if err != nil {
		return r, fmt.Errorf("devchain: reserves of pool %s: %w", pool, err)
	}
	return r, nil
}

// StepResult is what one market-maker step did.
type StepResult struct {
	// Targets are the new USD targets (8 decimals) of the walked tokens.
	Targets map[common.Address]*big.Int
	// Oracle are the answers written to the oracle, per token.
	Oracle map[common.Address]*big.Int
	// Txs are the transactions sent: swaps, then the oracle write.
	Txs []common.Hash
}

// Step moves every walked token's target one step, sends the swaps that
// bring the pools there and the oracle write that follows them. It reads
// the pools at the latest block: the previous step's transactions must be
// mined first (the timer loop waits for them; a test commits a block).
func (m *MarketMaker) Step(ctx context.Context) (StepResult, error) {
	m.mu.Lock()
	targets := map[common.Address]*big.Int{}
	for token, w := range m.walks {
		targets[token] = w.step(m.rng)
	}
	m.mu.Unlock()
	res := StepResult{Targets: targets}
	var err error
	res.Oracle, res.Txs, err = m.land(ctx, targets, nil)
	return res, err
}

// MoveResult is what one MoveTo did.
type MoveResult struct {
	// Token is the moved token.
	Token common.Address
	// Target is the USD price (8 decimals) the token's pools were moved
	// to: the requested price clamped to Bounds.
	Target *big.Int
	// Clamped is true when the requested price was outside Bounds.
	Clamped bool
	// Oracle are the answers written to the oracle, per token.
	Oracle map[common.Address]*big.Int
	// Txs are the transactions sent: swaps, then the oracle write.
	Txs []common.Hash
}

// MoveTo moves the market of one walked token (by symbol) to usd8 (USD, 8
// decimals) at once, with the same mechanism as a step: it swaps every
// constant-product pool holding the token so its price lands on the target
// (against the other token's current walk price, or a stable's seeded
// price) and writes the oracle as a step does, every walked token from its
// pools and the stables at their seeded price, so all stay fresh. The
// target is clamped to the walk's bounds (Bounds; MaxDeviationPpm around
// the seeded price, default ±10 %) and becomes the walk's price, so later
// steps walk on from it. Like Step it reads the pools at the latest block:
// the previous transactions of the market maker must be mined first; the
// caller mines the returned ones.
func (m *MarketMaker) MoveTo(ctx context.Context, symbol string, usd8 *big.Int) (MoveResult, error) {
	t, ok := m.dep.Token(symbol)
	if !ok {
		return MoveResult{}, fmt.Errorf("devchain: market maker: no token %s", symbol)
	}
	if usd8 == nil || usd8.Sign() <= 0 {
		return MoveResult{}, fmt.Errorf("devchain: market maker: price of %s must be positive", symbol)
	}
	m.mu.Lock()
	w, ok := m.walks[t.Address]
	if !ok {
		m.mu.Unlock()
		return MoveResult{}, fmt.Errorf("devchain: market maker: %s does not walk (stable, fee-on-transfer or unpriced)", symbol)
	}
	target, clamped := new(big.Int).Set(usd8), false
	if target.Cmp(w.lo) < 0 {
		target.Set(w.lo)
		clamped = true
	}
	if target.Cmp(w.hi) > 0 {
		target.Set(w.hi)
		clamped = true
	}
	w.price = new(big.Int).Set(target)
	prices := map[common.Address]*big.Int{}
	for token, w := range m.walks {
		prices[token] = new(big.Int).Set(w.price)
	}
	m.mu.Unlock()
	res := MoveResult{Token: t.Address, Target: target, Clamped: clamped}
	var err error
	res.Oracle, res.Txs, err = m.land(ctx, prices, func(p Pool) bool { return p.Token0 == t.Address || p.Token1 == t.Address })
	return res, err
}

// land sends the swaps that bring the constant-product pools selected by
// move (nil: every walked pool) to the ratio of their tokens' USD prices
// (targets for walked tokens, the seeded price otherwise), then the oracle
// write of the prices the pools quote afterwards (every walked pool,
// moved or not, counts for the oracle). It returns the answers written and
// the transactions sent.
func (m *MarketMaker) land(ctx context.Context, targets map[common.Address]*big.Int, move func(Pool) bool) (map[common.Address]*big.Int, []common.Hash, error) {
	price := func(t Token) *big.Int {
		if p, ok := targets[t.Address]; ok {
			return p
		}
		return t.PriceUSD
	}

	written := map[common.Address]*big.Int{}
	var txs []common.Hash
	after := map[common.Address][2]*big.Int{} // pool → reserves after its swap
	for _, p := range m.walkedPools() {
		t0, _ := m.dep.TokenAt(p.Token0)
		t1, _ := m.dep.TokenAt(p.Token1)
		r, err := m.reserves(ctx, p.Address)
		if err != nil {
			return written, txs, err
		}
		r0, r1 := r.Arg0, r.Arg1
		if r0.Sign() == 0 || r1.Sign() == 0 {
			continue
		}
		if move != nil && !move(p) {
			after[p.Address] = [2]*big.Int{r0, r1}
			continue
		}
		// Target raw token1 per raw token0: p0·10^d1 / (p1·10^d0).
		num := new(big.Int).Mul(price(t0), pow10(t1.Decimals))
		den := new(big.Int).Mul(price(t1), pow10(t0.Decimals))
		zeroIn, in := rebalance(r0, r1, num, den, p.FeePpm)
		tokenIn, out := p.Token1, new(big.Int)
		if in.Sign() > 0 {
			if zeroIn {
				tokenIn, out = p.Token0, cpmmOut(r0, r1, in, p.FeePpm)
			} else {
				out = cpmmOut(r1, r0, in, p.FeePpm)
			}
		}
		// A move too small to give any output is skipped (the pool reverts
		// a zero output).
		if out.Sign() > 0 {
			if zeroIn {
				r0, r1 = new(big.Int).Add(r0, in), new(big.Int).Sub(r1, out)
			} else {
				r0, r1 = new(big.Int).Sub(r0, out), new(big.Int).Add(r1, in)
			}
			tx, err := m.swaps.send(ctx, p.Address, m.pool.PackSwap(tokenIn, in, big.NewInt(0), m.swaps.from), nil, gasSwap)
			if err != nil {
				return written, txs, fmt.Errorf("devchain: market maker swap in pool %s: %w", p.Address, err)
			}
			txs = append(txs, tx.Hash())
		}
		after[p.Address] = [2]*big.Int{r0, r1}
	}

	tokens, answers := m.oracleAnswers(after)
	for i, t := range tokens {
		written[t] = answers[i]
	}
	if len(tokens) > 0 {
		tx, err := m.owner.send(ctx, m.dep.Oracle, m.oracle.PackSetPrices(tokens, answers), nil, oracleGas(len(tokens)))
		if err != nil {
			return written, txs, fmt.Errorf("devchain: market maker oracle write: %w", err)
		}
		txs = append(txs, tx.Hash())
	}
	return written, txs, nil
}

// oracleAnswers are the oracle's new answers: each walked token priced by
// its deepest pool against a stable token (post-swap reserves), the stables
// at their seeded price.
func (m *MarketMaker) oracleAnswers(after map[common.Address][2]*big.Int) ([]common.Address, []*big.Int) {
	var tokens []common.Address
	var answers []*big.Int
	for _, t := range m.dep.Tokens {
		if t.FeeOnTransfer || t.PriceUSD == nil || t.PriceUSD.Sign() <= 0 {
			continue
		}
		answer := t.PriceUSD
		if _, walked := m.walks[t.Address]; walked {
			answer = m.poolPrice(t, after)
			if answer == nil {
				continue
			}
		}
		tokens = append(tokens, t.Address)
		answers = append(answers, answer)
	}
	return tokens, answers
}

// poolPrice is t's USD price in its deepest pool against a stable token.
func (m *MarketMaker) poolPrice(t Token, after map[common.Address][2]*big.Int) *big.Int {
	var best, bestDepth *big.Int
	for _, p := range m.walkedPools() {
		r, ok := after[p.Address]
		if !ok {
			continue
		}
		var other common.Address
		var rt, ro *big.Int
		switch t.Address {
		case p.Token0:
			other, rt, ro = p.Token1, r[0], r[1]
		case p.Token1:
			other, rt, ro = p.Token0, r[1], r[0]
		default:
			continue
		}
		s, ok := m.dep.TokenAt(other)
		if !ok || s.Class != config.ClassStable {
			continue
		}
		depthUSD := mulDiv(ro, s.PriceUSD, pow10(s.Decimals))
		if bestDepth == nil || depthUSD.Cmp(bestDepth) > 0 {
			bestDepth = depthUSD
			best = usdPrice(rt, t.Decimals, ro, s.Decimals, s.PriceUSD)
		}
	}
	return best
}

// loop runs a step every Period until ctx ends, waiting for each step's
// transactions to be mined before the next.
func (m *MarketMaker) loop(ctx context.Context, wg *sync.WaitGroup) {
	defer wg.Done()
	t := time.NewTicker(m.cfg.Period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		res, err := m.Step(ctx)
		if err != nil {
			if ctx.Err() == nil {
				m.logger.Warn("market maker step failed", "err", err)
			}
			continue
		}
		for _, h := range res.Txs {
			if _, err := WaitReceipt(ctx, m.client, h, 100*time.Millisecond); err != nil {
				if ctx.Err() != nil {
					return
				}
				if errors.Is(err, ErrReverted) {
					m.logger.Warn("market maker transaction reverted", "tx", h)
					continue
				}
				m.logger.Warn("market maker wait", "tx", h, "err", err)
			}
		}
		m.logger.Debug("market maker step", "txs", len(res.Txs))
	}
}
