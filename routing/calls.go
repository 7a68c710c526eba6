package routing

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// Call is one call the router's Executor makes: protocol.md's
// `struct Call { address target; bytes data; }`.
type Call struct {
	Target common.Address
	Data   []byte
	// Amount is the token amount the call names (type(uint256).max for
	// "whole balance"); it is not part of the on-chain struct.
	Amount *uint256.Int
}

// Function selectors of the venue surface (protocol.md, Venues). A test
// checks them against the ABI.
const (
	selectorApprove = "\x09\x5e\xa7\xb3" // approve(address,uint256)
	selectorSwap    = "\xf3\xe6\xea\x8a" // swap(address,uint256,uint256,address)
)

// BuildCalls turns a route into the Executor's calls: per path, per hop,
// tokenIn.approve(pool, amount) then pool.swap(tokenIn, amount, 0,
// executor). The first hop of a path names its exact amount; later hops
// name type(uint256).max, which the pools read as "the caller's whole
// balance", so the calls need no amount the chain has not produced yet.
// Paths run one after another and never share a pool or hold tokenIn or
// tokenOut as an intermediate, so each path's later hops consume only that
// path's output. Per-hop minimums are 0: the router checks the net output
// against the order's and the caller's minimum.
func BuildCalls(r *Route, executor common.Address) []Call {
	var calls []Call
	maxUint := new(uint256.Int).SetAllOne()
	for _, p := range r.Paths {
		for h, hop := range p.Hops {
			amount := hop.AmountIn
			if h > 0 {
				amount = maxUint
			}
			calls = append(calls,
				Call{Target: hop.TokenIn, Data: encodeApprove(hop.Pool, amount), Amount: amount},
				Call{Target: hop.Pool, Data: encodeSwap(hop.TokenIn, amount, new(uint256.Int), executor), Amount: amount},
			)
		}
	}
	return calls
}

func encodeApprove(spender common.Address, amount *uint256.Int) []byte {
	data := make([]byte, 4+2*32)
	copy(data, selectorApprove)
	copy(data[4+12:], spender[:])
	amount.WriteToSlice(data[4+32:])
	return data
}

func encodeSwap(tokenIn common.Address, amountIn, minOut *uint256.Int, to common.Address) []byte {
	data := make([]byte, 4+4*32)
	copy(data, selectorSwap)
	copy(data[4+12:], tokenIn[:])
	amountIn.WriteToSlice(data[4+32:])
	minOut.WriteToSlice(data[4+64:])
	copy(data[4+96+12:], to[:])
	return data
}
