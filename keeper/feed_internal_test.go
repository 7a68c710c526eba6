package keeper

import (
	"context"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/orderengine/orderengine/actors/pair"
	"github.com/orderengine/orderengine/api"
	"github.com/orderengine/orderengine/config"
)

// next reads the subscription's next events, failing after a second.
func next(t *testing.T, s api.Stream) []api.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	evs, err := s.Next(ctx)
	if err != nil || len(evs) == 0 {
		t.Fatalf("no events: %v", err)
	}
	return evs
}

func ref(n uint64, tag byte) pair.BlockRef {
	return pair.BlockRef{Number: n, Hash: common.Hash{tag, byte(n)}, Time: 1_800_000_000 + n}
}

// A reorg (an evaluated block at or below the last one) sends every
// subscription a resync with the new branch's set, and a Last-Event-ID of
// the replaced branch is not resumed; an old id past what the feed keeps
// gets a resync too, and one it holds resumes with the blocks after it.
func TestFeedResyncsAfterAReorg(t *testing.T) {
	f := NewFeed(FeedOptions{Config: config.StreamsConfig{KeeperResumeBlocks: 3}})
	ctx := context.Background()
	for n := uint64(10); n <= 12; n++ {
		f.apply(ctx, ref(n, 'a'))
	}
	s, err := f.Subscribe(api.KeeperStreamRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if evs := next(t, s); len(evs) != 1 || evs[0].Name != EventSnapshot || blockOfID(t, evs[0].ID) != 12 {
		t.Fatalf("first events %+v, want the snapshot at 12", evs)
	}
	f.apply(ctx, ref(13, 'a'))
	if evs := next(t, s); len(evs) != 1 || evs[0].Name != EventBlock || blockOfID(t, evs[0].ID) != 13 {
		t.Fatalf("then %+v, want block 13", evs)
	}
	resumable := "11-" + idDigest(t, f, 11)

	f.apply(ctx, ref(13, 'b')) // block 13 replaced
	if evs := next(t, s); len(evs) != 1 || evs[0].Name != EventResync || blockOfID(t, evs[0].ID) != 13 {
		t.Fatalf("after the reorg %+v, want a resync at 13", evs)
	}
	f.apply(ctx, ref(14, 'b'))
	if evs := next(t, s); len(evs) != 1 || evs[0].Name != EventBlock || blockOfID(t, evs[0].ID) != 14 {
		t.Fatalf("then %+v, want block 14", evs)
	}
	old, err := f.Subscribe(api.KeeperStreamRequest{LastEventID: resumable})
	if err != nil {
		t.Fatal(err)
	}
	if evs := next(t, old); evs[0].Name != EventResync {
		t.Fatalf("an id of the replaced branch got %+v, want a resync", evs)
	}
	f.apply(ctx, ref(15, 'b'))
	f.apply(ctx, ref(16, 'b'))
	f.apply(ctx, ref(17, 'b')) // the feed keeps 15–17
	for _, c := range []struct {
		id    string
		first string
		n     int
	}{{"14-" + idDigest(t, f, 15), EventResync, 1}, {"15-" + idDigest(t, f, 15), EventBlock, 2}} {
		sub, err := f.Subscribe(api.KeeperStreamRequest{LastEventID: c.id})
		if err != nil {
			t.Fatal(err)
		}
		if evs := next(t, sub); evs[0].Name != c.first || len(evs) != c.n {
			t.Fatalf("id %s got %+v, want %d events starting with %s", c.id, evs, c.n, c.first)
		}
	}
}

// idDigest is the digest part of the id of block n, which the feed holds.
func idDigest(t *testing.T, f *Feed, n uint64) string {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, b := range f.ring {
		if b.ref.Number == n {
			id := eventID{b.ref.Number, b.digest}.String()
			return id[len(id)-16:]
		}
	}
	t.Fatalf("the feed does not hold block %d", n)
	return ""
}

func blockOfID(t *testing.T, id string) uint64 {
	t.Helper()
	e, err := parseEventID(id)
	if err != nil {
		t.Fatal(err)
	}
	return e.block
}

// A feed no keeper listens to records nothing: the first subscription
// wakes it with the whole set at the last evaluated block; it records the
// blocks while a subscription is open and keeperResumeBlocks more after
// the last one closed (a reconnecting keeper resumes), then drops its
// records, and a Last-Event-ID is answered with a resync.
func TestFeedSleepsWithoutListeners(t *testing.T) {
	f := NewFeed(FeedOptions{Config: config.StreamsConfig{KeeperResumeBlocks: 2}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.Run(ctx)
	headAt := func(want uint64) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for f.Head().Number != want {
			if time.Now().After(deadline) {
				t.Fatalf("the feed's head is %d, want %d", f.Head().Number, want)
			}
			time.Sleep(time.Millisecond)
		}
	}
	f.evaluated(ref(10, 'a'), nil)
	time.Sleep(50 * time.Millisecond)
	headAt(0) // dormant: nothing recorded

	s, err := f.Subscribe(api.KeeperStreamRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if evs := next(t, s); len(evs) != 1 || evs[0].Name != EventSnapshot || blockOfID(t, evs[0].ID) != 10 {
		t.Fatalf("first events %+v, want the snapshot at 10", evs)
	}
	f.evaluated(ref(11, 'a'), nil)
	if evs := next(t, s); len(evs) != 1 || evs[0].Name != EventBlock || blockOfID(t, evs[0].ID) != 11 {
		t.Fatalf("then %+v, want block 11", evs)
	}
	s.Close()
	f.evaluated(ref(12, 'a'), nil)
	headAt(12)
	last := "12-" + idDigest(t, f, 12)
	f.evaluated(ref(13, 'a'), nil)
	headAt(13) // the second block after the close: still recorded
	f.evaluated(ref(14, 'a'), nil)
	headAt(0) // dormant again

	again, err := f.Subscribe(api.KeeperStreamRequest{LastEventID: last})
	if err != nil {
		t.Fatal(err)
	}
	if evs := next(t, again); len(evs) != 1 || evs[0].Name != EventResync || blockOfID(t, evs[0].ID) != 14 {
		t.Fatalf("a Last-Event-ID after the feed slept got %+v, want a resync at 14", evs)
	}
}
