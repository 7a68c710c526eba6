package keeper

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"iter"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/RaduBerinde/btreemap"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/holiman/uint256"

	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/orders"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// The keeper stream's source (GET /v1/keeper/stream, stream.go): the
// executable set as a sequence of per-block changes.
//
// The feed follows the pairs' executable set from the changes each
// evaluation reports (pair.Pairs.WatchExecutable), on its own goroutine:
// the evaluating one only hands it the block and its changes. At each
// evaluated block it takes, of that set, the orders whose maker holds and
// has approved the fill amount at the block (read pinned to the block's
// hash), and records what changed since the previous evaluated block: the
// orders that became executable (or whose fill amount changed, or that
// are announced again with a fresh route) and those that stopped being
// executable, with the reason. It keeps the last
// streams.keeperResumeBlocks records for the keepers that reconnect.
//
// Every node of a cluster runs its own feed from its own pairs: they
// decide from the shared chain and the replicated orders, so the nodes'
// sets agree, and an event's id, the block number and a digest of the set
// after the block, means the same on every node. A node resumes a
// reconnecting keeper from its own records when it holds that block with
// that digest, and answers a resync (the whole set) otherwise; docs/
// lifecycle.md, "The keeper stream".

// FeedOptions configure a Feed.
type FeedOptions struct {
	// Pairs hold the executable set and report its changes.
	Pairs *pair.Pairs
	// Service builds the fillOrder transaction of an order.
	Service *Service
	// Chain holds the indexer's chain records (a full fill the projection
	// has not recorded yet names the reason "filled").
	Chain *chainstore.Chain
	// Funding reads balances and router allowances at a block hash (nil:
	// every order counts as funded).
	Funding func(ctx context.Context, block common.Hash, pairs [][2]common.Address) (map[[2]common.Address]orders.Funding, error)
	Config  config.StreamsConfig
	Log     *slog.Logger
}

// Feed is the executable set's per-block changes. NewFeed watches the
// pairs; Run processes their evaluations; Subscribe opens a keeper stream
// on it.
type Feed struct {
	opts FeedOptions
	cfg  config.StreamsConfig
	log  *slog.Logger

	pendMu  sync.Mutex
	pending []*published // oldest first
	signal  chan struct{}
	// wake tells Run that a subscription opened (a dormant feed records
	// the last evaluated block at once).
	wake chan struct{}
	// stopWatch ends the pairs' calls (nil without pairs).
	stopWatch func()

	// subs counts the open subscriptions: routes are built only while
	// someone listens.
	subs atomic.Int64

	mu   sync.Mutex
	ring []*feedBlock // oldest first; the last is the head
	// set is the set after the head, by hash: a clone of listed that Run
	// no longer changes.
	set     *btreemap.BTreeMap[common.Hash, *feedEntry]
	seq     uint64 // records appended since start
	changed chan struct{}
	// epoch counts the discontinuities of the evaluated blocks: a block
	// at or below the last one (a reorg replaced it) starts a new epoch,
	// the ring holds only the current epoch, and a subscription that
	// started in an earlier one is sent a resync.
	epoch uint64

	// Only Run's goroutine uses these (and NewFeed, before it runs), so
	// that a record costs what changed since the last one, not the set's
	// size. cand is the pairs' executable set as their reported changes
	// left it; touched holds the orders whose entry in cand changed since
	// the last record (all: every order, after the feed slept).
	cand    *btreemap.BTreeMap[common.Hash, pair.Executable]
	touched map[common.Hash]struct{}
	all     bool
	// listed is the set as the last record left it, in hash order, sum
	// its digest, routeQ the same entries by the block their route was
	// built at (0 first).
	listed *btreemap.BTreeMap[common.Hash, *feedEntry]
	sum    uint64
	routeQ *btreemap.BTreeMap[routeKey, *feedEntry]
	// funds is the last reading of each (tokenIn, maker) of cand; byFund
	// the orders of cand under each; fundKeys those keys in the order they
	// are read in turns beyond streams.fundingPairsPerBlock (fundAt: a
	// key's index there).
	funds    map[fundKey]orders.Funding
	byFund   map[fundKey]map[common.Hash]struct{}
	fundKeys []fundKey
	fundAt   map[fundKey]int
	// last is the last evaluated block; quiet counts the blocks recorded
	// since a subscription was last open; dormant: nothing is recorded
	// (see listened).
	last    pair.BlockRef
	quiet   int
	dormant bool
}

// fundKey is the (tokenIn, maker) whose balance and allowance pay an
// order's fill.
type fundKey = [2]common.Address

func fundKeyOf(x pair.Executable) fundKey { return fundKey{x.TokenIn, x.Maker} }

// routeKey orders entries by the block their route was built at, then by
// hash.
type routeKey struct {
	block uint64
	hash  common.Hash
}

func cmpRouteKey(a, b routeKey) int {
	if c := cmp.Compare(a.block, b.block); c != 0 {
		return c
	}
	return cmpHash(a.hash, b.hash)
}

func (e *feedEntry) routeKey() routeKey { return routeKey{e.routeBlock, e.x.Hash} }

// published is an evaluation as the pairs reported it: its block and the
// changes of the executable set.
type published struct {
	ref     pair.BlockRef
	changes []pair.ExecutableChange
}

// feedEntry is an executable order as the stream announces it. Entries are
// never modified once announced: a new announcement is a new entry.
type feedEntry struct {
	x          pair.Executable
	designated [10]byte // makerTraits.allowedSender (zero: any keeper)
	routeBlock uint64   // the block its route was last built (or tried) at; 0: never
	json       []byte   // the StreamOrder
	rec        *orderstore.Record
	fill       *fill
}

// removal is an order that stopped being executable.
type removal struct {
	hash       common.Hash
	pair       string
	designated [10]byte
	reason     string
}

// feedBlock is one evaluated block's changes.
type feedBlock struct {
	ref     pair.BlockRef
	prev    uint64 // the previous record's block (0 for the first of an epoch)
	epoch   uint64
	digest  uint64
	changed []*feedEntry // hash order
	removed []removal    // hash order

	renderMu sync.Mutex
	rendered map[streamFilter][]byte
}

// Removal reasons of the keeper stream (StreamRemoval.reason).
const (
	ReasonFilled          = "filled"
	ReasonCancelled       = "cancelled"
	ReasonExpired         = "expired"
	ReasonFailed          = "failed"
	ReasonUnfunded        = "unfunded"
	ReasonConditionNotMet = "condition_not_met"
)

// NewFeed returns a feed that watches the pairs' executable set (from
// their set as it is now); run Run.
func NewFeed(opts FeedOptions) *Feed {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	f := &Feed{opts: opts, cfg: opts.Config.Resolved(), log: opts.Log.With("component", "keeper-stream"),
		signal: make(chan struct{}, 1), wake: make(chan struct{}, 1), changed: make(chan struct{}), dormant: true,
		cand:    btreemap.New[common.Hash, pair.Executable](16, cmpHash),
		touched: map[common.Hash]struct{}{}, all: true,
		byFund: map[fundKey]map[common.Hash]struct{}{}, fundAt: map[fundKey]int{}}
	f.forget()
	if opts.Pairs != nil {
		f.stopWatch = opts.Pairs.WatchExecutable(f.evaluated)
		var seed []pair.ExecutableChange
		opts.Pairs.EachExecutable("", common.Hash{}, func(x pair.Executable) bool {
			seed = append(seed, pair.ExecutableChange{Executable: x})
			return true
		})
		f.follow(seed)
	}
	return f
}

// evaluated is the pairs' watcher: it queues an evaluation's block and
// changes for Run.
func (f *Feed) evaluated(ref pair.BlockRef, changes []pair.ExecutableChange) {
	f.pendMu.Lock()
	f.pending = append(f.pending, &published{ref: ref, changes: changes})
	f.pendMu.Unlock()
	select {
	case f.signal <- struct{}{}:
	default:
	}
}

// Run processes the pairs' evaluations until ctx ends. When it is still
// busy with a block as later ones are evaluated, their changes are applied
// together and recorded as the last one's (evaluations coalesce the same
// way).
func (f *Feed) Run(ctx context.Context) {
	if f.stopWatch != nil {
		defer f.stopWatch()
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-f.signal:
		case <-f.wake:
			if f.dormant && f.subs.Load() > 0 && f.last != (pair.BlockRef{}) {
				f.dormant, f.quiet = false, 0
				f.apply(ctx, f.last)
			}
			continue
		}
		f.pendMu.Lock()
		ps := f.pending
		f.pending = nil
		f.pendMu.Unlock()
		if len(ps) == 0 {
			continue
		}
		for _, p := range ps {
			f.follow(p.changes)
		}
		f.last = ps[len(ps)-1].ref
		if f.listened() {
			f.apply(ctx, f.last)
		}
	}
}

// listened reports whether to record the block just evaluated: while a
// subscription is open, and for streams.keeperResumeBlocks blocks after
// the last one closed (a keeper that reconnects resumes from them). Past
// that the feed goes dormant: it drops its records and only follows the
// pairs' changes, so a node no keeper listens to spends on its feed what
// the set's changes cost, not what the set's size costs at every block.
// The next subscription wakes it (Run records the last evaluated block
// at once): it is sent the whole set, or a resync for a Last-Event-ID.
func (f *Feed) listened() bool {
	if f.subs.Load() > 0 {
		f.dormant, f.quiet = false, 0
		return true
	}
	if f.dormant {
		return false
	}
	if f.quiet++; f.quiet <= f.cfg.KeeperResumeBlocks {
		return true
	}
	f.dormant = true
	f.forget()
	f.mu.Lock()
	clear(f.ring)
	f.ring, f.set = f.ring[:0], nil
	f.epoch++
	f.mu.Unlock()
	return false
}

// forget drops the recorded set and the funding readings: the next
// record decides every order of cand afresh.
func (f *Feed) forget() {
	f.sum, f.all = 0, true
	f.listed = btreemap.New[common.Hash, *feedEntry](16, cmpHash)
	f.routeQ = btreemap.New[routeKey, *feedEntry](16, cmpRouteKey)
	f.funds = map[fundKey]orders.Funding{}
	clear(f.touched)
}

// follow applies changes of the pairs' executable set to cand.
func (f *Feed) follow(changes []pair.ExecutableChange) {
	for _, c := range changes {
		if c.Delisted {
			if _, x, ok := f.cand.Delete(c.Hash); ok {
				f.unfund(x)
			}
		} else {
			if _, old, ok := f.cand.ReplaceOrInsert(c.Hash, c.Executable); ok {
				f.unfund(old)
			}
			k := fundKeyOf(c.Executable)
			hs := f.byFund[k]
			if hs == nil {
				hs = map[common.Hash]struct{}{}
				f.byFund[k], f.fundAt[k] = hs, len(f.fundKeys)
				f.fundKeys = append(f.fundKeys, k)
			}
			hs[c.Hash] = struct{}{}
		}
		f.touched[c.Hash] = struct{}{}
	}
}

// unfund takes x out of its funding key's orders, and the key out of the
// keys read when it has none left.
func (f *Feed) unfund(x pair.Executable) {
	k := fundKeyOf(x)
	hs := f.byFund[k]
	delete(hs, x.Hash)
	if len(hs) > 0 {
		return
	}
	i, last := f.fundAt[k], len(f.fundKeys)-1
	f.fundKeys[i] = f.fundKeys[last]
	f.fundAt[f.fundKeys[i]] = i
	f.fundKeys = f.fundKeys[:last]
	delete(f.fundAt, k)
	delete(f.byFund, k)
	delete(f.funds, k)
}

// Head returns the last block the feed recorded (zero before the first).
func (f *Feed) Head() pair.BlockRef {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.ring) == 0 {
		return pair.BlockRef{}
	}
	return f.ring[len(f.ring)-1].ref
}

// apply records block ref: the funded part of the executable set (cand)
// against the previous record. It decides only the orders cand changed
// for since then and those of the (tokenIn, maker) keys whose funding
// reading changed.
func (f *Feed) apply(ctx context.Context, ref pair.BlockRef) {
	f.fund(ctx, ref)
	f.mu.Lock()
	var prevBlock uint64
	if n := len(f.ring); n > 0 {
		prevBlock = f.ring[n-1].ref.Number
	}
	// A block at or below the last one: a reorg replaced blocks the
	// subscriptions have seen.
	reorg := len(f.ring) > 0 && ref.Number <= prevBlock
	if reorg {
		prevBlock = 0
	}
	f.mu.Unlock()
	blk := &feedBlock{ref: ref, prev: prevBlock}
	for _, h := range f.decide() {
		_, x, inCand := f.cand.Get(h)
		_, e, _ := f.listed.Get(h)
		if inCand && f.covers(x) {
			if e != nil && e.x.FillIn.Cmp(x.FillIn) == 0 {
				continue
			}
			if ne := f.newEntry(x); ne != nil {
				f.put(e, ne)
				blk.changed = append(blk.changed, ne)
				continue
			}
			// closed since the evaluation
		}
		if e != nil {
			f.drop(e)
			blk.removed = append(blk.removed, removal{hash: h, pair: e.x.Pair, designated: e.designated, reason: f.reason(h, inCand)})
		}
	}
	f.route(ctx, ref, blk)
	for _, e := range blk.changed {
		f.render(e, ref.Number)
	}
	blk.digest = f.sum

	f.mu.Lock()
	if reorg {
		f.epoch++
		clear(f.ring)
		f.ring = f.ring[:0]
	}
	blk.epoch = f.epoch
	if n := len(f.ring); n >= 2 {
		// Streams that keep up read the last blocks' events; one that
		// lags has an older block's rendered again.
		f.ring[n-2].dropRendered()
	}
	f.ring = append(f.ring, blk)
	if over := len(f.ring) - f.cfg.KeeperResumeBlocks; over > 0 {
		clear(f.ring[:over])
		f.ring = f.ring[over:]
	}
	f.set = f.listed.Clone()
	f.seq++
	close(f.changed)
	f.changed = make(chan struct{})
	f.mu.Unlock()
}

// setEntries iterates the set after the head in hash order (f.mu held).
func (f *Feed) setEntries() iter.Seq2[common.Hash, *feedEntry] {
	if f.set == nil {
		return func(func(common.Hash, *feedEntry) bool) {}
	}
	return f.set.Ascend(btreemap.Min[common.Hash](), btreemap.Max[common.Hash]())
}

// decide returns, in hash order, the orders this record decides: those
// touched since the last one (every order of cand and of the last record
// after the feed slept), and clears them.
func (f *Feed) decide() []common.Hash {
	var hs []common.Hash
	if f.all {
		hs = make([]common.Hash, 0, f.cand.Len()+f.listed.Len())
		for h := range f.cand.Ascend(btreemap.Min[common.Hash](), btreemap.Max[common.Hash]()) {
			hs = append(hs, h)
		}
		for h := range f.listed.Ascend(btreemap.Min[common.Hash](), btreemap.Max[common.Hash]()) {
			if !f.cand.Has(h) {
				hs = append(hs, h)
			}
		}
	} else {
		hs = make([]common.Hash, 0, len(f.touched))
		for h := range f.touched {
			hs = append(hs, h)
		}
	}
	slices.SortFunc(hs, cmpHash)
	f.all = false
	clear(f.touched)
	return hs
}

// put records e (replacing old, nil when the order was not in the set).
func (f *Feed) put(old, e *feedEntry) {
	if old != nil {
		f.sum -= entryDigest(old)
		f.routeQ.Delete(old.routeKey())
	}
	f.listed.ReplaceOrInsert(e.x.Hash, e)
	f.routeQ.ReplaceOrInsert(e.routeKey(), e)
	f.sum += entryDigest(e)
}

// drop takes e out of the set.
func (f *Feed) drop(e *feedEntry) {
	f.sum -= entryDigest(e)
	f.routeQ.Delete(e.routeKey())
	f.listed.Delete(e.x.Hash)
}

// fund reads the funding of cand's (tokenIn, maker) keys at ref and marks
// the orders of each key whose reading changed. At most
// streams.fundingPairsPerBlock keys are read per block: beyond, a window
// that moves with the block number, the others keeping their last reading.
// A key never read, or a failed read, counts as covered: the stream
// rather lists an order a keeper's simulation then refuses than hide one
// it could execute.
func (f *Feed) fund(ctx context.Context, ref pair.BlockRef) {
	if f.opts.Funding == nil || len(f.fundKeys) == 0 {
		return
	}
	read := f.fundKeys
	if max := f.cfg.FundingPairsPerBlock; len(read) > max {
		n := uint64(len(f.fundKeys))
		start := int(ref.Number % n * uint64(max) % n)
		read = make([]fundKey, 0, max)
		for i := range max {
			read = append(read, f.fundKeys[(start+i)%len(f.fundKeys)])
		}
	}
	got, err := f.opts.Funding(ctx, ref.Hash, read)
	if err != nil {
		f.log.Warn("keeper stream: funding not read; the last readings stand", "block", ref.Number, "err", err)
	}
	for k, v := range got {
		if _, ok := f.byFund[k]; !ok {
			continue
		}
		if old, ok := f.funds[k]; ok && old == v {
			continue
		}
		f.funds[k] = v
		for h := range f.byFund[k] {
			f.touched[h] = struct{}{}
		}
	}
}

// covers reports whether x's maker pays its fill by the last reading of
// its key (a key not read yet counts as covered).
func (f *Feed) covers(x pair.Executable) bool {
	r, ok := f.funds[fundKeyOf(x)]
	if !ok {
		return true
	}
	var amount uint256.Int
	if amount.SetFromBig(x.FillIn) {
		return false // beyond 256 bits: nothing covers it
	}
	return r.Covers(&amount)
}

// newEntry reads x's record and makes its entry (nil: the order closed).
func (f *Feed) newEntry(x pair.Executable) *feedEntry {
	rec, found, err := f.opts.Pairs.Record(x.Hash)
	if err != nil {
		f.log.Warn("keeper stream: order record", "order", x.Hash, "err", err)
		return nil
	}
	if !found || !rec.Status.Open() {
		return nil
	}
	return &feedEntry{x: x, designated: rec.Traits().AllowedSender, rec: rec}
}

// route builds the transactions of this block, within
// streams.routesPerBlock and only while someone listens: first those of
// the orders announced now, then, oldest first, fresh ones for the
// executable orders whose route is older than streams.routeRefreshBlocks
// (or that have none), announced again.
func (f *Feed) route(ctx context.Context, ref pair.BlockRef, blk *feedBlock) {
	if f.subs.Load() == 0 || f.opts.Service == nil {
		return
	}
	budget := f.cfg.RoutesPerBlock
	for _, e := range blk.changed {
		if budget == 0 {
			return
		}
		budget--
		f.routeQ.Delete(e.routeKey())
		f.build(ctx, e, ref.Number)
		f.routeQ.ReplaceOrInsert(e.routeKey(), e)
	}
	var stale []*feedEntry
	for k, e := range f.routeQ.Ascend(btreemap.Min[routeKey](), btreemap.Max[routeKey]()) {
		if len(stale) == budget || (k.block != 0 && ref.Number-k.block < uint64(f.cfg.RouteRefreshBlocks)) {
			break
		}
		stale = append(stale, e)
	}
	for _, old := range stale {
		e := &feedEntry{x: old.x, designated: old.designated, rec: old.rec}
		f.build(ctx, e, ref.Number)
		f.put(old, e)
		blk.changed = append(blk.changed, e)
	}
	slices.SortFunc(blk.changed, func(a, b *feedEntry) int { return cmpHash(a.x.Hash, b.x.Hash) })
}

// build makes e's route and transaction at block (none when there is no
// route now: the next attempt comes routeRefreshBlocks later).
func (f *Feed) build(ctx context.Context, e *feedEntry, block uint64) {
	e.routeBlock = block
	if fl, ok := f.opts.Service.buildFill(ctx, e.x, e.rec); ok {
		e.fill = &fl
	}
}

// StreamOrder is an executable order as the keeper stream announces it:
// the polling list's entry (Item), with the route and the transaction
// null until the engine built them (routesPerBlock), and the block they
// were built at. Unlike the polling list, the stream does not simulate the
// transaction from the keeper: simulate before sending.
type StreamOrder struct {
	Listing
	RouteBlock        *uint64     `json:"routeBlock"`
	Route             *RouteCalls `json:"route"`
	MinAmountOut      *string     `json:"minAmountOut"`
	ExpectedAmountOut *string     `json:"expectedAmountOut"`
	ExpectedKeeperFee *string     `json:"expectedKeeperFee"`
	Tx                *TxData     `json:"tx"`
}

// render encodes e as announced at block.
func (f *Feed) render(e *feedEntry, block uint64) {
	rec := e.rec
	o := StreamOrder{Listing: listing(rec, e.x, block)}
	if fl := e.fill; fl != nil {
		rb := e.routeBlock
		o.RouteBlock, o.Route = &rb, &fl.route
		o.MinAmountOut, o.ExpectedAmountOut, o.ExpectedKeeperFee = &fl.minOut, &fl.expectedOut, &fl.keeperFee
		o.Tx = &TxData{To: f.opts.Service.opts.RouterAddr.Hex(), Data: hexutil.Encode(fl.data), Value: "0"}
	}
	data, err := json.Marshal(o)
	if err != nil {
		f.log.Error("keeper stream: encode an order", "order", rec.Hash, "err", err)
		data = []byte(`{}`)
	}
	e.json = data
}

// reason says why order h stopped being executable: its terminal status
// (or a full fill or an on-chain cancel the chain records hold before the
// projection recorded it), unfunded when the pairs still list it, else its
// condition no longer holds (the trigger price, the DCA leg's time, the
// oracle's freshness).
func (f *Feed) reason(h common.Hash, listed bool) string {
	rec, found, err := f.opts.Pairs.Record(h)
	if err == nil && found {
		switch rec.Status {
		case orderstore.StatusFilled:
			return ReasonFilled
		case orderstore.StatusCancelled:
			return ReasonCancelled
		case orderstore.StatusExpired:
			return ReasonExpired
		case orderstore.StatusFailed:
			return ReasonFailed
		}
		if f.opts.Chain != nil {
			if co, ok, err := f.opts.Chain.Order(h); err == nil && ok {
				if co.CancelledBlock != 0 {
					return ReasonCancelled
				}
				if !co.FilledAmountIn.Lt(&rec.Order.AmountIn) {
					return ReasonFilled
				}
			}
		}
	}
	if listed {
		return ReasonUnfunded
	}
	return ReasonConditionNotMet
}

// entryDigest is an entry's part of its set's digest: FNV-1a over its
// order's hash and fill amount. A set's digest is the sum of its entries'
// (mod 2^64), so equal sets give equal digests on every node, and a record
// changes it by the entries it changes.
func entryDigest(e *feedEntry) uint64 {
	h := fnv.New64a()
	var n [8]byte
	_, _ = h.Write(e.x.Hash[:])
	b := e.x.FillIn.Bytes()
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	_, _ = h.Write(n[:])
	_, _ = h.Write(b)
	return h.Sum64()
}

func cmpHash(a, b common.Hash) int { return bytes.Compare(a[:], b[:]) }

func hashLess(a, b common.Hash) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
