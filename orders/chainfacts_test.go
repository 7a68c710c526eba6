package orders_test

import (
	"context"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/persistence/chainstore"
)

// The chain's facts for the tests that drive orders through their
// lifecycle without a chain: each helper writes the chain records as the
// indexer would, in a block of its own, then sends the order what the
// chain records now say of it, as the projector does.

// nextBlock numbers the blocks the helpers index.
func (e *env) nextBlock() uint64 {
	e.blocks++
	return e.blocks
}

// makerOf reads order h's maker (the chain records carry it).
func (e *env) makerOf(h common.Hash) common.Address {
	e.t.Helper()
	rec, ok, err := e.svc().Orders().Load(h)
	if err != nil || !ok {
		e.t.Fatalf("order %s: %v %v", h.Hex(), ok, err)
	}
	return rec.Order.Maker
}

// observe sends order h its chain facts.
func (e *env) observe(h common.Hash, at time.Time) (*order.Response, error) {
	co, _, err := e.svc().Chain().Order(h)
	if err != nil {
		return nil, err
	}
	fills, err := e.svc().Chain().Fills(h)
	if err != nil {
		return nil, err
	}
	return e.svc().Registry().Observe(context.Background(), h, order.ChainObserved{Chain: co, Fills: fills, At: at})
}

// chainActivate records OrderActivated of h and observes it.
func (e *env) chainActivate(h common.Hash, at time.Time) (*order.Response, error) {
	maker := e.makerOf(h)
	e.indexChain(e.nextBlock(), func(cb *chainstore.Batch) error {
		_, _, err := chainstore.ApplyActivated(cb, h, maker)
		return err
	})
	return e.observe(h, at)
}

// chainFillOf records f as an OrderFilled of h and observes it.
func (e *env) chainFillOf(h common.Hash, f chainstore.Fill) (*order.Response, error) {
	maker := e.makerOf(h)
	f.OrderHash = h
	e.indexChain(e.nextBlock(), func(cb *chainstore.Batch) error {
		_, err := chainstore.ApplyFill(cb, f, maker)
		return err
	})
	return e.observe(h, time.Unix(int64(f.Timestamp), 0))
}

// chainCancel records OrderCancelled of h by transaction tx and observes
// it.
func (e *env) chainCancel(h, tx common.Hash, at time.Time) (*order.Response, error) {
	maker := e.makerOf(h)
	e.indexChain(e.nextBlock(), func(cb *chainstore.Batch) error {
		_, err := chainstore.ApplyCancelled(cb, h, maker, tx)
		return err
	})
	return e.observe(h, at)
}

// testFill is an OrderFilled of amountIn (net amountOut out) that brings
// the order's filledAmountIn to total after executions executions.
func testFill(block uint64, logIndex uint32, amountIn, out, total string, executions uint32, at time.Time) chainstore.Fill {
	u := func(s string) uint256.Int { return *uint256.MustFromDecimal(s) }
	return chainstore.Fill{
		TxHash: common.BigToHash(new(big.Int).SetUint64(0xf111_0000 + block)), BlockNumber: block, LogIndex: logIndex,
		AmountIn: u(amountIn), AmountOut: u(out), ProtocolFee: u("1"), ReferralFee: u("1"), KeeperFee: u("1"),
		Keeper: tokC, Timestamp: uint64(at.Unix()), FilledAmountIn: u(total), Executions: executions,
	}
}

// hashOf is a 32-byte hash made of one repeated byte, as the tests write
// transaction hashes.
func hashOf(b string) common.Hash { return common.HexToHash("0x" + strings.Repeat(b, 32)) }
