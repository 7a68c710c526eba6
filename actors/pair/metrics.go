package pair

import (
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the pairs' Prometheus metrics: how long a tick takes, how
// many orders the pairs hold open and how many the ticks decided.
type metrics struct {
	duration prometheus.Histogram
	apply    prometheus.Histogram
	open     atomic.Int64
	ticks    atomic.Uint64
	decided  atomic.Uint64
}

func newMetrics() metrics {
	buckets := []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}
	return metrics{
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "orderengine_trigger_evaluation_duration_seconds",
			Help:    "Time of one trigger evaluation: every pair decides the open orders one block's time and oracle price may change, and the executable orders are published.",
			Buckets: buckets,
		}),
		apply: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "orderengine_trigger_apply_duration_seconds",
			Help:    "Time to send one evaluation's decided transitions (expiries, triggers, stalled flags) to the order actors, when it decided any.",
			Buckets: buckets,
		}),
	}
}

// evaluated records a tick that took d and decided decided orders, after
// which the pairs held open orders.
func (m *metrics) evaluated(d time.Duration, open, decided int) {
	m.duration.Observe(d.Seconds())
	m.ticks.Add(1)
	m.decided.Add(uint64(decided))
	m.open.Store(int64(open))
}

// applied records the sending of a tick's transitions, which took d.
func (m *metrics) applied(d time.Duration) { m.apply.Observe(d.Seconds()) }

var (
	descOpen    = prometheus.NewDesc("orderengine_orders_open", "Open orders (pending or active) held by the pair actors at their last evaluation.", nil, nil)
	descTicks   = prometheus.NewDesc("orderengine_trigger_evaluations_total", "Trigger evaluations run (one per applied block).", nil, nil)
	descDecided = prometheus.NewDesc("orderengine_trigger_orders_decided_total", "Open orders decided by the trigger evaluations (an order whose decision a block cannot change is not decided again).", nil, nil)
)

// Collector returns the pairs' metrics for a Prometheus registry:
// orderengine_trigger_evaluation_duration_seconds,
// orderengine_trigger_apply_duration_seconds,
// orderengine_trigger_evaluations_total, orderengine_trigger_orders_decided_total
// and orderengine_orders_open.
func (p *Pairs) Collector() prometheus.Collector { return collector{p} }

type collector struct{ p *Pairs }

func (c collector) Describe(ch chan<- *prometheus.Desc) {
	c.p.metrics.duration.Describe(ch)
	c.p.metrics.apply.Describe(ch)
	ch <- descOpen
	ch <- descTicks
	ch <- descDecided
}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	m := &c.p.metrics
	m.duration.Collect(ch)
	m.apply.Collect(ch)
	ch <- prometheus.MustNewConstMetric(descOpen, prometheus.GaugeValue, float64(m.open.Load()))
	ch <- prometheus.MustNewConstMetric(descTicks, prometheus.CounterValue, float64(m.ticks.Load()))
	ch <- prometheus.MustNewConstMetric(descDecided, prometheus.CounterValue, float64(m.decided.Load()))
}
