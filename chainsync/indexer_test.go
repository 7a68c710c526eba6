package chainsync

import (
	"context"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/orderengine/orderengine/chainsync/chainsynctest"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
)

// recorder is an Observer and Sink that remembers what it saw.
type recorder struct {
	mu       sync.Mutex
	applied  []uint64
	reverted []chainstore.Block
	events   int
}

func (r *recorder) Applied(b *Block) {
	r.mu.Lock()
	r.applied = append(r.applied, b.Number)
	r.mu.Unlock()
}

func (r *recorder) Reverted(blk chainstore.Block) {
	r.mu.Lock()
	r.reverted = append(r.reverted, blk)
	r.mu.Unlock()
}

// ApplyBlock counts events through the batch, so a rewind must undo it.
func (r *recorder) ApplyBlock(cb *chainstore.Batch, b *Block) error {
	key := []byte("c/test/events")
	v, _, err := cb.Get(key)
	if err != nil {
		return err
	}
	n := new(big.Int).SetBytes(v)
	n.Add(n, big.NewInt(int64(len(b.Events))))
	return cb.Set(key, n.Bytes())
}

func eventCount(t *testing.T, s *persistence.Store) int64 {
	t.Helper()
	v, closer, err := s.DB().Get([]byte("c/test/events"))
	if err != nil {
		return 0
	}
	defer closer.Close()
	return new(big.Int).SetBytes(v).Int64()
}

func newIndexer(t *testing.T, e *chainsynctest.Env, s *persistence.Store, rec *recorder) *Indexer {
	t.Helper()
	ix, err := New(e.Client, s, nil, Options{
		Router: e.D.Router, StartBlock: e.D.Block, RecentBlocks: 64,
		Sinks: []Sink{rec}, Observers: []Observer{rec},
	})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func sync1(t *testing.T, ix *Indexer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
}

// checkOrder compares the indexed state of h with the router's counters.
func checkOrder(t *testing.T, e *chainsynctest.Env, ix *Indexer, h common.Hash, wantFills int) chainstore.Order {
	t.Helper()
	co, _, err := ix.Chain().Order(h)
	if err != nil {
		t.Fatal(err)
	}
	filledIn, execs := e.RouterFilled(h)
	if co.FilledAmountIn.Dec() != filledIn.String() || co.Executions != execs {
		t.Fatalf("indexed filledIn %s executions %d, router says %s %d", co.FilledAmountIn.Dec(), co.Executions, filledIn, execs)
	}
	fills, err := ix.Chain().Fills(h)
	if err != nil {
		t.Fatal(err)
	}
	if len(fills) != wantFills || co.Fills != wantFills {
		t.Fatalf("fills: %d records, state says %d, want %d", len(fills), co.Fills, wantFills)
	}
	sumIn, sumOut := new(big.Int), new(big.Int)
	for _, f := range fills {
		sumIn.Add(sumIn, f.AmountIn.ToBig())
		sumOut.Add(sumOut, f.AmountOut.ToBig())
	}
	if sumIn.Cmp(filledIn) != 0 || sumOut.String() != co.FilledAmountOut.Dec() {
		t.Fatalf("fills sum in %s out %s, state in %s out %s", sumIn, sumOut, filledIn, co.FilledAmountOut.Dec())
	}
	return co
}

func TestIndexesFillsCancelsNonces(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	s := chainsynctest.OpenStore(t, t.TempDir())
	defer s.Close()
	rec := &recorder{}
	ix := newIndexer(t, e, s, rec)
	o, sig, h := e.LimitOrder(1_000_000_000, 1)
	r1 := e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 300_000_000))
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 200_000_000))
	sync1(t, ix)
	co := checkOrder(t, e, ix, h, 2)
	if co.ActivatedBlock != r1.BlockNumber.Uint64() || co.FilledAmountIn.Dec() != "500000000" || co.Maker != e.Maker.Addr {
		t.Fatalf("chain order %+v", co)
	}
	fills, _ := ix.Chain().Fills(h)
	if fills[0].TxHash != r1.TxHash || fills[0].Keeper != e.Keeper.Addr || fills[0].BlockHash != r1.BlockHash {
		t.Fatalf("first fill %+v", fills[0])
	}
	if ok, _ := ix.Chain().LogApplied(r1.BlockHash, r1.TxHash, uint(fills[0].LogIndex)); !ok {
		t.Fatal("applied-log key missing")
	}
	// 1 activation + 2 fills (+ Swapped? none for fills) went through the sink.
	if n := eventCount(t, s); n != 3 {
		t.Fatalf("sink saw %d events, want 3", n)
	}

	// On-chain cancel and nonce invalidation.
	rc := e.MustSend(e.Maker, e.D.Router, e.Router.PackCancel(o))
	e.MustSend(e.Maker, e.D.Router, e.Router.PackInvalidateNonce(big.NewInt(7)))
	sync1(t, ix)
	co, _, _ = ix.Chain().Order(h)
	if co.CancelledBlock != rc.BlockNumber.Uint64() || co.CancelTx != rc.TxHash {
		t.Fatalf("cancel not indexed: %+v", co)
	}
	if ok, _ := ix.Chain().NonceInvalidated(e.Maker.Addr, 7); !ok {
		t.Fatal("nonce 7 not indexed")
	}
	if ok, _ := ix.Chain().NonceInvalidated(e.Maker.Addr, 8); ok {
		t.Fatal("nonce 8 reported invalidated")
	}
	st := ix.Status()
	if st.Cursor != e.Head().Number.Uint64() || st.LagBlocks != 0 {
		t.Fatalf("status %+v, head %d", st, e.Head().Number)
	}
}

func TestConfirmationDepth(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	s := chainsynctest.OpenStore(t, t.TempDir())
	defer s.Close()
	ix, err := New(e.Client, s, nil, Options{Router: e.D.Router, StartBlock: e.D.Block, Confirmations: 2})
	if err != nil {
		t.Fatal(err)
	}
	o, sig, h := e.LimitOrder(1_000_000, 2)
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 1_000_000))
	sync1(t, ix)
	if co, ok, _ := ix.Chain().Order(h); ok {
		t.Fatalf("fill applied before 2 confirmations: %+v", co)
	}
	e.Sim.Commit()
	sync1(t, ix)
	if _, ok, _ := ix.Chain().Order(h); ok {
		t.Fatal("fill applied with 1 confirmation")
	}
	e.Sim.Commit()
	sync1(t, ix)
	checkOrder(t, e, ix, h, 1)
	if st := ix.Status(); st.LagBlocks != 2 {
		t.Fatalf("status %+v: lag must equal the depth", st)
	}
}

func TestReorgUndoesAndReappliesFill(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	s := chainsynctest.OpenStore(t, t.TempDir())
	defer s.Close()
	rec := &recorder{}
	ix := newIndexer(t, e, s, rec)
	o, sig, h := e.LimitOrder(1_000_000_000, 3)
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 100_000_000))
	parent := e.Head()
	tx, err := e.Send(e.Keeper, e.D.Router, e.FillData(o, sig, 250_000_000))
	if err != nil {
		t.Fatal(err)
	}
	e.Sim.Commit()
	fillBlock := e.Head()
	sync1(t, ix)
	checkOrder(t, e, ix, h, 2)
	if n := eventCount(t, s); n != 3 {
		t.Fatalf("sink events %d, want 3", n)
	}

	// Replace the block holding the second fill with a longer side chain.
	if err := e.Sim.Fork(parent.Hash()); err != nil {
		t.Fatal(err)
	}
	e.Sim.Commit()
	e.Sim.Commit()
	if e.Head().Number.Uint64() <= fillBlock.Number.Uint64() {
		t.Fatal("side chain is not longer")
	}
	sync1(t, ix)
	if len(rec.reverted) != 1 || rec.reverted[0].Hash != fillBlock.Hash() || rec.reverted[0].Touched[0] != h {
		t.Fatalf("reverted %+v", rec.reverted)
	}
	if ok, _ := ix.Chain().LogApplied(fillBlock.Hash(), tx.Hash(), 1); ok {
		t.Fatal("applied-log key of the orphaned block survived the rewind")
	}
	// Whether or not the node re-included the orphaned fill, the indexed
	// state must equal the new chain's.
	filledIn, _ := e.RouterFilled(h)
	want := 1
	if filledIn.Cmp(big.NewInt(100_000_000)) != 0 {
		want = 2
	}
	t.Logf("after the reorg the new chain holds %d fills", want)
	checkOrder(t, e, ix, h, want)
	fills, _ := ix.Chain().Fills(h)
	for _, f := range fills {
		if f.BlockHash == fillBlock.Hash() {
			t.Fatalf("fill still recorded in the orphaned block: %+v", f)
		}
	}
	if want == 1 {
		// Execute the same fill again on the new chain: applied once.
		e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 250_000_000))
		sync1(t, ix)
		sync1(t, ix)
		checkOrder(t, e, ix, h, 2)
	}
	if n := eventCount(t, s); n != 3 {
		t.Fatalf("sink events %d after reorg and reapply, want 3 (no double counting)", n)
	}
	if ix.Status().Reorgs != 1 {
		t.Fatalf("status %+v", ix.Status())
	}
}

func TestRestartResumesAndBackfills(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	dir := t.TempDir()
	s := chainsynctest.OpenStore(t, dir)
	rec := &recorder{}
	ix := newIndexer(t, e, s, rec)
	o, sig, h := e.LimitOrder(1_000_000_000, 4)
	e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 100_000_000))
	sync1(t, ix)
	checkOrder(t, e, ix, h, 1)
	cursor := ix.Status().Cursor
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// While the engine is down: three more fills and empty blocks.
	var last *types.Receipt
	for i := 0; i < 3; i++ {
		last = e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 50_000_000))
		e.Sim.Commit()
	}
	s = chainsynctest.OpenStore(t, dir)
	defer s.Close()
	rec2 := &recorder{}
	ix = newIndexer(t, e, s, rec2)
	if got := ix.Status().Cursor; got != cursor {
		t.Fatalf("cursor after restart %d, want %d", got, cursor)
	}
	sync1(t, ix)
	checkOrder(t, e, ix, h, 4)
	if rec2.applied[0] != cursor+1 {
		t.Fatalf("backfill started at %d, want %d", rec2.applied[0], cursor+1)
	}
	if ix.Status().Cursor != e.Head().Number.Uint64() || last.BlockNumber.Uint64() > ix.Status().Cursor {
		t.Fatalf("status %+v", ix.Status())
	}
	if n := eventCount(t, s); n != 5 {
		t.Fatalf("sink events %d, want 5 (1 activation + 4 fills)", n)
	}
}

// failingSink fails every block after the first n.
type failingSink struct{ n int }

func (f *failingSink) ApplyBlock(cb *chainstore.Batch, b *Block) error {
	if f.n == 0 {
		return errTest
	}
	f.n--
	return nil
}

var errTest = errorString("sink failed")

type errorString string

func (e errorString) Error() string { return string(e) }

// A failing sink leaves nothing behind: no chain state, no applied-log key,
// no cursor move; the block is applied once it succeeds.
func TestBlockIsAtomic(t *testing.T) {
	e := chainsynctest.NewEnv(t)
	s := chainsynctest.OpenStore(t, t.TempDir())
	defer s.Close()
	sink := &failingSink{n: 0}
	ix, err := New(e.Client, s, nil, Options{Router: e.D.Router, StartBlock: e.D.Block, Sinks: []Sink{sink}})
	if err != nil {
		t.Fatal(err)
	}
	o, sig, h := e.LimitOrder(1_000_000, 5)
	r := e.MustSend(e.Keeper, e.D.Router, e.FillData(o, sig, 1_000_000))
	ctx := context.Background()
	if err := ix.Sync(ctx); err == nil {
		t.Fatal("sync with a failing sink succeeded")
	}
	before := ix.Status().Cursor
	if _, ok, _ := ix.Chain().Order(h); ok {
		t.Fatal("chain state written by a failed block")
	}
	if cur, _, _ := ix.Chain().Cursor(); cur.Number != before || before >= r.BlockNumber.Uint64() {
		t.Fatalf("cursor %d moved past the failed block %d", cur.Number, r.BlockNumber)
	}
	sink.n = 1 << 30
	sync1(t, ix)
	checkOrder(t, e, ix, h, 1)
}

// A reorg to a chain of the same length (no new block reveals it through
// its parent) is found by checking the tip, and undone.
func TestSameHeightReorgAtTheTip(t *testing.T) {
	router := common.HexToAddress("0x1000000000000000000000000000000000000001")
	c := newSynthChain(router, 3)
	s := chainsynctest.OpenStore(t, t.TempDir())
	defer s.Close()
	rec := &recorder{}
	ix, err := New(c, s, nil, Options{Router: router, StartBlock: 1, Sinks: []Sink{rec}, Observers: []Observer{rec}})
	if err != nil {
		t.Fatal(err)
	}
	c.mine()
	c.mine()
	sync1(t, ix)
	old := c.logs[c.headers[2].Hash()][0].Topics[1]
	if co, ok, _ := ix.Chain().Order(old); !ok || co.Fills != 1 {
		t.Fatalf("tip order not indexed: %+v", co)
	}
	c.replaceTip(7)
	sync1(t, ix)
	if _, ok, _ := ix.Chain().Order(old); ok {
		t.Fatal("order of the replaced tip survived")
	}
	now := c.logs[c.headers[2].Hash()][0].Topics[1]
	if co, ok, _ := ix.Chain().Order(now); !ok || co.Fills != 1 {
		t.Fatalf("new tip order not indexed: %+v", co)
	}
	if st := ix.Status(); st.Reorgs != 1 || st.Cursor != 2 {
		t.Fatalf("status %+v", st)
	}
	if n := eventCount(t, s); n != 6 {
		t.Fatalf("sink events %d, want 6 (two blocks of three)", n)
	}
}
