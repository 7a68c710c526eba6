package app

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/orderengine/orderengine/cluster/natsjs"
)

// The chain lifecycle's driver. In a cluster every node indexes the shared
// chain into its own store and its pairs decide at every block, but only
// the holder of the JetStream lease "lifecycle" (cluster.leaseTTL) turns
// chain facts and trigger decisions into order transitions (the
// projector, the pairs' decided transitions) and runs the keeper. A node
// that becomes the holder projects every block since it last drove
// (chainsync.ProjectorOptions.Drive). Safety does not rest on the lease:
// every transition is conditional on the order's version and a fill or
// on-chain cancel is recorded once per (tx hash, log index) (the order
// ledger). One node (`make run`) has no lease and always drives.
// docs/cluster.md, "The chain lifecycle's driver".

// lifecycleLease names the lease on the LEASES stream.
const lifecycleLease = "lifecycle"

// Driving reports whether this node drives the chain lifecycle now: it
// holds the lease (always true on one node).
func (s *System) Driving() bool { return s.seams.drive == nil || s.seams.drive() }

// startLease runs holdLease until stopLease (Start calls it when the node
// has a chain lifecycle). The loop has its own context: Close stops it
// only once the lifecycle's loops have stopped, so the node keeps its term
// while they finish and releases it right after.
func (s *System) startLease() {
	c := s.cluster
	ctx, cancel := context.WithCancel(context.Background())
	c.holdStop, c.holdDone = cancel, make(chan struct{})
	go func() {
		defer close(c.holdDone)
		s.holdLease(ctx)
	}()
}

// stopLease stops the lease loop and releases the lease (Close calls it
// after the lifecycle's loops have stopped), so a standby takes over
// without waiting for the TTL.
func (s *System) stopLease() {
	c := s.cluster
	if c == nil || c.holdStop == nil {
		return
	}
	c.holdStop()
	<-c.holdDone
	s.releaseLease()
}

// holdLease keeps trying to hold the lease until ctx ends. A node takes it
// only while it is fit to drive (fitToDrive), and a holder unfit for a
// whole TTL releases it. Becoming the holder wakes the projector, which
// projects what the records may lack; losing it is logged (the parts have
// stopped already: they ask the lease).
func (s *System) holdLease(ctx context.Context) {
	c := s.cluster
	c.lease.Hold(ctx, natsjs.HoldOptions{
		May: s.fitToDrive,
		Log: s.Log,
		Changed: func(held bool) {
			if held {
				s.Log.Info("cluster: this node drives the chain lifecycle", "node", s.Config.Cluster.Node, "term", c.lease.Seq())
				s.Projector.Wake()
				return
			}
			s.Log.Info("cluster: this node no longer drives the chain lifecycle", "node", s.Config.Cluster.Node)
		},
	})
}

// fitToDrive reports whether this node could drive the chain lifecycle
// well: it has applied the order streams and reaches a quorum, and its
// indexer follows the chain (its latest poll worked and it is within
// chain.confirmations + lifecycle.readyMaxLag blocks of the head): what
// GET /readyz checks of them.
func (s *System) fitToDrive() bool {
	if s.cluster.node.Fit() != nil {
		return false
	}
	st := s.indexerStatus()
	return st == nil || (!st.Failing && st.LagBlocks <= s.Config.Chain.Confirmations+s.Config.Lifecycle.Resolved().ReadyMaxLag)
}

// releaseLease ends this node's term at once (its term ends with the TTL
// when the release fails).
func (s *System) releaseLease() {
	l := s.cluster.lease
	if l.Seq() == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := l.Release(ctx); err != nil {
		s.Log.Warn("cluster: releasing the chain lifecycle's lease failed; its term ends with its TTL", "err", err)
		return
	}
	s.Log.Info("cluster: released the chain lifecycle's lease", "node", s.Config.Cluster.Node)
}

var descDriver = prometheus.NewDesc("orderengine_lifecycle_driver",
	"1 when this node drives the chain lifecycle (in a cluster: holds the lease; one node always does), else 0.", nil, nil)

// driverCollector exports orderengine_lifecycle_driver.
type driverCollector struct{ s *System }

func (c driverCollector) Describe(ch chan<- *prometheus.Desc) { ch <- descDriver }

func (c driverCollector) Collect(ch chan<- prometheus.Metric) {
	v := 0.0
	if c.s.Driving() {
		v = 1
	}
	ch <- prometheus.MustNewConstMetric(descDriver, prometheus.GaugeValue, v)
}
