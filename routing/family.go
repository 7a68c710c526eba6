package routing

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

// Family is one venue family's state loader: the read that returns a
// pool's whole state in one call, and its decoding into a Pool. A new
// family is one file with a Pool implementation and a Family.
type Family interface {
	// Name is the family name of protocol.md ("cpmm", "stableswap").
	Name() string
	// StateCall is the calldata of the pool's state read (getState()).
	StateCall() []byte
	// Decode builds the pool at addr from the state read's return data.
	Decode(addr common.Address, ret []byte) (Pool, error)
}

// DefaultFamilies returns the families the engine deploys.
func DefaultFamilies() []Family { return []Family{cpmmFamily{}, stableFamily{}} }

// selectorGetState is getState(), shared by both pool families.
const selectorGetState = "\x18\x65\xc5\x7d"

// words splits ABI return data of n static words, checking its length.
func words(ret []byte, n int) ([]uint256.Int, error) {
	if len(ret) != 32*n {
		return nil, fmt.Errorf("routing: state of %d bytes, want %d", len(ret), 32*n)
	}
	out := make([]uint256.Int, n)
	for i := range out {
		out[i].SetBytes32(ret[32*i : 32*i+32])
	}
	return out, nil
}

func wordAddress(w *uint256.Int) common.Address { return common.Address(w.Bytes20()) }
