package chainsync

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
	"github.com/orderengine/orderengine/persistence/chainstore"
)

// Kind is the kind of a router event.
type Kind uint8

// The router events the indexer follows (docs/protocol.md, Events).
const (
	KindActivated Kind = iota + 1
	KindFilled
	KindCancelled
	KindNonceInvalidated
	KindSwapped
)

// String returns the event's Solidity name.
func (k Kind) String() string {
	switch k {
	case KindActivated:
		return "OrderActivated"
	case KindFilled:
		return "OrderFilled"
	case KindCancelled:
		return "OrderCancelled"
	case KindNonceInvalidated:
		return "NonceInvalidated"
	case KindSwapped:
		return "Swapped"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Event is one decoded router log of an applied block, with the order's
// chain state after it (for order events).
type Event struct {
	Kind     Kind
	TxHash   common.Hash
	LogIndex uint
	// OrderHash and Maker are set for order events and NonceInvalidated
	// (Maker only).
	OrderHash common.Hash
	Maker     common.Address
	// Fill is set for KindFilled.
	Fill *chainstore.Fill
	// Order is the order's chain state after the event (order events).
	Order *chainstore.Order
	// Nonce is set for KindNonceInvalidated.
	Nonce uint64
	// Swap is set for KindSwapped.
	Swap *servicerouter.ServiceRouterSwapped
}

// Block is one applied block with its decoded events, in log order.
type Block struct {
	Number uint64
	Hash   common.Hash
	Parent common.Hash
	// Time is the block timestamp, unix seconds.
	Time   uint64
	Events []Event
}

// ChainOrders returns the chain records the block's order events left, by
// order hash (the latest of each order's events).
func (b *Block) ChainOrders() map[common.Hash]chainstore.Order {
	orders := map[common.Hash]chainstore.Order{}
	for _, ev := range b.Events {
		if ev.Order != nil {
			orders[ev.OrderHash] = *ev.Order
		}
	}
	return orders
}

// decoder turns router logs into events.
type decoder struct {
	router *servicerouter.ServiceRouter
	ids    map[common.Hash]Kind
}

func newDecoder() *decoder {
	r := servicerouter.NewServiceRouter()
	abi := r.GetABI()
	ids := map[common.Hash]Kind{
		abi.Events["OrderActivated"].ID:   KindActivated,
		abi.Events["OrderFilled"].ID:      KindFilled,
		abi.Events["OrderCancelled"].ID:   KindCancelled,
		abi.Events["NonceInvalidated"].ID: KindNonceInvalidated,
		abi.Events["Swapped"].ID:          KindSwapped,
	}
	return &decoder{router: r, ids: ids}
}

// topics returns the event ids the indexer filters on.
func (d *decoder) topics() []common.Hash {
	out := make([]common.Hash, 0, len(d.ids))
	for id := range d.ids {
		out = append(out, id)
	}
	return out
}

// decode decodes one log; ok is false for logs the indexer ignores.
func (d *decoder) decode(l *types.Log, blockTime uint64) (Event, bool, error) {
	if len(l.Topics) == 0 {
		return Event{}, false, nil
	}
	kind, known := d.ids[l.Topics[0]]
	if !known {
		return Event{}, false, nil
	}
	ev := Event{Kind: kind, TxHash: l.TxHash, LogIndex: l.Index}
	switch kind {
	case KindActivated:
		e, err := d.router.UnpackOrderActivatedEvent(l)
		if err != nil {
			return ev, false, fmt.Errorf("indexer: decode %s: %w", kind, err)
		}
		ev.OrderHash, ev.Maker = e.OrderHash, e.Maker
	case KindFilled:
		e, err := d.router.UnpackOrderFilledEvent(l)
		if err != nil {
			return ev, false, fmt.Errorf("indexer: decode %s: %w", kind, err)
		}
		ev.OrderHash, ev.Maker = e.OrderHash, e.Maker
		f := &chainstore.Fill{
			OrderHash: e.OrderHash, TxHash: l.TxHash, BlockNumber: l.BlockNumber,
			BlockHash: l.BlockHash, LogIndex: uint32(l.Index),
			Keeper: e.Keeper, Timestamp: blockTime, Executions: e.Executions,
		}
		for _, a := range [...]struct {
			dst *uint256.Int
			v   *big.Int
		}{{&f.AmountIn, e.AmountIn}, {&f.AmountOut, e.AmountOut}, {&f.ProtocolFee, e.ProtocolFee},
			{&f.ReferralFee, e.ReferralFee}, {&f.KeeperFee, e.KeeperFee}, {&f.FilledAmountIn, e.FilledAmountIn}} {
			if a.v != nil && (a.v.Sign() < 0 || a.dst.SetFromBig(a.v)) {
				return ev, false, fmt.Errorf("indexer: decode %s: an amount is out of the uint256 range", kind)
			}
		}
		ev.Fill = f
	case KindCancelled:
		e, err := d.router.UnpackOrderCancelledEvent(l)
		if err != nil {
			return ev, false, fmt.Errorf("indexer: decode %s: %w", kind, err)
		}
		ev.OrderHash, ev.Maker = e.OrderHash, e.Maker
	case KindNonceInvalidated:
		e, err := d.router.UnpackNonceInvalidatedEvent(l)
		if err != nil {
			return ev, false, fmt.Errorf("indexer: decode %s: %w", kind, err)
		}
		if !e.Nonce.IsUint64() {
			return ev, false, nil // beyond the 40-bit traits field: no order can carry it
		}
		ev.Maker, ev.Nonce = e.Maker, e.Nonce.Uint64()
	case KindSwapped:
		e, err := d.router.UnpackSwappedEvent(l)
		if err != nil {
			return ev, false, fmt.Errorf("indexer: decode %s: %w", kind, err)
		}
		ev.Swap = e
	}
	return ev, true, nil
}
