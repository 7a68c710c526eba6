package persistence

import (
	"github.com/prometheus/client_golang/prometheus"
)

// newFsyncHistogram times the syncs of the write-ahead log: every durable
// answer (an order 201, a cancel 200) waits for one, so its latency is the
// floor of the submit latency and a slowing disk shows here first.
func newFsyncHistogram() prometheus.Histogram {
	return prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "orderengine_pebble_wal_fsync_duration_seconds",
		Help:    "Duration of the syncs of Pebble's write-ahead log.",
		Buckets: []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5},
	})
}

var (
	descStoreFailed = prometheus.NewDesc("orderengine_storage_failed",
		"1 once a write or sync of the write-ahead log failed (fail-stop: the process exits), else 0.", nil, nil)
	descDebt = prometheus.NewDesc("orderengine_pebble_compaction_debt_bytes",
		"Pebble's estimate of the bytes to compact for the LSM to reach a stable state.", nil, nil)
	descCompacting = prometheus.NewDesc("orderengine_pebble_compactions_in_progress",
		"Pebble compactions running now.", nil, nil)
	descCompactions = prometheus.NewDesc("orderengine_pebble_compactions_total",
		"Pebble compactions run since the store opened.", nil, nil)
	descReadAmp = prometheus.NewDesc("orderengine_pebble_read_amplification",
		"Pebble's read amplification: L0 sublevels plus the non-empty lower levels (a rising value means compactions are behind).", nil, nil)
	descL0Sublevels = prometheus.NewDesc("orderengine_pebble_l0_sublevels",
		"Sublevels of Pebble's level 0 (writes are throttled when they pile up).", nil, nil)
	descDisk = prometheus.NewDesc("orderengine_pebble_disk_usage_bytes",
		"Disk space used by the store (tables, write-ahead log, manifests).", nil, nil)
	descWALBytes = prometheus.NewDesc("orderengine_pebble_wal_written_bytes_total",
		"Bytes written to Pebble's write-ahead log since the store opened.", nil, nil)
	descMemtable = prometheus.NewDesc("orderengine_pebble_memtable_bytes",
		"Bytes allocated by Pebble's memtables.", nil, nil)
)

// Collector returns the store's metrics for a Prometheus registry: the
// write-ahead log's fsync latency, the fail-stop flag and Pebble's health
// (compaction debt, read amplification, L0 sublevels, disk use). Pebble's
// figures are read at each scrape (pebble.DB.Metrics), never on a write.
func (s *Store) Collector() prometheus.Collector { return storeCollector{s} }

type storeCollector struct{ s *Store }

func (c storeCollector) Describe(ch chan<- *prometheus.Desc) {
	c.s.watch.fsync.Describe(ch)
	for _, d := range []*prometheus.Desc{descStoreFailed, descDebt, descCompacting, descCompactions, descReadAmp, descL0Sublevels, descDisk, descWALBytes, descMemtable} {
		ch <- d
	}
}

func (c storeCollector) Collect(ch chan<- prometheus.Metric) {
	c.s.watch.fsync.Collect(ch)
	failed := 0.0
	if c.s.Err() != nil {
		failed = 1
	}
	ch <- prometheus.MustNewConstMetric(descStoreFailed, prometheus.GaugeValue, failed)
	if c.s.enter() != nil {
		return // closing: Pebble's metrics are gone with it
	}
	defer c.s.exit()
	m := c.s.db.Metrics()
	gauge := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	gauge(descDebt, float64(m.Compact.EstimatedDebt))
	gauge(descCompacting, float64(m.Compact.NumInProgress))
	ch <- prometheus.MustNewConstMetric(descCompactions, prometheus.CounterValue, float64(m.Compact.Count))
	gauge(descReadAmp, float64(m.ReadAmp()))
	gauge(descL0Sublevels, float64(m.Levels[0].Sublevels))
	gauge(descDisk, float64(m.DiskSpaceUsage()))
	ch <- prometheus.MustNewConstMetric(descWALBytes, prometheus.CounterValue, float64(m.WAL.BytesWritten))
	gauge(descMemtable, float64(m.MemTable.Size))
}
