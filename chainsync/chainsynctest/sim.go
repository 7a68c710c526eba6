// Package chainsynctest is a simulated chain (chain id 4663) with the full
// contract deployment, a funded maker and a keeper, for the lifecycle
// packages' tests: orders signed with the real EIP-712 hashing, fills through
// a real pool, the router's counters read back.
package chainsynctest

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/contracts"
	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/contracts/bindings/oracle"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

const testChainID = 4663

// Acct is a funded test key.
type Acct struct {
	Key  *ecdsa.PrivateKey
	Addr common.Address
}

// NewAcct derives a deterministic test key from name.
func NewAcct(t *testing.T, name string) Acct {
	t.Helper()
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("indexer test " + name)))
	if err != nil {
		t.Fatal(err)
	}
	return Acct{Key: key, Addr: crypto.PubkeyToAddress(key.PublicKey)}
}

// Env is a simulated chain (chain id 4663) with the full deployment, a
// funded maker and a keeper.
type Env struct {
	T        *testing.T
	Ctx      context.Context
	Sim      *simulated.Backend
	Client   simulated.Client
	D        *contracts.Deployment
	Deployer Acct
	Maker    Acct
	Keeper   Acct
	Router   *servicerouter.ServiceRouter
	Token    *testtoken.TestToken
	Domain   *chain.Domain
}

// NewEnv deploys everything on a fresh simulated chain; the maker holds
// USDC and has approved the router.
func NewEnv(t *testing.T) *Env {
	t.Helper()
	e := &Env{T: t, Ctx: context.Background(), Router: servicerouter.NewServiceRouter(), Token: testtoken.NewTestToken()}
	e.Deployer, e.Maker, e.Keeper = NewAcct(t, "deployer"), NewAcct(t, "maker"), NewAcct(t, "keeper")
	rich := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(params.Ether))
	alloc := types.GenesisAlloc{}
	for _, a := range []Acct{e.Deployer, e.Maker, e.Keeper} {
		alloc[a.Addr] = types.Account{Balance: rich}
	}
	e.Sim = simulated.NewBackend(alloc, contracts.WithChainID(testChainID))
	t.Cleanup(func() { _ = e.Sim.Close() })
	e.Client = e.Sim.Client()
	d, err := contracts.Deploy(e.Ctx, e.Client, e.Auth(e.Deployer), contracts.Params{
		OracleMaxAge: 1 << 30, Mine: func() { e.Sim.Commit() },
	})
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	e.D = d
	e.Domain = chain.NewRouterDomain(testChainID, d.Router)
	usdc := e.Tok("USDC")
	e.MustSend(e.Maker, usdc, e.Token.PackMint(e.Maker.Addr, big.NewInt(1e15)))
	e.MustSend(e.Maker, usdc, e.Token.PackApprove(d.Router, new(big.Int).Lsh(big.NewInt(1), 255)))
	return e
}

// Auth is a transactor of a on chain 4663.
func (e *Env) Auth(a Acct) *bind.TransactOpts {
	return bind.NewKeyedTransactor(a.Key, big.NewInt(testChainID))
}

// Tok returns a deployed token's address by symbol.
func (e *Env) Tok(symbol string) common.Address {
	tk, ok := e.D.Token(symbol)
	if !ok {
		e.T.Fatalf("no token %s", symbol)
	}
	return tk.Address
}

// Send signs and submits a transaction without mining it.
func (e *Env) Send(from Acct, to common.Address, data []byte) (*types.Transaction, error) {
	gas, err := e.Client.EstimateGas(e.Ctx, ethereum.CallMsg{From: from.Addr, To: &to, Data: data})
	if err != nil {
		return nil, err
	}
	opts := e.Auth(from)
	opts.Context = e.Ctx
	opts.GasLimit = gas + gas/4
	c := bind.NewBoundContract(to, servicerouter.NewServiceRouter().GetABI(), e.Client, e.Client, e.Client)
	return c.RawTransact(opts, data)
}

// MustSend sends, mines and requires success.
func (e *Env) MustSend(from Acct, to common.Address, data []byte) *types.Receipt {
	e.T.Helper()
	tx, err := e.Send(from, to, data)
	if err != nil {
		e.T.Fatalf("send: %v", err)
	}
	e.Sim.Commit()
	r, err := e.Client.TransactionReceipt(e.Ctx, tx.Hash())
	if err != nil {
		e.T.Fatal(err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		e.T.Fatal(errors.New("transaction reverted"))
	}
	return r
}

// LimitOrder is a partially fillable USDC→WETH limit order of the maker
// with a negligible limit price, nonce n.
func (e *Env) LimitOrder(amountIn int64, nonce uint64) (servicerouter.Order, []byte, common.Hash) {
	e.T.Helper()
	return e.SignOrder(amountIn, 1, chain.Traits{Nonce: nonce, SlippagePpm: 10_000, Flags: chain.FlagAllowPartialFill})
}

// SignOrder builds and signs a USDC→WETH order of the maker with the given
// trigger price (raw WETH per whole USDC) and traits.
func (e *Env) SignOrder(amountIn int64, triggerPrice uint64, t chain.Traits) (servicerouter.Order, []byte, common.Hash) {
	e.T.Helper()
	tr, err := chain.EncodeTraits(t)
	if err != nil {
		e.T.Fatal(err)
	}
	o := chain.Order{
		Maker: e.Maker.Addr, Receiver: e.Maker.Addr, TokenIn: e.Tok("USDC"), TokenOut: e.Tok("WETH"),
		AmountIn: *uint256.NewInt(uint64(amountIn)), TriggerPrice: *uint256.NewInt(triggerPrice),
		MakerTraits: tr, Referrer: e.Deployer.Addr, ReferralFeePpm: 0,
	}
	o.Salt.SetUint64(uint64(amountIn)*1000 + t.Nonce)
	o.TriggerAmountOut.SetUint64(uint64(amountIn) * triggerPrice / 1_000_000)
	h := chain.OrderHash(e.Domain, &o)
	sig, err := crypto.Sign(h[:], e.Maker.Key)
	if err != nil {
		e.T.Fatal(err)
	}
	sig[64] += 27
	so := servicerouter.Order{
		Salt: o.Salt.ToBig(), Maker: o.Maker, Receiver: o.Receiver, TokenIn: o.TokenIn, TokenOut: o.TokenOut,
		AmountIn: o.AmountIn.ToBig(), TriggerPrice: o.TriggerPrice.ToBig(), TriggerAmountOut: o.TriggerAmountOut.ToBig(),
		MakerTraits: o.MakerTraits.ToBig(), Referrer: o.Referrer, ReferralFeePpm: o.ReferralFeePpm,
	}
	return so, sig, h
}

// Record is the order record the submit path would store for o.
func Record(o servicerouter.Order, sig []byte, h common.Hash, accountID string, created time.Time) *orderstore.Record {
	t := chain.DecodeTraits(uint256.MustFromBig(o.MakerTraits))
	class, _ := t.Class()
	rec := &orderstore.Record{
		Hash: h, Version: 1, Class: class, Status: orderstore.StatusPending,
		Order: chain.Order{
			Maker: o.Maker, Receiver: o.Receiver, TokenIn: o.TokenIn, TokenOut: o.TokenOut,
			Referrer: o.Referrer, ReferralFeePpm: o.ReferralFeePpm,
			Salt: *uint256.MustFromBig(o.Salt), AmountIn: *uint256.MustFromBig(o.AmountIn),
			TriggerPrice: *uint256.MustFromBig(o.TriggerPrice), TriggerAmountOut: *uint256.MustFromBig(o.TriggerAmountOut),
			MakerTraits: *uint256.MustFromBig(o.MakerTraits),
		},
		Signature: sig, AccountID: accountID, CreatedAt: created.UTC(), UpdatedAt: created.UTC(),
	}
	switch class {
	case chain.ClassDCA:
		rec.DCA = &orderstore.DCAParams{
			IntervalSeconds: t.IntervalSeconds, TotalExecutions: t.TotalExecutions,
			FlexibilityPpm: t.FlexibilityPpm(), ShortCircuit: t.Flags&chain.FlagShortCircuit != 0,
			PriceGated: t.Flags&chain.FlagPriceGated != 0,
		}
	case chain.ClassTrailing:
		rec.Trailing = &orderstore.TrailingParams{TrailPpm: t.TrailPpm()}
	}
	return rec
}

// SetPrice writes an oracle answer (USD, 8 decimals) and mines it.
func (e *Env) SetPrice(symbol string, usd8 int64) {
	e.T.Helper()
	e.MustSend(e.Deployer, e.D.Oracle, oracle.NewOracle().PackSetPrice(e.Tok(symbol), big.NewInt(usd8)))
}

// Now is the head block's time.
func (e *Env) Now() uint64 { return e.Head().Time }

// FillData is fillOrder through the USDC/WETH cpmm pool.
func (e *Env) FillData(o servicerouter.Order, sig []byte, fillIn int64) []byte {
	var pool common.Address
	for _, p := range e.D.Pools {
		if p.Family == contracts.FamilyCPMM && p.FeePpm == 3000 &&
			((p.Token0 == o.TokenIn && p.Token1 == o.TokenOut) || (p.Token1 == o.TokenIn && p.Token0 == o.TokenOut)) {
			pool = p.Address
		}
	}
	if pool == (common.Address{}) {
		e.T.Fatal("no USDC/WETH pool")
	}
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	cp := constantproductpool.NewConstantProductPool()
	calls := []servicerouter.Call{
		{Target: o.TokenIn, Data: e.Token.PackApprove(pool, big.NewInt(fillIn))},
		{Target: pool, Data: cp.PackSwap(o.TokenIn, max, big.NewInt(0), e.D.Executor)},
	}
	return e.Router.PackFillOrder(o, sig, big.NewInt(fillIn), calls, big.NewInt(0))
}

// RouterFilled reads the router's filledIn and executions at the head.
func (e *Env) RouterFilled(h common.Hash) (*big.Int, uint32) {
	e.T.Helper()
	out, err := e.Client.CallContract(e.Ctx, ethereum.CallMsg{To: &e.D.Router, Data: e.Router.PackFilled(h)}, nil)
	if err != nil {
		e.T.Fatal(err)
	}
	st, err := e.Router.UnpackFilled(out)
	if err != nil {
		e.T.Fatal(err)
	}
	return st.FilledIn, st.Executions
}

// Head is the head block's header.
func (e *Env) Head() *types.Header {
	e.T.Helper()
	h, err := e.Client.HeaderByNumber(e.Ctx, nil)
	if err != nil {
		e.T.Fatal(err)
	}
	return h
}

// OpenStore opens a store in dir.
func OpenStore(t testing.TB, dir string) *persistence.Store {
	t.Helper()
	s, err := persistence.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Chain returns the chain records of store (chainstore.New: the one Chain
// of the store), failing t on error.
func Chain(t testing.TB, store *persistence.Store) *chainstore.Chain {
	t.Helper()
	c, err := chainstore.New(store)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
