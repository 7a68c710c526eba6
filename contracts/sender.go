package contracts

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// sender sends transactions from one account with explicitly assigned
// nonces, without waiting, and waits for a whole batch at once in flush. A
// node that mines on its own (geth --dev, a real network) then confirms a
// batch in about one block time instead of one block per transaction.
//
// Gas is estimated against the latest block, so a transaction must not
// depend on another one of the same unflushed batch.
type sender struct {
	ctx     context.Context
	backend bind.Backend
	auth    bind.TransactOpts
	nonce   uint64
	mine    func()
	poll    time.Duration

	pending []pendingTx
}

type pendingTx struct {
	label string
	tx    *types.Transaction
}

func newSender(ctx context.Context, backend bind.Backend, auth *bind.TransactOpts, mine func(), poll time.Duration) (*sender, error) {
	nonce, err := backend.PendingNonceAt(ctx, auth.From)
	if err != nil {
		return nil, fmt.Errorf("contracts: nonce of %s: %w", auth.From, err)
	}
	if poll <= 0 {
		poll = 100 * time.Millisecond
	}
	return &sender{ctx: ctx, backend: backend, auth: *auth, nonce: nonce, mine: mine, poll: poll}, nil
}

func (s *sender) opts(to *common.Address, data []byte, value *big.Int) (*bind.TransactOpts, error) {
	o := s.auth
	o.Context = s.ctx
	o.Nonce = new(big.Int).SetUint64(s.nonce)
	o.Value = value
	if o.GasLimit == 0 {
		gas, err := EstimateGas(s.ctx, s.backend, o.From, to, data, value)
		if err != nil {
			return nil, err
		}
		o.GasLimit = gas
	}
	return &o, nil
}

// EstimateGas estimates a transaction's gas against the latest block and
// adds a margin of 25 % plus 20,000. The margin matters: nodes estimate with
// the latest block's timestamp, and a storage write of block.timestamp (the
// oracle's updatedAt, the router's lastExecution) that is a no-op in the
// estimate costs the full SSTORE price in the next block.
func EstimateGas(ctx context.Context, backend bind.ContractBackend, from common.Address, to *common.Address, data []byte, value *big.Int) (uint64, error) {
	gas, err := backend.EstimateGas(ctx, ethereum.CallMsg{From: from, To: to, Data: data, Value: value})
	if err != nil {
		return 0, err
	}
	return gas + gas/4 + 20_000, nil
}

// deploy sends a creation transaction and returns the contract's address.
func (s *sender) deploy(label string, meta *bind.MetaData, ctorArgs []byte) (common.Address, error) {
	code := append(common.FromHex(meta.Bin), ctorArgs...)
	opts, err := s.opts(nil, code, nil)
	if err != nil {
		return common.Address{}, fmt.Errorf("contracts: deploy %s: %w", label, err)
	}
	addr, tx, err := bind.DeployContract(opts, code, s.backend, nil)
	if err != nil {
		return common.Address{}, fmt.Errorf("contracts: deploy %s: %w", label, err)
	}
	s.sent(label, tx)
	return addr, nil
}

// call sends a transaction with calldata `data` (and `value` wei) to `to`.
func (s *sender) call(label string, to common.Address, data []byte, value *big.Int) error {
	opts, err := s.opts(&to, data, value)
	if err != nil {
		return fmt.Errorf("contracts: %s: %w", label, err)
	}
	c := bind.NewBoundContract(to, abi.ABI{}, s.backend, s.backend, s.backend)
	tx, err := c.RawTransact(opts, data)
	if err != nil {
		return fmt.Errorf("contracts: %s: %w", label, err)
	}
	s.sent(label, tx)
	return nil
}

func (s *sender) sent(label string, tx *types.Transaction) {
	s.nonce++
	s.pending = append(s.pending, pendingTx{label: label, tx: tx})
}

// flush waits until every sent transaction has a receipt (calling mine
// between polls when set) and fails on the first reverted one.
func (s *sender) flush() ([]*types.Receipt, error) {
	batch := s.pending
	s.pending = nil
	receipts := make([]*types.Receipt, len(batch))
	left := len(batch)
	for left > 0 {
		if s.mine != nil {
			s.mine()
		}
		for i, p := range batch {
			if receipts[i] != nil {
				continue
			}
			r, err := s.backend.TransactionReceipt(s.ctx, p.tx.Hash())
			if errors.Is(err, ethereum.NotFound) || isIndexing(err) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("contracts: receipt of %s: %w", p.label, err)
			}
			if r.Status != types.ReceiptStatusSuccessful {
				return nil, fmt.Errorf("contracts: %s reverted (tx %s)", p.label, p.tx.Hash())
			}
			receipts[i] = r
			left--
		}
		if left == 0 {
			break
		}
		if s.mine == nil {
			select {
			case <-s.ctx.Done():
				return nil, fmt.Errorf("contracts: waiting for %d transactions: %w", left, s.ctx.Err())
			case <-time.After(s.poll):
			}
		} else if err := s.ctx.Err(); err != nil {
			return nil, fmt.Errorf("contracts: waiting for %d transactions: %w", left, err)
		}
	}
	return receipts, nil
}

// isIndexing reports geth's answer for receipts while it is still indexing
// transactions (right after start): not an error, the receipt comes later.
func isIndexing(err error) bool {
	return err != nil && strings.Contains(err.Error(), "transaction indexing is in progress")
}
