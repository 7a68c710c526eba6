package routing

import (
	"context"
	"fmt"

	"github.com/orderengine/orderengine/config"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	oe "github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/chain"
)

// ReferralBindings resolves a wallet's permanent referrer binding
// (contract.md section 8). The orders issue persists the bindings; a nil
// ReferralBindings means no wallet is bound.
type ReferralBindings interface {
	// BoundReferrer returns the referrer wallet is bound to, if any.
	BoundReferrer(ctx context.Context, wallet common.Address) (referrer common.Address, bound bool, err error)
}

// ClassResolver gives a token's fee class (stable, major, other). *Tokens
// implements it.
type ClassResolver interface {
	Class(token common.Address) string
}

// FeePolicy is the fee table (order kind × token class) with the fee vault,
// the token classes and the referral bindings. It is the one
// implementation of fee legs: the route call serves FeeLegs, and order
// submission checks orders with CheckOrderFees, which calls it.
type FeePolicy struct {
	cells    map[string]map[string]config.FeeCell
	vault    common.Address
	classes  ClassResolver
	bindings ReferralBindings
}

// NewFeePolicy validates the table (config.ValidateFeePolicy) and
// returns the policy. bindings may be nil.
func NewFeePolicy(table map[string]map[string]config.FeeCell, vault common.Address, classes ClassResolver, bindings ReferralBindings) (*FeePolicy, error) {
	if err := config.ValidateFeePolicy(table); err != nil {
		return nil, err
	}
	if vault == (common.Address{}) {
		return nil, fmt.Errorf("routing: fee vault address is zero")
	}
	return &FeePolicy{cells: table, vault: vault, classes: classes, bindings: bindings}, nil
}

// Vault is the fee vault address.
func (p *FeePolicy) Vault() common.Address { return p.vault }

// FeeCellRef names the cell a route was priced with.
type FeeCellRef struct {
	OrderKind  string `json:"orderKind"`
	TokenClass string `json:"tokenClass"`
}

// FeeCells are the direct cell and the requested order kind's cell of the
// pair's class.
type FeeCells struct {
	Direct    config.FeeCell `json:"direct"`
	Triggered config.FeeCell `json:"triggered"`
}

// FeeLegs is contract.md section 8's feeLegs object, with EIP-55
// addresses. ReferrerBound says Referrer is the wallet's permanent
// binding; RequestedReferrer echoes the referrer parameter (nil when none
// was given), which a bound wallet's legs do not use.
type FeeLegs struct {
	Referrer          string     `json:"referrer"`
	ReferrerBound     bool       `json:"referrerBound"`
	RequestedReferrer *string    `json:"requestedReferrer"`
	Vault             string     `json:"vault"`
	Cell              FeeCellRef `json:"cell"`
	Fees              FeeCells   `json:"fees"`
}

// PairClass is the riskier class of the two tokens.
func (p *FeePolicy) PairClass(tokenIn, tokenOut common.Address) string {
	rank := func(c string) int {
		for i, k := range config.TokenClasses() {
			if k == c {
				return i
			}
		}
		return len(config.TokenClasses()) - 1
	}
	a, b := p.classes.Class(tokenIn), p.classes.Class(tokenOut)
	if rank(a) >= rank(b) {
		return config.TokenClasses()[rank(a)]
	}
	return config.TokenClasses()[rank(b)]
}

// FeeLegs resolves the fee legs for a route request. wallet and referrer
// are optional (zero address = absent); an empty orderKind serves the
// direct cell. The payout address is the wallet's bound referrer when it
// has one (whatever referrer says: the submit check accepts nothing
// else, so copying the served legs always passes it), else referrer when
// given, else the fee vault. An unknown orderKind is INVALID_REQUEST
// naming orderType.
func (p *FeePolicy) FeeLegs(ctx context.Context, wallet, referrer common.Address, orderKind string, tokenIn, tokenOut common.Address) (FeeLegs, error) {
	if orderKind == "" {
		orderKind = config.KindDirect
	}
	row, ok := p.cells[orderKind]
	if !ok {
		return FeeLegs{}, oe.Errorf(oe.CodeInvalidRequest, "orderType %q is not one of limit, stop_loss, take_profit, dca, trailing", orderKind)
	}
	class := p.PairClass(tokenIn, tokenOut)
	legs := FeeLegs{
		Vault: chain.Checksum(p.vault),
		Cell:  FeeCellRef{OrderKind: orderKind, TokenClass: class},
		Fees:  FeeCells{Direct: p.cells[config.KindDirect][class], Triggered: row[class]},
	}
	payout := referrer
	if referrer != (common.Address{}) {
		requested := chain.Checksum(referrer)
		legs.RequestedReferrer = &requested
	}
	if wallet != (common.Address{}) && p.bindings != nil {
		bound, ok, err := p.bindings.BoundReferrer(ctx, wallet)
		if err != nil {
			return FeeLegs{}, err
		}
		if ok {
			payout, legs.ReferrerBound = bound, true
		}
	}
	if payout == (common.Address{}) {
		payout = p.vault
	}
	legs.Referrer = chain.Checksum(payout)
	return legs, nil
}

// FeeAmounts are the legs a fill pays from its gross output, each
// gross × ppm / 1e6 (floor), and what the receiver keeps.
type FeeAmounts struct {
	Gross, Protocol, Referral, Keeper, Net *uint256.Int
}

// Amounts splits gross output by cell, as the router does.
func Amounts(gross *uint256.Int, cell config.FeeCell) FeeAmounts {
	leg := func(ppm uint32) *uint256.Int {
		z, _ := new(uint256.Int).MulDivOverflow(gross, uint256.NewInt(uint64(ppm)), uint256.NewInt(1_000_000))
		return z
	}
	a := FeeAmounts{Gross: new(uint256.Int).Set(gross), Protocol: leg(cell.ProtocolPpm), Referral: leg(cell.ReferralPpm), Keeper: leg(cell.KeeperPpm)}
	a.Net = new(uint256.Int).Set(gross)
	for _, l := range []*uint256.Int{a.Protocol, a.Referral, a.Keeper} {
		a.Net.Sub(a.Net, l)
	}
	return a
}

// MinAmountOut is net × (1e6 − slippagePpm) / 1e6 (floor).
func MinAmountOut(net *uint256.Int, slippagePpm uint32) *uint256.Int {
	if slippagePpm >= 1_000_000 {
		return new(uint256.Int)
	}
	z, _ := new(uint256.Int).MulDivOverflow(net, uint256.NewInt(uint64(1_000_000-slippagePpm)), uint256.NewInt(1_000_000))
	return z
}

// OrderFees are the fee fields of a signed order, for CheckOrderFees.
type OrderFees struct {
	OrderKind      string // the order's class from its traits
	Maker          common.Address
	TokenIn        common.Address
	TokenOut       common.Address
	Referrer       common.Address
	ReferralFeePpm uint32
}

// CheckOrderFees is order submission's fee check (contract.md section 8):
// referralFeePpm must equal the served cell's referralPpm for the order's
// class and pair (so an order signed from a direct-swap route fails), a
// bound maker's referrer must equal its binding, an unbound maker's
// referrer must be non-zero. Mismatches are FEE_PARAMS_MISMATCH. When the
// order is accepted and bind is true, the caller must persist the binding
// maker → Referrer (the first accepted order naming a referrer other than
// the vault).
func (p *FeePolicy) CheckOrderFees(ctx context.Context, o OrderFees) (bind bool, err error) {
	if o.OrderKind == config.KindDirect || o.OrderKind == "" {
		return false, oe.Errorf(oe.CodeInvalidRequest, "orderType must name an order kind")
	}
	// The cell FeeLegs serves for the order's kind and pair; the binding
	// is read once, below.
	row, ok := p.cells[o.OrderKind]
	if !ok {
		return false, oe.Errorf(oe.CodeInvalidRequest, "orderType %q is not one of limit, stop_loss, take_profit, dca, trailing", o.OrderKind)
	}
	class := p.PairClass(o.TokenIn, o.TokenOut)
	if want := row[class].ReferralPpm; o.ReferralFeePpm != want {
		return false, oe.Errorf(oe.CodeFeeParamsMismatch,
			"referralFeePpm %d differs from the %s × %s cell's %d: take feeLegs from GET /v1/route with orderType=%s",
			o.ReferralFeePpm, o.OrderKind, class, want, o.OrderKind)
	}
	if o.Referrer == (common.Address{}) {
		return false, oe.Errorf(oe.CodeFeeParamsMismatch, "referrer must be non-zero: use feeLegs.referrer")
	}
	if p.bindings != nil {
		bound, ok, err := p.bindings.BoundReferrer(ctx, o.Maker)
		if err != nil {
			return false, err
		}
		if ok {
			if o.Referrer != bound {
				return false, oe.Errorf(oe.CodeFeeParamsMismatch, "referrer %s differs from the maker's bound referrer %s", o.Referrer.Hex(), bound.Hex())
			}
			return false, nil
		}
	}
	return o.Referrer != p.vault, nil
}
