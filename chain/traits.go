package chain

import (
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	orderengine "github.com/orderengine/orderengine"
)

// Traits is the decoded makerTraits word of an order (contract.md section 2).
//
// This is the signed wire format; do not change it without a router upgrade.
// Bits are numbered from the least significant. Every field is byte-aligned,
// so the big-endian 32-byte word reads, from byte 0:
//
//	bytes   bits      width  field
//	0       248-255   8      Flags
//	1-2     232-247   16     TotalExecutions   (dca only)
//	3-5     208-231   24     IntervalSeconds   (dca only)
//	6-8     184-207   24     KindParamPpm      (trailing: trailPpm; dca: flexibilityPpm)
//	9-11    160-183   24     SlippagePpm       (at most 1,000,000)
//	12-16   120-159   40     Nonce
//	17-21   80-119    40     Deadline          (unix seconds; 0 = none)
//	22-31   0-79      80     AllowedSender     (low 80 bits of the keeper; 0 = any)
//
// Every 256-bit value decodes to exactly one Traits and back, so the codec is
// a bijection between uint256 and Traits values whose fields fit their widths.
type Traits struct {
	// AllowedSender is the low 80 bits (last 10 bytes) of the only keeper
	// allowed to execute, big-endian; all zero means any keeper.
	AllowedSender [10]byte
	// Deadline is the unix time in seconds after which the order expires;
	// 0 means no deadline. 40 bits.
	Deadline uint64
	// Nonce is the maker-chosen nonce that invalidateNonce cancels. 40 bits.
	Nonce uint64
	// SlippagePpm is the execution slippage tolerance. 24 bits, at most 1e6.
	SlippagePpm uint32
	// KindParamPpm is trailPpm for trailing orders and flexibilityPpm for dca
	// orders, 0 otherwise. 24 bits.
	KindParamPpm uint32
	// IntervalSeconds is the time between dca legs, 0 otherwise. 24 bits.
	IntervalSeconds uint32
	// TotalExecutions is the number of dca legs, 0 otherwise.
	TotalExecutions uint16
	// Flags are the kind and behaviour flags.
	Flags Flags
}

// Flags is the top byte of makerTraits (bits 248 to 255).
type Flags uint8

// The makerTraits flags; bit 7 of Flags is bit 255 of makerTraits.
const (
	FlagUnwrapNative     Flags = 1 << 0 // bit 248: deliver native coin for wrapped-native tokenOut
	FlagShortCircuit     Flags = 1 << 1 // bit 249: dca only, stop once totalAmountIn is spent
	FlagAllowPartialFill Flags = 1 << 2 // bit 250: limit only, keepers may fill part of amountIn
	FlagPriceGated       Flags = 1 << 3 // bit 251: dca only, a leg executes only at or above triggerPrice
	FlagDCA              Flags = 1 << 4 // bit 252: kind dca
	FlagTrailing         Flags = 1 << 5 // bit 253: kind trailing
	FlagTakeProfit       Flags = 1 << 6 // bit 254: kind take_profit
	FlagStopLoss         Flags = 1 << 7 // bit 255: kind stop_loss

	// KindFlags are the flags that decide the class.
	KindFlags = FlagStopLoss | FlagTakeProfit | FlagTrailing | FlagDCA
)

// flagName names one flag bit (0 to 7).
func flagName(bit int) string {
	switch bit {
	case 0:
		return "UNWRAP_NATIVE"
	case 1:
		return "SHORT_CIRCUIT"
	case 2:
		return "ALLOW_PARTIAL_FILL"
	case 3:
		return "PRICE_GATED"
	case 4:
		return "DCA"
	case 5:
		return "TRAILING"
	case 6:
		return "TAKE_PROFIT"
	default:
		return "STOP_LOSS"
	}
}

// String lists the set flags by name, highest bit first, joined by "|".
func (f Flags) String() string {
	var names []string
	for bit := 7; bit >= 0; bit-- {
		if f&(1<<bit) != 0 {
			names = append(names, flagName(bit))
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, "|")
}

// Field limits of the layout.
const (
	maxUint40 = 1<<40 - 1
	maxUint24 = 1<<24 - 1
	// PpmOne is 100 % in parts per million.
	PpmOne = 1_000_000
)

// SenderLow80 returns the low 80 bits of a, the form allowedSender stores.
func SenderLow80(a common.Address) [10]byte {
	var out [10]byte
	copy(out[:], a[10:])
	return out
}

// EncodeTraits packs t into its uint256 word. A field wider than its slot is
// an INVALID_TRAITS error naming the field; nothing else is checked here (see
// Validate).
func EncodeTraits(t Traits) (uint256.Int, error) {
	var u uint256.Int
	switch {
	case t.Deadline > maxUint40:
		return u, traitsErr("makerTraits.deadline %d does not fit 40 bits", t.Deadline)
	case t.Nonce > maxUint40:
		return u, traitsErr("makerTraits.nonce %d does not fit 40 bits", t.Nonce)
	case t.SlippagePpm > maxUint24:
		return u, traitsErr("makerTraits.slippagePpm %d does not fit 24 bits", t.SlippagePpm)
	case t.KindParamPpm > maxUint24:
		return u, traitsErr("makerTraits.kindParamPpm %d does not fit 24 bits", t.KindParamPpm)
	case t.IntervalSeconds > maxUint24:
		return u, traitsErr("makerTraits.intervalSeconds %d does not fit 24 bits", t.IntervalSeconds)
	}
	var b [32]byte
	b[0] = byte(t.Flags)
	putBE(b[1:3], uint64(t.TotalExecutions))
	putBE(b[3:6], uint64(t.IntervalSeconds))
	putBE(b[6:9], uint64(t.KindParamPpm))
	putBE(b[9:12], uint64(t.SlippagePpm))
	putBE(b[12:17], t.Nonce)
	putBE(b[17:22], t.Deadline)
	copy(b[22:32], t.AllowedSender[:])
	u.SetBytes32(b[:])
	return u, nil
}

// DecodeTraits unpacks a makerTraits word. Every value decodes; validity for
// a class is Validate's job.
func DecodeTraits(u *uint256.Int) Traits {
	b := u.Bytes32()
	var t Traits
	t.Flags = Flags(b[0])
	t.TotalExecutions = uint16(getBE(b[1:3]))
	t.IntervalSeconds = uint32(getBE(b[3:6]))
	t.KindParamPpm = uint32(getBE(b[6:9]))
	t.SlippagePpm = uint32(getBE(b[9:12]))
	t.Nonce = getBE(b[12:17])
	t.Deadline = getBE(b[17:22])
	copy(t.AllowedSender[:], b[22:32])
	return t
}

// ParseTraits parses the submit payload's makerTraits decimal string (strictly,
// see ParseDecimalUint256) and decodes it.
func ParseTraits(s string) (uint256.Int, Traits, error) {
	u, err := ParseDecimalUint256("order.makerTraits", s)
	if err != nil {
		return u, Traits{}, err
	}
	return u, DecodeTraits(&u), nil
}

func putBE(dst []byte, v uint64) {
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = byte(v)
		v >>= 8
	}
}

func getBE(src []byte) uint64 {
	var v uint64
	for _, c := range src {
		v = v<<8 | uint64(c)
	}
	return v
}

// Class is an order class, decided by the kind flags of makerTraits. The
// zero value is not a class.
type Class uint8

// The order classes; their String values are the API's orderType values.
const (
	ClassLimit Class = iota + 1
	ClassStopLoss
	ClassTakeProfit
	ClassDCA
	ClassTrailing
)

// String returns the orderType name of c ("limit", "stop_loss", ...), or ""
// for an invalid class.
func (c Class) String() string {
	switch c {
	case ClassLimit:
		return "limit"
	case ClassStopLoss:
		return "stop_loss"
	case ClassTakeProfit:
		return "take_profit"
	case ClassDCA:
		return "dca"
	case ClassTrailing:
		return "trailing"
	default:
		return ""
	}
}

// ParseClass parses an orderType. An unknown value is an INVALID_REQUEST
// error naming orderType.
func ParseClass(s string) (Class, error) {
	for c := ClassLimit; c <= ClassTrailing; c++ {
		if c.String() == s {
			return c, nil
		}
	}
	return 0, orderengine.Errorf(orderengine.CodeInvalidRequest,
		"orderType %q is not one of limit, stop_loss, take_profit, dca, trailing", truncate(s))
}

// Class classifies the traits by their kind flags: none is limit. More than
// one kind flag is an INVALID_TRAITS error.
func (t Traits) Class() (Class, error) {
	switch k := t.Flags & KindFlags; k {
	case 0:
		return ClassLimit, nil
	case FlagStopLoss:
		return ClassStopLoss, nil
	case FlagTakeProfit:
		return ClassTakeProfit, nil
	case FlagDCA:
		return ClassDCA, nil
	case FlagTrailing:
		return ClassTrailing, nil
	default:
		return 0, traitsErr("makerTraits.flags set more than one kind flag (%s); at most one of STOP_LOSS, TAKE_PROFIT, TRAILING, DCA", k)
	}
}

// TrailPpm is the trail distance of a trailing order (KindParamPpm).
func (t Traits) TrailPpm() uint32 { return t.KindParamPpm }

// FlexibilityPpm is the timing flexibility of a dca order (KindParamPpm).
func (t Traits) FlexibilityPpm() uint32 { return t.KindParamPpm }

// Validate checks the traits for an order submitted as orderType c: the kind
// flags must classify as c (a mislabeled stop order fails here), fields and
// flags that do not belong to c must be zero, and bounds must hold. Every
// failure is an INVALID_TRAITS error naming the field. Deadline expiry is not
// checked here (see CheckDeadline).
func (t Traits) Validate(c Class) error {
	got, err := t.Class()
	if err != nil {
		return err
	}
	if got != c {
		kind := "no kind flag"
		if k := t.Flags & KindFlags; k != 0 {
			kind = k.String()
		}
		return traitsErr("orderType is %s but makerTraits.flags classify the order as %s (%s)", c, got, kind)
	}
	if t.SlippagePpm > PpmOne {
		return traitsErr("makerTraits.slippagePpm %d exceeds %d", t.SlippagePpm, PpmOne)
	}
	if c != ClassLimit && t.Flags&FlagAllowPartialFill != 0 {
		return traitsErr("makerTraits.flags: ALLOW_PARTIAL_FILL is valid only for limit orders, not %s", c)
	}
	if c != ClassDCA {
		switch {
		case t.Flags&FlagPriceGated != 0:
			return traitsErr("makerTraits.flags: PRICE_GATED is valid only for dca orders, not %s", c)
		case t.Flags&FlagShortCircuit != 0:
			return traitsErr("makerTraits.flags: SHORT_CIRCUIT is valid only for dca orders, not %s", c)
		case t.IntervalSeconds != 0:
			return traitsErr("makerTraits.intervalSeconds must be 0 for a %s order, got %d", c, t.IntervalSeconds)
		case t.TotalExecutions != 0:
			return traitsErr("makerTraits.totalExecutions must be 0 for a %s order, got %d", c, t.TotalExecutions)
		}
	}
	switch c {
	case ClassLimit, ClassStopLoss, ClassTakeProfit:
		if t.KindParamPpm != 0 {
			return traitsErr("makerTraits.kindParamPpm must be 0 for a %s order, got %d", c, t.KindParamPpm)
		}
	case ClassTrailing:
		if t.KindParamPpm == 0 || t.KindParamPpm >= PpmOne {
			return traitsErr("makerTraits.trailPpm must be between 1 and %d, got %d", PpmOne-1, t.KindParamPpm)
		}
	case ClassDCA:
		switch {
		case t.TotalExecutions == 0:
			return traitsErr("makerTraits.totalExecutions must be at least 1 for a dca order")
		case t.IntervalSeconds == 0:
			return traitsErr("makerTraits.intervalSeconds must be greater than 0 for a dca order")
		case t.KindParamPpm > PpmOne:
			return traitsErr("makerTraits.flexibilityPpm %d exceeds %d", t.KindParamPpm, PpmOne)
		}
	}
	return nil
}

// CheckDeadline returns an ORDER_EXPIRED error when the deadline is set and
// now (unix seconds) is past it. The router accepts block.timestamp equal to
// the deadline, so equality is not expired.
func (t Traits) CheckDeadline(nowUnix int64) error {
	if t.Deadline != 0 && nowUnix > 0 && uint64(nowUnix) > t.Deadline {
		return orderengine.Errorf(orderengine.CodeOrderExpired,
			"makerTraits.deadline %d is in the past (now %d)", t.Deadline, nowUnix)
	}
	return nil
}

func traitsErr(format string, args ...any) *orderengine.Error {
	return orderengine.Errorf(orderengine.CodeInvalidTraits, format, args...)
}

// truncate shortens client input echoed in a message.
func truncate(s string) string {
	const max = 66
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}

// String renders the traits for logs and test failures.
func (t Traits) String() string {
	return fmt.Sprintf("Traits{flags=%s totalExecutions=%d intervalSeconds=%d kindParamPpm=%d slippagePpm=%d nonce=%d deadline=%d allowedSender=%x}",
		t.Flags, t.TotalExecutions, t.IntervalSeconds, t.KindParamPpm, t.SlippagePpm, t.Nonce, t.Deadline, t.AllowedSender)
}
