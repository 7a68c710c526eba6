package natsjs

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
)

// A follower's catch-up reads the stream forward from its applied
// position through direct gets, which any replica answers (this node's
// own when it has one), without the consumer and without JetStream's
// meta leader, whose election after a node's death can leave a follower
// unable to create its next consumer for seconds. It runs while the
// follower has no consumer, and when a writer has waited for a message the
// consumer has not delivered (catchUpAfter). The consumer stays the
// follower's main path: it pushes each message as soon as it is stored.
const (
	// catchUpEvery spaces the catch-up's reads while the follower has no
	// consumer.
	catchUpEvery = 100 * time.Millisecond
	// catchUpAfter: a writer waiting this long for a message not yet
	// applied makes the follower read the stream itself.
	catchUpAfter = 150 * time.Millisecond
	// catchUpBatch is the most messages one direct get returns.
	catchUpBatch = 256
)

// catchUp applies what the stream holds after the applied position, batch
// by batch, until a read returns nothing new (or fails, or ctx ends). It
// returns how many messages it applied.
func (f *follower) catchUp(ctx context.Context) (int, error) {
	applied := 0
	for {
		from := f.position() + 1
		recs, err := f.n.directBatch(ctx, f.stream, from, catchUpBatch)
		if err != nil || len(recs) == 0 {
			return applied, err
		}
		if err := f.applyBatch(recs); err != nil {
			return applied, err
		}
		applied += len(recs)
		if len(recs) < catchUpBatch {
			return applied, nil
		}
	}
}

// bridge runs catchUp every catchUpEvery until done is closed or the
// follower stops: the follower's path while it has no consumer.
func (f *follower) bridge(done <-chan struct{}) {
	t := time.NewTicker(catchUpEvery)
	defer t.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		if n, err := f.catchUp(ctx); n > 0 {
			f.n.log.Debug("natsjs: follower caught up without a consumer", "stream", f.stream, "messages", n, "to", f.position())
		} else if err != nil && f.hasFailed() {
			cancel()
			return
		}
		cancel()
		select {
		case <-done:
			return
		case <-f.stopc:
			return
		case <-t.C:
		}
	}
}

// directBatch reads up to max messages of stream at or after sequence
// from, in order, through a direct get (any replica answers). None when
// the stream has no message there yet.
func (n *Node) directBatch(ctx context.Context, stream string, from uint64, max int) ([]record, error) {
	body, err := json.Marshal(map[string]any{"seq": from, "batch": max})
	if err != nil {
		return nil, err
	}
	inbox := nats.NewInbox()
	sub, err := n.nc.SubscribeSync(inbox)
	if err != nil {
		return nil, fmt.Errorf("natsjs: direct get of %s: %w", stream, err)
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := n.nc.PublishRequest("$JS.API.DIRECT.GET."+stream, inbox, body); err != nil {
		return nil, fmt.Errorf("natsjs: direct get of %s: %w", stream, err)
	}
	var out []record
	for {
		m, err := sub.NextMsgWithContext(ctx)
		if err != nil {
			return out, fmt.Errorf("natsjs: direct get of %s from %d: %w", stream, from, err)
		}
		switch status := m.Header.Get("Status"); status {
		case "":
		case "204", "404": // the end of the batch, or nothing at or after from
			return out, nil
		default:
			return out, fmt.Errorf("natsjs: direct get of %s from %d: status %s %s", stream, from, status, m.Header.Get("Description"))
		}
		seq, err := strconv.ParseUint(m.Header.Get("Nats-Sequence"), 10, 64)
		if err != nil {
			return out, fmt.Errorf("natsjs: direct get of %s: sequence: %w", stream, err)
		}
		out = append(out, record{seq: seq, subject: m.Header.Get("Nats-Subject"), data: m.Data})
		if len(out) >= max {
			return out, nil
		}
	}
}
