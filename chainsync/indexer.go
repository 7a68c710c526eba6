// Package chainsync follows the router's logs and turns them into durable
// state, exactly once, across restarts and reorgs.
//
// One Indexer runs per chain. Each step it reads the node's head, and for
// every block from its cursor up to head − confirmations it fetches the
// header by number, checks that the header's parent is the block it applied
// last (a mismatch is a reorg: it rewinds its own last block with the undo
// record and looks again), fetches the block's router logs by block hash
// (pinned: never "latest"), decodes them and applies them through one
// chainstore.Batch: per-order chain state and fills, then every Sink
// (the order layer's status transitions and outbox events, market data),
// then the applied-log keys, the block record, its undo record and the new
// cursor, committed as ONE synced Pebble batch. Observers hear about the
// block only after that commit. See docs/lifecycle.md.
package chainsync

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/chainstore"
)

// Backend is the part of a node client the indexer needs. ethclient.Client
// and the simulated backend's client satisfy it.
type Backend interface {
	BlockNumber(ctx context.Context) (uint64, error)
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
	HeaderByHash(ctx context.Context, hash common.Hash) (*types.Header, error)
	FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error)
}

// Sink applies a block's events to the state it owns. It writes only
// through cb, so its writes commit with the cursor and a rewind undoes them
// (Outbox rows go to cb.Raw(): an emitted event is never taken back). It
// must not do network calls that are not pinned to b.Hash.
type Sink interface {
	ApplyBlock(cb *chainstore.Batch, b *Block) error
}

// Observer hears about durable changes, after the commit. It must not
// block: it should send a message or signal.
type Observer interface {
	// Applied is called after block b was committed.
	Applied(b *Block)
	// Reverted is called after blk was rewound (its Touched orders changed).
	Reverted(blk chainstore.Block)
}

// ObserverFuncs is an Observer made of two functions (either may be nil):
// how the composition root attaches an observer that does not import this
// package (the pair actors).
type ObserverFuncs struct {
	OnApplied  func(b *Block)
	OnReverted func(blk chainstore.Block)
}

// Applied implements Observer.
func (o ObserverFuncs) Applied(b *Block) {
	if o.OnApplied != nil {
		o.OnApplied(b)
	}
}

// Reverted implements Observer.
func (o ObserverFuncs) Reverted(blk chainstore.Block) {
	if o.OnReverted != nil {
		o.OnReverted(blk)
	}
}

// Options configure an Indexer.
type Options struct {
	// Router is the address whose logs are followed.
	Router common.Address
	// StartBlock is the first block to index when the store has no cursor
	// (the deployment block).
	StartBlock uint64
	// Confirmations is the confirmation depth: a block is applied once
	// head − number ≥ Confirmations. 0 applies the head.
	Confirmations uint64
	// RecentBlocks is how many blocks are remembered for rewinds; 0 means 256.
	RecentBlocks uint64
	// MaxBlocksPerStep bounds one Step; 0 means 1000.
	MaxBlocksPerStep uint64
	// Poll is Run's polling period; 0 means 100 ms.
	Poll time.Duration
	// Sinks apply each block inside its batch, in order.
	Sinks []Sink
	// Observers are told after each commit and rewind.
	Observers []Observer
}

// Status is the indexer's progress.
type Status struct {
	// Head is the latest head the node reported.
	Head uint64 `json:"head"`
	// Cursor is the last applied block.
	Cursor uint64 `json:"cursor"`
	// LagBlocks is Head − Cursor.
	LagBlocks uint64 `json:"lagBlocks"`
	// Reorgs counts rewound blocks since start.
	Reorgs uint64 `json:"reorgs"`
	// Failing is true while Run's latest step failed (the node cannot be
	// reached, or it or the store answered an error): the cursor does not
	// move and Head is the last head read.
	Failing bool `json:"failing"`
}

// Indexer follows one router on one chain.
type Indexer struct {
	backend Backend
	chain   *chainstore.Chain
	log     *slog.Logger
	opts    Options
	dec     *decoder

	step   sync.Mutex // serialises Step
	head   atomic.Uint64
	cursor atomic.Uint64
	reorgs atomic.Uint64
	// failing is set while Run's steps fail; lastWarn is when one was
	// last logged at warn level (Run's goroutine only).
	failing  atomic.Bool
	lastWarn time.Time

	mu      sync.Mutex
	advance chan struct{} // closed and replaced when the cursor moves
}

// New returns an indexer over backend and store.
func New(backend Backend, store *persistence.Store, log *slog.Logger, opts Options) (*Indexer, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.RecentBlocks == 0 {
		opts.RecentBlocks = 256
	}
	if opts.MaxBlocksPerStep == 0 {
		opts.MaxBlocksPerStep = 1000
	}
	if opts.Poll <= 0 {
		opts.Poll = 100 * time.Millisecond
	}
	if opts.RecentBlocks <= opts.Confirmations {
		return nil, errors.New("indexer: RecentBlocks must exceed Confirmations")
	}
	chain, err := chainstore.New(store)
	if err != nil {
		return nil, err
	}
	ix := &Indexer{
		backend: backend, chain: chain, log: log.With("component", "indexer"),
		opts: opts, dec: newDecoder(), advance: make(chan struct{}),
	}
	if cur, ok, err := ix.chain.Cursor(); err != nil {
		return nil, err
	} else if ok {
		ix.cursor.Store(cur.Number)
	}
	return ix, nil
}

// Chain returns the chain records the indexer writes.
func (ix *Indexer) Chain() *chainstore.Chain { return ix.chain }

// Status returns the current progress.
func (ix *Indexer) Status() Status {
	h, c := ix.head.Load(), ix.cursor.Load()
	s := Status{Head: h, Cursor: c, Reorgs: ix.reorgs.Load(), Failing: ix.failing.Load()}
	if h > c {
		s.LagBlocks = h - c
	}
	return s
}

// Run steps until ctx is done, polling the node every Poll.
func (ix *Indexer) Run(ctx context.Context) {
	t := time.NewTicker(ix.opts.Poll)
	defer t.Stop()
	for {
		if err := ix.Sync(ctx); ctx.Err() == nil {
			ix.noteStep(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// failureWarnEvery is how often a failure that lasts is logged again at
// warn level; the other failed polls log at debug level.
const failureWarnEvery = time.Minute

// noteStep records the outcome of one of Run's polls. A node that is down
// fails every poll (ten a second by default): the first failure and one a
// minute after it are warnings, the rest debug, and the recovery is
// logged once.
func (ix *Indexer) noteStep(err error) {
	if err == nil {
		if ix.failing.Swap(false) {
			st := ix.Status()
			ix.log.Info("indexer recovered", "head", st.Head, "cursor", st.Cursor)
		}
		return
	}
	now := time.Now()
	if !ix.failing.Swap(true) || now.Sub(ix.lastWarn) >= failureWarnEvery {
		ix.lastWarn = now
		ix.log.Warn("indexer step failed; retrying every poll (repeats are logged at debug level, and at warn level once a minute)", "err", err)
		return
	}
	ix.log.Debug("indexer step failed; retrying", "err", err)
}

// Sync steps until the cursor reaches head − confirmations as of the call.
func (ix *Indexer) Sync(ctx context.Context) error {
	for {
		n, err := ix.Step(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
	}
}

// WaitCursor blocks until the cursor is at least number or ctx is done.
func (ix *Indexer) WaitCursor(ctx context.Context, number uint64) error {
	for {
		ix.mu.Lock()
		ch := ix.advance
		ix.mu.Unlock()
		if ix.cursor.Load() >= number {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

func (ix *Indexer) moved(n uint64) {
	ix.cursor.Store(n)
	ix.mu.Lock()
	close(ix.advance)
	ix.advance = make(chan struct{})
	ix.mu.Unlock()
}

// Step applies (or rewinds) up to MaxBlocksPerStep blocks and returns how
// many it applied or rewound; 0 means the cursor is at the target.
func (ix *Indexer) Step(ctx context.Context) (int, error) {
	ix.step.Lock()
	defer ix.step.Unlock()
	cur, err := ix.startCursor(ctx)
	if err != nil {
		return 0, err
	}
	head, err := ix.backend.BlockNumber(ctx)
	if err != nil {
		return 0, fmt.Errorf("indexer: head: %w", err)
	}
	ix.head.Store(head)
	if head < ix.opts.Confirmations {
		return 0, nil
	}
	target := head - ix.opts.Confirmations
	done := 0
	if cur, err = ix.checkTip(ctx, cur, target, &done); err != nil {
		return done, err
	}
	for cur.Number < target && uint64(done) < ix.opts.MaxBlocksPerStep {
		h, err := ix.backend.HeaderByNumber(ctx, new(big.Int).SetUint64(cur.Number+1))
		if err != nil {
			return done, fmt.Errorf("indexer: header %d: %w", cur.Number+1, err)
		}
		if h.ParentHash != cur.Hash {
			if cur, err = ix.rewind(); err != nil {
				return done, err
			}
			done++
			continue
		}
		b, err := ix.applyBlock(ctx, h)
		if err != nil {
			return done, err
		}
		cur = chainstore.Cursor{Number: b.Number, Hash: b.Hash}
		ix.moved(cur.Number)
		for _, o := range ix.opts.Observers {
			o.Applied(b)
		}
		done++
	}
	return done, nil
}

// checkTip rewinds while the canonical block at the cursor's height is not
// the one applied (a reorg to a chain no longer than ours, which no new
// block's parent has revealed yet). It only looks when the cursor is at the
// target, so catching up costs no extra call.
func (ix *Indexer) checkTip(ctx context.Context, cur chainstore.Cursor, target uint64, done *int) (chainstore.Cursor, error) {
	first := max(ix.opts.StartBlock, 1) - 1 // the initial cursor has no undo record
	for cur.Number >= target && cur.Number > first {
		h, err := ix.backend.HeaderByNumber(ctx, new(big.Int).SetUint64(cur.Number))
		if err != nil || h.Hash() == cur.Hash {
			return cur, nil // unknown height (shorter chain): the next block's parent decides
		}
		if cur, err = ix.rewind(); err != nil {
			return cur, err
		}
		*done++
	}
	return cur, nil
}

// rewind undoes the block at the cursor and tells the observers.
func (ix *Indexer) rewind() (chainstore.Cursor, error) {
	next, blk, err := ix.chain.Rewind()
	if err != nil {
		return next, err
	}
	ix.reorgs.Add(1)
	ix.log.Info("reorg: rewound block", "number", blk.Number, "hash", blk.Hash)
	ix.moved(next.Number)
	for _, o := range ix.opts.Observers {
		o.Reverted(blk)
	}
	return next, nil
}

// startCursor returns the cursor, writing the initial one (the block before
// StartBlock) on the first run.
func (ix *Indexer) startCursor(ctx context.Context) (chainstore.Cursor, error) {
	cur, ok, err := ix.chain.Cursor()
	if err != nil || ok {
		return cur, err
	}
	n := ix.opts.StartBlock
	if n > 0 {
		n--
	}
	h, err := ix.backend.HeaderByNumber(ctx, new(big.Int).SetUint64(n))
	if err != nil {
		return cur, fmt.Errorf("indexer: start header %d: %w", n, err)
	}
	blk := chainstore.Block{Number: n, Hash: h.Hash(), Parent: h.ParentHash, Time: h.Time}
	if err := ix.chain.SetCursor(blk); err != nil {
		return cur, err
	}
	ix.moved(n)
	return chainstore.Cursor{Number: n, Hash: blk.Hash}, nil
}

// applyBlock fetches the block's router logs by hash and applies them in
// one batch with the cursor.
func (ix *Indexer) applyBlock(ctx context.Context, h *types.Header) (*Block, error) {
	hash := h.Hash()
	logs, err := ix.backend.FilterLogs(ctx, ethereum.FilterQuery{
		BlockHash: &hash,
		Addresses: []common.Address{ix.opts.Router},
		Topics:    [][]common.Hash{ix.dec.topics()},
	})
	if err != nil {
		return nil, fmt.Errorf("indexer: logs of block %d (%s): %w", h.Number.Uint64(), hash, err)
	}
	b := &Block{Number: h.Number.Uint64(), Hash: hash, Parent: h.ParentHash, Time: h.Time}
	if again, err := ix.chain.BlockApplied(hash); err != nil || again {
		if err == nil {
			err = fmt.Errorf("indexer: block %d (%s) is already applied", b.Number, hash)
		}
		return nil, err
	}
	cb := ix.chain.Begin(chainstore.Block{Number: b.Number, Hash: hash, Parent: b.Parent, Time: b.Time})
	if err := ix.applyLogs(cb, b, logs); err != nil {
		cb.Abort()
		return nil, err
	}
	for _, s := range ix.opts.Sinks {
		if err := s.ApplyBlock(cb, b); err != nil {
			cb.Abort()
			return nil, fmt.Errorf("indexer: block %d: %w", b.Number, err)
		}
	}
	if err := cb.Commit(ix.opts.RecentBlocks); err != nil {
		return nil, err
	}
	return b, nil
}

// applyLogs decodes the logs and applies each one exactly once to the
// per-order chain state.
func (ix *Indexer) applyLogs(cb *chainstore.Batch, b *Block, logs []types.Log) error {
	for i := range logs {
		l := &logs[i]
		if l.Removed || l.BlockHash != b.Hash || l.Address != ix.opts.Router {
			continue
		}
		ev, ok, err := ix.dec.decode(l, b.Time)
		if err != nil || !ok {
			if err != nil {
				ix.log.Warn("undecodable router log skipped", "block", b.Number, "tx", l.TxHash, "index", l.Index, "err", err)
			}
			continue
		}
		fresh, err := cb.MarkLog(l.TxHash, l.Index)
		if err != nil {
			return err
		}
		if !fresh {
			continue
		}
		if err := applyEvent(cb, &ev); err != nil {
			return fmt.Errorf("indexer: block %d log %d: %w", b.Number, l.Index, err)
		}
		b.Events = append(b.Events, ev)
	}
	return nil
}

// applyEvent writes the chain record an event changes.
func applyEvent(cb *chainstore.Batch, ev *Event) error {
	var (
		co  chainstore.Order
		err error
	)
	switch ev.Kind {
	case KindActivated:
		co, _, err = chainstore.ApplyActivated(cb, ev.OrderHash, ev.Maker)
	case KindFilled:
		co, err = chainstore.ApplyFill(cb, *ev.Fill, ev.Maker)
	case KindCancelled:
		co, err = chainstore.ApplyCancelled(cb, ev.OrderHash, ev.Maker, ev.TxHash)
	case KindNonceInvalidated:
		return chainstore.ApplyNonceInvalidated(cb, chainstore.Nonce{
			Maker: ev.Maker, Nonce: ev.Nonce, Block: cb.Block().Number, TxHash: ev.TxHash,
		})
	default:
		return nil
	}
	if err != nil {
		return err
	}
	cb.Touch(ev.OrderHash)
	ev.Order = &co
	return nil
}
