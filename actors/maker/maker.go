// Package maker holds the maker actors: one per maker wallet, owning what
// the engine keeps per maker (contract.md sections 5 and 8): the
// per-maker submit limit (an exact sliding log of admissions), the cap on
// open orders, and the wallet's referral binding.
//
// # Who owns what
//
// Each maker in use has one actor in the actor registry (actors/kind). Its
// state is shared with the callers, who update it on their own goroutines
// under the state's mutex (kind.Registry.Use), as the limiter does: the
// submit path admits a submission without a mailbox round trip, and the
// order journal's change feed (Changed) counts an order opening or
// closing, and records a new binding, synchronously in the write's
// goroutine, so the next submission and the next route of the maker see
// them. The actor owns the state's life: the registry passivates a maker
// only when nothing would be lost (no open order, no admission in the
// window); the binding is read back from the store on the next use.
//
// The open counts are complete because every open order reaches the feed:
// at start the engine replays the stored open orders into it, and a maker
// with open orders is never passivated.
//
// # In a cluster
//
// The maker is a cluster kind placed by address (Options.Placement,
// cluster.go): the member that owns a maker admits its submissions,
// whichever member accepts them, so the submit window and the open-order
// cap hold across the cluster. The feed runs on every member (each member's materialiser
// tells it of every order, whichever member accepted it), so every member
// counts every maker's open orders and the owner's count is complete the
// moment it becomes the owner.
package maker

import (
	"context"
	"hash/maphash"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/actors/kind"
	"github.com/orderengine/orderengine/internal/clock"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Options configure Makers.
type Options struct {
	// Submits is the number of submissions admitted per Window.
	Submits int
	Window  time.Duration
	// OpenOrders caps the open orders of one maker.
	OpenOrders int
	// Bindings reads a wallet's stored referral binding (found false:
	// unbound); nil: no wallet is bound.
	Bindings func(maker common.Address) (referrer common.Address, found bool, err error)
	// Idle passivates a maker with nothing to keep after this long without
	// use. Default: Window, at least a minute.
	Idle time.Duration
	// Placement makes the makers a cluster kind placed by it
	// (cluster/members): the owner of a maker's address admits its
	// submissions. nil: a single node's makers.
	Placement kind.Placement
}

// Makers holds the maker actors in use. It is safe for concurrent use.
type Makers struct {
	reg   *kind.Registry[common.Address, state]
	clock clock.Clock
	log   *slog.Logger
	opts  Options
	// warned is the unix time (seconds) of the last warning about an
	// unreachable owner (cluster.go).
	warned atomic.Int64
}

// state is one maker's state. Its mutex guards every field.
type state struct {
	mu sync.Mutex
	// times is a ring of the last admission times (unix nanoseconds).
	times []int64
	next  int // index of the oldest entry once full
	n     int
	// open counts the maker's open orders (pending or active).
	open int
	// bound is the wallet's referrer once loaded (bindingLoaded).
	bindingLoaded, bound bool
	referrer             common.Address
}

// New returns the maker registry whose actors live in system.
func New(system *actor.ActorSystem, clk clock.Clock, log *slog.Logger, opts Options) *Makers {
	if opts.Idle <= 0 {
		opts.Idle = max(opts.Window, time.Minute)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := &Makers{clock: clk, log: log, opts: opts}
	seed := maphash.MakeSeed()
	m.reg = kind.NewRegistry(system, kind.Kind[common.Address, state]{
		Name:      KindName,
		State:     func(common.Address) *state { return &state{times: make([]int64, opts.Submits)} },
		New:       func(_ common.Address, st *state) actor.Actor { return &makerActor{m: m, st: st} },
		Codec:     codec,
		Idle:      opts.Idle,
		Keep:      m.keep,
		Shard:     func(a common.Address) uint32 { return uint32(maphash.Bytes(seed, a[:])) },
		Placement: opts.Placement,
	}, log)
	return m
}

// keep holds a maker with open orders or an admission inside the window:
// neither can be read back from the store.
func (m *Makers) keep(st *state) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.open > 0 {
		return true
	}
	if st.n == 0 {
		return false
	}
	newest := st.times[(st.next+st.n-1)%len(st.times)]
	return m.clock.Now().UnixNano()-newest < int64(m.opts.Window)
}

// Stop ends the registry's sweep.
func (m *Makers) Stop() { m.reg.Stop() }

// Admit checks and counts one submission of maker: MAKER_RATE_LIMITED,
// with RetryAfterSeconds set, when the maker has reached its cap of open
// orders or its submissions per window. A refused submission is not
// counted. In a cluster the maker's owner decides (cluster.go); ctx bounds
// the round trip.
func (m *Makers) Admit(ctx context.Context, maker common.Address) error {
	if !m.reg.Owns(maker) { // always owned on a single node (no placement)
		return m.admitRemote(ctx, maker)
	}
	// admitHere, written out: the submit path spares a call.
	var err error
	m.reg.Use(maker, func(st *state) {
		st.mu.Lock()
		defer st.mu.Unlock()
		err = m.admitLocked(st)
	})
	return err
}

// admitHere admits on this member's state of maker.
func (m *Makers) admitHere(maker common.Address) error {
	var err error
	m.reg.Use(maker, func(st *state) {
		st.mu.Lock()
		defer st.mu.Unlock()
		err = m.admitLocked(st)
	})
	return err
}

func (m *Makers) admitLocked(st *state) error {
	windowSecs := max(1, ceilSeconds(m.opts.Window))
	if st.open >= m.opts.OpenOrders {
		return &orderengine.Error{
			Code:              orderengine.CodeMakerRateLimited,
			Message:           "maker has reached the cap of open orders; cancel or wait for fills",
			RetryAfterSeconds: windowSecs,
		}
	}
	now := m.clock.Now().UnixNano()
	if st.n == len(st.times) {
		oldest := st.times[st.next]
		if wait := oldest + int64(m.opts.Window) - now; wait > 0 {
			return &orderengine.Error{
				Code:              orderengine.CodeMakerRateLimited,
				Message:           "too many orders from this maker wallet",
				RetryAfterSeconds: max(1, ceilSeconds(time.Duration(wait))),
			}
		}
		st.times[st.next] = now
		st.next = (st.next + 1) % len(st.times)
		return nil
	}
	st.times[(st.next+st.n)%len(st.times)] = now
	st.n++
	return nil
}

// ceilSeconds rounds d up to whole seconds.
func ceilSeconds(d time.Duration) int { return int((d + time.Second - 1) / time.Second) }

// Changed is the makers' part of the order change feed: an order of the
// maker changed from prev (0: new) to rec's status, binding the maker to
// bind when set. It runs on the caller's goroutine.
func (m *Makers) Changed(prev orderstore.Status, rec *orderstore.Record, bind *common.Address) {
	wasOpen, isOpen := prev.Open(), rec.Status.Open()
	if wasOpen == isOpen && bind == nil {
		return
	}
	m.reg.Use(rec.Order.Maker, func(st *state) {
		st.mu.Lock()
		defer st.mu.Unlock()
		switch {
		case isOpen && !wasOpen:
			st.open++
		case wasOpen && !isOpen && st.open > 0:
			st.open--
		}
		if bind != nil {
			st.bindingLoaded, st.bound, st.referrer = true, true, *bind
		}
	})
}

// OpenOrders returns maker's open orders as its actor counts them.
func (m *Makers) OpenOrders(maker common.Address) int {
	var n int
	m.reg.Use(maker, func(st *state) {
		st.mu.Lock()
		n = st.open
		st.mu.Unlock()
	})
	return n
}

// BoundReferrer implements routing.ReferralBindings: the referrer wallet
// was bound to by its first accepted order naming a non-vault referrer,
// read from the store once per activation of the maker.
func (m *Makers) BoundReferrer(_ context.Context, wallet common.Address) (common.Address, bool, error) {
	var (
		ref   common.Address
		bound bool
		err   error
	)
	m.reg.Use(wallet, func(st *state) {
		st.mu.Lock()
		defer st.mu.Unlock()
		if !st.bindingLoaded && m.opts.Bindings != nil {
			if st.referrer, st.bound, err = m.opts.Bindings(wallet); err != nil {
				return
			}
		}
		st.bindingLoaded = true
		ref, bound = st.referrer, st.bound
	})
	return ref, bound, err
}

// Live returns the number of makers with a live actor.
func (m *Makers) Live() int { return m.reg.Live() }

// Sweep passivates the idle makers with nothing to keep at the registry's
// next sweeps (the registry sweeps on its own; tests call it).
func (m *Makers) Sweep() { m.reg.Sweep() }
