package contracts

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// testChainID is the engine's chain id (contract.md section 1).
const testChainID = 4663

// account is a funded test key.
type account struct {
	key  *ecdsa.PrivateKey
	addr common.Address
	auth *bind.TransactOpts
}

func newAccount(t *testing.T, name string) account {
	t.Helper()
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("orderengine test " + name)))
	if err != nil {
		t.Fatal(err)
	}
	return account{key: key, addr: crypto.PubkeyToAddress(key.PublicKey), auth: bind.NewKeyedTransactor(key, big.NewInt(testChainID))}
}

// env is a simulated chain with the full deployment.
type env struct {
	t        *testing.T
	ctx      context.Context
	sim      *simulated.Backend
	client   simulated.Client
	d        *Deployment
	deployer account
	vault    account
	maker    account
	keeper   account
	referrer account
	receiver account
	other    account

	routerABI *abi.ABI
	router    *servicerouter.ServiceRouter
	token     *testtoken.TestToken
}

// testFees is the fee table the router tests run with: distinct values per
// kind so a wrong cell shows up as a wrong wei amount.
var testFees = func() []FeeCell {
	var cells []FeeCell
	for kind := KindDirect; kind <= KindTrailing; kind++ {
		for class := ClassStable; class <= ClassOther; class++ {
			cells = append(cells, FeeCell{
				Kind: kind, Class: class,
				ProtocolPpm: 1000 + 100*uint32(kind) + 10*uint32(class),
				KeeperPpm:   500 + 50*uint32(kind) + 5*uint32(class),
			})
		}
	}
	return cells
}()

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, ctx: context.Background()}
	e.deployer = newAccount(t, "deployer")
	e.vault = newAccount(t, "vault")
	e.maker = newAccount(t, "maker")
	e.keeper = newAccount(t, "keeper")
	e.referrer = newAccount(t, "referrer")
	e.receiver = newAccount(t, "receiver")
	e.other = newAccount(t, "other")
	rich := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(params.Ether))
	alloc := types.GenesisAlloc{}
	for _, a := range []account{e.deployer, e.vault, e.maker, e.keeper, e.referrer, e.receiver, e.other} {
		alloc[a.addr] = types.Account{Balance: rich}
	}
	e.sim = simulated.NewBackend(alloc, WithChainID(testChainID))
	t.Cleanup(func() { _ = e.sim.Close() })
	e.client = e.sim.Client()
	d, err := Deploy(e.ctx, e.client, e.deployer.auth, Params{
		FeeVault: e.vault.addr, Fees: testFees, OracleMaxAge: 3600, Mine: func() { e.sim.Commit() },
	})
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	e.d = d
	e.router = servicerouter.NewServiceRouter()
	e.routerABI, err = servicerouter.ServiceRouterMetaData.ParseABI()
	if err != nil {
		t.Fatal(err)
	}
	e.token = testtoken.NewTestToken()
	return e
}

// tok returns a deployed token's address by symbol.
func (e *env) tok(symbol string) common.Address {
	tk, ok := e.d.Token(symbol)
	if !ok {
		e.t.Fatalf("no token %s", symbol)
	}
	return tk.Address
}

// send signs and sends a transaction with calldata to `to`, mines it and
// returns its receipt; it fails the test when the transaction reverts.
func (e *env) send(from account, to common.Address, data []byte, value *big.Int) *types.Receipt {
	e.t.Helper()
	r, err := e.trySend(from, to, data, value)
	if err != nil {
		e.t.Fatalf("send to %s: %v (revert %s)", to, err, e.revertName(err))
	}
	return r
}

// trySend is send that returns the error (with the revert data of the gas
// estimation, which runs the same code) instead of failing.
func (e *env) trySend(from account, to common.Address, data []byte, value *big.Int) (*types.Receipt, error) {
	e.t.Helper()
	opts := *from.auth
	opts.Context = e.ctx
	opts.Value = value
	gas, err := EstimateGas(e.ctx, e.client, from.addr, &to, data, value)
	if err != nil {
		return nil, err
	}
	opts.GasLimit = gas
	c := bind.NewBoundContract(to, abi.ABI{}, e.client, e.client, e.client)
	tx, err := c.RawTransact(&opts, data)
	if err != nil {
		return nil, err
	}
	e.sim.Commit()
	r, err := e.client.TransactionReceipt(e.ctx, tx.Hash())
	if err != nil {
		return nil, err
	}
	if r.Status != types.ReceiptStatusSuccessful {
		return r, errors.New("transaction reverted")
	}
	return r, nil
}

// call makes an eth_call from `from` at the latest block.
func (e *env) call(from common.Address, to common.Address, data []byte) ([]byte, error) {
	return e.client.CallContract(e.ctx, ethereum.CallMsg{From: from, To: &to, Data: data}, nil)
}

// revertName decodes a revert error to the router's custom error name (the
// `revertName` of order.failed); "" when it is not one of them.
func (e *env) revertName(err error) string {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return ""
	}
	s, ok := de.ErrorData().(string)
	if !ok {
		return ""
	}
	data, derr := hexutil.Decode(s)
	if derr != nil || len(data) < 4 {
		return ""
	}
	for name, ev := range e.routerABI.Errors {
		if string(ev.ID[:4]) == string(data[:4]) {
			return name
		}
	}
	return ""
}

// revertData returns the raw revert data of err.
func revertData(err error) []byte {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return nil
	}
	s, _ := de.ErrorData().(string)
	data, _ := hexutil.Decode(s)
	return data
}

// expectRevert sends the transaction and requires it to fail with the named
// router error.
func (e *env) expectRevert(want string, from account, to common.Address, data []byte) {
	e.t.Helper()
	_, err := e.trySend(from, to, data, nil)
	if err == nil {
		e.t.Fatalf("expected revert %s, the transaction succeeded", want)
	}
	if got := e.revertName(err); got != want {
		e.t.Fatalf("expected revert %s, got %q (%v)", want, got, err)
	}
}

// balance returns the token balance of an account.
func (e *env) balance(token, who common.Address) *big.Int {
	e.t.Helper()
	out, err := e.call(who, token, e.token.PackBalanceOf(who))
	if err != nil {
		e.t.Fatalf("balanceOf: %v", err)
	}
	v, err := e.token.UnpackBalanceOf(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

// fundAndApprove gives `who` amount of the token (minting, or wrapping for
// WETH) and approves the router for it.
func (e *env) fundAndApprove(who account, symbol string, amount *big.Int) {
	e.t.Helper()
	token := e.tok(symbol)
	if symbol == "WETH" {
		e.send(who, token, common.FromHex("0xd0e30db0"), amount) // deposit()
	} else {
		e.send(who, token, e.token.PackMint(who.addr, amount), nil)
	}
	e.send(who, token, e.token.PackApprove(e.d.Router, maxUint256()), nil)
}

// advance moves the chain's clock forward and mines a block.
func (e *env) advance(d time.Duration) {
	e.t.Helper()
	if err := AdjustTime(e.sim, d); err != nil {
		e.t.Fatal(err)
	}
	e.sim.Commit()
}

// now returns the latest block's timestamp.
func (e *env) now() uint64 {
	e.t.Helper()
	h, err := e.client.HeaderByNumber(e.ctx, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return h.Time
}

func maxUint256() *big.Int {
	return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
}

// units returns whole × 10^decimals.
func units(whole int64, decimals uint8) *big.Int {
	return new(big.Int).Mul(big.NewInt(whole), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}
