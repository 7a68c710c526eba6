package routing

import "github.com/holiman/uint256"

// checked evaluates Solidity 0.8 arithmetic on uint256 values: the first
// overflow, underflow or division by zero is kept in err (the contract
// would revert there) and later operations keep going on zeros, so a
// formula reads as in the source and is checked once at the end. Values
// are passed by value to keep the simulators free of allocations.
type checked struct{ err error }

func (c *checked) fail() uint256.Int {
	if c.err == nil {
		c.err = ErrOverflow
	}
	return uint256.Int{}
}

func (c *checked) mul(a, b uint256.Int) uint256.Int {
	var z uint256.Int
	if _, o := z.MulOverflow(&a, &b); o {
		return c.fail()
	}
	return z
}

func (c *checked) add(a, b uint256.Int) uint256.Int {
	var z uint256.Int
	if _, o := z.AddOverflow(&a, &b); o {
		return c.fail()
	}
	return z
}

func (c *checked) sub(a, b uint256.Int) uint256.Int {
	var z uint256.Int
	if _, o := z.SubOverflow(&a, &b); o {
		return c.fail()
	}
	return z
}

func (c *checked) div(a, b uint256.Int) uint256.Int {
	if b.IsZero() {
		return c.fail()
	}
	var z uint256.Int
	z.Div(&a, &b)
	return z
}

func u(v uint64) uint256.Int { return *uint256.NewInt(v) }
