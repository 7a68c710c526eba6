package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/orderengine/orderengine/cluster/natsjs"
	"github.com/orderengine/orderengine/persistence"
	"github.com/orderengine/orderengine/persistence/orderstore"
)

// Cluster mode's durability (cfg.Cluster.Enabled): NATS JetStream embedded
// in this node (cluster/natsjs). The order registry appends to the
// JetStream journal, with no commit-time feed: the materialiser, which
// applies every node's transitions to this node's store, is the one source
// of the engine's change feed (orderChanged), so an order reaches the
// pairs and makers of every node once, whichever node accepted it. Account
// data goes through the shared-records log. One node (`make run`) builds
// none of it.

// clusterJS is the node's JetStream part.
type clusterJS struct {
	node    *natsjs.Node
	mat     *natsjs.Materialiser
	journal *natsjs.Journal
	shared  *natsjs.SharedLog
	// lease elects the chain lifecycle's driver; holdStop and holdDone
	// stop its loop (lease.go).
	lease    *natsjs.Lease
	holdStop context.CancelFunc
	holdDone chan struct{}
	// compactor bounds the streams (compact.go of natsjs).
	compactor *natsjs.Compactor
}

// openClusterStore starts the embedded server (it joins its peers in the
// background) and opens the store, after finishing a snapshot's install
// that a previous start left half done. When the store is empty, or
// behind what the compaction removed from the streams, it waits (within
// ctx) for the cluster to tell, receives a ready peer's snapshot,
// installs it and opens that instead (natsjs bootstrap.go).
func (s *System) openClusterStore(ctx context.Context) (store *persistence.Store, err error) {
	n, err := natsjs.Start(natsjs.Options{Cluster: s.Config.Cluster, DataDir: s.Config.DataDir, Log: s.Log})
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = n.Close()
		}
	}()
	dir := s.Config.DataDir
	shared := natsjs.NewSharedLog(n)
	for {
		manifest, installed, err := persistence.InstallSnapshot(dir)
		if err != nil {
			return nil, err
		}
		if installed {
			var man natsjs.SnapshotManifest
			_ = json.Unmarshal(manifest, &man)
			s.Log.Info("cluster: installed a peer's snapshot of its store", "peer", man.Node, "id", man.ID, "positions", man.Positions)
		}
		store, err := persistence.OpenWith(dir, persistence.Options{FS: s.opts.FS, Log: s.Log, Shared: shared, Migrations: storeMigrations})
		if err != nil {
			return nil, err
		}
		local := natsjs.LocalStore{Dir: dir}
		local.Positions, err = store.Positions()
		if err == nil {
			local.Restored, err = store.RestoredFrom()
		}
		if err == nil {
			var fetched bool
			fetched, err = n.Bootstrap(ctx, local)
			if err == nil && !fetched {
				s.cluster = &clusterJS{node: n, shared: shared}
				return store, nil
			}
		}
		if cerr := store.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("app: cluster: %w", err)
		}
	}
}

// openClusterJS builds the journal and the materialiser over the store,
// and the lifecycle lease, on the node openClusterStore started (the
// store took the shared log when it opened). Nothing is replicated before
// Start's startClusterJS.
func (s *System) openClusterJS() error {
	if s.cluster == nil {
		return nil
	}
	c := s.cluster
	n := c.node
	c.mat = natsjs.NewMaterialiser(n, s.Orders, s.orderChanged)
	c.journal = natsjs.NewJournal(n, s.Orders, c.mat, s.Clock.Now)
	c.lease = n.Lease(lifecycleLease, s.Config.Cluster.Node, s.Config.Cluster.LeaseTTL)
	return nil
}

// orderApplied is the order registry's Applied in a cluster (seams):
// after a request this node made changed an order, possibly on another
// node's actor, it waits until this node's store holds that version, for
// up to the write timeout (the change is durable either way; past it this
// node reads it a little later), so that a client reads its own cancel on
// the node that answered it.
func (s *System) orderApplied(ctx context.Context, rec *orderstore.Record) {
	deadline := time.Now().Add(appliedWait)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		if got, ok, err := s.Orders.Load(rec.Hash); err != nil || ok && got.Version >= rec.Version {
			return
		}
		if time.Now().After(deadline) {
			s.Log.Warn("cluster: an order's change is not applied on this node yet", "hash", rec.Hash.Hex(), "version", rec.Version)
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// appliedWait bounds orderApplied's wait.
const appliedWait = 5 * time.Second

// startClusterJS sets the streams up (waiting, within ctx, for a quorum of
// the cluster's nodes), then starts applying the shared log and the order
// streams to the store from where it stands. Start calls it after the
// stored open orders reached the actors and before the listeners open;
// GET /readyz answers 503 until the node has caught up (clusterReady).
func (s *System) startClusterJS(ctx context.Context) error {
	if s.cluster == nil {
		return nil
	}
	c := s.cluster
	s.Log.Info("cluster: joining", "node", s.Config.Cluster.Node, "routes", s.Config.Cluster.NATS.Routes)
	if err := c.node.Setup(ctx); err != nil {
		return fmt.Errorf("app: cluster: %w", err)
	}
	restored, err := s.Store.RestoredFrom()
	if err != nil {
		return fmt.Errorf("app: cluster: %w", err)
	}
	if err := c.node.ClaimRestore(ctx, restored); err != nil {
		return fmt.Errorf("app: cluster: %w", err)
	}
	c.compactor = natsjs.NewCompactor(c.node, s.Store, s.Orders, natsjs.CompactOptions{
		Retention: s.Config.Cluster.Retention, Every: s.Config.Cluster.CompactionInterval, TTL: s.Config.Cluster.MembershipTTL,
		Fit: func() bool { return c.node.Fit() == nil }, Log: s.Log})
	if err := c.compactor.Report(ctx); err != nil {
		return fmt.Errorf("app: cluster: report the applied positions: %w", err)
	}
	if err := c.shared.Start(ctx, s.Store); err != nil {
		return fmt.Errorf("app: cluster: shared records: %w", err)
	}
	if err := c.mat.Start(ctx); err != nil {
		return fmt.Errorf("app: cluster: order streams: %w", err)
	}
	if err := s.Webhooks.StartCluster(ctx); err != nil {
		return fmt.Errorf("app: cluster: webhooks: %w", err)
	}
	c.node.StartProbe()
	if err := c.node.ServeSnapshots(s.Store); err != nil {
		return fmt.Errorf("app: cluster: %w", err)
	}
	if err := c.compactor.Start(ctx); err != nil {
		return fmt.Errorf("app: cluster: compaction: %w", err)
	}
	s.Log.Info("cluster: joined; applying the streams", "node", s.Config.Cluster.Node)
	return nil
}

// ClusterNode returns the node's embedded JetStream server (nil on one
// node).
func (s *System) ClusterNode() *natsjs.Node {
	if s.cluster == nil {
		return nil
	}
	return s.cluster.node
}

// storeBackup is the admin API's store backup (GET /admin/v1/backup):
// persistence.Backup of this engine's store, with the webhook secrets'
// key file when it is the data folder's default one (a single node's).
// A cluster node backs up only while it is ready: its store then holds
// what the streams had acknowledged a moment ago.
func (s *System) storeBackup(ctx context.Context, w io.Writer) (any, error) {
	h := persistence.BackupHeader{}
	if s.cluster != nil {
		if err := s.cluster.node.Ready(); err != nil {
			return nil, err
		}
		h.Cluster, h.Node, h.OrderPartitions = s.Config.Cluster.Name, s.Config.Cluster.Node, s.cluster.node.OrderPartitions()
	}
	extra := map[string]string{}
	if s.Config.Webhooks.SecretKeyFile == "" && s.cluster == nil {
		extra[webhookKeyFile] = filepath.Join(s.Config.DataDir, webhookKeyFile)
	}
	return s.Store.Backup(w, s.Config.DataDir, h, extra)
}

// webhookKeyFile is the webhook secrets' key file of a single node's data
// folder (actors/webhook).
const webhookKeyFile = "webhook-secrets.key"
