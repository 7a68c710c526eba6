package market

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"
)

// selDecimals is the selector of ERC-20 decimals() (keccak256 of the
// signature, first four bytes). The pricer calls it with no arguments.
var selDecimals = []byte{0x31, 0x3c, 0xe5, 0x67}

// decodeDecimals reads token's answer to decimals(): one ABI word holding a
// uint8. A token that answers a wider value, or fewer than 32 bytes, is
// not priced.
func decodeDecimals(token common.Address, out []byte) (uint8, error) {
	if len(out) < 32 {
		return 0, fmt.Errorf("market: decimals() of %s answered %d bytes, want a 32-byte word", token, len(out))
	}
	for _, b := range out[:31] {
		if b != 0 {
			return 0, fmt.Errorf("market: decimals() of %s answered %#x, more than a uint8", token, out[:32])
		}
	}
	return out[31], nil
}
