package pair

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"log/slog"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/chainsync/chainsynctest"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// The pair actor decides only the orders a block may change; the
// reference (reference_test.go) decides every order at every block. Over
// random price paths (moves, repeats, jumps, a price of zero, stale
// oracle answers, a block time that goes back as a reorg to an older
// branch does) and random lives of orders of the five classes (deadlines,
// DCA legs with every schedule option, trailing orders of every trail,
// fills and nonce invalidations in chain blocks and their rewinds, the
// projection of fills into the records, cancels, orders opened again,
// decided transitions applied or not, restarts on the same stores) both
// must give the same decisions at every block: the executable orders with
// every field of their entries, and the expiries, triggers and stalled
// flags with the chain facts they carry.
func TestIndexedEvaluationMatchesTheReference(t *testing.T) {
	total := map[string]int{}
	for seed := range uint64(12) {
		e := newDiffEnv(t, seed)
		e.drive = []int{0, 5, 7, 10}[seed%4] // of 10 evaluations whose transitions are applied
		e.trailing = seed >= 8               // mostly trailing orders, rewinds and time going back
		for step := range 250 {
			e.step(step)
		}
		for k, v := range e.seen {
			total[k] += v
		}
	}
	t.Logf("covered: %v", total)
	// The run must have reached what it claims to compare.
	for _, k := range []string{"executable", "fire", "stall", "expire", "trailing hit", "trailing listed", "dca leg", "short circuit",
		"stale price", "time back", "rewind", "restart", "reopen", "nonce invalidated", "full fill", "price at a trigger",
		"price at a trail", "price above 2^256"} {
		if total[k] == 0 {
			t.Errorf("the random run never produced %q", k)
		}
	}
}

// diffEnv drives the reference and the pair actor with the same messages.
// The reference keeps its t/ rows in refStore, which also holds the chain
// records both read; the actor keeps its rows in its own store.
type diffEnv struct {
	t                  *testing.T
	rng                *rand.Rand
	refStore, actStore *persistence.Store
	chain              *chainstore.Chain
	ref                *refPair
	act                *pairActor

	recs     map[common.Hash]*orderstore.Record // latest version of every order made
	closedAt map[common.Hash]int                // evaluations done when a trailing order closed
	makers   []common.Address
	next     int // orders made
	now      uint64
	price    *big.Int
	block    uint64 // evaluations
	chainNo  uint64 // chain blocks applied
	evals    int
	drive    int  // of 10 evaluations whose decided transitions are applied
	trailing bool // mostly trailing orders, with more rewinds and time going back
	seen     map[string]int
}

const diffPair = "0x0000000000000000000000000000000000000001-0x0000000000000000000000000000000000000002"

func newDiffEnv(t *testing.T, seed uint64) *diffEnv {
	open := func() *persistence.Store {
		s, err := persistence.Open(t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	e := &diffEnv{t: t, rng: rand.New(rand.NewPCG(seed, 7)), refStore: open(), actStore: open(),
		recs: map[common.Hash]*orderstore.Record{}, closedAt: map[common.Hash]int{}, seen: map[string]int{},
		now: 1_700_000_000, price: big.NewInt(1000)}
	e.chain = chainsynctest.Chain(t, e.refStore)
	if err := e.chain.SetCursor(chainstore.Block{Number: 0, Hash: common.Hash{1}}); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		e.makers = append(e.makers, common.BigToAddress(big.NewInt(int64(0x1000+i))))
	}
	e.restart()
	return e
}

// restart makes a new reference and actor over the same stores and feeds
// them the open orders, as a process restart does.
func (e *diffEnv) restart() {
	e.ref = newRefPair(diffPair, e.refStore, e.chain)
	e.act = newPairActor(diffPair, &shared{}, e.actStore, e.chain, slog.New(slog.DiscardHandler))
	for _, h := range e.sortedHashes() {
		if rec := e.recs[h]; rec.Status.Open() {
			e.send(0, rec)
		}
	}
}

func (e *diffEnv) sortedHashes() []common.Hash {
	hs := make([]common.Hash, 0, len(e.recs))
	for h := range e.recs {
		hs = append(hs, h)
	}
	slices.SortFunc(hs, func(a, b common.Hash) int { return bytes.Compare(a[:], b[:]) })
	return hs
}

func (e *diffEnv) send(prev orderstore.Status, rec *orderstore.Record) {
	m := &OrderChanged{Prev: prev, Record: rec}
	e.ref.orderChanged(m)
	e.act.orderChanged(m)
}

// change sends a new version of order h made by fn.
func (e *diffEnv) change(h common.Hash, fn func(*orderstore.Record)) {
	old := e.recs[h]
	rec := old.Clone()
	rec.Version++
	fn(rec)
	e.recs[h] = rec
	if old.Status.Open() && !rec.Status.Open() && rec.Class == chain.ClassTrailing {
		e.closedAt[h] = e.evals
	}
	e.send(old.Status, rec)
}

// pick returns a random open order (ok false when none).
func (e *diffEnv) pick() (common.Hash, bool) {
	var open []common.Hash
	for _, h := range e.sortedHashes() {
		if e.recs[h].Status.Open() {
			open = append(open, h)
		}
	}
	if len(open) == 0 {
		return common.Hash{}, false
	}
	return open[e.rng.IntN(len(open))], true
}

func (e *diffEnv) step(step int) {
	r := e.rng
	for range r.IntN(4) {
		e.create()
	}
	x := r.IntN(100)
	if e.trailing && x >= 46 && x < 70 {
		x = 16 + x%24 // chain blocks and their rewinds
	}
	switch {
	case x < 6:
		if h, ok := e.pick(); ok {
			e.change(h, func(rec *orderstore.Record) { rec.Status = orderstore.StatusCancelled })
		}
	case x < 16:
		e.project()
	case x < 34:
		e.chainBlock()
	case x < 40:
		e.rewind()
	case x < 44:
		e.reopen()
	case x < 46:
		e.restart()
		e.seen["restart"]++
	}
	e.advance()
	e.evaluate(step)
}

// create makes an order of a random class around the current price.
func (e *diffEnv) create() {
	r := e.rng
	e.next++
	h := common.BigToHash(big.NewInt(int64(e.next)))
	h[0] = byte(r.IntN(256))
	class := chain.Class(r.IntN(5) + 1)
	if e.trailing && r.IntN(10) < 7 {
		class = chain.ClassTrailing
	}
	tr := chain.Traits{Nonce: uint64(r.IntN(6)), SlippagePpm: 10_000}
	if r.IntN(2) == 0 {
		tr.Deadline = e.now + uint64(r.IntN(400))
	}
	rec := &orderstore.Record{Hash: h, Version: 1, Class: class, Status: orderstore.StatusPending,
		CreatedAt: time.Unix(int64(e.now)-int64(r.IntN(60)), 0).UTC()}
	rec.Order.Maker = e.makers[r.IntN(len(e.makers))]
	rec.Order.TokenIn, rec.Order.TokenOut = common.HexToAddress("0x01"), common.HexToAddress("0x02")
	rec.Order.AmountIn.SetUint64(uint64(1000 + r.IntN(9000)))
	base := e.price
	if base == nil {
		base = big.NewInt(1000)
	}
	trigger := new(big.Int).Add(base, big.NewInt(int64(r.IntN(601)-300)))
	if trigger.Sign() < 0 {
		trigger.SetInt64(0)
	}
	switch class {
	case chain.ClassStopLoss:
		tr.Flags = chain.FlagStopLoss
	case chain.ClassTakeProfit:
		tr.Flags = chain.FlagTakeProfit
	case chain.ClassTrailing:
		tr.Flags = chain.FlagTrailing
		tr.KindParamPpm = []uint32{0, 10_000, 30_000, 50_000, 100_000, 250_000, 999_999, uint32(r.IntN(200_000))}[r.IntN(8)]
		rec.Trailing = &orderstore.TrailingParams{TrailPpm: tr.KindParamPpm}
		if r.IntN(2) == 0 {
			trigger.SetInt64(0)
		}
	case chain.ClassDCA:
		tr.Flags = chain.FlagDCA
		tr.IntervalSeconds, tr.TotalExecutions = uint32(10+r.IntN(110)), uint16(1+r.IntN(4))
		tr.KindParamPpm = []uint32{0, 100_000, 500_000, 1_000_000}[r.IntN(4)]
		p := &orderstore.DCAParams{IntervalSeconds: tr.IntervalSeconds, TotalExecutions: tr.TotalExecutions,
			FlexibilityPpm: tr.KindParamPpm, ShortCircuit: r.IntN(2) == 0, PriceGated: r.IntN(3) == 0}
		if p.ShortCircuit {
			tr.Flags |= chain.FlagShortCircuit
		}
		if p.PriceGated {
			tr.Flags |= chain.FlagPriceGated
		}
		rec.DCA = p
	}
	traits, err := chain.EncodeTraits(tr)
	if err != nil {
		e.t.Fatal(err)
	}
	rec.Order.MakerTraits = traits
	rec.Order.TriggerPrice.SetFromBig(trigger)
	e.recs[h] = rec
	e.send(0, rec)
}

// project copies the chain's progress of an order into its record, as the
// projector does (a full fill closes the order).
func (e *diffEnv) project() {
	h, ok := e.pick()
	if !ok {
		return
	}
	co, found, err := e.chain.Order(h)
	if err != nil || !found {
		return
	}
	e.change(h, func(rec *orderstore.Record) {
		rec.FilledIn, rec.Executions, rec.Status = co.FilledAmountIn, co.Executions, orderstore.StatusActive
		if !rec.FilledIn.Lt(&rec.Order.AmountIn) {
			rec.Status = orderstore.StatusFilled
		}
	})
}

// chainBlock applies a chain block with fills of random open orders (a DCA
// order fills a leg, others a random part or all) and sometimes a nonce
// invalidation, and tells both of its chain records.
func (e *diffEnv) chainBlock() {
	r := e.rng
	e.chainNo++
	cb := e.chain.Begin(chainstore.Block{Number: e.chainNo, Hash: common.BigToHash(big.NewInt(int64(e.chainNo + 1<<40))),
		Parent: common.BigToHash(big.NewInt(int64(e.chainNo - 1 + 1<<40))), Time: e.now})
	changed := map[common.Hash]chainstore.Order{}
	for i := range 1 + r.IntN(3) {
		h, ok := e.pick()
		if !ok {
			break
		}
		rec := e.recs[h]
		co, _, err := chainstore.OrderIn(cb, h)
		if err != nil {
			e.t.Fatal(err)
		}
		left := new(uint256.Int).Sub(&rec.Order.AmountIn, &co.FilledAmountIn)
		if left.Sign() <= 0 {
			continue
		}
		amount := new(uint256.Int).SetUint64(1 + r.Uint64N(left.Uint64()))
		if rec.DCA != nil {
			amount.Div(&rec.Order.AmountIn, uint256.NewInt(uint64(rec.DCA.TotalExecutions)))
		}
		if r.IntN(3) == 0 || amount.Gt(left) || amount.IsZero() {
			amount.Set(left)
		}
		f := chainstore.Fill{OrderHash: h, BlockNumber: e.chainNo, LogIndex: uint32(i), AmountIn: *amount, Timestamp: e.now,
			Executions: co.Executions + 1}
		f.FilledAmountIn.Add(&co.FilledAmountIn, amount)
		if f.FilledAmountIn.Eq(&rec.Order.AmountIn) {
			e.seen["full fill"]++
		}
		if changed[h], err = chainstore.ApplyFill(cb, f, rec.Order.Maker); err != nil {
			e.t.Fatal(err)
		}
		cb.Touch(h)
	}
	if r.IntN(4) == 0 {
		if h, ok := e.pick(); ok {
			rec := e.recs[h]
			n := chainstore.Nonce{Maker: rec.Order.Maker, Nonce: rec.Traits().Nonce, Block: e.chainNo}
			if err := chainstore.ApplyNonceInvalidated(cb, n); err != nil {
				e.t.Fatal(err)
			}
			e.seen["nonce invalidated"]++
		}
	}
	if err := cb.Commit(0); err != nil {
		e.t.Fatal(err)
	}
	m := &ChainChanged{Orders: changed}
	e.ref.chainChanged(m)
	e.act.chainChanged(m)
}

// rewind undoes the last chain block and tells both which orders it had
// touched.
func (e *diffEnv) rewind() {
	if e.chainNo == 0 {
		return
	}
	_, blk, err := e.chain.Rewind()
	if err != nil {
		e.t.Fatal(err)
	}
	e.chainNo--
	m := &ChainReverted{Hashes: blk.Touched}
	e.ref.chainReverted(m)
	e.act.chainReverted(m)
	e.seen["rewind"]++
}

// reopen opens a cancelled order again, as a rewound on-chain cancel does.
// A trailing order is reopened only after an evaluation since it closed:
// the reference keeps a closed order's peak until its next evaluation
// (and uses it if the order came back meanwhile), where the pair actor
// forgets it at once; after that evaluation both start the peak again.
func (e *diffEnv) reopen() {
	for _, h := range e.sortedHashes() {
		rec := e.recs[h]
		if rec.Status != orderstore.StatusCancelled || (rec.Class == chain.ClassTrailing && e.closedAt[h] == e.evals) {
			continue
		}
		e.change(h, func(rec *orderstore.Record) { rec.Status = orderstore.StatusActive })
		e.seen["reopen"]++
		return
	}
}

// advance moves the block time and the price.
func (e *diffEnv) advance() {
	r := e.rng
	back := 5
	if e.trailing {
		back = 15
	}
	switch x := r.IntN(100); {
	case x < back:
		e.now -= uint64(r.IntN(300))
		e.seen["time back"]++
	case x < 10:
	default:
		e.now += uint64(1 + r.IntN(40))
	}
	prev := e.price
	if prev == nil {
		prev = big.NewInt(1000)
	}
	switch x := r.IntN(100); {
	case x < 6:
		e.price = nil
		e.seen["stale price"]++
	case x < 16:
		e.price = new(big.Int).Set(prev)
	case x < 20:
		e.price = big.NewInt(int64(500 + r.IntN(1000)))
	case x < 21:
		e.price = big.NewInt(0)
	case x < 31:
		e.price = e.boundary()
	case x < 32:
		e.price = new(big.Int).Lsh(big.NewInt(int64(1+r.IntN(3))), 256) // above any trigger price
		e.seen["price above 2^256"]++
	default:
		e.price = new(big.Int).Add(prev, big.NewInt(int64(r.IntN(61)-30)))
		if e.price.Sign() < 0 {
			e.price.SetInt64(0)
		}
	}
}

// boundary is a price right at a decision's edge: the trigger price of an
// open order, or the price at which a trailing order's trail is hit (or
// the integer just above it), from the reference's peaks.
func (e *diffEnv) boundary() *big.Int {
	var trailing []common.Hash
	for h, p := range e.ref.peaks {
		if e.ref.orders[h] != nil && p != nil {
			trailing = append(trailing, h)
		}
	}
	slices.SortFunc(trailing, func(a, b common.Hash) int { return strings.Compare(a.Hex(), b.Hex()) })
	if len(trailing) > 0 && e.rng.IntN(2) == 0 {
		h := trailing[e.rng.IntN(len(trailing))]
		t := e.ref.orders[h].trailPpm
		if t < ppm {
			v := new(big.Int).Mul(e.ref.peaks[h], big.NewInt(int64(ppm-t)))
			v.Quo(v, bigPpm)
			e.seen["price at a trail"]++
			return v.Add(v, big.NewInt(int64(e.rng.IntN(2))))
		}
	}
	if h, ok := e.pick(); ok {
		e.seen["price at a trigger"]++
		return e.recs[h].Order.TriggerPrice.ToBig()
	}
	return big.NewInt(1000)
}

// evaluate runs both at the next block, compares their decisions, and
// applies some of the decided transitions (a driving node), as the order
// actors would.
func (e *diffEnv) evaluate(step int) {
	e.block++
	e.evals++
	m := &EvaluateRequest{Ref: BlockRef{Number: e.block, Hash: common.Hash{byte(e.block)}, Time: e.now}, Price: e.price}
	want := e.ref.evaluate(m)
	got := e.act.evaluate(m)
	if want.Err != nil || got.Err != nil {
		e.t.Fatalf("step %d: reference error %v, actor error %v", step, want.Err, got.Err)
	}
	var gotExec []Executable
	eachExecutable([]*execSet{got.Exec}, common.Hash{}, func(x Executable) bool {
		gotExec = append(gotExec, x)
		return true
	})
	same(e, step, "executable", want.Exec, gotExec, sameExec, renderExec)
	same(e, step, "fire", want.Fire, got.Fire, sameTransition, renderTransition)
	same(e, step, "stall", want.Stall, got.Stall, sameTransition, renderTransition)
	same(e, step, "expire", want.Expire, got.Expire, sameTransition, renderTransition)
	if want.Open != got.Open {
		e.t.Fatalf("step %d: %d open, reference %d", step, got.Open, want.Open)
	}
	e.count(want)
	e.storedPeaksHold(step)
	e.storedRowsHold(step)
	if e.rng.IntN(10) >= e.drive {
		return // not driving: the transitions are decided again at the next block
	}
	at := time.Unix(int64(e.now), 0).UTC()
	for _, tr := range want.Expire {
		e.change(tr.Hash, func(rec *orderstore.Record) { rec.Status = orderstore.StatusExpired })
	}
	for _, tr := range want.Fire {
		e.change(tr.Hash, func(rec *orderstore.Record) { rec.TriggeredAt = at })
	}
	for _, tr := range want.Stall {
		e.change(tr.Hash, func(rec *orderstore.Record) { rec.Stalled = tr.Stalled })
	}
}

// storedPeaksHold checks that what the actor stored gives back the peak
// it holds for each trailing order, in a group or not: what a restart
// reads.
func (e *diffEnv) storedPeaksHold(step int) {
	for h, o := range e.act.orders {
		var held *big.Int
		if o.group != nil {
			held = o.group.peak
		} else if b, ok := e.act.trig.peaks.bases[h]; ok {
			held = b.peak
		} else {
			continue
		}
		stored, err := loadPeak(e.actStore, h)
		if err != nil || (stored == nil) != (held == nil) || (held != nil && stored.Cmp(held) != 0) {
			e.t.Fatalf("step %d: order %s holds peak %v, its rows give %v (%v)", step, h.Hex(), held, stored, err)
		}
	}
}

// storedRowsHold checks that no t/ row of the actor outlives its order or
// its peak group.
func (e *diffEnv) storedRowsHold(step int) {
	it, err := e.actStore.DB().NewIter(&pebble.IterOptions{LowerBound: []byte("t/"), UpperBound: []byte("t0")})
	if err != nil {
		e.t.Fatal(err)
	}
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		k := it.Key()[2:]
		switch len(k) {
		case common.HashLength:
			if h := common.BytesToHash(k); e.act.orders[h] == nil {
				e.t.Fatalf("step %d: a t/ row outlives order %s (%s)", step, h.Hex(), e.recs[h].Status)
			}
		case 8:
			if id := binary.BigEndian.Uint64(k); e.act.trig.peaks.live[id] == nil {
				e.t.Fatalf("step %d: the row of peak group %d outlives it", step, id)
			}
		default:
			e.t.Fatalf("step %d: unexpected t/ key %x", step, it.Key())
		}
	}
}

// same fails the test, showing what differs, unless want and got are
// equal element by element.
func same[T any](e *diffEnv, step int, what string, want, got []T, eq func(a, b T) bool, render func(T) string) {
	if slices.EqualFunc(want, got, eq) {
		return
	}
	w, g := make([]string, len(want)), make([]string, len(got))
	for i, x := range want {
		w[i] = render(x)
	}
	for i, x := range got {
		g[i] = render(x)
	}
	e.t.Fatalf("step %d (time %d, price %v): %s differs\nonly in the reference:\n  %s\nonly in the actor's:\n  %s", step, e.now, e.price,
		what, strings.Join(without(w, g), "\n  "), strings.Join(without(g, w), "\n  "))
}

func sameExec(a, b Executable) bool {
	return a.Hash == b.Hash && a.Pair == b.Pair && a.Class == b.Class && a.Maker == b.Maker && a.TokenIn == b.TokenIn &&
		a.FillIn.Cmp(b.FillIn) == 0 && sameAmount(a.Price, b.Price) && a.Block == b.Block
}

func sameTransition(a, b Transition) bool { return a == b }

// without returns the lines of a that b lacks.
func without(a, b []string) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[s] = true
	}
	var out []string
	for _, s := range a {
		if !in[s] {
			out = append(out, s)
		}
	}
	return out
}

// count notes what the decisions covered.
func (e *diffEnv) count(d *refDecision) {
	e.seen["executable"] += len(d.Exec)
	e.seen["fire"] += len(d.Fire)
	e.seen["stall"] += len(d.Stall)
	e.seen["expire"] += len(d.Expire)
	for _, x := range d.Exec {
		rec := e.recs[x.Hash]
		switch {
		case x.Class == chain.ClassTrailing && rec.TriggeredAt.IsZero():
			e.seen["trailing hit"]++
		case x.Class == chain.ClassTrailing:
			e.seen["trailing listed"]++
		case x.Class == chain.ClassDCA:
			e.seen["dca leg"]++
			leg := new(big.Int).Quo(rec.Order.AmountIn.ToBig(), big.NewInt(int64(rec.DCA.TotalExecutions)))
			if rec.DCA.ShortCircuit && x.FillIn.Cmp(leg.Lsh(leg, 1)) >= 0 {
				e.seen["short circuit"]++
			}
		}
	}
}

func renderExec(x Executable) string {
	return fmt.Sprintf("%s %s %s maker=%s in=%s fill=%s price=%v block=%d", x.Hash.Hex(), x.Pair, x.Class, x.Maker.Hex(),
		x.TokenIn.Hex(), x.FillIn, x.Price, x.Block)
}

func renderTransition(t Transition) string {
	return fmt.Sprintf("%s stalled=%v chain=%+v", t.Hash.Hex(), t.Stalled, t.Chain)
}
