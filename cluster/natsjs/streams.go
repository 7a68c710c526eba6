package natsjs

import (
	"cmp"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nats-io/nats.go/jetstream"
)

// The streams every node sets up (idempotently, at every start):
//
//	stream      subjects                 holds
//	----------  -----------------------  -----------------------------------------
//	ORDERS_<p>  orders.<p>.<hash hex>    order transitions, p in [0, orderPartitions)
//	SHARED      shared.<entity>          shared-record batches (accounts, keys, ...)
//	LEASES      lease.<name>             leases, one message per holder term, TTL'd
//
// All are file-stored with cluster.replicas replicas, DefaultPersistMode
// (the acknowledgement follows the write) on servers that fsync every
// write (ServerOptions), have no limits (nothing leaves them but what the
// compaction removes, compact.go), and refuse the deletes of single
// messages. The order and shared streams deduplicate message ids for
// dupWindow, allow direct gets and purges (the compaction's, by subject);
// LEASES allows per-message TTLs. Streams made by an earlier version
// refuse purges (JetStream cannot lift that on a stream): their journal
// is not compacted.
const (
	sharedStream = "SHARED"
	leaseStream  = "LEASES"
	// dupWindow is how long a message id is remembered: a retried publish
	// within it is acknowledged with the first one's sequence.
	dupWindow = 2 * time.Minute
	// setupRetry spaces the attempts of Setup while the cluster forms.
	setupRetry = 100 * time.Millisecond
	// apiTimeout bounds one JetStream API request of Setup.
	apiTimeout = 2 * time.Second
	// setupLogEvery spaces Setup's log lines while it waits.
	setupLogEvery = 5 * time.Second
)

// orderStream is the name of order partition p's stream.
func orderStream(p int) string { return "ORDERS_" + strconv.Itoa(p) }

// Partition returns the order partition of hash h: its first two bytes
// modulo the number of partitions.
func Partition(h common.Hash, partitions int) int {
	return int(uint16(h[0])<<8|uint16(h[1])) % partitions
}

// orderSubject is the subject of order h in partition p.
func orderSubject(p int, h common.Hash) string {
	return "orders." + strconv.Itoa(p) + "." + hex.EncodeToString(h[:])
}

// sharedSubject is the subject of a shared entity ("a/b" → shared.a.b;
// persistence.CheckEntity keeps it within subject characters).
func sharedSubject(entity string) string {
	return "shared." + strings.ReplaceAll(entity, "/", ".")
}

// leaseSubject is the subject of lease name.
func leaseSubject(name string) string { return "lease." + name }

// streamConfigs returns the configuration of every stream.
func (n *Node) streamConfigs() []jetstream.StreamConfig {
	c, parts := n.opts.Cluster, n.OrderPartitions()
	base := jetstream.StreamConfig{
		Retention: jetstream.LimitsPolicy, MaxMsgs: -1, MaxBytes: -1, MaxMsgsPerSubject: -1,
		Storage: jetstream.FileStorage, Replicas: c.Replicas, PersistMode: jetstream.DefaultPersistMode,
		Duplicates: dupWindow, AllowDirect: true, DenyDelete: true, DenyPurge: false,
		Discard: jetstream.DiscardNew,
	}
	out := make([]jetstream.StreamConfig, 0, parts+2)
	for p := range parts {
		s := base
		s.Name, s.Subjects = orderStream(p), []string{"orders." + strconv.Itoa(p) + ".*"}
		s.Description = "order transitions, partition " + strconv.Itoa(p) + " of " + strconv.Itoa(parts)
		s.Metadata = map[string]string{partitionsKey: strconv.Itoa(parts)}
		out = append(out, s)
	}
	shared := base
	shared.Name, shared.Subjects, shared.Description = sharedStream, []string{"shared.>"}, "shared records (accounts, keys, webhook endpoints)"
	out = append(out, shared)
	lease := base
	lease.Name, lease.Subjects, lease.Description = leaseStream, []string{"lease.*"}, "leases (chain lifecycle driver)"
	lease.MaxMsgsPerSubject, lease.AllowMsgTTL, lease.Discard = 1, true, jetstream.DiscardOld
	out = append(out, lease)
	return out
}

// Setup creates or updates every stream, retrying while the cluster forms
// (until ctx ends). It is idempotent: every node runs it at every start. It
// takes the number of order streams the cluster's were made for when
// cluster.orderPartitions is 0, and refuses to run when it is another
// number than theirs: orders are placed by partition, so the count cannot
// change once orders exist.
func (n *Node) Setup(ctx context.Context) error {
	var last error
	var logged time.Time
	for {
		err := n.setupOnce(ctx)
		if err == nil || errors.Is(err, errPartitionsChanged) {
			return err
		}
		last = err
		if time.Since(logged) >= setupLogEvery {
			n.log.Info("natsjs: the streams are not set up yet (waiting for a quorum of the cluster's nodes); retrying", "err", err)
			logged = time.Now()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("natsjs: set up the streams: %w (last error: %v)", ctx.Err(), last)
		case <-time.After(setupRetry):
		}
	}
}

var errPartitionsChanged = errors.New("natsjs: cluster.orderPartitions differs from the order streams the cluster holds")

func (n *Node) setupOnce(ctx context.Context) error {
	if !n.srv.JetStreamIsCurrent() {
		return errors.New("natsjs: no JetStream meta leader yet")
	}
	if err := n.settlePartitions(ctx); err != nil {
		return err
	}
	for _, cfg := range n.streamConfigs() {
		s, err := n.ensureStream(ctx, cfg)
		if err != nil {
			return fmt.Errorf("natsjs: stream %s: %w", cfg.Name, err)
		}
		n.mu.Lock()
		n.streams[cfg.Name] = s
		n.mu.Unlock()
	}
	return nil
}

// ensureStream creates the stream of cfg, or updates it when it differs in
// a setting the engine relies on.
func (n *Node) ensureStream(ctx context.Context, cfg jetstream.StreamConfig) (jetstream.Stream, error) {
	actx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	s, err := n.js.Stream(actx, cfg.Name)
	switch {
	case errors.Is(err, jetstream.ErrStreamNotFound):
		return n.js.CreateStream(actx, cfg)
	case err != nil:
		return nil, err
	case sameStream(s.CachedInfo().Config, cfg):
		return s, nil
	}
	if err := n.samePartitions(s.CachedInfo().Config, cfg); err != nil {
		return nil, err
	}
	n.log.Info("natsjs: updating a stream's settings", "stream", cfg.Name)
	return n.js.UpdateStream(actx, cfg)
}

// samePartitions refuses to update an order stream made for another
// number of partitions than this node's: another node made the cluster's
// streams between this node's reading of them (settlePartitions) and now.
// With cluster.orderPartitions 0 the error is not final, and Setup's next
// attempt takes their number; with another number than theirs it is
// errPartitionsChanged. An update would rewrite the number the streams
// hold and place orders differently on the nodes.
func (n *Node) samePartitions(got, want jetstream.StreamConfig) error {
	theirs, ours := got.Metadata[partitionsKey], want.Metadata[partitionsKey]
	if theirs == "" || theirs == ours {
		return nil
	}
	if n.opts.Cluster.OrderPartitions != 0 {
		return fmt.Errorf("%w: stream %s was made for %s partitions, cluster.orderPartitions is %d (0 takes the streams' number)",
			errPartitionsChanged, got.Name, theirs, n.opts.Cluster.OrderPartitions)
	}
	return fmt.Errorf("natsjs: stream %s was made for %s partitions, not the %s this node read a moment ago; reading them again", got.Name, theirs, ours)
}

// sameStream reports whether the stream has the settings of want that the
// engine relies on.
func sameStream(got, want jetstream.StreamConfig) bool {
	return slices.Equal(got.Subjects, want.Subjects) && got.Replicas == want.Replicas && got.Storage == want.Storage &&
		got.PersistMode == want.PersistMode && got.Duplicates == want.Duplicates && got.AllowDirect == want.AllowDirect &&
		got.DenyDelete == want.DenyDelete && (got.DenyPurge == want.DenyPurge || got.DenyPurge) && got.AllowMsgTTL == want.AllowMsgTTL &&
		got.MaxMsgsPerSubject == want.MaxMsgsPerSubject && got.MaxMsgs == want.MaxMsgs && got.MaxBytes == want.MaxBytes &&
		got.MaxAge == want.MaxAge && got.Metadata[partitionsKey] == want.Metadata[partitionsKey]
}

// defaultPartitions is the number of order streams of a new cluster when
// cluster.orderPartitions is 0. One stream's Raft group coalesces the
// concurrent writes of every node into fewer appends than several groups
// do, which costs each replica less per transition (docs/performance.md).
const defaultPartitions = 1

// OrderPartitions returns the number of order streams: cluster.orderPartitions,
// or when that is 0, the number the cluster's streams were made for, known
// once Setup (or Bootstrap) has read them. Before, it is defaultPartitions.
func (n *Node) OrderPartitions() int {
	if p := n.partitions.Load(); p > 0 {
		return int(p)
	}
	return defaultPartitions
}

// settlePartitions sets the number of order streams from the streams the
// cluster holds (the metadata of ORDERS_0, which exists whenever any order
// stream does): theirs when cluster.orderPartitions is 0, or fails
// (errPartitionsChanged) when cluster.orderPartitions is another number
// than theirs. A cluster without order streams gets the configured number,
// or defaultPartitions.
func (n *Node) settlePartitions(ctx context.Context) error {
	actx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	want := n.opts.Cluster.OrderPartitions
	s, err := n.js.Stream(actx, orderStream(0))
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		n.partitions.Store(int32(cmp.Or(want, defaultPartitions)))
		return nil
	}
	if err != nil {
		return err
	}
	meta := s.CachedInfo().Config.Metadata[partitionsKey]
	got, err := strconv.Atoi(meta)
	if err != nil || got < 1 {
		return fmt.Errorf("%w: stream %s does not say how many partitions it was made for (%q)", errPartitionsChanged, orderStream(0), meta)
	}
	if want != 0 && got != want {
		return fmt.Errorf("%w: stream %s was made for %d partitions, cluster.orderPartitions is %d (0 takes the streams' number)",
			errPartitionsChanged, orderStream(0), got, want)
	}
	n.partitions.Store(int32(got))
	return nil
}

// partitionsKey is the order streams' metadata key holding the number of
// partitions they were made for.
const partitionsKey = "orderengine.partitions"
