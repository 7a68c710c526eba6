package keeper

import (
	"errors"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
)

// RevertName decodes a failed call's revert data to the router's custom
// error name (the revertName of order.failed); "" when the error carries no
// revert data or the data is not a router error.
func RevertName(err error) string {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return ""
	}
	var data []byte
	switch v := de.ErrorData().(type) {
	case string:
		data, _ = hexutil.Decode(v)
	case []byte:
		data = v
	}
	return revertNameOf(data)
}

func revertNameOf(data []byte) string {
	if len(data) < 4 {
		return ""
	}
	for name, e := range servicerouter.NewServiceRouter().GetABI().Errors {
		if string(e.ID[:4]) == string(data[:4]) {
			return name
		}
	}
	return ""
}

// terminal lists the router errors after which an order can never execute:
// the keeper service records them as failed (order.failed with
// revertName). Cancels, nonce invalidations and expiry arrive as their own
// transitions; price, timing, balance and allowance errors may clear later.
var terminal = map[string]string{
	"BadSignature":       "the signature no longer verifies",
	"InvalidTraits":      "the signed traits are invalid for the router",
	"FeeOnTransferToken": "tokenIn takes a fee on transfer",
}
