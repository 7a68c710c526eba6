package market

import (
	"context"
	"log/slog"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chainsync"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Sink records swaps, fills, volume and counters inside the indexer's block
// batch (an chainsync.Sink).
type Sink struct {
	orders *orderstore.Store
	pricer Pricer
	log    *slog.Logger
}

// NewSink returns the market sink. orders (for a fill's tokens) and pricer
// may be nil: fills then carry no tokens and nothing is priced.
func NewSink(orders *orderstore.Store, pricer Pricer, log *slog.Logger) *Sink {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Sink{orders: orders, pricer: pricer, log: log.With("component", "market")}
}

// ApplyBlock implements chainsync.Sink.
func (s *Sink) ApplyBlock(cb *chainstore.Batch, b *chainsync.Block) error {
	if len(b.Events) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var d chainstore.Stats
	for i := range b.Events {
		ev := &b.Events[i]
		switch ev.Kind {
		case chainsync.KindActivated:
			d.Activated++
		case chainsync.KindCancelled:
			d.Cancelled++
		case chainsync.KindNonceInvalidated:
			d.Nonces++
		case chainsync.KindFilled:
			d.Fills++
			if err := s.fill(ctx, cb, b, ev); err != nil {
				return err
			}
		case chainsync.KindSwapped:
			d.Swaps++
			if err := s.swap(ctx, cb, b, ev); err != nil {
				return err
			}
		}
	}
	return chainstore.UpdateStats(cb, func(st *chainstore.Stats) {
		st.Activated += d.Activated
		st.Cancelled += d.Cancelled
		st.Nonces += d.Nonces
		st.Fills += d.Fills
		st.Executions += d.Fills
		st.Swaps += d.Swaps
	})
}

func (s *Sink) fill(ctx context.Context, cb *chainstore.Batch, b *chainsync.Block, ev *chainsync.Event) error {
	f := ev.Fill
	r := chainstore.SwapRecord{
		Kind: "fill", TxHash: f.TxHash.Hex(), BlockNumber: b.Number, LogIndex: f.LogIndex,
		Timestamp: int64(b.Time), Wallet: ev.Maker.Hex(), AmountIn: f.AmountIn.Dec(), AmountOut: f.AmountOut.Dec(),
		ProtocolFee: f.ProtocolFee.Dec(), ReferralFee: f.ReferralFee.Dec(), KeeperFee: f.KeeperFee.Dec(), Keeper: f.Keeper.Hex(),
		OrderHash: ev.OrderHash.Hex(),
	}
	var in, out common.Address
	if s.orders != nil {
		rec, ok, err := s.orders.Load(ev.OrderHash)
		if err != nil {
			return err
		}
		if ok {
			in, out = rec.Order.TokenIn, rec.Order.TokenOut
			r.TokenIn, r.TokenOut, r.Receiver = in.Hex(), out.Hex(), rec.Order.Receiver.Hex()
		}
	}
	return s.record(ctx, cb, b, r, in, out)
}

func (s *Sink) swap(ctx context.Context, cb *chainstore.Batch, b *chainsync.Block, ev *chainsync.Event) error {
	w := ev.Swap
	r := chainstore.SwapRecord{
		Kind: "swap", TxHash: ev.TxHash.Hex(), BlockNumber: b.Number, LogIndex: uint32(ev.LogIndex),
		Timestamp: int64(b.Time), Wallet: w.Sender.Hex(), Receiver: w.Receiver.Hex(),
		TokenIn: w.TokenIn.Hex(), TokenOut: w.TokenOut.Hex(), AmountIn: w.AmountIn.String(),
		AmountOut: w.AmountOut.String(), ProtocolFee: w.ProtocolFee.String(), ReferralFee: w.ReferralFee.String(),
		Referrer: w.Referrer.Hex(),
	}
	return s.record(ctx, cb, b, r, w.TokenIn, w.TokenOut)
}

// record prices the record's amountIn at the block, writes it and adds
// its volume to the pair's hour bucket.
func (s *Sink) record(ctx context.Context, cb *chainstore.Batch, b *chainsync.Block, r chainstore.SwapRecord, in, out common.Address) error {
	if s.pricer != nil && in != (common.Address{}) {
		amt, _ := new(big.Int).SetString(r.AmountIn, 10)
		if usd8, ok := s.pricer.USD8(ctx, b.Hash, in, amt); ok && amt != nil {
			r.VolumeUSD = FormatUSD8(usd8)
			if err := chainstore.AddVolume(cb, b.Time/3600, in, out, usd8); err != nil {
				return err
			}
		}
	}
	return chainstore.PutSwap(cb, r)
}

// FormatUSD8 renders USD with 8 decimals as a decimal string with 2
// decimals (floor).
func FormatUSD8(v *big.Int) string {
	cents := new(big.Int).Quo(v, big.NewInt(1_000_000))
	q, m := new(big.Int).QuoRem(cents, big.NewInt(100), new(big.Int))
	s := m.String()
	if len(s) < 2 {
		s = "0" + s
	}
	return q.String() + "." + s
}
