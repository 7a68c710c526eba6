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
	"github.com/orderengine/orderengine/contracts/bindings/testtoken"
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
	erc20    *testtoken.TestToken

	mu     sync.Mutex
	block  common.Hash
	prices map[common.Address]*big.Int // of block; nil entry: no price
	decs   map[common.Address]uint8
}

// NewOraclePricer returns a pricer; decimals may be nil (then decimals()
// is read from the token once).
func NewOraclePricer(caller HashCaller, oracleAddr common.Address, decimals func(common.Address) (uint8, bool)) *OraclePricer {
	return &OraclePricer{
		caller: caller, oracle: oracleAddr, decimals: decimals,
		binding: oracle.NewOracle(), erc20: testtoken.NewTestToken(),
		prices: map[common.Address]*big.Int{}, decs: map[common.Address]uint8{},
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
	p.mu.Lock()
	if p.block != block {
		p.block, p.prices = block, map[common.Address]*big.Int{}
	}
	v, ok := p.prices[token]
	p.mu.Unlock()
	if ok {
		return v, nil
	}
	out, err := p.caller.CallContractAtHash(ctx, ethereum.CallMsg{To: &p.oracle, Data: p.binding.PackLatestRoundData(token)}, block)
	if err != nil {
		return nil, fmt.Errorf("market: oracle at %s: %w", block, err)
	}
	rd, err := p.binding.UnpackLatestRoundData(out)
	if err != nil {
		return nil, fmt.Errorf("market: oracle answer: %w", err)
	}
	if rd.Answer != nil && rd.Answer.Sign() > 0 {
		v = rd.Answer
	}
	p.mu.Lock()
	if p.block == block {
		p.prices[token] = v
	}
	p.mu.Unlock()
	return v, nil
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
	out, err := p.caller.CallContractAtHash(ctx, ethereum.CallMsg{To: &token, Data: p.erc20.PackDecimals()}, block)
	if err != nil {
		return 0, fmt.Errorf("market: decimals of %s: %w", token, err)
	}
	d, err = p.erc20.UnpackDecimals(out)
	if err != nil {
		return 0, err
	}
	p.mu.Lock()
	p.decs[token] = d
	p.mu.Unlock()
	return d, nil
}

// Answer returns the oracle's USD answer (8 decimals) for token at the
// block; nil when the oracle has no positive answer.
func (p *OraclePricer) Answer(ctx context.Context, block common.Hash, token common.Address) (*big.Int, error) {
	return p.price(ctx, block, token)
}

// Decimals returns the token's decimals (configuration first, then the
// token's decimals() at the block, cached).
func (p *OraclePricer) Decimals(ctx context.Context, block common.Hash, token common.Address) (uint8, error) {
	return p.tokenDecimals(ctx, block, token)
}
