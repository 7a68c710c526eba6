package indexer

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/contracts"
	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
	"github.com/orderengine/orderengine/persistence"
)

const testChainID = 4663

// acct is a funded test key.
type acct struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

func newAcct(t *testing.T, name string) acct {
	t.Helper()
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("indexer test " + name)))
	if err != nil {
		t.Fatal(err)
	}
	return acct{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
}

// simEnv is a simulated chain (chain id 4663) with the full deployment, a
// funded maker and a keeper.
type simEnv struct {
	t        *testing.T
	ctx      context.Context
	sim      *simulated.Backend
	client   simulated.Client
	d        *contracts.Deployment
	deployer acct
	maker    acct
	keeper   acct
	router   *servicerouter.ServiceRouter
	token    *testtoken.TestToken
	domain   *chain.Domain
}

func newSimEnv(t *testing.T) *simEnv {
	t.Helper()
	e := &simEnv{t: t, ctx: context.Background(), router: servicerouter.NewServiceRouter(), token: testtoken.NewTestToken()}
	e.deployer, e.maker, e.keeper = newAcct(t, "deployer"), newAcct(t, "maker"), newAcct(t, "keeper")
	rich := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(params.Ether))
	alloc := types.GenesisAlloc{}
	for _, a := range []acct{e.deployer, e.maker, e.keeper} {
		alloc[a.addr] = types.Account{Balance: rich}
	}
	e.sim = simulated.NewBackend(alloc, func(_ *node.Config, ec *ethconfig.Config) {
		cfg := *params.AllDevChainProtocolChanges
		cfg.ChainID = big.NewInt(testChainID)
		ec.Genesis.Config = &cfg
		ec.NetworkId = testChainID
	})
	t.Cleanup(func() { _ = e.sim.Close() })
	e.client = e.sim.Client()
	d, err := contracts.Deploy(e.ctx, e.client, e.auth(e.deployer), contracts.Params{
		OracleMaxAge: 1 << 30, Mine: func() { e.sim.Commit() },
	})
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	e.d = d
	e.domain = chain.NewRouterDomain(testChainID, d.Router)
	usdc := e.tok("USDC")
	e.mustSend(e.maker, usdc, e.token.PackMint(e.maker.addr, big.NewInt(1e15)))
	e.mustSend(e.maker, usdc, e.token.PackApprove(d.Router, new(big.Int).Lsh(big.NewInt(1), 255)))
	return e
}

func (e *simEnv) auth(a acct) *bind.TransactOpts {
	return bind.NewKeyedTransactor(a.key, big.NewInt(testChainID))
}

func (e *simEnv) tok(symbol string) common.Address {
	tk, ok := e.d.Token(symbol)
	if !ok {
		e.t.Fatalf("no token %s", symbol)
	}
	return tk.Address
}

// send signs and submits a transaction without mining it.
func (e *simEnv) send(from acct, to common.Address, data []byte) (*types.Transaction, error) {
	gas, err := e.client.EstimateGas(e.ctx, ethereum.CallMsg{From: from.addr, To: &to, Data: data})
	if err != nil {
		return nil, err
	}
	opts := e.auth(from)
	opts.Context = e.ctx
	opts.GasLimit = gas + gas/4
	c := bind.NewBoundContract(to, servicerouter.NewServiceRouter().GetABI(), e.client, e.client, e.client)
	return c.RawTransact(opts, data)
}

// mustSend sends, mines and requires success.
func (e *simEnv) mustSend(from acct, to common.Address, data []byte) *types.Receipt {
	e.t.Helper()
	tx, err := e.send(from, to, data)
	if err != nil {
		e.t.Fatalf("send: %v", err)
	}
	e.sim.Commit()
	r, err := e.client.TransactionReceipt(e.ctx, tx.Hash())
	if err != nil {
		e.t.Fatal(err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatal(errors.New("transaction reverted"))
	}
	return r
}

// limitOrder is a partially fillable USDC→WETH limit order of the maker
// with a negligible limit price, nonce n.
func (e *simEnv) limitOrder(amountIn int64, nonce uint64) (servicerouter.Order, []byte, common.Hash) {
	e.t.Helper()
	tr, err := chain.EncodeTraits(chain.Traits{Nonce: nonce, SlippagePpm: 10_000, Flags: chain.FlagAllowPartialFill})
	if err != nil {
		e.t.Fatal(err)
	}
	o := chain.Order{
		Maker: e.maker.addr, Receiver: e.maker.addr, TokenIn: e.tok("USDC"), TokenOut: e.tok("WETH"),
		AmountIn: *uint256.NewInt(uint64(amountIn)), TriggerPrice: *uint256.NewInt(1),
		MakerTraits: tr, Referrer: e.deployer.addr, ReferralFeePpm: 0,
	}
	o.Salt.SetUint64(uint64(amountIn)*1000 + nonce)
	o.TriggerAmountOut.SetUint64(uint64(amountIn) / 1_000_000)
	h := chain.OrderHash(e.domain, &o)
	sig, err := crypto.Sign(h[:], e.maker.key)
	if err != nil {
		e.t.Fatal(err)
	}
	sig[64] += 27
	so := servicerouter.Order{
		Salt: o.Salt.ToBig(), Maker: o.Maker, Receiver: o.Receiver, TokenIn: o.TokenIn, TokenOut: o.TokenOut,
		AmountIn: o.AmountIn.ToBig(), TriggerPrice: o.TriggerPrice.ToBig(), TriggerAmountOut: o.TriggerAmountOut.ToBig(),
		MakerTraits: o.MakerTraits.ToBig(), Referrer: o.Referrer, ReferralFeePpm: o.ReferralFeePpm,
	}
	return so, sig, h
}

// fillData is fillOrder through the USDC/WETH cpmm pool.
func (e *simEnv) fillData(o servicerouter.Order, sig []byte, fillIn int64) []byte {
	var pool common.Address
	for _, p := range e.d.Pools {
		if p.Family == contracts.FamilyCPMM && p.FeePpm == 3000 &&
			((p.Token0 == o.TokenIn && p.Token1 == o.TokenOut) || (p.Token1 == o.TokenIn && p.Token0 == o.TokenOut)) {
			pool = p.Address
		}
	}
	if pool == (common.Address{}) {
		e.t.Fatal("no USDC/WETH pool")
	}
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	cp := constantproductpool.NewConstantProductPool()
	calls := []servicerouter.Call{
		{Target: o.TokenIn, Data: e.token.PackApprove(pool, big.NewInt(fillIn))},
		{Target: pool, Data: cp.PackSwap(o.TokenIn, max, big.NewInt(0), e.d.Executor)},
	}
	return e.router.PackFillOrder(o, sig, big.NewInt(fillIn), calls, big.NewInt(0))
}

// routerFilled reads the router's filledIn and executions at the head.
func (e *simEnv) routerFilled(h common.Hash) (*big.Int, uint32) {
	e.t.Helper()
	out, err := e.client.CallContract(e.ctx, ethereum.CallMsg{To: &e.d.Router, Data: e.router.PackFilled(h)}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	st, err := e.router.UnpackFilled(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return st.FilledIn, st.Executions
}

func (e *simEnv) head() *types.Header {
	e.t.Helper()
	h, err := e.client.HeaderByNumber(e.ctx, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return h
}

// openStore opens a store in dir.
func openStore(t testing.TB, dir string) *persistence.Store {
	t.Helper()
	s, err := persistence.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
