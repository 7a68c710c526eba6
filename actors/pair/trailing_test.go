package pair

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// trailingOrder makes an open trailing order of trailPpm with a deadline
// (0: none) and sends it to both.
func (e *diffEnv) trailingOrder(trailPpm uint32, deadline uint64) common.Hash {
	e.next++
	h := common.BigToHash(big.NewInt(int64(e.next)))
	traits, err := chain.EncodeTraits(chain.Traits{Deadline: deadline, KindParamPpm: trailPpm, Flags: chain.FlagTrailing})
	if err != nil {
		e.t.Fatal(err)
	}
	rec := &orderstore.Record{Hash: h, Version: 1, Class: chain.ClassTrailing, Status: orderstore.StatusPending,
		Trailing: &orderstore.TrailingParams{TrailPpm: trailPpm}, CreatedAt: time.Unix(int64(e.now), 0).UTC()}
	rec.Order.Maker, rec.Order.MakerTraits = e.makers[0], traits
	rec.Order.AmountIn.SetUint64(1000)
	e.recs[h] = rec
	e.send(0, rec)
	return h
}

// fillAll applies a chain block filling the whole of order h.
func (e *diffEnv) fillAll(h common.Hash) {
	e.chainNo++
	cb := e.chain.Begin(chainstore.Block{Number: e.chainNo, Hash: common.Hash{0xcb, byte(e.chainNo)}, Time: e.now})
	f := chainstore.Fill{OrderHash: h, BlockNumber: e.chainNo, Timestamp: e.now, Executions: 1}
	f.FilledAmountIn = e.recs[h].Order.AmountIn
	co, err := chainstore.ApplyFill(cb, f, e.recs[h].Order.Maker)
	if err != nil {
		e.t.Fatal(err)
	}
	cb.Touch(h)
	if err := cb.Commit(0); err != nil {
		e.t.Fatal(err)
	}
	m := &ChainChanged{Orders: map[common.Hash]chainstore.Order{h: co}}
	e.ref.chainChanged(m)
	e.act.chainChanged(m)
}

// at evaluates both at time now and price, and tells whether the actor
// lists h.
func (e *diffEnv) at(now uint64, price int64, h common.Hash) bool {
	e.now, e.price = now, big.NewInt(price)
	e.evaluate(int(e.block))
	return e.act.trig.exec.tree.Has(h)
}

// A trailing order's peak does not follow the price while nothing of it
// is left to fill (a fill the indexer applied before the projection closed
// the order): when a rewind gives the amount back, the peak is the one it
// had before the fill.
func TestTrailingPeakPausesWhileNothingIsLeft(t *testing.T) {
	e := newDiffEnv(t, 1)
	h := e.trailingOrder(100_000, 0) // fires 10 % under its peak
	if e.at(e.now+1, 1000, h) {
		t.Fatal("fired at its peak")
	}
	e.fillAll(h)
	if e.at(e.now+1, 1200, h) {
		t.Fatal("listed with nothing left")
	}
	e.rewind()
	// Peak 1000: 950 is above the trail (900); a peak of 1200 would fire.
	if e.at(e.now+1, 950, h) {
		t.Fatal("the peak followed the price while nothing was left")
	}
	if !e.at(e.now+1, 900, h) {
		t.Fatal("did not fire at the trail of its peak")
	}
}

// A trailing order past its deadline does not follow the price either,
// from the first block past it: when the block time goes back (a reorg to
// an older branch), the order trails again from the peak it had.
func TestTrailingPeakPausesPastTheDeadline(t *testing.T) {
	e := newDiffEnv(t, 2)
	e.drive = 0 // the expiry is decided, never applied
	deadline := e.now + 100
	h := e.trailingOrder(100_000, deadline)
	if e.at(deadline-10, 1000, h) {
		t.Fatal("fired at its peak")
	}
	if e.at(deadline+1, 1200, h) {
		t.Fatal("listed past its deadline")
	}
	if e.at(deadline-5, 950, h) {
		t.Fatal("the peak followed the price past the deadline")
	}
}
