package routing

import (
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/rpc"

	oe "github.com/orderengine/orderengine"
)

// nodeErr classifies the error of a call to the chain node. A JSON-RPC
// error object (rpc.Error: a revert, a call the node refused) or an empty
// result (ethereum.NotFound) is the node's answer and is returned wrapped
// as is; anything else (connection refused, a timeout, an HTTP error
// status, a closed client) means the node could not be reached, which the
// API answers with CHAIN_UNAVAILABLE (503, retryable). The cause stays in
// the chain for logs.
func nodeErr(what string, err error) error {
	var answered rpc.Error
	if errors.As(err, &answered) || errors.Is(err, ethereum.NotFound) {
		return fmt.Errorf("routing: %s: %w", what, err)
	}
	return errors.Join(oe.Errorf(oe.CodeChainUnavailable, "chain node unreachable during %s", what), err)
}

// unreachable returns err when it is CHAIN_UNAVAILABLE (see nodeErr), else
// nil.
func unreachable(err error) error {
	var e *oe.Error
	if errors.As(err, &e) && e.Code == oe.CodeChainUnavailable {
		return err
	}
	return nil
}
