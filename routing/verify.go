package routing

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/gethclient"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/contracts/bindings/executor"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
)

// OverrideCaller is an eth_call with state overrides (gethclient.Client).
type OverrideCaller interface {
	CallContract(ctx context.Context, msg ethereum.CallMsg, blockNumber *big.Int,
		overrides *map[common.Address]gethclient.OverrideAccount) ([]byte, error)
}

// TokenLayout locates the ERC-20 balance and allowance mappings in a
// token's storage, so a simulation can give an account funds it does not
// have yet. The engine's tokens (contracts/src/ERC20.sol) keep balanceOf
// in slot 3 and allowance in slot 4.
type TokenLayout struct {
	BalanceSlot   uint64
	AllowanceSlot uint64
}

// DefaultTokenLayout is the layout of the engine's ERC20.sol.
func DefaultTokenLayout() TokenLayout { return TokenLayout{BalanceSlot: 3, AllowanceSlot: 4} }

// balanceKey is the storage key of balanceOf[owner].
func (l TokenLayout) balanceKey(owner common.Address) common.Hash {
	return crypto.Keccak256Hash(common.LeftPadBytes(owner[:], 32), common.LeftPadBytes(new(big.Int).SetUint64(l.BalanceSlot).Bytes(), 32))
}

// allowanceKey is the storage key of allowance[owner][spender].
func (l TokenLayout) allowanceKey(owner, spender common.Address) common.Hash {
	inner := crypto.Keccak256(common.LeftPadBytes(owner[:], 32), common.LeftPadBytes(new(big.Int).SetUint64(l.AllowanceSlot).Bytes(), 32))
	return crypto.Keccak256Hash(common.LeftPadBytes(spender[:], 32), inner)
}

// Verifier simulates routes with eth_call at a given block: the direct
// swap path through the router's swap (the payer funded and approved by
// state overrides), and the gross output of any route through the
// router's Executor (called as the router, with the input placed in the
// executor by a state override), from which an order's net output follows
// by its fee cell.
type Verifier struct {
	caller   OverrideCaller
	router   common.Address
	executor common.Address
	layout   TokenLayout
}

// NewVerifier returns a Verifier for the router and its executor.
func NewVerifier(caller OverrideCaller, router, executor common.Address, layout TokenLayout) *Verifier {
	return &Verifier{caller: caller, router: router, executor: executor, layout: layout}
}

// SwapSim is the direct swap a VerifySwap simulates.
type SwapSim struct {
	Payer          common.Address
	Receiver       common.Address
	Referrer       common.Address
	ReferralFeePpm uint32
	MinAmountOut   *uint256.Int
}

// SwapParams is the router's swap argument for route r.
func (v *Verifier) SwapParams(r *Route, s SwapSim) servicerouter.SwapParams {
	p := servicerouter.SwapParams{
		TokenIn: r.TokenIn, TokenOut: r.TokenOut, AmountIn: r.AmountIn.ToBig(),
		MinAmountOut: new(big.Int), Receiver: s.Receiver, Referrer: s.Referrer, ReferralFeePpm: s.ReferralFeePpm,
	}
	if s.MinAmountOut != nil {
		p.MinAmountOut = s.MinAmountOut.ToBig()
	}
	for _, c := range BuildCalls(r, v.executor) {
		p.Calls = append(p.Calls, servicerouter.Call{Target: c.Target, Data: c.Data})
	}
	return p
}

// VerifySwap simulates router.swap for r at block from s.Payer, whose
// tokenIn balance and router allowance are set to amountIn by state
// overrides, and returns the net output the receiver would get.
func (v *Verifier) VerifySwap(ctx context.Context, block uint64, r *Route, s SwapSim) (*uint256.Int, error) {
	sr := servicerouter.NewServiceRouter()
	amount := common.BigToHash(r.AmountIn.ToBig())
	overrides := map[common.Address]gethclient.OverrideAccount{
		r.TokenIn: {StateDiff: map[common.Hash]common.Hash{
			v.layout.balanceKey(s.Payer):             amount,
			v.layout.allowanceKey(s.Payer, v.router): amount,
		}},
	}
	to := v.router
	ret, err := v.caller.CallContract(ctx, ethereum.CallMsg{From: s.Payer, To: &to, Data: sr.PackSwap(v.SwapParams(r, s))},
		new(big.Int).SetUint64(block), &overrides)
	if err != nil {
		return nil, nodeErr("simulated swap", err)
	}
	out, err := sr.UnpackSwap(ret)
	if err != nil {
		return nil, err
	}
	return uint256.MustFromBig(out), nil
}

// VerifyGross simulates the route's calls in the Executor at block, called
// as the router with amountIn of tokenIn already in the executor (a state
// override), and returns the gross tokenOut the router would receive.
func (v *Verifier) VerifyGross(ctx context.Context, block uint64, r *Route, refundTo common.Address) (*uint256.Int, error) {
	ex := executor.NewExecutor()
	var calls []executor.Call
	for _, c := range BuildCalls(r, v.executor) {
		calls = append(calls, executor.Call{Target: c.Target, Data: c.Data})
	}
	overrides := map[common.Address]gethclient.OverrideAccount{
		r.TokenIn: {StateDiff: map[common.Hash]common.Hash{
			v.layout.balanceKey(v.executor): common.BigToHash(r.AmountIn.ToBig()),
		}},
	}
	to := v.executor
	ret, err := v.caller.CallContract(ctx, ethereum.CallMsg{From: v.router, To: &to,
		Data: ex.PackExecute(r.TokenIn, r.TokenOut, refundTo, calls)}, new(big.Int).SetUint64(block), &overrides)
	if err != nil {
		return nil, nodeErr("simulated execution", err)
	}
	out, err := ex.UnpackExecute(ret)
	if err != nil {
		return nil, err
	}
	return uint256.MustFromBig(out), nil
}
