package service

import (
	"context"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/actors/clock"
	"github.com/orderengine/orderengine/persistence"
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
	ttl    time.Duration
	clock  clock.Clock

	mu      sync.Mutex
	entries map[[40]byte]fundedEntry
}

type fundedEntry struct {
	balance, allowance uint256.Int
	at                 time.Time
}

func newFundedCache(b Balances, router common.Address, ttl time.Duration, clk clock.Clock) *fundedCache {
	return &fundedCache{chain: b, router: router, ttl: ttl, clock: clk, entries: make(map[[40]byte]fundedEntry)}
}

// funded reports balance ≥ remaining and allowance ≥ remaining at the
// latest block; ok is false when the chain could not be read.
func (f *fundedCache) funded(ctx context.Context, rec *persistence.OrderRecord) (funded, ok bool) {
	rem, err := remaining(rec)
	if err != nil {
		return false, false
	}
	return f.covers(ctx, common.HexToAddress(rec.Order.TokenIn), common.HexToAddress(rec.Order.Maker), rem)
}

// covers reports whether maker holds and has approved amount of token.
func (f *fundedCache) covers(ctx context.Context, token, maker common.Address, amount *uint256.Int) (funded, ok bool) {
	var key [40]byte
	copy(key[:20], token[:])
	copy(key[20:], maker[:])
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
	data := make([]byte, 4+32)
	copy(data, selBalanceOf)
	copy(data[4+12:], maker[:])
	out, err := f.chain.CallContract(ctx, ethereum.CallMsg{To: &token, Data: data}, nil)
	if err != nil {
		return e, err
	}
	e.balance.SetBytes(word(out))
	data = make([]byte, 4+64)
	copy(data, selAllowance)
	copy(data[4+12:], maker[:])
	copy(data[4+32+12:], f.router[:])
	if out, err = f.chain.CallContract(ctx, ethereum.CallMsg{To: &token, Data: data}, nil); err != nil {
		return e, err
	}
	e.allowance.SetBytes(word(out))
	return e, nil
}

// word returns the first 32-byte word of an ABI answer (zero when short).
func word(out []byte) []byte {
	if len(out) < 32 {
		return nil
	}
	return out[:32]
}
