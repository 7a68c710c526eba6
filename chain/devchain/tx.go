package devchain

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// sender sends one account's transactions one at a time and assigns their
// nonces itself, so several goroutines (the faucet, the market maker) can
// share the account. The node's pending nonce is read once, at the first
// send, and again after a failed send: it lags behind transactions just
// added to the pool, so it cannot be read per transaction.
type sender struct {
	mu      sync.Mutex
	client  Client
	key     *ecdsa.PrivateKey
	from    common.Address
	chainID *big.Int
	nonce   uint64
	synced  bool // nonce is valid
}

func newSender(client Client, key *ecdsa.PrivateKey, chainID *big.Int) *sender {
	return &sender{client: client, key: key, from: crypto.PubkeyToAddress(key.PublicKey), chainID: chainID}
}

// nextNonceLocked is the nonce of the next transaction.
func (s *sender) nextNonceLocked(ctx context.Context) (uint64, error) {
	if !s.synced {
		n, err := s.client.PendingNonceAt(ctx, s.from)
		if err != nil {
			return 0, fmt.Errorf("devchain: nonce of %s: %w", s.from, err)
		}
		s.nonce, s.synced = n, true
	}
	return s.nonce, nil
}

// doneLocked records the outcome of a send: a sent transaction consumed
// the nonce; a failed send makes the next one read the node's nonce again.
func (s *sender) doneLocked(err error) {
	if err != nil {
		s.synced = false
		return
	}
	s.nonce++
}

// send sends a transaction of the account to to with calldata data and
// value wei (nil for none). gasLimit 0 estimates against the latest block
// and adds a quarter: the estimate can be low when the transaction writes
// storage the latest block already wrote (the oracle's updatedAt).
func (s *sender) send(ctx context.Context, to common.Address, data []byte, value *big.Int, gasLimit uint64) (*types.Transaction, error) {
	if value == nil {
		value = new(big.Int)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	nonce, err := s.nextNonceLocked(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := s.signLocked(ctx, nonce, to, data, value, gasLimit)
	if err == nil {
		err = s.client.SendTransaction(ctx, tx)
		if err != nil {
			err = fmt.Errorf("devchain: send transaction to %s: %w", to, err)
		}
	}
	s.doneLocked(err)
	if err != nil {
		return nil, err
	}
	return tx, nil
}

// signLocked builds and signs a dynamic-fee transaction with nonce.
func (s *sender) signLocked(ctx context.Context, nonce uint64, to common.Address, data []byte, value *big.Int, gasLimit uint64) (*types.Transaction, error) {
	if gasLimit == 0 {
		est, err := s.client.EstimateGas(ctx, ethereum.CallMsg{From: s.from, To: &to, Value: value, Data: data})
		if err != nil {
			return nil, fmt.Errorf("devchain: estimate gas of a transaction to %s: %w", to, err)
		}
		gasLimit = est + est/4
	}
	tip, err := s.client.SuggestGasTipCap(ctx)
	if err != nil {
		return nil, fmt.Errorf("devchain: gas tip: %w", err)
	}
	head, err := s.client.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("devchain: head: %w", err)
	}
	feeCap := new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2)))
	tx, err := types.SignNewTx(s.key, types.LatestSignerForChainID(s.chainID), &types.DynamicFeeTx{
		ChainID: s.chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gasLimit, To: &to, Value: value, Data: data,
	})
	if err != nil {
		return nil, fmt.Errorf("devchain: sign transaction: %w", err)
	}
	return tx, nil
}

// ErrReverted is returned (wrapped, with the transaction hash) when a
// waited-for transaction was mined but failed.
var ErrReverted = errors.New("devchain: transaction reverted")

// WaitReceipt polls client for the receipt of hash every poll until it is
// mined or ctx ends. A mined transaction that failed returns its receipt
// and an error wrapping ErrReverted.
func WaitReceipt(ctx context.Context, client ethereum.TransactionReader, hash common.Hash, poll time.Duration) (*types.Receipt, error) {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		receipt, err := client.TransactionReceipt(ctx, hash)
		if err == nil {
			if receipt.Status != types.ReceiptStatusSuccessful {
				return receipt, fmt.Errorf("%w: %s", ErrReverted, hash.Hex())
			}
			return receipt, nil
		}
		if !notYetMined(err) {
			return nil, fmt.Errorf("devchain: receipt of %s: %w", hash.Hex(), err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("devchain: waiting for %s: %w", hash.Hex(), ctx.Err())
		case <-t.C:
		}
	}
}

// notYetMined reports a receipt lookup that may succeed later: not found,
// or geth's answer while it is still indexing transactions (just after
// start).
func notYetMined(err error) bool {
	return errors.Is(err, ethereum.NotFound) ||
		(err != nil && strings.Contains(err.Error(), "transaction indexing is in progress"))
}
