package natsjs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// The journal's compaction keeps JetStream bounded by the open orders and
// the retention window instead of the whole history:
//
//   - An order's subject leaves its order stream (a purge by subject) once
//     the order has been closed for the retention window
//     (cluster.retention, default 24 h) and every node has applied its last
//     message. Open orders' subjects stay whole: their last message is what
//     the next transition is conditional on.
//   - The shared-records log (accounts, keys, sessions, webhook endpoints
//     and deliveries) loses the messages older than the window that every
//     node has applied, each subject keeping its last message (the revision
//     its next write is conditional on): a finished delivery keeps its
//     record in every node's store, not in the log.
//
// Every node's store holds everything the streams held (the records, the
// ledgers, the deliveries): a node that starts empty, or whose store is
// behind what was removed, starts from a peer's snapshot of its store
// (bootstrap.go), not from a replay. Every node reports how far it applied
// each stream (lease.applied-<node>, kept for the window), and the
// compactor, one node at a time (the holder of the lease "compactor"),
// removes only what every reporting node has applied. It records the
// highest sequence it removed of each stream (lease.compacted), so a node
// that comes back with a store behind that knows it must not follow the
// streams from where it stands.

// CompactOptions configure a Compactor.
type CompactOptions struct {
	// Retention is how long a closed order stays in its stream (and a
	// shared message in the shared log). Default 24 h.
	Retention time.Duration
	// Every spaces the compaction rounds. Default 1 minute.
	Every time.Duration
	// Batch bounds the orders removed per stream and round. Default 20,000.
	Batch int
	// TTL is the compactor lease's. Default 15 s.
	TTL time.Duration
	// Fit reports whether this node may compact now (nil: always).
	Fit func() bool
	Log *slog.Logger
}

// Compactor removes from the streams what the retention no longer keeps
// there, on the node holding its lease, and reports this node's applied
// positions on every node.
type Compactor struct {
	n      *Node
	orders *orderstore.Store
	store  *persistence.Store
	opts   CompactOptions
	lease  *Lease
	log    *slog.Logger
}

// The leases' subjects of the compaction.
const (
	compactorLease = "compactor"
	horizonName    = "compacted"
	appliedPrefix  = "applied-"
	// reportEvery spaces a node's reports of its applied positions.
	reportEvery = 10 * time.Second
)

// NewCompactor returns the compaction of node n's streams, whose store is
// store (orders its order journal).
func NewCompactor(n *Node, store *persistence.Store, orders *orderstore.Store, opts CompactOptions) *Compactor {
	if opts.Retention <= 0 {
		opts.Retention = 24 * time.Hour
	}
	if opts.Every <= 0 {
		opts.Every = time.Minute
	}
	if opts.Batch <= 0 {
		opts.Batch = 20_000
	}
	if opts.TTL <= 0 {
		opts.TTL = 15 * time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &Compactor{n: n, orders: orders, store: store, opts: opts,
		lease: n.Lease(compactorLease, n.opts.Cluster.Node, opts.TTL), log: opts.Log.With("component", "compaction")}
}

// Start reports this node's positions every reportEvery, and runs the
// compaction rounds while this node holds the compactor lease, until the
// node closes.
func (c *Compactor) Start(ctx context.Context) error {
	rctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	go func() {
		defer func() { done <- struct{}{} }()
		c.lease.Hold(rctx, HoldOptions{May: c.opts.Fit, Log: c.log})
	}()
	go func() {
		defer func() { done <- struct{}{} }()
		c.loop(rctx)
	}()
	c.n.onClose(func() {
		cancel()
		<-done
		<-done
		rel, relCancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer relCancel()
		_ = c.lease.Release(rel)
	})
	return nil
}

func (c *Compactor) loop(ctx context.Context) {
	report := time.NewTicker(reportEvery)
	defer report.Stop()
	round := time.NewTicker(c.opts.Every)
	defer round.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-report.C:
			if err := c.report(ctx); err != nil && ctx.Err() == nil {
				c.log.Debug("natsjs: reporting the applied positions failed", "err", err)
			}
		case <-round.C:
			if !c.lease.Held() {
				continue
			}
			if err := c.Compact(ctx); err != nil && ctx.Err() == nil {
				c.log.Warn("natsjs: a compaction round failed; the next one tries again", "err", err)
			}
		}
	}
}

// positions is a node's report of how far it applied each stream.
type positions struct {
	Applied map[string]uint64 `json:"applied"`
	At      time.Time         `json:"at"`
}

// horizon is the compaction's record: the highest sequence of each stream
// it removed.
type horizon struct {
	Removed map[string]uint64 `json:"removed"`
	At      time.Time         `json:"at"`
}

// Report publishes this node's applied positions of every stream, kept
// for the retention: its followers' once they run, its store's before.
// Call it before the followers start, so that the compaction never
// removes what this node has not applied yet (a node that has not
// reported is not waited for).
func (c *Compactor) Report(ctx context.Context) error { return c.report(ctx) }

// report publishes this node's applied positions.
func (c *Compactor) report(ctx context.Context) error {
	p := positions{Applied: map[string]uint64{}, At: time.Now().UTC()}
	for i := range c.n.OrderPartitions() {
		seq, err := c.orders.LogPosition(orderStream(i))
		if err != nil {
			return err
		}
		p.Applied[orderStream(i)] = seq
	}
	seq, err := c.store.SharedPosition(sharedStream)
	if err != nil {
		return err
	}
	p.Applied[sharedStream] = seq
	c.n.mu.Lock()
	for _, f := range c.n.followers {
		applied, _, _ := f.status()
		p.Applied[f.stream] = applied
	}
	c.n.mu.Unlock()
	return c.n.publishPositions(ctx, p.Applied, c.opts.Retention)
}

// publishPositions publishes this node's applied positions, kept for
// ttl.
func (n *Node) publishPositions(ctx context.Context, applied map[string]uint64, ttl time.Duration) error {
	data, err := json.Marshal(positions{Applied: applied, At: time.Now().UTC()})
	if err != nil {
		return err
	}
	ctx, cancel := n.writeContext(ctx)
	defer cancel()
	_, err = n.js.Publish(ctx, leaseSubject(appliedPrefix+n.opts.Cluster.Node), data,
		jetstream.WithMsgTTL(max(ttl, time.Second)), jetstream.WithExpectStream(leaseStream))
	return err
}

// applied returns, per stream, the lowest position any node reported, as
// the stream's leader has the reports (a replica may not have a node's
// first, lowest report yet).
func (c *Compactor) applied(ctx context.Context) (map[string]uint64, error) {
	subjects, err := c.n.subjects(ctx, leaseStream, leaseSubject("*"))
	if err != nil {
		return nil, err
	}
	lowest := map[string]uint64{}
	for _, subj := range subjects {
		if !strings.HasPrefix(subj, leaseSubject(appliedPrefix)) {
			continue
		}
		m, found, err := c.n.leaderGet(ctx, leaseStream, subj, 0)
		if err != nil {
			return nil, err
		}
		if !found {
			continue // expired since the listing
		}
		var p positions
		if err := json.Unmarshal(m.Data, &p); err != nil {
			return nil, fmt.Errorf("natsjs: %s: %w", m.Subject, err)
		}
		for s, seq := range p.Applied {
			if cur, ok := lowest[s]; !ok || seq < cur {
				lowest[s] = seq
			}
		}
	}
	return lowest, nil
}

// Horizon returns the highest sequence of each stream the compaction
// removed (none: nothing was).
// It reads the record from the stream's leader (a replica may trail it).
func (n *Node) Horizon(ctx context.Context) (map[string]uint64, error) {
	m, found, err := n.leaderGet(ctx, leaseStream, leaseSubject(horizonName), 0)
	if err != nil || !found {
		return map[string]uint64{}, err
	}
	var h horizon
	if err := json.Unmarshal(m.Data, &h); err != nil {
		return nil, fmt.Errorf("natsjs: the compaction's horizon: %w", err)
	}
	if h.Removed == nil {
		h.Removed = map[string]uint64{}
	}
	return h.Removed, nil
}

// Compact runs one compaction round: the closed orders of every order
// stream past the retention that every node applied, then the shared log's
// messages past it.
func (c *Compactor) Compact(ctx context.Context) error {
	lowest, err := c.applied(ctx)
	if err != nil {
		return err
	}
	removed, err := c.n.Horizon(ctx)
	if err != nil {
		return err
	}
	cutoff := time.Now().Add(-c.opts.Retention)
	moved := false
	var errs []error
	for p := range c.n.OrderPartitions() {
		stream := orderStream(p)
		top, n, err := c.compactOrders(ctx, p, cutoff, lowest[stream])
		if err != nil {
			errs = append(errs, err)
		}
		if n > 0 {
			c.log.Info("natsjs: closed orders removed from their stream", "stream", stream, "orders", n, "closedBefore", cutoff.Format(time.RFC3339))
		}
		if top > removed[stream] {
			removed[stream], moved = top, true
		}
	}
	if top, err := c.compactShared(ctx, cutoff, lowest[sharedStream]); err != nil {
		errs = append(errs, err)
	} else if top > removed[sharedStream] {
		removed[sharedStream], moved = top, true
	}
	if moved {
		data, err := json.Marshal(horizon{Removed: removed, At: time.Now().UTC()})
		if err == nil {
			wctx, cancel := c.n.writeContext(ctx)
			_, err = c.n.js.Publish(wctx, leaseSubject(horizonName), data, jetstream.WithExpectStream(leaseStream))
			cancel()
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// compactOrders removes from partition p's stream the orders closed before
// cutoff whose last message every node applied (at or below applied), and
// returns the highest sequence removed and how many orders.
func (c *Compactor) compactOrders(ctx context.Context, p int, cutoff time.Time, applied uint64) (top uint64, n int, err error) {
	stream := orderStream(p)
	if applied == 0 {
		return 0, 0, nil
	}
	var due []orderstore.ClosedOrder
	if err := c.orders.Closed(stream, cutoff, c.opts.Batch, func(o orderstore.ClosedOrder) bool {
		if o.Seq <= applied {
			due = append(due, o)
		}
		return true
	}); err != nil {
		return 0, 0, err
	}
	var done []orderstore.ClosedOrder
	for _, o := range due {
		if err := c.n.purge(ctx, stream, orderSubject(p, o.Hash), 0); err != nil {
			err = fmt.Errorf("natsjs: remove order %s from %s: %w", o.Hash.Hex(), stream, err)
			return top, len(done), errors.Join(err, c.orders.DropClosed(stream, done))
		}
		done = append(done, o)
		top = max(top, o.Seq)
	}
	return top, len(done), c.orders.DropClosed(stream, done)
}

// compactShared removes from every subject of the shared log its messages
// stored before cutoff that every node applied (at or below applied),
// keeping each subject's last; it returns the highest sequence removed.
func (c *Compactor) compactShared(ctx context.Context, cutoff time.Time, applied uint64) (uint64, error) {
	if applied == 0 {
		return 0, nil
	}
	first, found, err := c.n.firstAt(ctx, sharedStream, cutoff)
	if err != nil {
		return 0, err
	}
	if !found {
		// Nothing stored since the cutoff: every message is older.
		first = applied + 1
	}
	upto := min(first, applied+1) // remove the messages below it
	subjects, err := c.n.subjects(ctx, sharedStream, ">")
	if err != nil {
		return 0, err
	}
	var top uint64
	for _, subj := range subjects {
		last, found, err := c.n.leaderGet(ctx, sharedStream, subj, 0)
		if err != nil || !found {
			if err != nil {
				return top, err
			}
			continue
		}
		below := min(upto, last.Seq) // the subject's last message stays
		if below <= 1 {
			continue
		}
		if err := c.n.purge(ctx, sharedStream, subj, below); err != nil {
			return top, fmt.Errorf("natsjs: compact %s: %w", subj, err)
		}
		top = max(top, below-1)
	}
	return top, nil
}

// purge removes stream's messages of subject, all of them (below 0), or
// those below sequence below.
func (n *Node) purge(ctx context.Context, stream, subject string, below uint64) error {
	req := map[string]any{"filter": subject}
	if below > 0 {
		req["seq"] = below
	}
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	ctx, cancel := n.writeContext(ctx)
	defer cancel()
	for backoff := firstBackoff; ; backoff = min(2*backoff, maxBackoff) {
		resp, err := n.nc.RequestWithContext(ctx, "$JS.API.STREAM.PURGE."+stream, body)
		if err == nil {
			var out struct {
				Success bool                `json:"success"`
				Error   *jetstream.APIError `json:"error"`
			}
			if err = json.Unmarshal(resp.Data, &out); err == nil && out.Error != nil {
				err = out.Error
			}
			if err == nil {
				return nil
			}
		}
		if retry, _ := classify(err); !retry {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("natsjs: purge %s of %s: %w (last error: %v)", subject, stream, ctx.Err(), err)
		case <-time.After(backoff):
		}
	}
}

// firstAt returns the sequence of stream's first message stored at or
// after t (found false: none).
func (n *Node) firstAt(ctx context.Context, stream string, t time.Time) (uint64, bool, error) {
	body, err := json.Marshal(map[string]any{"start_time": t.UTC()})
	if err != nil {
		return 0, false, err
	}
	actx, cancel := context.WithTimeout(ctx, attemptTimeout)
	defer cancel()
	m, found, err := n.leaderGetOnce(actx, "$JS.API.STREAM.MSG.GET."+stream, body)
	if err != nil || !found {
		return 0, false, err
	}
	return m.Seq, true, nil
}

// subjects returns the subjects matching filter that stream holds
// messages of, as its leader answers.
func (n *Node) subjects(ctx context.Context, stream, filter string) ([]string, error) {
	body, err := json.Marshal(map[string]any{"subjects_filter": filter})
	if err != nil {
		return nil, err
	}
	actx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	resp, err := n.nc.RequestWithContext(actx, "$JS.API.STREAM.INFO."+stream, body)
	if err != nil {
		return nil, fmt.Errorf("natsjs: subjects of %s: %w", stream, err)
	}
	var info struct {
		State struct {
			Subjects map[string]uint64 `json:"subjects"`
		} `json:"state"`
		Error *jetstream.APIError `json:"error"`
	}
	if err := json.Unmarshal(resp.Data, &info); err != nil {
		return nil, err
	}
	if info.Error != nil {
		return nil, info.Error
	}
	out := make([]string, 0, len(info.State.Subjects))
	for s := range info.State.Subjects {
		out = append(out, s)
	}
	return out, nil
}

// rawMsg is a message a direct get returned.
type rawMsg struct {
	Subject string
	Seq     uint64
	Time    time.Time
	Data    []byte
}

// lastOf returns the last message of every subject of stream matching
// filter, by direct get (any replica answers).
func (n *Node) lastOf(ctx context.Context, stream, filter string) ([]rawMsg, error) {
	body, err := json.Marshal(map[string]any{"multi_last": []string{filter}})
	if err != nil {
		return nil, err
	}
	inbox := nats.NewInbox()
	sub, err := n.nc.SubscribeSync(inbox)
	if err != nil {
		return nil, err
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := n.nc.PublishRequest("$JS.API.DIRECT.GET."+stream, inbox, body); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	var out []rawMsg
	for {
		m, err := sub.NextMsgWithContext(ctx)
		if err != nil {
			return nil, fmt.Errorf("natsjs: last messages of %s in %s: %w", filter, stream, err)
		}
		switch status := m.Header.Get("Status"); status {
		case "":
		case "204", "404":
			return out, nil
		default:
			return nil, fmt.Errorf("natsjs: last messages of %s in %s: status %s %s", filter, stream, status, m.Header.Get("Description"))
		}
		seq, err := strconv.ParseUint(m.Header.Get("Nats-Sequence"), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("natsjs: last messages of %s in %s: sequence: %w", filter, stream, err)
		}
		at, err := time.Parse(time.RFC3339Nano, m.Header.Get("Nats-Time-Stamp"))
		if err != nil {
			return nil, fmt.Errorf("natsjs: last messages of %s in %s: time: %w", filter, stream, err)
		}
		out = append(out, rawMsg{Subject: m.Header.Get("Nats-Subject"), Seq: seq, Time: at, Data: m.Data})
	}
}

// Streamed reports whether order h's stream still holds a message of it
// (false once the compaction removed it), as the stream's leader answers.
func (n *Node) Streamed(ctx context.Context, h common.Hash) (bool, error) {
	p := Partition(h, n.OrderPartitions())
	_, found, err := n.leaderGet(ctx, orderStream(p), orderSubject(p, h), 0)
	return found, err
}
