package natsjs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine/persistence"
)

// writesFor returns new-order writes (expected sequence 0) of count test
// orders from first on that all fall in partition p.
func writesFor(t *testing.T, tn *testNode, first, count, p int) ([]casWrite, []*persistence.OrderRecord) {
	t.Helper()
	var ws []casWrite
	var recs []*persistence.OrderRecord
	for i := first; len(ws) < count; i++ {
		rec := testOrder(i)
		if Partition(rec.Hash, tn.cfg.OrderPartitions) != p {
			continue
		}
		data, err := persistence.EncodeTransition(&persistence.OrderTransition{Record: rec}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, casWrite{stream: orderStream(p), subj: orderSubject(p, rec.Hash),
			msgID: fmt.Sprintf("%x:1:%s", rec.Hash[:], nonce()), data: data})
		recs = append(recs, rec)
	}
	return ws, recs
}

// subjectMsgs returns how many messages subj holds in stream.
func subjectMsgs(t *testing.T, tn *testNode, stream, subj string) uint64 {
	t.Helper()
	s, err := tn.node.stream(stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(context.Background(), jetstream.WithSubjectFilter(subj))
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Subjects[subj]
}

// checkLanded fails unless each write is its subject's only message, at
// seqs[i], with its own message id.
func checkLanded(t *testing.T, tn *testNode, ws []casWrite, seqs []uint64) {
	t.Helper()
	ctx := context.Background()
	for i, w := range ws {
		m, found, err := tn.node.leaderGet(ctx, w.stream, w.subj, 0)
		if err != nil || !found {
			t.Fatalf("write %d: read %s: %v %v", i, w.subj, found, err)
		}
		if m.Seq != seqs[i] || m.Header.Get(jetstream.MsgIDHeader) != w.msgID {
			t.Fatalf("write %d: %s holds seq %d id %q, want seq %d id %q", i, w.subj, m.Seq, m.Header.Get(jetstream.MsgIDHeader), seqs[i], w.msgID)
		}
		if c := subjectMsgs(t, tn, w.stream, w.subj); c != 1 {
			t.Fatalf("write %d: %s holds %d messages", i, w.subj, c)
		}
	}
}

// TestGroupCommitConcurrentCreates: concurrent appends of distinct new
// orders through one node all land once, each with its own sequence, and
// the node sends some of them in batches of several.
func TestGroupCommitConcurrentCreates(t *testing.T) {
	nodes := sharedCluster(t)
	tn := nodes[0]
	base := freshOrders()
	const writers, each = 24, 8
	before := tn.journal.group.batches.Load()
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				if err := create(tn.journal, testOrder(base+w*each+i)); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("concurrent create: %v", err)
	}
	seen := map[string]uint64{} // stream/seq -> order
	for i := range writers * each {
		rec := testOrder(base + i)
		p := Partition(rec.Hash, tn.cfg.OrderPartitions)
		m, found, err := tn.node.leaderGet(context.Background(), orderStream(p), orderSubject(p, rec.Hash), 0)
		if err != nil || !found {
			t.Fatalf("order %d: %v %v", i, found, err)
		}
		key := fmt.Sprintf("%s/%d", orderStream(p), m.Seq)
		if o, dup := seen[key]; dup {
			t.Fatalf("orders %d and %d at %s", o, i, key)
		}
		seen[key] = uint64(i)
		if c := subjectMsgs(t, tn, orderStream(p), orderSubject(p, rec.Hash)); c != 1 {
			t.Fatalf("order %d: %d messages", i, c)
		}
		stored, ok, err := tn.orders.Load(rec.Hash)
		if err != nil || !ok || stored.Version != 1 {
			t.Fatalf("order %d in the node's store: %v %v %+v", i, ok, err, stored)
		}
	}
	batches := tn.journal.group.batches.Load() - before
	t.Logf("%d creates by %d writers: %d batches of two or more", writers*each, writers, batches)
	if batches == 0 {
		t.Fatal("no batch formed")
	}
	assertSameStores(t, nodes)
}

// TestGroupCommitBatch: a batch lands every write at consecutive
// sequences; a batch with one stale write (its subject moved past the
// expected sequence) is refused whole, and its members published on their
// own land the others and give only the stale one its conflict.
func TestGroupCommitBatch(t *testing.T) {
	nodes := sharedCluster(t)
	tn := nodes[1]
	g := tn.journal.group
	ctx := context.Background()
	ws, _ := writesFor(t, tn, freshOrders(), 6, 2)
	seqs, err := g.publishBatch(ctx, ws[:3])
	if err != nil {
		t.Fatal(err)
	}
	if seqs[1] != seqs[0]+1 || seqs[2] != seqs[1]+1 {
		t.Fatalf("sequences %v", seqs)
	}
	checkLanded(t, tn, ws[:3], seqs)

	// ws[0] again, under a new id, conditional on the empty subject: stale.
	stale := ws[0]
	stale.msgID = "stale-" + nonce()
	mixed := []casWrite{ws[3], stale, ws[4], ws[5]}
	_, err = g.publishBatch(ctx, mixed)
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode != codeWrongLastSeq {
		t.Fatalf("batch with a stale write: %v", err)
	}
	for _, w := range mixed {
		if w.subj != stale.subj {
			if c := subjectMsgs(t, tn, w.stream, w.subj); c != 0 {
				t.Fatalf("a refused batch wrote %s", w.subj)
			}
		}
	}
	// The journal's path for a refused batch: each member on its own.
	answers := make([]error, len(mixed))
	got := make([]uint64, len(mixed))
	var wg sync.WaitGroup
	for i, w := range mixed {
		wg.Go(func() {
			a := g.refused(w.stream, err)
			if !a.again || a.maybeLanded {
				answers[i] = fmt.Errorf("refused batch answered %+v", a)
				return
			}
			got[i], answers[i] = tn.node.publishCAS(ctx, w.stream, w.subj, w.msgID, w.expect, w.data)
		})
	}
	wg.Wait()
	for i, w := range mixed {
		switch {
		case w.msgID == stale.msgID && !errors.Is(answers[i], errCASConflict):
			t.Fatalf("the stale write: %v", answers[i])
		case w.msgID != stale.msgID && answers[i] != nil:
			t.Fatalf("write %d beside the stale one: %v", i, answers[i])
		}
	}
	checkLanded(t, tn, []casWrite{ws[3], ws[4], ws[5]}, []uint64{got[0], got[2], got[3]})
	checkLanded(t, tn, ws[:1], seqs[:1])
}

// TestGroupCommitBatchRetry: a batch sent again after it landed (its
// first answer lost) writes nothing twice: the leader refuses it as a
// whole (its ids were written), and each member published on its own as a
// write that may have landed is acknowledged with the sequence the batch
// gave it.
func TestGroupCommitBatchRetry(t *testing.T) {
	nodes := sharedCluster(t)
	tn := nodes[2]
	g := tn.journal.group
	ctx := context.Background()
	ws, _ := writesFor(t, tn, freshOrders(), 5, 1)
	seqs, err := g.publishBatch(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.publishBatch(ctx, ws)
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("the batch again: %v", err)
	}
	t.Logf("the batch again: %v", err)
	// An unknown outcome (no answer) sends every member on its own as a
	// write that may have landed.
	a := g.refused(ws[0].stream, context.DeadlineExceeded)
	if !a.again || !a.maybeLanded {
		t.Fatalf("unknown outcome answered %+v", a)
	}
	for i, w := range ws {
		seq, err := tn.node.publishOnce(ctx, w.stream, w.subj, w.msgID, w.expect, w.data, nil)
		seq, err = tn.node.casContinue(ctx, w.stream, w.subj, w.msgID, w.expect, w.data, nil, seq, err, a.maybeLanded)
		if err != nil || seq != seqs[i] {
			t.Fatalf("member %d on its own: seq %d (the batch's %d), %v", i, seq, seqs[i], err)
		}
	}
	checkLanded(t, tn, ws, seqs)
	// A member of a landed batch whose id the window no longer holds
	// (another id for the same write): its conflict is resolved by the
	// subject as another write's.
	w := ws[0]
	if _, err := tn.node.casContinue(ctx, w.stream, w.subj, "other-"+nonce(), w.expect, w.data, nil,
		0, fmt.Errorf("%w: x", errCASConflict), true); !errors.Is(err, errCASConflict) {
		t.Fatalf("another id after the batch: %v", err)
	}
}

// TestGroupCommitDuringLeaderChanges: concurrent appends through one node
// while the order streams' leaders step down: every acknowledged append is
// its subject's only message at its sequence, no subject holds two
// messages, and the nodes' stores end equal.
func TestGroupCommitDuringLeaderChanges(t *testing.T) {
	nodes := startCluster(t, 3)
	tn := nodes[0]
	base := freshOrders()
	const writers, each = 16, 25
	type outcome struct {
		i   int
		err error
	}
	out := make(chan outcome, writers*each)
	stop := make(chan struct{})
	var steps sync.WaitGroup
	steps.Go(func() {
		for k := 0; ; k++ {
			select {
			case <-stop:
				return
			case <-time.After(300 * time.Millisecond):
			}
			stream := orderStream(k % 4)
			resp, err := nodes[k%3].node.nc.Request("$JS.API.STREAM.LEADER.STEPDOWN."+stream, nil, 5*time.Second)
			if err == nil {
				var r struct {
					Error *jetstream.APIError `json:"error"`
				}
				_ = json.Unmarshal(resp.Data, &r)
				if r.Error != nil {
					err = r.Error
				}
			}
			t.Logf("step down %s: %v", stream, err)
		}
	})
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				k := w*each + i
				out <- outcome{k, create(tn.journal, testOrder(base+k))}
			}
		})
	}
	wg.Wait()
	close(stop)
	steps.Wait()
	close(out)
	acked, failed := 0, 0
	for o := range out {
		rec := testOrder(base + o.i)
		p := Partition(rec.Hash, tn.cfg.OrderPartitions)
		stream, subj := orderStream(p), orderSubject(p, rec.Hash)
		var c uint64
		waitFor(t, "a read of "+subj, func() bool {
			s, err := tn.node.stream(stream)
			if err != nil {
				return false
			}
			info, err := s.Info(context.Background(), jetstream.WithSubjectFilter(subj))
			if err != nil {
				return false
			}
			c = info.State.Subjects[subj]
			return true
		})
		switch {
		case c > 1:
			t.Fatalf("order %d: %d messages", o.i, c)
		case o.err == nil && c != 1:
			t.Fatalf("order %d acknowledged, %d messages", o.i, c)
		case o.err == nil:
			acked++
		case errors.Is(o.err, persistence.ErrUnavailable):
			failed++
		default:
			t.Fatalf("order %d: %v", o.i, o.err)
		}
	}
	t.Logf("%d acknowledged, %d unavailable; %d batches of %d writes", acked, failed,
		tn.journal.group.batches.Load(), tn.journal.group.batched.Load())
	if acked == 0 {
		t.Fatal("nothing acknowledged")
	}
	waitApplied(t, nodes)
	assertSameStores(t, nodes)
}
