package chainsync

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/order"
	"github.com/orderengine/orderengine/persistence/chainstore"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Projector carries the chain's truth into the order records: after each
// applied block it sends every order the block touched what the chain
// records now say of it (order.ChainObserved: the cumulative chain state
// and its fills), and the order's actor decides what changes (activation,
// new fills, an on-chain cancel) and appends it with its events. Every
// such message is idempotent.
//
// The indexer's batch holds the chain records (fills, cumulative state,
// cancels, nonces) with the cursor; the projector then sends the facts of
// every order a block touched and advances its own cursor (c/projected).
// After a crash it resumes from that cursor and sends the blocks in
// between again: the actors ignore what they already applied, so a
// block's effects reach the order records exactly once. See
// docs/lifecycle.md.
type Projector struct {
	chain    *chainstore.Chain
	orders   *orderstore.Store
	registry *order.Registry
	log      *slog.Logger
	wake     chan struct{}
	mu       chan struct{} // held while projecting (size-1 semaphore)
	drive    func() bool   // nil: always (ProjectorOptions.Drive)
}

// errNotDriving stops a projection when this node stops driving the
// chain lifecycle.
var errNotDriving = errors.New("chainsync: not driving the chain lifecycle")

// ProjectorOptions configure a Projector.
type ProjectorOptions struct {
	// Log receives the projector's logs (nil: discarded).
	Log *slog.Logger
	// Drive, when set, makes the projector send facts to the order actors
	// only while it reports true (in a cluster: while this node holds the
	// chain lifecycle's lease). While it reports false the projector
	// sends nothing and its cursor stays where this node last projected,
	// so when it turns true again (Wake) the projector projects every
	// block since: the blocks another driver projected meanwhile are sent
	// again, and the order actors ignore what they already applied. A
	// rewind while not driving moves the cursor back but sends no resync
	// (the driver does). Nil: always (a single node).
	Drive func() bool
}

// Wake makes Run project now (this node became the driver).
func (p *Projector) Wake() { p.signal() }

func (p *Projector) driving() bool { return p.drive == nil || p.drive() }

// NewProjector returns a projector; add it to the indexer's Observers and
// start Run. orders is read for the orders a nonce invalidation concerns
// (the list index) and for an order's maker and nonce (immutable).
func NewProjector(ch *chainstore.Chain, orders *orderstore.Store, registry *order.Registry, opts ProjectorOptions) *Projector {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Projector{
		chain: ch, orders: orders, registry: registry, log: log.With("component", "projector"),
		wake: make(chan struct{}, 1), mu: make(chan struct{}, 1), drive: opts.Drive,
	}
}

// Applied implements Observer.
func (p *Projector) Applied(*Block) { p.signal() }

// Reverted implements Observer. The rewind restored the chain records (c/o,
// f/, c/n) the block had written; the order records it reached through the
// projector are rolled back here, before the indexer applies the new
// branch (it waits for this call): every order the block touched, and the
// cancelled orders carrying a nonce the block invalidated, get Resync,
// which sets their chain-derived fields back to what the chain records now
// say (no event). The projection cursor moves back below the block, so the
// replacement block is projected like any other; a fill it re-mines is
// recorded again without a second event (the order ledger).
func (p *Projector) Reverted(blk chainstore.Block) {
	p.mu <- struct{}{}
	defer func() { <-p.mu }()
	if proj, err := p.chain.Projected(); err == nil && proj >= blk.Number {
		if err := p.chain.SetProjected(blk.Number - 1); err != nil {
			p.log.Error("projection cursor", "err", err)
		}
	}
	if !p.driving() {
		return
	}
	ctx := context.Background()
	at := time.Unix(int64(blk.Time), 0).UTC()
	hashes := append([]common.Hash(nil), blk.Touched...)
	for _, n := range blk.Nonces {
		hs, err := p.nonceOrders(n, []orderstore.Status{orderstore.StatusCancelled})
		if err != nil {
			p.log.Warn("orders of a rewound nonce invalidation", "maker", n.Maker, "nonce", n.Nonce, "err", err)
		}
		hashes = append(hashes, hs...)
	}
	for _, h := range hashes {
		if err := p.resync(ctx, h, at); err != nil {
			p.log.Error("resync after rewind", "order", h, "err", err)
		}
	}
	for _, h := range blk.Touched {
		if err := p.reconcile(ctx, h, blk.Time); err != nil {
			p.log.Warn("reconcile after rewind", "order", h, "err", err)
		}
	}
	p.signal()
}

// notFound reports an order the chain knows and this engine does not.
func notFound(err error) bool {
	return orderengine.AsError(err).Code == orderengine.CodeNotFound
}

func (p *Projector) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Run projects until ctx is done.
func (p *Projector) Run(ctx context.Context) {
	for {
		if err := p.CatchUp(ctx); err != nil && ctx.Err() == nil {
			p.log.Warn("projection failed; retrying on the next block", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
		}
	}
}

// CatchUp reconciles every block between the projection cursor and the
// indexer's cursor.
//
// While this node does not drive (ProjectorOptions.Drive) it projects nothing, and a
// projection stops, at the block it reached, when it stops driving.
func (p *Projector) CatchUp(ctx context.Context) error {
	p.mu <- struct{}{}
	defer func() { <-p.mu }()
	if !p.driving() {
		return nil
	}
	cur, ok, err := p.chain.Cursor()
	if err != nil || !ok {
		return err
	}
	proj, err := p.chain.Projected()
	if err != nil {
		return err
	}
	if proj >= cur.Number {
		return nil
	}
	gapChecked := false
	err = p.chain.Blocks(proj+1, func(blk chainstore.Block) error {
		if blk.Number > cur.Number {
			return nil
		}
		if !p.driving() {
			return errNotDriving
		}
		if !gapChecked {
			gapChecked = true
			if blk.Number > proj+1 {
				// Blocks proj+1 … blk.Number−1 were pruned before they
				// were projected: what they touched is no longer listed.
				if err := p.reconcileOpen(ctx, blk.Time); err != nil {
					return fmt.Errorf("indexer: reconcile the open orders after pruned blocks %d-%d: %w", proj+1, blk.Number-1, err)
				}
			}
		}
		if err := p.project(ctx, blk); err != nil {
			return fmt.Errorf("indexer: project block %d: %w", blk.Number, err)
		}
		return p.chain.SetProjected(blk.Number)
	})
	if errors.Is(err, errNotDriving) {
		return nil
	}
	if err != nil {
		return err
	}
	return p.chain.SetProjected(cur.Number)
}

func (p *Projector) project(ctx context.Context, blk chainstore.Block) error {
	for _, h := range blk.Touched {
		if err := p.reconcile(ctx, h, blk.Time); err != nil {
			return err
		}
	}
	for _, n := range blk.Nonces {
		if err := p.invalidate(ctx, n, blk.Time); err != nil {
			return err
		}
	}
	return nil
}

// reconcile sends order h what the chain records say of it: activation,
// fills, an on-chain cancel. Orders the chain knows and this engine does
// not are kept only as chain records.
func (p *Projector) reconcile(ctx context.Context, h common.Hash, blockTime uint64) error {
	if !p.orders.MayExist(h) {
		return nil
	}
	co, _, err := p.chain.Order(h)
	if err != nil {
		return err
	}
	fills, err := p.chain.Fills(h)
	if err != nil {
		return err
	}
	at := time.Unix(int64(blockTime), 0).UTC()
	if err := answer(p.registry.Observe(ctx, h, order.ChainObserved{Chain: co, Fills: fills, At: at})); err != nil && !notFound(err) {
		return err
	}
	return nil
}

// resync sends order h the chain facts left after a rewind: its chain
// record and whether its nonce is invalidated (the order's maker and nonce
// are read from its record: they never change).
func (p *Projector) resync(ctx context.Context, h common.Hash, at time.Time) error {
	rec, found, err := p.orders.Load(h)
	if err != nil || !found {
		return err
	}
	v, err := p.chain.OrderView(h, rec.Order.Maker, rec.Traits().Nonce)
	if err != nil {
		return err
	}
	if err := answer(p.registry.Resync(ctx, h, v, at)); err != nil && !notFound(err) {
		return err
	}
	return nil
}

// reconcileOpen reconciles every open order with the chain records and
// cancels those whose nonce the chain invalidated. CatchUp falls back to it
// when the indexer pruned blocks (older than lifecycle.recentBlocks) that
// the projector had not projected yet: the block records that listed the
// orders they touched are gone, but their effects are in the chain records
// (c/o, f/, c/n), and reconciling is idempotent. blockTime is the time of
// the first block still remembered (the pruned events happened at or
// before it); it dates activations and cancels, fills keep their own.
func (p *Projector) reconcileOpen(ctx context.Context, blockTime uint64) error {
	at := time.Unix(int64(blockTime), 0).UTC()
	return p.orders.OpenOrders(func(rec *orderstore.Record) error {
		h := rec.Hash
		if _, seen, err := p.chain.Order(h); err != nil {
			return err
		} else if seen {
			if err := p.reconcile(ctx, h, blockTime); err != nil {
				return err
			}
		}
		n, invalidated, err := p.chain.Nonce(rec.Order.Maker, rec.Traits().Nonce)
		if err != nil || !invalidated {
			return err
		}
		return answer(p.registry.InvalidateNonce(ctx, h, n.TxHash, at))
	})
}

// invalidate cancels every open order of the maker that carries the nonce.
func (p *Projector) invalidate(ctx context.Context, n chainstore.Nonce, blockTime uint64) error {
	at := time.Unix(int64(blockTime), 0).UTC()
	hs, err := p.nonceOrders(n, []orderstore.Status{orderstore.StatusPending, orderstore.StatusActive})
	if err != nil {
		return err
	}
	for _, h := range hs {
		if err := answer(p.registry.InvalidateNonce(ctx, h, n.TxHash, at)); err != nil {
			return err
		}
	}
	return nil
}

// nonceOrders lists the orders of n's maker in the given statuses whose
// traits carry n's nonce (a query of the list index: the actors decide).
func (p *Projector) nonceOrders(n chainstore.Nonce, statuses []orderstore.Status) ([]common.Hash, error) {
	maker := n.Maker
	var out []common.Hash
	for _, status := range statuses {
		var after []byte
		for {
			recs, next, err := p.orders.List(orderstore.ListFilter{Maker: &maker, Status: status, Limit: 500, After: after})
			if err != nil {
				return out, err
			}
			for _, rec := range recs {
				if rec.Traits().Nonce == n.Nonce {
					out = append(out, rec.Hash)
				}
			}
			if next == "" {
				break
			}
			if after, err = orderstore.ParseCursor(next); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// answer folds an order actor's refusal into the error.
func answer(res *order.Response, err error) error {
	if err != nil {
		return err
	}
	return res.Err
}
