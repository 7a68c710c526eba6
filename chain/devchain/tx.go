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
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// sender is the one sender of a dev account's transactions: a goroutine
// that owns the account's nonce and sends, one at a time, the transactions
// of every in-process user of the account (the faucet and the oracle
// writes share the deployer's; the market maker's steps, from its timer or
// MoveTo, share the market-maker account's). The DevChain makes exactly
// one per account (DevChain.senderOf).
//
// The account may still be used from outside: its key is public (the
// banner, `orderengine devnet faucet`'s default funder, a wallet). A nonce
// taken that way is answered by the node as "nonce too low", "already
// known" or "replacement transaction underpriced"; the sender then moves
// its nonce past the node's pending nonce and sends again, up to
// maxNonceRetries times, so neither user sees the other. Its own nonce
// never moves backwards: the node's pending nonce lags behind transactions
// just added to the pool, and reusing a nonce of its own would replace or
// collide with its own transaction.
type sender struct {
	client  Client
	key     *ecdsa.PrivateKey
	from    common.Address
	chainID *big.Int

	reqs chan sendRequest
	stop chan struct{}
	done chan struct{}
	once sync.Once

	// Owned by the run goroutine.
	nonce  uint64
	synced bool
}

// sendRequest is one transaction to send and where its outcome goes.
type sendRequest struct {
	ctx      context.Context
	to       common.Address
	data     []byte
	value    *big.Int
	gasLimit uint64
	reply    chan sendResult // buffered: the goroutine never waits on it
}

type sendResult struct {
	tx  *types.Transaction
	err error
}

// maxNonceRetries bounds the re-sends after a nonce taken by another
// sender of the same account. Two senders racing for the next nonce can
// collide several times in a row on a loaded machine, each taking its turn
// to lose; a bound of 8 was seen exhausted under the race detector.
const maxNonceRetries = 32

// errSenderClosed is returned once the dev chain closed.
var errSenderClosed = errors.New("devchain: the account's sender is closed")

// newSender starts the sender goroutine of the account of key; close stops
// it.
func newSender(client Client, key *ecdsa.PrivateKey, chainID *big.Int) *sender {
	s := &sender{client: client, key: key, from: crypto.PubkeyToAddress(key.PublicKey), chainID: chainID,
		reqs: make(chan sendRequest), stop: make(chan struct{}), done: make(chan struct{})}
	go s.run()
	return s
}

// close stops the goroutine after the transaction in progress; later sends
// fail with errSenderClosed. It is idempotent.
func (s *sender) close() {
	s.once.Do(func() { close(s.stop) })
	<-s.done
}

func (s *sender) run() {
	defer close(s.done)
	for {
		select {
		case <-s.stop:
			return
		case r := <-s.reqs:
			tx, err := s.sendNow(r)
			r.reply <- sendResult{tx, err}
		}
	}
}

// send sends a transaction of the account to to with calldata data and
// value wei (nil for none), through the account's goroutine. gasLimit 0
// estimates against the latest block and adds a quarter: the estimate can
// be low when the transaction writes storage the latest block already
// wrote (the oracle's updatedAt).
func (s *sender) send(ctx context.Context, to common.Address, data []byte, value *big.Int, gasLimit uint64) (*types.Transaction, error) {
	if value == nil {
		value = new(big.Int)
	}
	r := sendRequest{ctx: ctx, to: to, data: data, value: value, gasLimit: gasLimit, reply: make(chan sendResult, 1)}
	select {
	case s.reqs <- r:
	case <-s.stop:
		return nil, errSenderClosed
	case <-ctx.Done():
		return nil, fmt.Errorf("devchain: send transaction to %s: %w", to, ctx.Err())
	}
	res := <-r.reply // the goroutine answers promptly: its calls use ctx
	return res.tx, res.err
}

// sendNow signs and sends r with the account's next nonce (run goroutine
// only).
func (s *sender) sendNow(r sendRequest) (*types.Transaction, error) {
	for attempt := 0; ; attempt++ {
		if !s.synced {
			n, err := s.client.PendingNonceAt(r.ctx, s.from)
			if err != nil {
				return nil, fmt.Errorf("devchain: nonce of %s: %w", s.from, err)
			}
			s.nonce, s.synced = max(s.nonce, n), true
		}
		tx, err := s.sign(r.ctx, s.nonce, r.to, r.data, r.value, r.gasLimit)
		if err != nil {
			return nil, err // nothing was sent: the nonce is still free
		}
		err = s.client.SendTransaction(r.ctx, tx)
		if err == nil {
			s.nonce++
			return tx, nil
		}
		if !nonceTaken(err) || attempt == maxNonceRetries {
			// Otherwise unknown whether the node took it: keep the
			// nonce; if it did, the next send finds it taken.
			return nil, fmt.Errorf("devchain: send transaction to %s: %w", r.to, err)
		}
		// Another sender of the account used this nonce: move past it
		// and past what the node has pending.
		s.nonce++
		s.synced = false
	}
}

// nonceTaken reports the node's answers to a transaction whose nonce is
// already used, mined or pending (geth's txpool and core errors, compared
// by text: they arrive as JSON-RPC error messages).
func nonceTaken(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, core.ErrNonceTooLow.Error()) || strings.Contains(msg, txpool.ErrAlreadyKnown.Error()) ||
		strings.Contains(msg, txpool.ErrReplaceUnderpriced.Error())
}

// sign builds and signs a dynamic-fee transaction with nonce.
func (s *sender) sign(ctx context.Context, nonce uint64, to common.Address, data []byte, value *big.Int, gasLimit uint64) (*types.Transaction, error) {
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
