package chainstore

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/persistence"
)

// What the chain says about orders: fills, cumulative progress, on-chain
// cancels and invalidated nonces. The indexer writes these records through
// a Batch (so a rewind undoes them); the order layer reads them and
// derives statuses from them in the same batch (see docs/lifecycle.md).
//
// Key layout (see persistence/keys.go):
//
//	c/o/<orderHash 32>                      Order, JSON
//	c/n/<maker 20><nonce BE8>               Nonce, JSON: invalidateNonce seen
//	f/<orderHash 32><block BE8><logIdx BE4> Fill, JSON, in chain order

const (
	orderPrefix = persistence.PrefixChain + "o/"
	noncePrefix = persistence.PrefixChain + "n/"
)

// Fill is one execution of an order as the router's OrderFilled event
// recorded it (contract.md section 3): the f/ row, the fill the order
// actor applies and the fill GET /v1/orders/{hash}/fills renders. AmountOut
// is what the receiver got, net of every fee leg. The row is this struct's
// JSON (amounts as decimal strings): always encode a pointer, so the
// uint256 fields use their decimal JSON form.
type Fill struct {
	OrderHash   common.Hash    `json:"orderHash"`
	TxHash      common.Hash    `json:"txHash"`
	BlockNumber uint64         `json:"blockNumber"`
	BlockHash   common.Hash    `json:"blockHash"`
	LogIndex    uint32         `json:"logIndex"`
	AmountIn    uint256.Int    `json:"amountIn"`
	AmountOut   uint256.Int    `json:"amountOut"`
	ProtocolFee uint256.Int    `json:"protocolFee"`
	ReferralFee uint256.Int    `json:"referralFee"`
	KeeperFee   uint256.Int    `json:"keeperFee"`
	Keeper      common.Address `json:"keeper"`
	// Timestamp is the block time, unix seconds.
	Timestamp uint64 `json:"timestamp"`
	// FilledAmountIn and Executions are the router's cumulative counters
	// after this fill.
	FilledAmountIn uint256.Int `json:"filledAmountIn"`
	Executions     uint32      `json:"executions"`
}

// Order is the chain's cumulative view of one order.
type Order struct {
	Hash  common.Hash    `json:"hash"`
	Maker common.Address `json:"maker"`
	// ActivatedBlock is the block of OrderActivated (0: not yet).
	ActivatedBlock uint64 `json:"activatedBlock,omitempty"`
	// FilledAmountIn is the router's cumulative filledIn; FilledAmountOut the
	// sum of the fills' net amountOut (decimal strings in the row: encode a
	// pointer).
	FilledAmountIn  uint256.Int `json:"filledAmountIn"`
	FilledAmountOut uint256.Int `json:"filledAmountOut"`
	Executions      uint32      `json:"executions"`
	Fills           int         `json:"fills"`
	// FirstExecution and LastExecution are block times of the first and the
	// latest fill (unix seconds, 0: none).
	FirstExecution uint64 `json:"firstExecution,omitempty"`
	LastExecution  uint64 `json:"lastExecution,omitempty"`
	// CancelledBlock and CancelTx record an on-chain cancel (0: none).
	CancelledBlock uint64      `json:"cancelledBlock,omitempty"`
	CancelTx       common.Hash `json:"cancelTx,omitempty"`
}

// Nonce records an invalidateNonce call.
type Nonce struct {
	Maker  common.Address `json:"maker"`
	Nonce  uint64         `json:"nonce"`
	Block  uint64         `json:"block"`
	TxHash common.Hash    `json:"txHash"`
}

func orderKey(h common.Hash) []byte { return append([]byte(orderPrefix), h[:]...) }

func nonceKey(maker common.Address, nonce uint64) []byte {
	k := append([]byte(noncePrefix), maker[:]...)
	return binary.BigEndian.AppendUint64(k, nonce)
}

func fillPrefix(h common.Hash) []byte { return append([]byte(persistence.PrefixFill), h[:]...) }

func fillKey(h common.Hash, block uint64, index uint32) []byte {
	k := binary.BigEndian.AppendUint64(fillPrefix(h), block)
	return binary.BigEndian.AppendUint32(k, index)
}

// OrderIn reads an order's chain state through the batch (zero value
// with ok false when the chain has not seen it).
func OrderIn(cb *Batch, h common.Hash) (Order, bool, error) {
	k := orderKey(h)
	v, ok, err := cb.Get(k)
	if err == nil {
		cb.captured(k, v, ok) // the caller is about to write it
	}
	return decodeOrder(h, v, ok, err)
}

// Order reads an order's chain state from the store.
func (c *Chain) Order(h common.Hash) (Order, bool, error) {
	if !c.seen.orders.MayContain(h) {
		return decodeOrder(h, nil, false, nil)
	}
	v, ok, err := c.store.Get(orderKey(h))
	return decodeOrder(h, v, ok, err)
}

func decodeOrder(h common.Hash, v []byte, ok bool, err error) (Order, bool, error) {
	co := Order{Hash: h}
	if err != nil || !ok {
		return co, false, err
	}
	if err := json.Unmarshal(v, &co); err != nil {
		return co, false, fmt.Errorf("persistence: decode chain order: %w", err)
	}
	return co, true, nil
}

func putOrder(cb *Batch, co Order) error {
	v, err := json.Marshal(&co)
	if err != nil {
		return fmt.Errorf("persistence: encode chain order: %w", err)
	}
	cb.chain.seen.orders.Add(co.Hash)
	return cb.Set(orderKey(co.Hash), v)
}

// ApplyActivated records OrderActivated. It returns the updated state and
// whether it changed (a second activation is ignored).
func ApplyActivated(cb *Batch, h common.Hash, maker common.Address) (Order, bool, error) {
	co, _, err := OrderIn(cb, h)
	if err != nil {
		return co, false, err
	}
	if co.ActivatedBlock != 0 {
		return co, false, nil
	}
	co.Maker = maker
	co.ActivatedBlock = cb.blk.Number
	return co, true, putOrder(cb, co)
}

// ApplyFill records one OrderFilled: the fill record and the cumulative
// state, which takes the router's own counters (filledAmountIn, executions)
// as the truth.
func ApplyFill(cb *Batch, f Fill, maker common.Address) (Order, error) {
	co, _, err := OrderIn(cb, f.OrderHash)
	if err != nil {
		return co, err
	}
	co.Maker = maker
	co.FilledAmountIn = f.FilledAmountIn
	co.FilledAmountOut.Add(&co.FilledAmountOut, &f.AmountOut)
	co.Executions = f.Executions
	co.Fills++
	if co.FirstExecution == 0 {
		co.FirstExecution = f.Timestamp
	}
	co.LastExecution = f.Timestamp
	if co.ActivatedBlock == 0 {
		co.ActivatedBlock = f.BlockNumber
	}
	fv, err := json.Marshal(&f)
	if err != nil {
		return co, fmt.Errorf("persistence: encode fill: %w", err)
	}
	if err := cb.setNew(fillKey(f.OrderHash, f.BlockNumber, f.LogIndex), fv); err != nil {
		return co, err
	}
	return co, putOrder(cb, co)
}

// ApplyCancelled records OrderCancelled.
func ApplyCancelled(cb *Batch, h common.Hash, maker common.Address, tx common.Hash) (Order, error) {
	co, _, err := OrderIn(cb, h)
	if err != nil {
		return co, err
	}
	co.Maker = maker
	co.CancelledBlock = cb.blk.Number
	co.CancelTx = tx
	return co, putOrder(cb, co)
}

// ApplyNonceInvalidated records NonceInvalidated (and lists it in the
// block record).
func ApplyNonceInvalidated(cb *Batch, n Nonce) error {
	v, err := json.Marshal(n)
	if err != nil {
		return err
	}
	cb.blk.Nonces = append(cb.blk.Nonces, n)
	cb.chain.seen.makers.Add(makerKey(n.Maker))
	return cb.Set(nonceKey(n.Maker, n.Nonce), v)
}

// NonceInvalidated reports whether maker invalidated nonce on-chain.
func (c *Chain) NonceInvalidated(maker common.Address, nonce uint64) (bool, error) {
	if !c.seen.makers.MayContain(makerKey(maker)) {
		return false, nil
	}
	_, ok, err := c.store.Get(nonceKey(maker, nonce))
	return ok, err
}

// Nonce returns the record of maker's invalidated nonce (ok false when the
// chain has not invalidated it).
func (c *Chain) Nonce(maker common.Address, nonce uint64) (Nonce, bool, error) {
	var n Nonce
	if !c.seen.makers.MayContain(makerKey(maker)) {
		return n, false, nil
	}
	v, ok, err := c.store.Get(nonceKey(maker, nonce))
	if err != nil || !ok {
		return n, ok, err
	}
	if err := json.Unmarshal(v, &n); err != nil {
		return n, false, fmt.Errorf("persistence: decode chain nonce: %w", err)
	}
	return n, true, nil
}

// Fills returns the fills of an order in chain order.
func (c *Chain) Fills(h common.Hash) ([]Fill, error) {
	p := fillPrefix(h)
	it, err := c.store.DB().NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: persistence.PrefixUpperBound(p)})
	if err != nil {
		return nil, fmt.Errorf("persistence: fills: %w", err)
	}
	defer it.Close()
	var out []Fill
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			return nil, fmt.Errorf("persistence: fills: %w", err)
		}
		var f Fill
		if err := json.Unmarshal(v, &f); err != nil {
			return nil, fmt.Errorf("persistence: decode fill: %w", err)
		}
		out = append(out, f)
	}
	return out, it.Error()
}

// View is what the chain records say about an order: the cumulative
// chain record and whether the order's nonce was invalidated. The chain
// lifecycle reads it from its read model and sends it to the order's actor
// with each transition it asks for, so the actor decides from the facts
// the decision was made on.
type View struct {
	Order            Order
	Seen             bool
	NonceInvalidated bool
	NonceTx          common.Hash
}

// OrderView reads order h's chain record (c/o) and its maker's nonce record
// (c/n): two point reads, each skipped when the chain filters know it
// absent.
func (c *Chain) OrderView(h common.Hash, maker common.Address, nonce uint64) (View, error) {
	co, seen, err := c.Order(h)
	if err != nil {
		return View{}, err
	}
	v := View{Order: co, Seen: seen}
	n, ok, err := c.Nonce(maker, nonce)
	if err != nil {
		return View{}, err
	}
	v.NonceInvalidated, v.NonceTx = ok, n.TxHash
	return v, nil
}
