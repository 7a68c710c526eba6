package keeper

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/internal/jsonw"
)

// The keeper stream's subscriptions (GET /v1/keeper/stream). Events:
//
//	snapshot  the set at the head, first on a connection without Last-Event-ID
//	resync    the same, when Last-Event-ID cannot be resumed (too old, or this
//	          node's set at that block differs)
//	block     per evaluated block: the orders announced (executable) and those
//	          that stopped (removed), possibly none
//
// Each event's id is "<block number>-<digest of the set after it, 16 hex
// digits>". A keeper that reconnects with it gets the events after that
// block, or a resync.

// Event names of the keeper stream.
const (
	EventSnapshot = "snapshot"
	EventResync   = "resync"
	EventBlock    = "block"
)

// resumeWaitBlocks is how many blocks a reconnection whose id is ahead of
// this node's head (it came from a node that had evaluated further) waits
// for this node to reach that block before it gets a resync.
const resumeWaitBlocks = 16

// streamFilter is a subscription's view: one pair ("" every pair, else the
// pairs' key) and the keeper the designated orders are shown to.
type streamFilter struct {
	pair   string
	keeper common.Address
}

func (flt streamFilter) shows(pairKey string, designated [10]byte) bool {
	return (flt.pair == "" || flt.pair == pairKey) && visible(designated, flt.keeper)
}

// eventID is a parsed keeper stream event id.
type eventID struct {
	block  uint64
	digest uint64
}

func (id eventID) String() string { return fmt.Sprintf("%d-%016x", id.block, id.digest) }

// parseEventID parses a Last-Event-ID of the keeper stream.
func parseEventID(v string) (eventID, error) {
	bad := orderengine.Errorf(orderengine.CodeInvalidRequest,
		"Last-Event-ID %q is not a keeper stream event id (<block>-<16 hex digits>): send back the id of the last event received", truncate(v))
	if len(v) > api.MaxLastEventID {
		return eventID{}, bad
	}
	num, dig, ok := strings.Cut(v, "-")
	if !ok || len(dig) != 16 {
		return eventID{}, bad
	}
	b, err1 := strconv.ParseUint(num, 10, 64)
	d, err2 := strconv.ParseUint(dig, 16, 64)
	if err1 != nil || err2 != nil {
		return eventID{}, bad
	}
	return eventID{block: b, digest: d}, nil
}

// truncate shortens a value quoted in a message.
func truncate(v string) string {
	if len(v) > api.MaxLastEventID {
		return v[:api.MaxLastEventID] + "..."
	}
	return v
}

// FeedSubscription is one open keeper stream.
type FeedSubscription struct {
	f       *Feed
	flt     streamFilter
	resume  *eventID
	started bool
	pos     uint64 // the last block sent
	epoch   uint64 // the feed's epoch of pos
	since   uint64 // the feed's seq at Subscribe
	closed  bool
}

// Subscribe opens a keeper stream: req's keeper and pair filter it as they
// filter GET /v1/keeper/executable, and a Last-Event-ID resumes it.
func (f *Feed) Subscribe(req api.KeeperStreamRequest) (api.Stream, error) {
	k, err := parseKeeper(req.Keeper)
	if err != nil {
		return nil, err
	}
	p, err := parsePair(req.Pair)
	if err != nil {
		return nil, err
	}
	s := &FeedSubscription{f: f, flt: streamFilter{pair: strings.ToLower(p), keeper: k}}
	if req.LastEventID != "" {
		id, err := parseEventID(req.LastEventID)
		if err != nil {
			return nil, err
		}
		s.resume = &id
	}
	f.mu.Lock()
	s.since = f.seq
	f.mu.Unlock()
	f.subs.Add(1)
	select {
	case f.wake <- struct{}{}:
	default:
	}
	return s, nil
}

// Close implements api.Stream.
func (s *FeedSubscription) Close() {
	if !s.closed {
		s.closed = true
		s.f.subs.Add(-1)
	}
}

// Next implements api.Stream.
func (s *FeedSubscription) Next(ctx context.Context) ([]api.Event, error) {
	for {
		s.f.mu.Lock()
		events, wait := s.nextLocked()
		s.f.mu.Unlock()
		if len(events) > 0 {
			return events, nil
		}
		select {
		case <-ctx.Done():
			return nil, nil
		case <-wait:
		}
	}
}

// nextLocked returns the events the subscription has not sent, or the
// channel to wait on for more.
func (s *FeedSubscription) nextLocked() ([]api.Event, <-chan struct{}) {
	f := s.f
	ring := f.ring
	if len(ring) == 0 {
		return nil, f.changed
	}
	head := ring[len(ring)-1]
	if !s.started {
		if s.resume == nil {
			return []api.Event{s.whole(EventSnapshot, head)}, nil
		}
		id := *s.resume
		if id.block > head.ref.Number && f.seq-s.since < resumeWaitBlocks {
			return nil, f.changed
		}
		i := sort.Search(len(ring), func(i int) bool { return ring[i].ref.Number >= id.block })
		if i == len(ring) || ring[i].ref.Number != id.block || ring[i].digest != id.digest {
			return []api.Event{s.whole(EventResync, head)}, nil
		}
		s.started, s.pos, s.epoch, s.resume = true, id.block, ring[i].epoch, nil
	}
	if head.epoch != s.epoch {
		// A reorg replaced blocks this subscription was sent.
		return []api.Event{s.whole(EventResync, head)}, nil
	}
	i := sort.Search(len(ring), func(i int) bool { return ring[i].ref.Number > s.pos })
	if i == len(ring) {
		return nil, f.changed
	}
	if ring[i].prev != s.pos {
		// Records the subscription had not sent were dropped (it fell
		// further behind than the feed keeps).
		return []api.Event{s.whole(EventResync, head)}, nil
	}
	events := make([]api.Event, 0, len(ring)-i)
	for _, b := range ring[i:] {
		events = append(events, api.Event{ID: eventID{b.ref.Number, b.digest}.String(), Name: EventBlock, Data: b.render(s.flt)})
	}
	s.pos = head.ref.Number
	return events, nil
}

// whole is a snapshot or resync event: the subscription's view of the set
// at head, from which it continues.
func (s *FeedSubscription) whole(name string, head *feedBlock) api.Event {
	s.started, s.pos, s.epoch, s.resume = true, head.ref.Number, head.epoch, nil
	size := 0
	if s.f.set != nil {
		size = s.f.set.Len()
	}
	b := appendBlockHead(make([]byte, 0, 256+size*1024), head)
	b = append(b, `,"orders":[`...)
	n := 0
	for _, e := range s.f.setEntries() {
		if !s.flt.shows(e.x.Pair, e.designated) {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		b = append(b, e.json...)
		n++
	}
	b = append(b, "]}"...)
	return api.Event{ID: eventID{head.ref.Number, head.digest}.String(), Name: name, Data: b}
}

// appendBlockHead opens a block's JSON object with its number and hash.
func appendBlockHead(b []byte, blk *feedBlock) []byte {
	b = append(b, `{"block":`...)
	b = jsonw.Uint(b, blk.ref.Number)
	b = append(b, `,"blockHash":"`...)
	b = append(b, blk.ref.Hash.Hex()...)
	return append(b, '"')
}

// dropRendered forgets the block's rendered events (each distinct filter
// holds one, so an old block does not keep them).
func (b *feedBlock) dropRendered() {
	b.renderMu.Lock()
	b.rendered = nil
	b.renderMu.Unlock()
}

// render is the block event's data as flt sees it, rendered once per view
// while the block is among the last ones.
func (b *feedBlock) render(flt streamFilter) []byte {
	b.renderMu.Lock()
	defer b.renderMu.Unlock()
	if out, ok := b.rendered[flt]; ok {
		return out
	}
	out := appendBlockHead(make([]byte, 0, 128+len(b.changed)*1024+len(b.removed)*96), b)
	out = append(out, `,"executable":[`...)
	n := 0
	for _, e := range b.changed {
		if flt.shows(e.x.Pair, e.designated) {
			if n > 0 {
				out = append(out, ',')
			}
			out = append(out, e.json...)
			n++
		}
	}
	out = append(out, `],"removed":[`...)
	n = 0
	for _, r := range b.removed {
		if flt.shows(r.pair, r.designated) {
			if n > 0 {
				out = append(out, ',')
			}
			out = append(out, `{"orderHash":"`...)
			out = append(out, r.hash.Hex()...)
			out = append(out, `","reason":"`...)
			out = append(out, r.reason...)
			out = append(out, `"}`...)
			n++
		}
	}
	out = append(out, "]}"...)
	if b.rendered == nil {
		b.rendered = map[streamFilter][]byte{}
	}
	b.rendered[flt] = out
	return out
}
