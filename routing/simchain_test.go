package routing

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/orderengine/orderengine/contracts/bindings/constantproductpool"
	"github.com/orderengine/orderengine/contracts/bindings/stableswappool"
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
)

// simChain is a simulated chain with one funded account, for comparing the
// simulators with the real pool contracts.
type simChain struct {
	t      *testing.T
	ctx    context.Context
	sim    *simulated.Backend
	client simulated.Client
	rpc    *rpc.Client // raw JSON-RPC (IPC), for eth_call with state overrides
	key    *ecdsa.PrivateKey
	from   common.Address
	auth   *bind.TransactOpts
}

func newSimChain(t *testing.T) *simChain {
	t.Helper()
	key, _ := crypto.ToECDSA(crypto.Keccak256([]byte("routing simulator test")))
	from := crypto.PubkeyToAddress(key.PublicKey)
	rich := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(params.Ether))
	ipc := filepath.Join(t.TempDir(), "sim.ipc")
	sim := simulated.NewBackend(types.GenesisAlloc{from: {Balance: rich}}, simulated.WithBlockGasLimit(100_000_000),
		func(nc *node.Config, _ *ethconfig.Config) { nc.IPCPath = ipc })
	t.Cleanup(func() { _ = sim.Close() })
	raw, err := rpc.Dial(ipc)
	if err != nil {
		t.Fatalf("dial the simulated chain's IPC endpoint: %v", err)
	}
	t.Cleanup(raw.Close)
	chainID, err := sim.Client().ChainID(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	auth := bind.NewKeyedTransactor(key, chainID)
	return &simChain{t: t, ctx: context.Background(), sim: sim, client: sim.Client(), rpc: raw, key: key, from: from, auth: auth}
}

func (c *simChain) deploy(meta *bind.MetaData, args []byte) common.Address {
	c.t.Helper()
	opts := *c.auth
	addr, tx, err := bind.DeployContract(&opts, common.FromHex(meta.Bin), c.client, args)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sim.Commit()
	c.receipt(tx)
	return addr
}

func (c *simChain) send(to common.Address, data []byte) *types.Receipt {
	c.t.Helper()
	opts := *c.auth
	tx, err := bind.NewBoundContract(to, abi.ABI{}, c.client, c.client, c.client).RawTransact(&opts, data)
	if err != nil {
		c.t.Fatalf("send to %s: %v", to.Hex(), err)
	}
	c.sim.Commit()
	return c.receipt(tx)
}

func (c *simChain) receipt(tx *types.Transaction) *types.Receipt {
	c.t.Helper()
	r, err := c.client.TransactionReceipt(c.ctx, tx.Hash())
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		c.t.Fatalf("tx %s failed: %v", tx.Hash().Hex(), err)
	}
	return r
}

func (c *simChain) call(to common.Address, data []byte) ([]byte, error) {
	return c.client.CallContract(c.ctx, ethereum.CallMsg{From: c.from, To: &to, Data: data}, nil)
}

// token deploys a TestToken with decimals and mints plenty to the account.
func (c *simChain) token(symbol string, decimals uint8) common.Address {
	tt := testtoken.NewTestToken()
	addr := c.deploy(&testtoken.TestTokenMetaData, tt.PackConstructor(symbol, symbol, decimals))
	c.send(addr, tt.PackMint(c.from, new(big.Int).Lsh(big.NewInt(1), 200)))
	return addr
}

// cpmmPool deploys and seeds a constant-product pool.
func (c *simChain) cpmmPool(t0, t1 common.Address, feePpm uint64, r0, r1 *big.Int) common.Address {
	cp := constantproductpool.NewConstantProductPool()
	addr := c.deploy(&constantproductpool.ConstantProductPoolMetaData, cp.PackConstructor(t0, t1, new(big.Int).SetUint64(feePpm)))
	c.seed(addr, t0, t1, r0, r1)
	return addr
}

// stablePool deploys and seeds a StableSwap pool.
func (c *simChain) stablePool(t0, t1 common.Address, amp, fee uint64, r0, r1 *big.Int) common.Address {
	sp := stableswappool.NewStableSwapPool()
	addr := c.deploy(&stableswappool.StableSwapPoolMetaData, sp.PackConstructor(t0, t1, new(big.Int).SetUint64(amp), new(big.Int).SetUint64(fee)))
	c.seed(addr, t0, t1, r0, r1)
	return addr
}

func (c *simChain) seed(pool, t0, t1 common.Address, r0, r1 *big.Int) {
	tt := testtoken.NewTestToken()
	maxUint := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	c.send(t0, tt.PackApprove(pool, maxUint))
	c.send(t1, tt.PackApprove(pool, maxUint))
	c.send(pool, constantproductpool.NewConstantProductPool().PackAddLiquidity(r0, r1))
}

// quote is the pool's getAmountOut at the latest block.
func (c *simChain) quote(pool, tokenIn common.Address, amountIn *big.Int) (*big.Int, error) {
	cp := constantproductpool.NewConstantProductPool()
	out, err := c.call(pool, cp.PackGetAmountOut(tokenIn, amountIn))
	if err != nil {
		return nil, err
	}
	return cp.UnpackGetAmountOut(out)
}

// bindRawValue sends data with value wei to `to` and mines it.
func bindRawValue(c *simChain, to common.Address, data []byte, value *big.Int) (*types.Transaction, error) {
	opts := *c.auth
	opts.Value = value
	tx, err := bind.NewBoundContract(to, abi.ABI{}, c.client, c.client, c.client).RawTransact(&opts, data)
	if err != nil {
		return nil, err
	}
	c.sim.Commit()
	return tx, nil
}
