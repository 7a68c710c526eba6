package keeper

import (
	"context"
	"fmt"
	"log/slog"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/persistence/chainstore"
)

// The failed attempt watcher: the last fillOrder transaction of each
// order that reverted on chain, for the order diagnostics. A reverted
// transaction leaves no log, so the indexer does not see it: the watcher
// reads each applied block's transactions, takes those that call the
// router's fillOrder, reads their receipts, and for each that failed
// replays the call on the state after its block to name the router error
// (an approximation: an earlier transaction of the same block, such as
// another keeper's fill, is already applied then, which is usually the
// very reason the transaction failed).

// AttemptsClient is what the watcher reads from the node.
type AttemptsClient interface {
	BlockByHash(ctx context.Context, hash common.Hash) (*types.Block, error)
	TransactionReceipt(ctx context.Context, txHash common.Hash) (*types.Receipt, error)
	CallContractAtHash(ctx context.Context, msg ethereum.CallMsg, blockHash common.Hash) ([]byte, error)
}

// AttemptsOptions configure an AttemptWatcher.
type AttemptsOptions struct {
	Client AttemptsClient
	Router common.Address
	Domain *chain.Domain
	Chain  *chainstore.Chain
	// Known reports whether the engine holds an order (attempts at other
	// orders are not recorded).
	Known func(h common.Hash) bool
	Log   *slog.Logger
}

// AttemptWatcher records failed fill attempts. Applied (an indexer
// observer) queues each applied block; Run reads them.
type AttemptWatcher struct {
	opts   AttemptsOptions
	log    *slog.Logger
	fill   abi.Method
	blocks chan attemptBlock
}

type attemptBlock struct {
	number, time uint64
	hash         common.Hash
}

// attemptQueue bounds the blocks waiting to be read: beyond, a block's
// attempts are not looked at (logged), the indexer never waits.
const attemptQueue = 1024

// NewAttemptWatcher returns a watcher.
func NewAttemptWatcher(opts AttemptsOptions) *AttemptWatcher {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &AttemptWatcher{opts: opts, log: opts.Log.With("component", "keeper-attempts"),
		fill: servicerouter.NewServiceRouter().GetABI().Methods["fillOrder"], blocks: make(chan attemptBlock, attemptQueue)}
}

// Applied queues an applied block (number, hash, time) without waiting.
func (w *AttemptWatcher) Applied(number uint64, hash common.Hash, time uint64) {
	select {
	case w.blocks <- attemptBlock{number: number, hash: hash, time: time}:
	default:
		w.log.Warn("failed fill attempts: the queue is full, a block's attempts are not looked at", "block", number)
	}
}

// Run reads the queued blocks until ctx ends.
func (w *AttemptWatcher) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case b := <-w.blocks:
			if err := w.block(ctx, b); err != nil && ctx.Err() == nil {
				w.log.Warn("failed fill attempts: block not read", "block", b.number, "err", err)
			}
		}
	}
}

// block records the failed fillOrder transactions of b.
func (w *AttemptWatcher) block(ctx context.Context, b attemptBlock) error {
	blk, err := w.opts.Client.BlockByHash(ctx, b.hash)
	if err != nil {
		return err
	}
	for _, tx := range blk.Transactions() {
		data := tx.Data()
		if tx.To() == nil || *tx.To() != w.opts.Router || len(data) < 4 || string(data[:4]) != string(w.fill.ID) {
			continue
		}
		h, ok := w.orderHash(data)
		if !ok || (w.opts.Known != nil && !w.opts.Known(h)) {
			continue
		}
		rcpt, err := w.opts.Client.TransactionReceipt(ctx, tx.Hash())
		if err != nil {
			return err
		}
		if rcpt.Status == types.ReceiptStatusSuccessful {
			continue
		}
		from, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx)
		if err != nil {
			return fmt.Errorf("sender of %s: %w", tx.Hash().Hex(), err)
		}
		name := ""
		if _, err := w.opts.Client.CallContractAtHash(ctx, ethereum.CallMsg{From: from, To: tx.To(), Gas: tx.Gas(), Data: data}, b.hash); err != nil {
			name = RevertName(err)
		}
		a := chainstore.FailedAttempt{TxHash: tx.Hash(), BlockNumber: b.number, Keeper: from, RevertName: name, Timestamp: b.time}
		if err := w.opts.Chain.SetFailedAttempt(h, a); err != nil {
			return err
		}
		w.log.Debug("failed fill attempt recorded", "order", h, "tx", tx.Hash(), "revert", name)
	}
	return nil
}

// orderHash decodes fillOrder's order argument and hashes it.
func (w *AttemptWatcher) orderHash(data []byte) (common.Hash, bool) {
	args, err := w.fill.Inputs.Unpack(data[4:])
	if err != nil || len(args) == 0 {
		return common.Hash{}, false
	}
	so, ok := abi.ConvertType(args[0], new(servicerouter.Order)).(*servicerouter.Order)
	if !ok || so == nil {
		return common.Hash{}, false
	}
	var o chain.Order
	for _, f := range []struct {
		dst *uint256.Int
		src *big.Int
	}{{&o.Salt, so.Salt}, {&o.AmountIn, so.AmountIn}, {&o.TriggerPrice, so.TriggerPrice}, {&o.TriggerAmountOut, so.TriggerAmountOut}, {&o.MakerTraits, so.MakerTraits}} {
		if f.src == nil || f.dst.SetFromBig(f.src) {
			return common.Hash{}, false
		}
	}
	o.Maker, o.Receiver, o.TokenIn, o.TokenOut, o.Referrer, o.ReferralFeePpm = so.Maker, so.Receiver, so.TokenIn, so.TokenOut, so.Referrer, so.ReferralFeePpm
	return chain.OrderHash(w.opts.Domain, &o), true
}
