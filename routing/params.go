package routing

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	oe "github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/chain"
)

// parseAddress parses a required 0x address parameter as the rest of the
// API does (chain.ParseAddress): lowercase or uppercase hex, or mixed case
// with a valid EIP-55 checksum. Errors are INVALID_REQUEST naming it.
func parseAddress(name, v string) (common.Address, error) {
	return chain.ParseAddress(name, v)
}

// parseOptAddress parses an optional address parameter (zero when empty).
func parseOptAddress(name, v string) (common.Address, error) {
	if v == "" {
		return common.Address{}, nil
	}
	return parseAddress(name, v)
}

// parseAmount parses a positive decimal integer below 2^256.
func parseAmount(name, v string) (*uint256.Int, error) {
	if v == "" || strings.TrimLeft(v, "0123456789") != "" || (len(v) > 1 && v[0] == '0') {
		return nil, oe.Errorf(oe.CodeInvalidRequest, "%s must be a positive decimal integer in raw token units", name)
	}
	z, err := uint256.FromDecimal(v)
	if err != nil {
		return nil, oe.Errorf(oe.CodeInvalidRequest, "%s must be below 2^256", name)
	}
	if z.IsZero() {
		return nil, oe.Errorf(oe.CodeInvalidRequest, "%s must be positive", name)
	}
	return z, nil
}

// parsePpm checks an optional ppm parameter (nil = def).
func parsePpm(name string, v *int64, def uint32) (uint32, error) {
	if v == nil {
		return def, nil
	}
	if *v < 0 || *v > 1_000_000 {
		return 0, oe.Errorf(oe.CodeInvalidRequest, "%s must be an integer from 0 to 1000000", name)
	}
	return uint32(*v), nil
}

// parsePair parses tokenIn and tokenOut and checks they differ.
func parsePair(tokenIn, tokenOut string) (common.Address, common.Address, error) {
	in, err := parseAddress("tokenIn", tokenIn)
	if err != nil {
		return in, in, err
	}
	out, err := parseAddress("tokenOut", tokenOut)
	if err != nil {
		return in, out, err
	}
	if in == out {
		return in, out, oe.Errorf(oe.CodeInvalidRequest, "tokenOut must differ from tokenIn")
	}
	return in, out, nil
}

// dec formats an amount as a decimal string ("0" for nil).
func dec(z *uint256.Int) string {
	if z == nil {
		return "0"
	}
	return z.Dec()
}

// parseTrade parses tokenIn, tokenOut and amountIn.
func parseTrade(tokenIn, tokenOut, amountIn string) (common.Address, common.Address, *uint256.Int, error) {
	in, out, err := parsePair(tokenIn, tokenOut)
	if err != nil {
		return in, out, nil, err
	}
	amount, err := parseAmount("amountIn", amountIn)
	return in, out, amount, err
}
