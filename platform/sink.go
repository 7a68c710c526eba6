package platform

import (
	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Sink records, inside the indexer's block batch (a chainsync.Sink), one
// accrual per referral leg paid, to the wei, from the router's events:
//
//   - OrderFilled carries referralFee but not the payee or the token: they
//     are the order's signed referrer and tokenOut, read from the order
//     record. A fill of an order this engine does not hold is skipped.
//   - Swapped carries referralFee, referrer (the payee) and tokenOut.
//
// Legs of zero are not recorded. For a fill whose maker is bound to the
// order's referrer, the fill's amountIn is added to the referee's volume.
// Everything goes through the block's batch, so a rewound block takes its
// accruals and volume with it.
type Sink struct {
	orders *orderstore.Store
}

// NewSink returns the platform sink reading orders.
func NewSink(orders *orderstore.Store) *Sink { return &Sink{orders: orders} }

// ApplyBlock implements chainsync.Sink.
func (s *Sink) ApplyBlock(cb *chainstore.Batch, b *chainsync.Block) error {
	for i := range b.Events {
		ev := &b.Events[i]
		var err error
		switch ev.Kind {
		case chainsync.KindFilled:
			err = s.fill(cb, b, ev)
		case chainsync.KindSwapped:
			err = s.swap(cb, b, ev)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *Sink) fill(cb *chainstore.Batch, b *chainsync.Block, ev *chainsync.Event) error {
	f := ev.Fill
	rec, ok, err := s.orders.Load(ev.OrderHash)
	if err != nil || !ok {
		return err
	}
	o := &rec.Order
	if !f.ReferralFee.IsZero() {
		h := ev.OrderHash
		a := &chainstore.Accrual{Referrer: o.Referrer, Timestamp: b.Time, BlockNumber: b.Number, LogIndex: f.LogIndex,
			Token: o.TokenOut, Amount: f.ReferralFee, TxHash: f.TxHash, OrderHash: &h}
		if err := chainstore.PutAccrual(cb, a); err != nil {
			return err
		}
	}
	bound, ok, err := s.orders.Binding(o.Maker)
	if err != nil || !ok || bound != o.Referrer || f.AmountIn.IsZero() {
		return err
	}
	return chainstore.AddRefereeVolume(cb, o.Referrer, o.Maker, o.TokenIn, &f.AmountIn)
}

func (s *Sink) swap(cb *chainstore.Batch, b *chainsync.Block, ev *chainsync.Event) error {
	w := ev.Swap
	if w.ReferralFee == nil || w.ReferralFee.Sign() <= 0 {
		return nil
	}
	a := &chainstore.Accrual{Referrer: w.Referrer, Timestamp: b.Time, BlockNumber: b.Number, LogIndex: uint32(ev.LogIndex),
		Token: w.TokenOut, TxHash: ev.TxHash}
	a.Amount.SetFromBig(w.ReferralFee) // an ABI uint256 always fits
	return chainstore.PutAccrual(cb, a)
}
