package orders

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/contracts/bindings/multicall"
)

// Funding is a maker's balance of a token and the allowance it gave the
// router, read at one block.
type Funding struct {
	Balance, Allowance uint256.Int
}

// Covers reports whether the reading pays amount: balance and allowance
// both at least amount.
func (f Funding) Covers(amount *uint256.Int) bool {
	return !f.Balance.Lt(amount) && !f.Allowance.Lt(amount)
}

// hashCaller makes calls pinned to a block hash (the dev chain's client and
// an *ethclient.Client do).
type hashCaller interface {
	CallContractAtHash(ctx context.Context, msg ethereum.CallMsg, blockHash common.Hash) ([]byte, error)
}

// errNoHashCalls: the chain client cannot call at a block hash.
var errNoHashCalls = errors.New("orders: the chain client cannot make calls pinned to a block hash")

// FundingAt reads the balance of tokenIn and the router allowance of every
// (tokenIn, maker) pair at block (pairs[i] = {token, maker}), pinned to the
// block's hash so that every node reads the same values: in multicalls of
// at most maxPrefetch pairs when the chain has a multicall contract, else
// two calls per pair. A pair whose token answers nothing usable is left
// out of the result; a failed call fails the whole read.
func (s *Service) FundingAt(ctx context.Context, block common.Hash, pairs [][2]common.Address) (map[[2]common.Address]Funding, error) {
	hc, ok := s.d.Balances.(hashCaller)
	if !ok {
		return nil, errNoHashCalls
	}
	router := s.d.Verifier.Domain().VerifyingContract()
	out := make(map[[2]common.Address]Funding, len(pairs))
	if s.d.Multicall == (common.Address{}) {
		for _, p := range pairs {
			f, err := readFundingAt(ctx, hc, block, router, p)
			if err != nil {
				return nil, err
			}
			out[p] = f
		}
		return out, nil
	}
	mc := multicall.NewMulticall()
	to := s.d.Multicall
	for start := 0; start < len(pairs); start += maxPrefetch {
		chunk := pairs[start:min(start+maxPrefetch, len(pairs))]
		calls := make([]multicall.MulticallStaticCall, 0, 2*len(chunk))
		for _, p := range chunk {
			calls = append(calls,
				multicall.MulticallStaticCall{Target: p[0], CallData: balanceOfCall(p[1])},
				multicall.MulticallStaticCall{Target: p[0], CallData: allowanceCall(p[1], router)})
		}
		raw, err := hc.CallContractAtHash(ctx, ethereum.CallMsg{To: &to, Data: mc.PackAggregate(calls)}, block)
		if err != nil {
			return nil, fmt.Errorf("orders: funding at %s: %w", block.Hex(), err)
		}
		res, err := mc.UnpackAggregate(raw)
		if err != nil || len(res.Results) != len(calls) {
			return nil, fmt.Errorf("orders: funding at %s: unexpected multicall answer", block.Hex())
		}
		for i, p := range chunk {
			b, a := res.Results[2*i], res.Results[2*i+1]
			if !b.Success || !a.Success {
				continue
			}
			var f Funding
			f.Balance.SetBytes(word(b.ReturnData))
			f.Allowance.SetBytes(word(a.ReturnData))
			out[p] = f
		}
	}
	return out, nil
}

// readFundingAt reads one pair's balance and allowance at block.
func readFundingAt(ctx context.Context, hc hashCaller, block common.Hash, router common.Address, p [2]common.Address) (Funding, error) {
	var f Funding
	token := p[0]
	b, err := hc.CallContractAtHash(ctx, ethereum.CallMsg{To: &token, Data: balanceOfCall(p[1])}, block)
	if err != nil {
		return f, fmt.Errorf("orders: balance at %s: %w", block.Hex(), err)
	}
	a, err := hc.CallContractAtHash(ctx, ethereum.CallMsg{To: &token, Data: allowanceCall(p[1], router)}, block)
	if err != nil {
		return f, fmt.Errorf("orders: allowance at %s: %w", block.Hex(), err)
	}
	f.Balance.SetBytes(word(b))
	f.Allowance.SetBytes(word(a))
	return f, nil
}
