package contracts

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/contracts/bindings/multicall"
	"github.com/orderengine/orderengine/contracts/bindings/oracle"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/contracts/bindings/stableswappool"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/contracts/bindings/wrappednative"
)

// Fee kinds: the first index of the router's fee table (docs/protocol.md).
const (
	KindDirect     uint8 = 0
	KindLimit      uint8 = 1
	KindStopLoss   uint8 = 2
	KindTakeProfit uint8 = 3
	KindDCA        uint8 = 4
	KindTrailing   uint8 = 5
)

// Token classes: the second index of the router's fee table.
const (
	ClassStable uint8 = 0
	ClassMajor  uint8 = 1
	ClassOther  uint8 = 2
)

// Venue family names, as routing and the route response use them.
const (
	FamilyCPMM       = "cpmm"
	FamilyStableSwap = "stableswap"
)

// FeeCell is one cell of the router's fee table. The referral leg is not in
// the table: it is the order's signed referralFeePpm.
type FeeCell struct {
	Kind        uint8
	Class       uint8
	ProtocolPpm uint32
	KeeperPpm   uint32
}

// Params configures Deploy. The zero value deploys with zero fees, the
// deployer as fee vault and a one-hour oracle staleness bound.
type Params struct {
	// FeeVault receives the protocol fee leg; zero means the deployer.
	FeeVault common.Address
	// Fees are written to the router's fee table (cells not listed stay 0).
	Fees []FeeCell
	// OracleMaxAge is the oracle's staleness bound in seconds; 0 means 3600.
	OracleMaxAge uint64
	// LiquidityDivisor divides every seeded pool amount (and the native coin
	// wrapped for them, 3,000 ETH at divisor 1); 0 means 1. Use it when the
	// deployer is not a richly funded dev account.
	LiquidityDivisor int64
	// Mine is called while waiting for receipts. With ethclient/simulated
	// pass the backend's Commit (blocks are mined only by Commit); leave it
	// nil for a node that mines by itself (geth --dev, a real network).
	Mine func()
	// PollInterval is the receipt polling period when Mine is nil; 0 means 100 ms.
	PollInterval time.Duration
}

// Token describes one deployed token.
type Token struct {
	Symbol   string
	Name     string
	Address  common.Address
	Decimals uint8
	// Class is the router's token class (ClassStable, ClassMajor, ClassOther).
	Class uint8
	// PriceUSD is the oracle answer written at deployment (8 decimals).
	PriceUSD *big.Int
}

// Pool describes one deployed venue.
type Pool struct {
	// Family is FamilyCPMM or FamilyStableSwap.
	Family  string
	Address common.Address
	Token0  common.Address
	Token1  common.Address
	// FeePpm is the cpmm fee in ppm (0 for stableswap).
	FeePpm uint64
	// A and Fee (1e10 units) are the stableswap parameters (0 for cpmm).
	A   uint64
	Fee uint64
	// Reserve0 and Reserve1 are the seeded reserves.
	Reserve0 *big.Int
	Reserve1 *big.Int
}

// Deployment is everything Deploy created.
type Deployment struct {
	Deployer      common.Address
	FeeVault      common.Address
	Router        common.Address
	Executor      common.Address
	Oracle        common.Address
	Multicall     common.Address
	WrappedNative common.Address
	// Tokens: USDC (6), USDT (6), DAI (18), WETH (the wrapped native, 18),
	// WBTC (8), DEMO (18, class other), in this order.
	Tokens []Token
	Pools  []Pool
	// Block is the block the router was deployed in (the indexer's start).
	Block uint64
}

// Token returns the deployed token with the given symbol.
func (d *Deployment) Token(symbol string) (Token, bool) {
	for _, t := range d.Tokens {
		if t.Symbol == symbol {
			return t, true
		}
	}
	return Token{}, false
}

type tokenSpec struct {
	symbol, name string
	decimals     uint8
	class        uint8
	priceUSD     int64 // US cents; the oracle answer (8 decimals) is cents × 1e6
}

// Token set and prices (USD cents; the oracle answer is cents × 1e6).
var tokenSpecs = []tokenSpec{
	{"USDC", "USD Coin (dev)", 6, ClassStable, 100},
	{"USDT", "Tether USD (dev)", 6, ClassStable, 100},
	{"DAI", "Dai Stablecoin (dev)", 18, ClassStable, 100},
	{"WETH", "Wrapped Ether", 18, ClassMajor, 300_000},
	{"WBTC", "Wrapped Bitcoin (dev)", 8, ClassMajor, 6_000_000},
	{"DEMO", "Demo Token (dev)", 18, ClassOther, 200},
}

type poolSpec struct {
	family     string
	a, b       string // symbols
	amtA, amtB int64  // whole tokens
	feePpm     uint64 // cpmm
	amp, fee   uint64 // stableswap
}

// Seeded pools; amounts are consistent with the token prices above.
var poolSpecs = []poolSpec{
	{family: FamilyCPMM, a: "WETH", b: "USDC", amtA: 1_000, amtB: 3_000_000, feePpm: 3000},
	{family: FamilyCPMM, a: "WETH", b: "USDC", amtA: 500, amtB: 1_500_000, feePpm: 500},
	{family: FamilyCPMM, a: "WETH", b: "USDT", amtA: 500, amtB: 1_500_000, feePpm: 500},
	{family: FamilyCPMM, a: "WETH", b: "DAI", amtA: 500, amtB: 1_500_000, feePpm: 3000},
	{family: FamilyCPMM, a: "WBTC", b: "USDC", amtA: 50, amtB: 3_000_000, feePpm: 3000},
	{family: FamilyCPMM, a: "WETH", b: "WBTC", amtA: 500, amtB: 25, feePpm: 3000},
	{family: FamilyCPMM, a: "DEMO", b: "USDC", amtA: 1_000_000, amtB: 2_000_000, feePpm: 3000},
	{family: FamilyStableSwap, a: "USDC", b: "USDT", amtA: 5_000_000, amtB: 5_000_000, amp: 200, fee: 4_000_000},
	{family: FamilyStableSwap, a: "USDC", b: "DAI", amtA: 5_000_000, amtB: 5_000_000, amp: 200, fee: 4_000_000},
	{family: FamilyStableSwap, a: "USDT", b: "DAI", amtA: 3_000_000, amtB: 3_000_000, amp: 100, fee: 4_000_000},
}

// Deploy deploys and seeds the whole contract set from auth.From: oracle,
// router (which creates its executor; owner = deployer), the tokens, the
// pools of both venue families with liquidity, oracle prices consistent with
// the pools, the fee table and token classes, and a Multicall. It works with
// any bind.Backend (ethclient/simulated, ethclient against geth --dev or a
// real node); see Params.Mine for the simulated backend.
func Deploy(ctx context.Context, backend bind.Backend, auth *bind.TransactOpts, p Params) (*Deployment, error) {
	s, err := newSender(ctx, backend, auth, p.Mine, p.PollInterval)
	if err != nil {
		return nil, err
	}
	div := big.NewInt(p.LiquidityDivisor)
	if p.LiquidityDivisor <= 0 {
		div = big.NewInt(1)
	}
	maxAge := p.OracleMaxAge
	if maxAge == 0 {
		maxAge = 3600
	}
	d := &Deployment{Deployer: auth.From, FeeVault: p.FeeVault}
	if d.FeeVault == (common.Address{}) {
		d.FeeVault = auth.From
	}

	// Phase 1: independent deployments.
	tokens := map[string]*Token{}
	tt := testtoken.NewTestToken()
	for _, ts := range tokenSpecs {
		var addr common.Address
		if ts.symbol == "WETH" {
			addr, err = s.deploy("WrappedNative", &wrappednative.WrappedNativeMetaData, nil)
			d.WrappedNative = addr
		} else {
			addr, err = s.deploy("TestToken "+ts.symbol, &testtoken.TestTokenMetaData, tt.PackConstructor(ts.name, ts.symbol, ts.decimals))
		}
		if err != nil {
			return nil, err
		}
		d.Tokens = append(d.Tokens, Token{
			Symbol: ts.symbol, Name: ts.name, Address: addr, Decimals: ts.decimals, Class: ts.class,
			PriceUSD: new(big.Int).Mul(big.NewInt(ts.priceUSD), big.NewInt(1_000_000)),
		})
	}
	for i := range d.Tokens {
		tokens[d.Tokens[i].Symbol] = &d.Tokens[i]
	}
	if d.Oracle, err = s.deploy("Oracle", &oracle.OracleMetaData, oracle.NewOracle().PackConstructor(new(big.Int).SetUint64(maxAge))); err != nil {
		return nil, err
	}
	router := servicerouter.NewServiceRouter()
	if d.Router, err = s.deploy("ServiceRouter", &servicerouter.ServiceRouterMetaData,
		router.PackConstructor(auth.From, d.FeeVault, d.Oracle, d.WrappedNative)); err != nil {
		return nil, err
	}
	routerIdx := len(s.pending) - 1
	if d.Multicall, err = s.deploy("Multicall", &multicall.MulticallMetaData, nil); err != nil {
		return nil, err
	}
	receipts, err := s.flush()
	if err != nil {
		return nil, err
	}
	d.Block = receipts[routerIdx].BlockNumber.Uint64()
	if err := d.readExecutor(ctx, backend); err != nil {
		return nil, err
	}

	// Phase 2: configuration, funds for liquidity, pool deployments.
	if err := configure(s, d, router, p.Fees); err != nil {
		return nil, err
	}
	if err := fund(s, d, tokens, div); err != nil {
		return nil, err
	}
	if err := deployPools(s, d, tokens, div); err != nil {
		return nil, err
	}
	if _, err := s.flush(); err != nil {
		return nil, err
	}

	// Phase 3: approvals; phase 4: liquidity.
	if err := seedPools(s, d); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Deployment) readExecutor(ctx context.Context, backend bind.Backend) error {
	r := servicerouter.NewServiceRouter()
	exec, err := bind.Call(r.Instance(backend, d.Router), &bind.CallOpts{Context: ctx}, r.PackExecutor(), r.UnpackExecutor)
	if err != nil {
		return fmt.Errorf("contracts: read executor: %w", err)
	}
	d.Executor = exec
	return nil
}

func configure(s *sender, d *Deployment, router *servicerouter.ServiceRouter, fees []FeeCell) error {
	for _, f := range fees {
		label := fmt.Sprintf("setFee(%d,%d)", f.Kind, f.Class)
		if err := s.call(label, d.Router, router.PackSetFee(f.Kind, f.Class, f.ProtocolPpm, f.KeeperPpm), nil); err != nil {
			return err
		}
	}
	addrs := make([]common.Address, len(d.Tokens))
	prices := make([]*big.Int, len(d.Tokens))
	for i, t := range d.Tokens {
		if err := s.call("setTokenClass "+t.Symbol, d.Router, router.PackSetTokenClass(t.Address, t.Class), nil); err != nil {
			return err
		}
		addrs[i], prices[i] = t.Address, t.PriceUSD
	}
	return s.call("oracle setPrices", d.Oracle, oracle.NewOracle().PackSetPrices(addrs, prices), nil)
}

// seedAmount is whole × 10^decimals / div.
func seedAmount(whole int64, decimals uint8, div *big.Int) *big.Int {
	v := new(big.Int).Mul(big.NewInt(whole), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
	return v.Quo(v, div)
}

func fund(s *sender, d *Deployment, tokens map[string]*Token, div *big.Int) error {
	need := map[string]*big.Int{}
	for _, ps := range poolSpecs {
		for _, side := range []struct {
			sym string
			amt int64
		}{{ps.a, ps.amtA}, {ps.b, ps.amtB}} {
			if need[side.sym] == nil {
				need[side.sym] = new(big.Int)
			}
			need[side.sym].Add(need[side.sym], seedAmount(side.amt, tokens[side.sym].Decimals, div))
		}
	}
	tt := testtoken.NewTestToken()
	weth := wrappednative.NewWrappedNative()
	for _, t := range d.Tokens {
		amt := need[t.Symbol]
		if amt == nil {
			continue
		}
		var err error
		if t.Address == d.WrappedNative {
			err = s.call("WETH deposit", t.Address, weth.PackDeposit(), amt)
		} else {
			err = s.call("mint "+t.Symbol, t.Address, tt.PackMint(d.Deployer, amt), nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func deployPools(s *sender, d *Deployment, tokens map[string]*Token, div *big.Int) error {
	for _, ps := range poolSpecs {
		a, b := tokens[ps.a], tokens[ps.b]
		pool := Pool{
			Family: ps.family, Token0: a.Address, Token1: b.Address,
			Reserve0: seedAmount(ps.amtA, a.Decimals, div), Reserve1: seedAmount(ps.amtB, b.Decimals, div),
		}
		label := fmt.Sprintf("%s %s/%s", ps.family, ps.a, ps.b)
		var err error
		switch ps.family {
		case FamilyCPMM:
			pool.FeePpm = ps.feePpm
			pool.Address, err = s.deploy(label, &constantproductpool.ConstantProductPoolMetaData,
				constantproductpool.NewConstantProductPool().PackConstructor(a.Address, b.Address, new(big.Int).SetUint64(ps.feePpm)))
		case FamilyStableSwap:
			pool.A, pool.Fee = ps.amp, ps.fee
			pool.Address, err = s.deploy(label, &stableswappool.StableSwapPoolMetaData,
				stableswappool.NewStableSwapPool().PackConstructor(a.Address, b.Address,
					new(big.Int).SetUint64(ps.amp), new(big.Int).SetUint64(ps.fee)))
		}
		if err != nil {
			return err
		}
		d.Pools = append(d.Pools, pool)
	}
	return nil
}

func seedPools(s *sender, d *Deployment) error {
	tt := testtoken.NewTestToken()
	maxUint := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for _, pool := range d.Pools {
		for _, tok := range []common.Address{pool.Token0, pool.Token1} {
			if err := s.call("approve pool", tok, tt.PackApprove(pool.Address, maxUint), nil); err != nil {
				return err
			}
		}
	}
	if _, err := s.flush(); err != nil {
		return err
	}
	cp := constantproductpool.NewConstantProductPool()
	for _, pool := range d.Pools {
		// Both pool families share the addLiquidity signature.
		if err := s.call("addLiquidity", pool.Address, cp.PackAddLiquidity(pool.Reserve0, pool.Reserve1), nil); err != nil {
			return err
		}
	}
	_, err := s.flush()
	return err
}
