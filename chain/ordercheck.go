package chain

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	orderengine "github.com/orderengine/orderengine"
)

// ValidateOrder checks a parsed order submitted as orderType c, before any
// signature work: order content (INVALID_ORDER), the makerTraits for the
// class (INVALID_TRAITS, see Traits.Validate), triggerPrice per class
// (INVALID_TRAITS), dca leg size (INVALID_TRAITS) and the deadline against
// nowUnix (ORDER_EXPIRED). It returns the decoded traits.
//
// triggerPrice per class follows docs/protocol.md: limit, stop_loss and
// take_profit need triggerPrice > 0; trailing needs 0; dca needs 0 unless
// PRICE_GATED is set, and > 0 when it is. The router reverts InvalidTraits
// for a non-zero price on trailing and non-gated dca, so these are
// INVALID_TRAITS like the other class rules (the message names
// order.triggerPrice). A zero receiver is accepted: the router delivers to
// the maker then.
//
// The triggerAmountOut derivation needs tokenIn's decimals and is checked by
// ResolveTriggerAmountOut; the fee fields are the orders layer's.
func ValidateOrder(c Class, o *Order, nowUnix int64) (Traits, error) {
	if err := checkContent(o); err != nil {
		return Traits{}, err
	}
	t := DecodeTraits(&o.MakerTraits)
	if err := t.Validate(c); err != nil {
		return t, err
	}
	if err := checkTriggerPrice(c, t, &o.TriggerPrice); err != nil {
		return t, err
	}
	if c == ClassDCA && o.AmountIn.LtUint64(uint64(t.TotalExecutions)) {
		return t, traitsErr("makerTraits.totalExecutions %d exceeds order.amountIn %s: every leg must be at least 1 unit",
			t.TotalExecutions, o.AmountIn.Dec())
	}
	if err := t.CheckDeadline(nowUnix); err != nil {
		return t, err
	}
	return t, nil
}

func checkContent(o *Order) error {
	var zero common.Address
	switch {
	case o.AmountIn.IsZero():
		return orderErr("order.amountIn must be greater than 0")
	case o.Maker == zero:
		return orderErr("order.maker must not be the zero address")
	case o.TokenIn == zero:
		return orderErr("order.tokenIn must not be the zero address")
	case o.TokenOut == zero:
		return orderErr("order.tokenOut must not be the zero address")
	case o.TokenIn == o.TokenOut:
		return orderErr("order.tokenIn and order.tokenOut must differ, both are %s", o.TokenIn.Hex())
	case o.ReferralFeePpm > PpmOne:
		return orderErr("order.referralFeePpm %d exceeds %d", o.ReferralFeePpm, PpmOne)
	}
	return nil
}

func checkTriggerPrice(c Class, t Traits, price *uint256.Int) error {
	switch c {
	case ClassLimit, ClassStopLoss, ClassTakeProfit:
		if price.IsZero() {
			return traitsErr("order.triggerPrice must be greater than 0 for a %s order", c)
		}
	case ClassTrailing:
		if !price.IsZero() {
			return traitsErr("order.triggerPrice must be 0 for a trailing order, got %s", price.Dec())
		}
	case ClassDCA:
		gated := t.Flags&FlagPriceGated != 0
		if gated && price.IsZero() {
			return traitsErr("order.triggerPrice must be greater than 0 for a PRICE_GATED dca order")
		}
		if !gated && !price.IsZero() {
			return traitsErr("order.triggerPrice must be 0 for a dca order without PRICE_GATED, got %s", price.Dec())
		}
	}
	return nil
}

func orderErr(format string, args ...any) *orderengine.Error {
	return orderengine.Errorf(orderengine.CodeInvalidOrder, format, args...)
}

// KindParams are the submit payload's top-level dca and trailing fields
// (specification 2.1). A nil pointer means the field was absent.
type KindParams struct {
	IntervalSeconds  *uint64
	TotalExecutions  *uint64
	TotalAmountIn    *uint256.Int
	FlexibilityPpm   *uint64
	ShortCircuit     *bool
	TrailPpm         *uint64
	DesignatedKeeper *common.Address
}

// CheckKindParams checks the top-level fields against the signed traits of an
// order of class c (contract.md section 2). Every failure is INVALID_TRAITS
// naming the field, except a missing required field, which is
// INVALID_REQUEST.
//
//   - dca: intervalSeconds, totalExecutions and totalAmountIn are required;
//     intervalSeconds, totalExecutions, flexibilityPpm (absent = 0) and
//     shortCircuit (absent = false) must equal the traits, and totalAmountIn
//     must equal order.amountIn.
//   - trailing: trailPpm is required and must equal the traits;
//     designatedKeeper is optional, and its low 80 bits must equal
//     allowedSender (absent means allowedSender must be 0).
//   - A field of another class is refused, so a client never believes a
//     parameter was applied when it was not.
func CheckKindParams(c Class, t Traits, amountIn *uint256.Int, p KindParams) error {
	if c != ClassDCA {
		switch {
		case p.IntervalSeconds != nil:
			return notForClass("intervalSeconds", "dca", c)
		case p.TotalExecutions != nil:
			return notForClass("totalExecutions", "dca", c)
		case p.TotalAmountIn != nil:
			return notForClass("totalAmountIn", "dca", c)
		case p.FlexibilityPpm != nil:
			return notForClass("flexibilityPpm", "dca", c)
		case p.ShortCircuit != nil:
			return notForClass("shortCircuit", "dca", c)
		}
	}
	if c != ClassTrailing {
		switch {
		case p.TrailPpm != nil:
			return notForClass("trailPpm", "trailing", c)
		case p.DesignatedKeeper != nil:
			return notForClass("designatedKeeper", "trailing", c)
		}
	}
	switch c {
	case ClassDCA:
		return checkDCAParams(t, amountIn, p)
	case ClassTrailing:
		return checkTrailingParams(t, p)
	}
	return nil
}

func checkDCAParams(t Traits, amountIn *uint256.Int, p KindParams) error {
	switch {
	case p.IntervalSeconds == nil:
		return missing("intervalSeconds", "dca")
	case p.TotalExecutions == nil:
		return missing("totalExecutions", "dca")
	case p.TotalAmountIn == nil:
		return missing("totalAmountIn", "dca")
	case *p.IntervalSeconds != uint64(t.IntervalSeconds):
		return traitsErr("intervalSeconds %d differs from the signed makerTraits.intervalSeconds %d", *p.IntervalSeconds, t.IntervalSeconds)
	case *p.TotalExecutions != uint64(t.TotalExecutions):
		return traitsErr("totalExecutions %d differs from the signed makerTraits.totalExecutions %d", *p.TotalExecutions, t.TotalExecutions)
	case !p.TotalAmountIn.Eq(amountIn):
		return traitsErr("totalAmountIn %s differs from the signed order.amountIn %s", p.TotalAmountIn.Dec(), amountIn.Dec())
	}
	var flex uint64
	if p.FlexibilityPpm != nil {
		flex = *p.FlexibilityPpm
	}
	if flex != uint64(t.FlexibilityPpm()) {
		return traitsErr("flexibilityPpm %d differs from the signed makerTraits.flexibilityPpm %d", flex, t.FlexibilityPpm())
	}
	short := p.ShortCircuit != nil && *p.ShortCircuit
	if signed := t.Flags&FlagShortCircuit != 0; short != signed {
		return traitsErr("shortCircuit %t differs from the signed makerTraits SHORT_CIRCUIT flag (%t)", short, signed)
	}
	return nil
}

func checkTrailingParams(t Traits, p KindParams) error {
	if p.TrailPpm == nil {
		return missing("trailPpm", "trailing")
	}
	if *p.TrailPpm != uint64(t.TrailPpm()) {
		return traitsErr("trailPpm %d differs from the signed makerTraits.trailPpm %d", *p.TrailPpm, t.TrailPpm())
	}
	var keeper [10]byte
	if p.DesignatedKeeper != nil {
		keeper = SenderLow80(*p.DesignatedKeeper)
	}
	if keeper != t.AllowedSender {
		if p.DesignatedKeeper == nil {
			return traitsErr("designatedKeeper is absent but makerTraits.allowedSender is 0x%x", t.AllowedSender)
		}
		return traitsErr("designatedKeeper %s: its low 80 bits 0x%x differ from makerTraits.allowedSender 0x%x",
			p.DesignatedKeeper.Hex(), keeper, t.AllowedSender)
	}
	return nil
}

func notForClass(field, want string, c Class) error {
	return traitsErr("%s applies only to %s orders, not %s", field, want, c)
}

func missing(field, class string) error {
	return orderengine.Errorf(orderengine.CodeInvalidRequest, "%s is required for a %s order", field, class)
}
