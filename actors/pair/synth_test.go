package pair

import (
	"context"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chainsync/chainsynctest"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// synthEnv is a store holding open orders (a mix of limit, stop-loss and
// trailing in two pairs) with an order registry and the pairs over it,
// without a chain: prices come from fixedPrices.
type synthEnv struct {
	store    *persistence.Store
	chain    *chainstore.Chain
	system   *actor.ActorSystem
	orders   *orderstore.Store
	registry *order.Registry
	engine   *Pairs
	prices   Prices
	record   func(i int) (*orderstore.Record, common.Hash)
	mu       sync.Mutex
	hashes   []common.Hash // of the created orders
}

// fixedPrices answers every token at $1 with 6 decimals, so every pair's
// oracle price is 10^6 raw out per whole in.
type fixedPrices struct{}

func (fixedPrices) Answer(context.Context, common.Hash, uint64, common.Address) (*big.Int, error) {
	return big.NewInt(1_00000000), nil
}

func (fixedPrices) Decimals(context.Context, common.Hash, common.Address) (uint8, error) {
	return 6, nil
}

// syntheticOrder is an unsigned order of maker i for the benchmarks: the
// engine never checks signatures.
func syntheticOrder(i int, tokenIn, tokenOut common.Address, t chain.Traits, trigger uint64) (*orderstore.Record, common.Hash) {
	tr, err := chain.EncodeTraits(t)
	if err != nil {
		panic(err)
	}
	maker := common.BigToAddress(big.NewInt(int64(1_000_000 + i)))
	so := servicerouter.Order{
		Salt: big.NewInt(int64(i)), Maker: maker, Receiver: maker, TokenIn: tokenIn, TokenOut: tokenOut,
		AmountIn: big.NewInt(1_000_000), TriggerPrice: new(big.Int).SetUint64(trigger), TriggerAmountOut: big.NewInt(1),
		MakerTraits: uint256.MustFromBig(tr.ToBig()).ToBig(), Referrer: maker,
	}
	h := common.BigToHash(big.NewInt(int64(i) + 1))
	h[0] = 0xbe // not a real order hash
	return chainsynctest.Record(so, make([]byte, 65), h, "acc", time.Unix(1_700_000_000+int64(i), 0)), h
}

// newSynthEnv stores orders 0 to n-1 (synthRecord) before it returns; the
// pairs decide at fixedPrices.
func newSynthEnv(b testing.TB, n int) *synthEnv {
	return newSynthEnvAt(b, n, fixedPrices{}, synthRecord)
}

// newSynthEnvAt is newSynthEnv with the pairs deciding at prices, and
// record making order i.
func newSynthEnvAt(b testing.TB, n int, prices Prices, record func(int) (*orderstore.Record, common.Hash)) *synthEnv {
	b.Helper()
	e := &synthEnv{store: chainsynctest.OpenStore(b, b.TempDir()), prices: prices, record: record}
	b.Cleanup(func() { _ = e.store.Close() })
	e.chain = chainsynctest.Chain(b, e.store)
	e.orders = orderstore.New(e.store, persistence.NewOutbox(e.store, nil, nil))
	e.system = actor.NewActorSystem()
	b.Cleanup(e.system.Shutdown)
	e.registry = order.NewRegistry(e.system, order.Options{Journal: e.orders,
		Feed: func(prev orderstore.Status, rec *orderstore.Record, _ *common.Address) {
			e.engine.Changed(prev, rec)
		}})
	e.engine = e.newPairs()
	b.Cleanup(e.engine.Stop)
	e.create(b, 0, n)
	return e
}

// newPairs is a new Pairs over the env's store, loaded from it.
func (e *synthEnv) newPairs() *Pairs {
	p := New(Options{System: e.system, Store: e.store, Chain: e.chain, Orders: e.orders,
		Registry: e.registry, Prices: e.prices})
	if err := loadOpen(p); err != nil {
		panic(err)
	}
	return p
}

// synthRecord is order i: pair USDC-WETH for even i/2, USDC-DAI for odd;
// i%4 == 1 a stop-loss not hit at the fixed price, i%4 == 3 a trailing
// order, otherwise a limit order executable at the fixed price.
func synthRecord(i int) (*orderstore.Record, common.Hash) {
	usdc, weth, dai := common.HexToAddress("0x01"), common.HexToAddress("0x02"), common.HexToAddress("0x03")
	out := weth
	if i/2%2 == 1 {
		out = dai
	}
	var t chain.Traits
	trigger := uint64(1)
	switch i % 4 {
	case 1:
		t.Flags, trigger = chain.FlagStopLoss, 500_000
	case 3:
		t.Flags, t.KindParamPpm = chain.FlagTrailing, 100_000
	}
	t.Nonce, t.SlippagePpm = uint64(i), 10_000
	return syntheticOrder(i, usdc, out, t, trigger)
}

// create stores orders from to to-1 through the registry, 32 at a time.
func (e *synthEnv) create(b testing.TB, from, to int) {
	b.Helper()
	var wg sync.WaitGroup
	for w := range 32 {
		wg.Go(func() {
			for i := from + w; i < to; i += 32 {
				rec, h := e.record(i)
				if err := e.registry.Create(context.Background(), rec, nil); err != nil {
					b.Error(err)
					return
				}
				e.mu.Lock()
				e.hashes = append(e.hashes, h)
				e.mu.Unlock()
			}
		})
	}
	wg.Wait()
}
