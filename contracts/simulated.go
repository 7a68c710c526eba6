package contracts

import (
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
)

// WithChainID is an option of go-ethereum's simulated.NewBackend that runs
// the chain with chainID (its default is 1337). The genesis configuration
// it starts from, params.AllDevChainProtocolChanges, is a shared global, so
// the option changes a copy; it also sets the network id.
func WithChainID(chainID uint64) func(*node.Config, *ethconfig.Config) {
	return func(_ *node.Config, ec *ethconfig.Config) {
		cfg := *params.AllDevChainProtocolChanges
		cfg.ChainID = new(big.Int).SetUint64(chainID)
		ec.Genesis.Config = &cfg
		ec.NetworkId = chainID
	}
}

// TimeAdjuster is the clock control of go-ethereum's simulated backend
// (simulated.Backend).
type TimeAdjuster interface {
	AdjustTime(adjustment time.Duration) error
}

// adjustTimeWait bounds how long AdjustTime waits for the txpool.
const adjustTimeWait = 5 * time.Second

// AdjustTime moves a simulated chain's clock forward by d, sealing one
// block. The simulated beacon refuses while its txpool reports pending
// transactions, and the pool drops the transactions of a sealed block on
// its own goroutine, so right after Commit it may still list them. AdjustTime
// retries until the pool has caught up; a transaction that is really
// pending still fails it after a few seconds. The beacon has no sentinel
// error, hence the match on its message.
func AdjustTime(b TimeAdjuster, d time.Duration) error {
	deadline := time.Now().Add(adjustTimeWait)
	for {
		err := b.AdjustTime(d)
		if err == nil || !strings.Contains(err.Error(), "non-empty block") {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("contracts: adjust time: %w (a transaction is still pending)", err)
		}
		time.Sleep(time.Millisecond)
	}
}
