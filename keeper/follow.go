package keeper

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/internal/sse"
)

// Follower keeps the executable set of the keeper stream (GET
// /v1/keeper/stream) for the reference keeper: it applies the snapshot,
// resync and block events to a local set, reconnects with Last-Event-ID
// when the stream drops (after FollowRetry), and tells the Runner at each
// block. While it is not connected the Runner polls instead.
type Follower struct {
	base, apiKey string
	keeper       common.Address
	hc           *http.Client
	log          *slog.Logger

	mu        sync.Mutex
	set       map[string]StreamOrder
	lastID    string
	connected bool
	// head is the block of the last event applied.
	head uint64
	wake chan struct{}
}

// FollowRetry is the wait before the Follower reconnects a stream that
// dropped or was refused (a 429's Retry-After when longer).
const FollowRetry = time.Second

// NewFollower returns a follower of base's keeper stream for keeper's
// address with apiKey (nil hc: a client without a timeout, as a stream
// lasts).
func NewFollower(base, apiKey string, keeper common.Address, hc *http.Client, log *slog.Logger) *Follower {
	if hc == nil {
		hc = &http.Client{}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Follower{base: base, apiKey: apiKey, keeper: keeper, hc: hc, log: log.With("component", "keeper-stream"),
		set: map[string]StreamOrder{}, wake: make(chan struct{}, 1)}
}

// Wake holds a token after each applied event.
func (f *Follower) Wake() <-chan struct{} { return f.wake }

// Connected reports whether the stream is open and its set is current.
func (f *Follower) Connected() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.connected
}

// Items returns the orders of the set whose transaction the engine built,
// in order-hash order, as Items for the Runner.
func (f *Follower) Items() []Item {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]Item, 0, len(f.set))
	for _, o := range f.set {
		if o.Tx == nil || o.Route == nil {
			continue // announced again once built
		}
		out = append(out, Item{Listing: o.Listing, Route: *o.Route, MinAmountOut: deref(o.MinAmountOut),
			ExpectedAmountOut: deref(o.ExpectedAmountOut), ExpectedKeeperFee: deref(o.ExpectedKeeperFee), Tx: *o.Tx})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OrderHash < out[j].OrderHash })
	return out
}

// Run follows the stream until ctx ends, reconnecting after FollowRetry.
func (f *Follower) Run(ctx context.Context) {
	for ctx.Err() == nil {
		err := f.follow(ctx)
		f.mu.Lock()
		f.connected = false
		f.mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		wait := max(FollowRetry, retryAfter(err))
		f.log.Warn("keeper stream dropped: polling until it is back", "err", err, "retryIn", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// follow reads one connection of the stream until it ends.
func (f *Follower) follow(ctx context.Context) error {
	q := url.Values{"keeper": {f.keeper.Hex()}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.base+"/v1/keeper/stream?"+q.Encode(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-API-Key", f.apiKey)
	req.Header.Set("Accept", "text/event-stream")
	f.mu.Lock()
	if f.lastID != "" {
		req.Header.Set("Last-Event-ID", f.lastID)
	}
	f.mu.Unlock()
	resp, err := f.hc.Do(req)
	if err != nil {
		return fmt.Errorf("keeper: open the stream: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return apiError(resp)
	}
	r := sse.NewReader(resp.Body)
	for {
		ev, err := r.Next()
		if err != nil {
			return fmt.Errorf("keeper: read the stream: %w", err)
		}
		if err := f.apply(ev); err != nil {
			return err
		}
		select {
		case f.wake <- struct{}{}:
		default:
		}
	}
}

// apply applies one event to the set.
func (f *Follower) apply(ev sse.Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch ev.Name {
	case EventSnapshot, EventResync:
		var s struct {
			Block  uint64        `json:"block"`
			Orders []StreamOrder `json:"orders"`
		}
		if err := json.Unmarshal(ev.Data, &s); err != nil {
			return fmt.Errorf("keeper: decode %s: %w", ev.Name, err)
		}
		clear(f.set)
		for _, o := range s.Orders {
			f.set[o.OrderHash] = o
		}
		f.head, f.connected = s.Block, true
	case EventBlock:
		var b struct {
			Block      uint64        `json:"block"`
			Executable []StreamOrder `json:"executable"`
			Removed    []struct {
				OrderHash string `json:"orderHash"`
			} `json:"removed"`
		}
		if err := json.Unmarshal(ev.Data, &b); err != nil {
			return fmt.Errorf("keeper: decode block: %w", err)
		}
		for _, o := range b.Executable {
			f.set[o.OrderHash] = o
		}
		for _, r := range b.Removed {
			delete(f.set, r.OrderHash)
		}
		f.head, f.connected = b.Block, true
	default:
		return nil // an event this keeper does not know: skipped
	}
	f.lastID = ev.ID
	return nil
}
