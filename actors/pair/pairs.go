package pair

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/chain"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Prices reads the oracle at a block hash.
type Prices interface {
	// Answer is the token's USD answer (8 decimals) at the block whose
	// time is blockTime; nil when missing or stale at blockTime (older than
	// the oracle's maxAge: the router would revert with OracleStale, so no
	// decision is made on it).
	Answer(ctx context.Context, block common.Hash, blockTime uint64, token common.Address) (*big.Int, error)
	Decimals(ctx context.Context, block common.Hash, token common.Address) (uint8, error)
}

// Options configure Pairs.
type Options struct {
	System *actor.ActorSystem
	Store  *persistence.Store
	Chain  *chainstore.Chain
	Orders *orderstore.Store
	// Registry receives the decided transitions (nil: decisions are only
	// published).
	Registry *order.Registry
	// Drive tells whether the decided transitions are sent now (nil:
	// always): in a cluster only the node holding the chain lifecycle's
	// lease sends them, while every node decides and publishes the
	// executable orders. A decision not sent is decided again at the next
	// block, where the order's record has not changed.
	Drive  func() bool
	Prices Prices
	Log    *slog.Logger
}

// Executable is an order a keeper may execute now.
type Executable struct {
	Hash  common.Hash
	Pair  string
	Class chain.Class
	// Maker and TokenIn are the order's: what the keeper interface checks
	// the maker can pay before it reads the record.
	Maker, TokenIn common.Address
	// FillIn is the amount of this execution (the remaining amount, or the
	// DCA leg). It may be shared with the pair: never modify it.
	FillIn *big.Int
	// Price is the oracle price the decision used (nil: unknown).
	Price *big.Int
	Block uint64
}

// BlockRef is the block a tick evaluates at.
type BlockRef struct {
	Number uint64
	Hash   common.Hash
	Time   uint64
}

// Pairs runs the pair actors: it routes the order change feed and the
// indexer's blocks to them, evaluates every pair after each applied block
// and sends the decided transitions to the order actors, and publishes the
// executable orders. The composition root attaches it to the indexer
// (BlockApplied, BlockReverted).
type Pairs struct {
	opts Options
	reg  *kind.Registry[string, shared]
	log  *slog.Logger
	wake chan struct{}

	mu     sync.RWMutex
	latest BlockRef
	// exec are the pairs' executable sets, by pair, as of the last
	// evaluation (the map is replaced, never modified).
	exec map[string]*execSet

	evalMu  sync.Mutex // serialises ticks
	metrics metrics
	last    atomic.Pointer[Tick]
	// ticks are the pairs' last evaluations (evaluate.go; evalMu).
	ticks map[string]*pairTick
	// dirty are the pairs changes were sent to since the last evaluation
	// (allDirty: every pair).
	dirtyMu  sync.Mutex
	dirty    map[string]struct{}
	allDirty bool
	// watch are the executable set's watchers (changes.go), watching
	// their number.
	watch    watchers
	watching atomic.Int32
}

// New returns the pairs; feed them the stored open orders and then the
// change feed (both through Changed), attach BlockApplied and
// BlockReverted to the indexer and start Run.
func New(opts Options) *Pairs {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	p := &Pairs{opts: opts, log: opts.Log.With("component", "pair"), wake: make(chan struct{}, 1), metrics: newMetrics(),
		ticks: map[string]*pairTick{}}
	seed := maphash.MakeSeed()
	p.reg = kind.NewRegistry(opts.System, kind.Kind[string, shared]{
		Name:  "pair",
		State: func(string) *shared { return &shared{} },
		New: func(key string, sh *shared) actor.Actor {
			return newPairActor(key, sh, opts.Store, opts.Chain, p.log)
		},
		Idle:    time.Minute,
		Keep:    func(sh *shared) bool { return sh.open.Load() > 0 },
		Timeout: evalTimeout,
		Shard:   func(key string) uint32 { return uint32(maphash.String(seed, key)) },
	}, opts.Log)
	return p
}

// evalTimeout bounds one pair's answer.
const evalTimeout = 30 * time.Second

// Stop stops the pair actors and the registry's sweep.
func (p *Pairs) Stop() {
	p.reg.Stop()
	p.reg.StopAll()
}

// Live returns the number of pair actors.
func (p *Pairs) Live() int { return p.reg.Live() }

// Changed is the pairs' part of the order change feed: the order's pair
// learns it, if it is or was open. It does not wait.
func (p *Pairs) Changed(prev orderstore.Status, rec *orderstore.Record) {
	if !prev.Open() && !rec.Status.Open() {
		return
	}
	key := PairKey(rec.Order.TokenIn, rec.Order.TokenOut)
	p.reg.Send(key, &OrderChanged{Prev: prev, Record: rec})
	p.markDirty(key) // after the send
}

// BlockApplied is told each block the indexer committed: every pair learns the chain records the
// block's order events left (orders, by order hash), and the next tick
// evaluates the block.
func (p *Pairs) BlockApplied(b BlockRef, orders map[common.Hash]chainstore.Order) {
	if len(orders) > 0 {
		p.reg.Each(func(key string) { p.reg.Send(key, &ChainChanged{Orders: orders}) })
		p.markDirty("")
	}
	p.mu.Lock()
	p.latest = b
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// BlockReverted is told each block the indexer rewound: the orders it
// touched read their chain records again, and the next block
// re-evaluates.
func (p *Pairs) BlockReverted(touched []common.Hash) {
	if len(touched) == 0 {
		return
	}
	hashes := append([]common.Hash(nil), touched...)
	p.reg.Each(func(key string) { p.reg.Send(key, &ChainReverted{Hashes: hashes}) })
	p.markDirty("")
}

// Run evaluates after every applied block until ctx is done.
func (p *Pairs) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
		}
		p.mu.RLock()
		ref := p.latest
		p.mu.RUnlock()
		if err := p.Evaluate(ctx, ref); err != nil && ctx.Err() == nil {
			p.log.Warn("trigger evaluation failed", "block", ref.Number, "err", err)
		}
	}
}

// Page asks a pair's book for a page. A pair without an actor answers an
// empty page without starting one.
func (p *Pairs) Page(ctx context.Context, key string, limit int, after *Key) (*PageResponse, error) {
	if !p.reg.IsLive(key) {
		return &PageResponse{Entries: []api.OrderbookRow{}}, nil
	}
	res, err := p.reg.Request(ctx, key, &PageRequest{Limit: limit, After: after})
	if err != nil {
		return nil, fmt.Errorf("pair: page of %s: %w", key, err)
	}
	page, ok := res.(*PageResponse)
	if !ok {
		return nil, errors.New("pair: unexpected answer to a page request")
	}
	return page, nil
}

// Executable returns the orders executable at the last evaluation, in hash
// order, optionally of one pair ("" = all).
func (p *Pairs) Executable(pair string) []Executable {
	var out []Executable
	p.EachExecutable(pair, common.Hash{}, func(x Executable) bool {
		out = append(out, x)
		return true
	})
	return out
}

// EachExecutable calls fn, in hash order, with the orders executable at the
// last evaluation whose hash is above after, optionally of one pair ("" =
// all), until fn returns false. The pairs' sets are merged as fn is
// called, a chunk of each at a time, so a caller that stops early pays for
// what it saw; a walk during an evaluation sees a pair's set before or
// after the evaluation changed it, chunk by chunk, never a set half
// changed.
func (p *Pairs) EachExecutable(pair string, after common.Hash, fn func(Executable) bool) {
	p.mu.RLock()
	exec := p.exec
	p.mu.RUnlock()
	var sets []*execSet
	if pair != "" {
		if s := exec[strings.ToLower(pair)]; s != nil {
			sets = append(sets, s)
		}
	} else {
		sets = make([]*execSet, 0, len(exec))
		for _, s := range exec {
			sets = append(sets, s)
		}
	}
	eachExecutable(sets, after, fn)
}

// Record reads an order's record from the store (found false: unknown),
// for the keeper interface to build its transaction.
func (p *Pairs) Record(h common.Hash) (*orderstore.Record, bool, error) {
	return p.opts.Orders.Load(h)
}
