// Package market keeps the engine's market data: recent router swaps and
// fills, USD volume per pair priced by the oracle at each block, and the
// engine-wide counters of GET /v1/stats. Its Sink runs inside the indexer's
// block batch, so market data is exactly-once and undone on reorgs like
// everything else the indexer writes.
package market

import (
	"context"
	"fmt"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/contracts/bindings/oracle"
)

// HashCaller makes eth_calls pinned to a block hash. ethclient.Client (and
// the simulated backend's client, which embeds it) has it.
type HashCaller interface {
	CallContractAtHash(ctx context.Context, msg ethereum.CallMsg, blockHash common.Hash) ([]byte, error)
}

// Pricer values token amounts in USD (8 decimals) at a block.
type Pricer interface {
	USD8(ctx context.Context, block common.Hash, token common.Address, amount *big.Int) (*big.Int, bool)
}

// OraclePricer prices with the engine's oracle (latestRoundData, 8
// decimals) read at the block's hash, and the token's decimals.
type OraclePricer struct {
	caller   HashCaller
	oracle   common.Address
	decimals func(common.Address) (uint8, bool)
	binding  *oracle.Oracle

	mu     sync.Mutex
	block  common.Hash
	prices map[common.Address]round // of block
	maxAge *big.Int                 // the oracle's staleness bound at block (nil: not read yet or none)
	aged   bool                     // maxAge was read for block
	decs   map[common.Address]uint8
}

// round is a token's oracle answer at a block: the price (nil: none) and
// the block time of its update.
type round struct {
	price     *big.Int
	updatedAt uint64
}

// NewOraclePricer returns a pricer; decimals may be nil (then decimals()
// is read from the token once).
func NewOraclePricer(caller HashCaller, oracleAddr common.Address, decimals func(common.Address) (uint8, bool)) *OraclePricer {
	return &OraclePricer{
		caller: caller, oracle: oracleAddr, decimals: decimals,
		binding: oracle.NewOracle(),
		prices:  map[common.Address]round{}, decs: map[common.Address]uint8{},
	}
}

// USD8 implements Pricer: amount × answer / 10^decimals, floor.
func (p *OraclePricer) USD8(ctx context.Context, block common.Hash, token common.Address, amount *big.Int) (*big.Int, bool) {
	price, err := p.price(ctx, block, token)
	if err != nil || price == nil {
		return nil, false
	}
	dec, err := p.tokenDecimals(ctx, block, token)
	if err != nil {
		return nil, false
	}
	v := new(big.Int).Mul(amount, price)
	return v.Quo(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(dec)), nil)), true
}

func (p *OraclePricer) price(ctx context.Context, block common.Hash, token common.Address) (*big.Int, error) {
	r, err := p.round(ctx, block, token)
	return r.price, err
}

// round reads token's answer at block, cached per block.
func (p *OraclePricer) round(ctx context.Context, block common.Hash, token common.Address) (round, error) {
	p.mu.Lock()
	if p.block != block {
		p.block, p.prices, p.maxAge, p.aged = block, map[common.Address]round{}, nil, false
	}
	r, ok := p.prices[token]
	p.mu.Unlock()
	if ok {
		return r, nil
	}
	out, err := p.caller.CallContractAtHash(ctx, ethereum.CallMsg{To: &p.oracle, Data: p.binding.PackLatestRoundData(token)}, block)
	if err != nil {
		return r, fmt.Errorf("market: oracle at %s: %w", block, err)
	}
	rd, err := p.binding.UnpackLatestRoundData(out)
	if err != nil {
		return r, fmt.Errorf("market: oracle answer: %w", err)
	}
	if rd.Answer != nil && rd.Answer.Sign() > 0 {
		r.price = rd.Answer
		if rd.UpdatedAt != nil && rd.UpdatedAt.IsUint64() {
			r.updatedAt = rd.UpdatedAt.Uint64()
		}
	}
	p.mu.Lock()
	if p.block == block {
		p.prices[token] = r
	}
	p.mu.Unlock()
	return r, nil
}

// staleAfter is the oracle's maxAge at block, read once per block (nil
// when the oracle has none: no bound).
func (p *OraclePricer) staleAfter(ctx context.Context, block common.Hash) *big.Int {
	p.mu.Lock()
	if p.block == block && p.aged {
		m := p.maxAge
		p.mu.Unlock()
		return m
	}
	p.mu.Unlock()
	var m *big.Int
	if out, err := p.caller.CallContractAtHash(ctx, ethereum.CallMsg{To: &p.oracle, Data: p.binding.PackMaxAge()}, block); err == nil {
		if v, err := p.binding.UnpackMaxAge(out); err == nil {
			m = v
		}
	}
	p.mu.Lock()
	if p.block == block {
		p.maxAge, p.aged = m, true
	}
	p.mu.Unlock()
	return m
}

func (p *OraclePricer) tokenDecimals(ctx context.Context, block common.Hash, token common.Address) (uint8, error) {
	if p.decimals != nil {
		if d, ok := p.decimals(token); ok {
			return d, nil
		}
	}
	p.mu.Lock()
	d, ok := p.decs[token]
	p.mu.Unlock()
	if ok {
		return d, nil
	}
	out, err := p.caller.CallContractAtHash(ctx, ethereum.CallMsg{To: &token, Data: selDecimals}, block)
	if err != nil {
		return 0, fmt.Errorf("market: decimals of %s: %w", token, err)
	}
	d, err = decodeDecimals(token, out)
	if err != nil {
		return 0, err
	}
	p.mu.Lock()
	p.decs[token] = d
	p.mu.Unlock()
	return d, nil
}

// Answer returns the oracle's USD answer (8 decimals) for token at the
// block whose time is blockTime; nil when the oracle has no positive
// answer, or when the answer is stale at blockTime: older than the oracle's
// maxAge, the bound past which the router reverts with OracleStale.
func (p *OraclePricer) Answer(ctx context.Context, block common.Hash, blockTime uint64, token common.Address) (*big.Int, error) {
	r, err := p.round(ctx, block, token)
	if err != nil || r.price == nil {
		return nil, err
	}
	if m := p.staleAfter(ctx, block); m != nil {
		limit := new(big.Int).Add(new(big.Int).SetUint64(r.updatedAt), m)
		if new(big.Int).SetUint64(blockTime).Cmp(limit) > 0 {
			return nil, nil
		}
	}
	return r.price, nil
}

// Decimals returns the token's decimals (configuration first, then the
// token's decimals() at the block, cached).
func (p *OraclePricer) Decimals(ctx context.Context, block common.Hash, token common.Address) (uint8, error) {
	return p.tokenDecimals(ctx, block, token)
}
