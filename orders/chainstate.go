package orders

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// chainState answers what the indexer already knows about a new order
// before it is stored (two Pebble point reads, after the signature check):
//
//   - the maker invalidated the order's nonce on-chain: INVALID_ORDER;
//   - the router cancelled the order: INVALID_ORDER;
//   - the router's filledAmountIn reached amountIn: ALREADY_EXISTS;
//   - the router activated or partly executed it: the chain record is
//     returned and the order is stored as active with that progress (its
//     fills are already in f/, written by the indexer); the fills made
//     before the submission emit no events;
//   - otherwise nil: a fresh pending order.
//
// A refused hash that is stored here is ALREADY_EXISTS, as any duplicate.
func (s *Service) chainState(h common.Hash, maker common.Address, nonce uint64, amountIn *uint256.Int) (*chainstore.Order, error) {
	n, invalidated, err := s.chain.Nonce(maker, nonce)
	if err != nil {
		return nil, err
	}
	if invalidated {
		return nil, s.known(h, orderengine.Errorf(orderengine.CodeInvalidOrder,
			"nonce %d was invalidated on-chain (tx %s); sign the order with a fresh nonce", nonce, n.TxHash.Hex()))
	}
	co, seen, err := s.chain.Order(h)
	if err != nil || !seen {
		return nil, err
	}
	if co.CancelledBlock != 0 {
		return nil, s.known(h, orderengine.Errorf(orderengine.CodeInvalidOrder,
			"order was cancelled on-chain (tx %s, block %d)", co.CancelTx.Hex(), co.CancelledBlock))
	}
	if !co.FilledAmountIn.Lt(amountIn) {
		return nil, orderengine.Errorf(orderengine.CodeAlreadyExists,
			"order %s was already filled on-chain (filledAmountIn %s of %s in %d executions)", h.Hex(), co.FilledAmountIn.Dec(), amountIn.Dec(), co.Executions)
	}
	if co.ActivatedBlock == 0 && co.Fills == 0 {
		return nil, nil
	}
	return &co, nil
}

// known returns ALREADY_EXISTS when h is stored here, else err.
func (s *Service) known(h common.Hash, err error) error {
	if !s.orders.MayExist(h) {
		return err
	}
	if ok, rerr := s.orders.Exists(h); rerr == nil && ok {
		return orderengine.Errorf(orderengine.CodeAlreadyExists, "order %s already exists", h.Hex())
	}
	return err
}

// withChainProgress makes rec the active order the chain already executed
// in part.
func withChainProgress(rec *orderstore.Record, co *chainstore.Order) {
	rec.Status = orderstore.StatusActive
	rec.FilledIn, rec.FilledOut, rec.Executions = co.FilledAmountIn, co.FilledAmountOut, co.Executions
}
