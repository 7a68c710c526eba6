package orders_test

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/persistence/chainstore"
)

// indexChain writes chain records as the indexer would, in one block batch.
func (e *env) indexChain(number uint64, apply func(cb *chainstore.Batch) error) {
	e.t.Helper()
	hash := common.BigToHash(new(big.Int).SetUint64(1_000_000 + number))
	cb := e.svc().Chain().Begin(chainstore.Block{Number: number, Hash: hash, Time: 1_800_000_000})
	if err := apply(cb); err != nil {
		cb.Abort()
		e.t.Fatal(err)
	}
	if err := cb.Commit(0); err != nil {
		e.t.Fatal(err)
	}
}

// chainFill is an OrderFilled of h bringing its filledAmountIn to total.
func chainFill(h common.Hash, block uint64, amountIn, total string) chainstore.Fill {
	return chainstore.Fill{
		OrderHash: h, TxHash: common.BigToHash(new(big.Int).SetUint64(block)), BlockNumber: block, LogIndex: 3,
		AmountIn: *uint256.MustFromDecimal(amountIn), AmountOut: *uint256.NewInt(777), ProtocolFee: *uint256.NewInt(1),
		ReferralFee: *uint256.NewInt(1), KeeperFee: *uint256.NewInt(1),
		Keeper: tokC, Timestamp: 1_800_000_000, FilledAmountIn: *uint256.MustFromDecimal(total), Executions: 1,
	}
}

// A submitted order the chain already knows is answered from the chain
// records: nonce invalidated or cancelled on-chain → INVALID_ORDER, filled
// on-chain → ALREADY_EXISTS, partly executed → stored as active with the
// chain's progress and fills.
func TestSubmitKnowsTheChain(t *testing.T) {
	e := newEnv(t)
	key := newKey(t)
	maker := crypto.PubkeyToAddress(key.PublicKey)
	const amountIn = "1000000000000000000"

	// Nonce invalidated.
	sp := defaultSpec("limit", key)
	sp.traits.Nonce = 77
	body, h := e.build(sp)
	e.indexChain(10, func(cb *chainstore.Batch) error {
		return chainstore.ApplyNonceInvalidated(cb, chainstore.Nonce{Maker: maker, Nonce: 77, Block: 10, TxHash: common.Hash{7}})
	})
	if r := e.submitRaw(body); r.Status != 400 || r.Code() != "INVALID_ORDER" || !strings.Contains(string(r.Body), "nonce 77 was invalidated on-chain") {
		t.Fatalf("invalidated nonce: %d %s", r.Status, r.Body)
	}
	if r := e.srv.Get("/v1/orders/" + h.Hex()); r.Status != 404 {
		t.Fatalf("refused order stored: %d", r.Status)
	}

	// Cancelled on-chain.
	sp = defaultSpec("limit", key)
	sp.traits.Nonce = 78
	body, h = e.build(sp)
	e.indexChain(11, func(cb *chainstore.Batch) error {
		_, err := chainstore.ApplyCancelled(cb, h, maker, common.Hash{8})
		return err
	})
	if r := e.submitRaw(body); r.Status != 400 || r.Code() != "INVALID_ORDER" || !strings.Contains(string(r.Body), "cancelled on-chain") {
		t.Fatalf("cancelled on-chain: %d %s", r.Status, r.Body)
	}

	// Filled on-chain.
	body, h = e.build(defaultSpec("limit", key))
	e.indexChain(12, func(cb *chainstore.Batch) error {
		_, err := chainstore.ApplyFill(cb, chainFill(h, 12, amountIn, amountIn), maker)
		return err
	})
	if r := e.submitRaw(body); r.Status != 409 || r.Code() != "ALREADY_EXISTS" || !strings.Contains(string(r.Body), "already filled on-chain") {
		t.Fatalf("filled on-chain: %d %s", r.Status, r.Body)
	}

	// Partly executed: accepted as active with the chain's progress.
	body, h = e.build(defaultSpec("limit", key))
	e.indexChain(13, func(cb *chainstore.Batch) error {
		_, err := chainstore.ApplyFill(cb, chainFill(h, 13, "400000000000000000", "400000000000000000"), maker)
		return err
	})
	if r := e.submitRaw(body); r.Status != 201 {
		t.Fatalf("partly executed: %d %s", r.Status, r.Body)
	}
	got := e.get(h)
	if got["status"] != "active" || got["filledAmountIn"] != "400000000000000000" || got["filledAmountOut"] != "777" || got["executions"] != float64(1) {
		t.Fatalf("partly executed order: %v", got)
	}
	r := e.srv.Get("/v1/orders/" + h.Hex() + "/fills")
	var fills struct {
		Fills []struct {
			BlockNumber uint64 `json:"blockNumber"`
		} `json:"fills"`
	}
	if err := json.Unmarshal(r.Body, &fills); err != nil || len(fills.Fills) != 1 || fills.Fills[0].BlockNumber != 13 {
		t.Fatalf("fills: %d %s", r.Status, r.Body)
	}
	if n := e.svc().OpenOrders(maker); n != 1 {
		t.Fatalf("open orders of the maker %d, want 1", n)
	}

	// A stored order that the chain then cancelled is a duplicate.
	sp = defaultSpec("limit", key)
	sp.traits.Nonce = 79
	body, h = e.build(sp)
	if r := e.submitRaw(body); r.Status != 201 {
		t.Fatalf("fresh order: %d %s", r.Status, r.Body)
	}
	e.indexChain(14, func(cb *chainstore.Batch) error {
		_, err := chainstore.ApplyCancelled(cb, h, maker, common.Hash{9})
		return err
	})
	if r := e.submitRaw(body); r.Status != 409 || r.Code() != "ALREADY_EXISTS" {
		t.Fatalf("stored, then cancelled on-chain: %d %s", r.Status, r.Body)
	}
	e.consistent()
}
