package orders

import (
	"context"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/contracts/bindings/multicall"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Balances reads contract state at the latest block (eth_call). The dev
// chain's client and an *ethclient.Client satisfy it.
type Balances interface {
	CallContract(ctx context.Context, call ethereum.CallMsg, blockNumber *big.Int) ([]byte, error)
}

// ERC-20 selectors.
var (
	selBalanceOf = []byte{0x70, 0xa0, 0x82, 0x31} // balanceOf(address)
	selAllowance = []byte{0xdd, 0x62, 0xed, 0x3e} // allowance(address,address)
)

// fundedCache answers whether a maker holds and has approved the remaining
// amount of an order, caching each (token, maker) reading for ttl so that
// reads of many orders cost at most two eth_calls per maker and token per
// ttl.
type fundedCache struct {
	chain  Balances
	router common.Address
	// multicall, when set, lets prefetch read many makers in one call.
	multicall common.Address
	ttl       time.Duration
	clock     clock.Clock

	mu      sync.Mutex
	entries map[[40]byte]fundedEntry
}

type fundedEntry struct {
	balance, allowance uint256.Int
	at                 time.Time
}

func newFundedCache(b Balances, router, multicall common.Address, ttl time.Duration, clk clock.Clock) *fundedCache {
	return &fundedCache{chain: b, router: router, multicall: multicall, ttl: ttl, clock: clk, entries: make(map[[40]byte]fundedEntry)}
}

func fundedKey(token, maker common.Address) [40]byte {
	var key [40]byte
	copy(key[:20], token[:])
	copy(key[20:], maker[:])
	return key
}

// maxPrefetch bounds the (token, maker) pairs one prefetch reads: two
// calls each in one multicall.
const maxPrefetch = 2048

// prefetch reads, in one multicall, the balance and allowance of every
// pair (token, maker) the cache holds no fresh reading of, so that the
// covers calls that follow are answered from memory. Without a multicall
// contract, or when the call fails, it does nothing: covers reads each
// pair itself.
func (f *fundedCache) prefetch(ctx context.Context, pairs [][2]common.Address) {
	if f.multicall == (common.Address{}) {
		return
	}
	now := f.clock.Now()
	var todo [][2]common.Address
	seen := make(map[[40]byte]bool, len(pairs))
	f.mu.Lock()
	for _, p := range pairs {
		key := fundedKey(p[0], p[1])
		if seen[key] || len(todo) == maxPrefetch {
			continue
		}
		seen[key] = true
		if e, hit := f.entries[key]; !hit || now.Sub(e.at) > f.ttl {
			todo = append(todo, p)
		}
	}
	f.mu.Unlock()
	if len(todo) == 0 {
		return
	}
	mc := multicall.NewMulticall()
	calls := make([]multicall.MulticallStaticCall, 0, 2*len(todo))
	for _, p := range todo {
		calls = append(calls,
			multicall.MulticallStaticCall{Target: p[0], CallData: balanceOfCall(p[1])},
			multicall.MulticallStaticCall{Target: p[0], CallData: allowanceCall(p[1], f.router)})
	}
	to := f.multicall
	raw, err := f.chain.CallContract(ctx, ethereum.CallMsg{To: &to, Data: mc.PackAggregate(calls)}, nil)
	if err != nil {
		return
	}
	out, err := mc.UnpackAggregate(raw)
	if err != nil || len(out.Results) != len(calls) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.entries)+len(todo) > 100_000 {
		clear(f.entries)
	}
	for i, p := range todo {
		b, a := out.Results[2*i], out.Results[2*i+1]
		if !b.Success || !a.Success {
			continue // covers reads it itself, and reports the failure
		}
		var e fundedEntry
		e.balance.SetBytes(word(b.ReturnData))
		e.allowance.SetBytes(word(a.ReturnData))
		e.at = now
		f.entries[fundedKey(p[0], p[1])] = e
	}
}

// funded reports balance ≥ remaining and allowance ≥ remaining at the
// latest block; ok is false when the chain could not be read.
func (f *fundedCache) funded(ctx context.Context, rec *orderstore.Record) (funded, ok bool) {
	rem := rec.Remaining()
	return f.covers(ctx, rec.Order.TokenIn, rec.Order.Maker, &rem)
}

// covers reports whether maker holds and has approved amount of token.
func (f *fundedCache) covers(ctx context.Context, token, maker common.Address, amount *uint256.Int) (funded, ok bool) {
	key := fundedKey(token, maker)
	now := f.clock.Now()
	f.mu.Lock()
	e, hit := f.entries[key]
	f.mu.Unlock()
	if !hit || now.Sub(e.at) > f.ttl {
		var err error
		if e, err = f.read(ctx, token, maker); err != nil {
			return false, false
		}
		e.at = now
		f.mu.Lock()
		if len(f.entries) > 100_000 {
			clear(f.entries)
		}
		f.entries[key] = e
		f.mu.Unlock()
	}
	return !e.balance.Lt(amount) && !e.allowance.Lt(amount), true
}

func (f *fundedCache) read(ctx context.Context, token, maker common.Address) (fundedEntry, error) {
	var e fundedEntry
	out, err := f.chain.CallContract(ctx, ethereum.CallMsg{To: &token, Data: balanceOfCall(maker)}, nil)
	if err != nil {
		return e, err
	}
	e.balance.SetBytes(word(out))
	if out, err = f.chain.CallContract(ctx, ethereum.CallMsg{To: &token, Data: allowanceCall(maker, f.router)}, nil); err != nil {
		return e, err
	}
	e.allowance.SetBytes(word(out))
	return e, nil
}

// balanceOfCall is the calldata of balanceOf(owner).
func balanceOfCall(owner common.Address) []byte {
	data := make([]byte, 4+32)
	copy(data, selBalanceOf)
	copy(data[4+12:], owner[:])
	return data
}

// allowanceCall is the calldata of allowance(owner, spender).
func allowanceCall(owner, spender common.Address) []byte {
	data := make([]byte, 4+64)
	copy(data, selAllowance)
	copy(data[4+12:], owner[:])
	copy(data[4+32+12:], spender[:])
	return data
}

// word returns the first 32-byte word of an ABI answer (zero when short).
func word(out []byte) []byte {
	if len(out) < 32 {
		return nil
	}
	return out[:32]
}
