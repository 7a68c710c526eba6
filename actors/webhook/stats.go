package webhook

import (
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/orderengine/orderengine/api"
)

type counters struct {
	attempted, succeeded, failed, retried, abandoned, disabledTotal atomic.Uint64
	// resent counts requests sent again after a stale connection (client.go).
	resent      atomic.Uint64
	disabledNow atomic.Int64
	latency     prometheus.Histogram
}

func newCounters() *counters {
	return &counters{latency: prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "orderengine_webhook_delivery_latency_seconds",
		Help:    "Time from enqueue (fan-out) to a successful delivery.",
		Buckets: []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 10, 60, 600, 3600, 86400},
	})}
}

// record counts attempt number n and its outcome.
func (c *counters) record(n int, ok, abandoned bool, latency time.Duration) {
	c.attempted.Add(1)
	if n > 1 {
		c.retried.Add(1)
	}
	if ok {
		c.succeeded.Add(1)
		if latency >= 0 {
			c.latency.Observe(latency.Seconds())
		}
	} else {
		c.failed.Add(1)
	}
	if abandoned {
		c.abandoned.Add(1)
	}
}

// Stats returns the counters (GET /v1/stats shows them under "webhooks").
func (m *Manager) Stats() api.WebhookStats {
	c := m.stats
	return api.WebhookStats{
		Attempted:     c.attempted.Load(),
		Succeeded:     c.succeeded.Load(),
		Failed:        c.failed.Load(),
		Retried:       c.retried.Load(),
		Resent:        c.resent.Load(),
		Abandoned:     c.abandoned.Load(),
		DisabledTotal: c.disabledTotal.Load(),
		Disabled:      c.disabledNow.Load(),
	}
}

// Collector returns the Prometheus collector of the webhook metrics, for the
// server's registry.
func (m *Manager) Collector() prometheus.Collector { return collector{m} }

type collector struct{ m *Manager }

var (
	descAttempted = prometheus.NewDesc("orderengine_webhook_deliveries_attempted_total", "Webhook delivery attempts.", nil, nil)
	descSucceeded = prometheus.NewDesc("orderengine_webhook_deliveries_succeeded_total", "Webhook deliveries answered 2xx.", nil, nil)
	descFailed    = prometheus.NewDesc("orderengine_webhook_deliveries_failed_total", "Failed webhook delivery attempts.", nil, nil)
	descRetried   = prometheus.NewDesc("orderengine_webhook_deliveries_retried_total", "Webhook delivery attempts that were retries.", nil, nil)
	descResent    = prometheus.NewDesc("orderengine_webhook_requests_resent_total",
		"Webhook requests sent again at once on a new connection after a reused one was closed by the receiver before any answer (not failed attempts).", nil, nil)
	descAbandoned = prometheus.NewDesc("orderengine_webhook_deliveries_abandoned_total", "Webhook deliveries that failed every scheduled attempt.", nil, nil)
	descDisTotal  = prometheus.NewDesc("orderengine_webhook_endpoints_disabled_total", "Webhook endpoints disabled by the failure horizon.", nil, nil)
	descDisabled  = prometheus.NewDesc("orderengine_webhook_endpoints_disabled", "Webhook endpoints disabled now.", nil, nil)
	descOutstand  = prometheus.NewDesc("orderengine_webhook_deliveries_outstanding",
		"Webhook deliveries fanned out and not yet delivered nor given up (counted up to 1,000,000 at each scrape).", nil, nil)
	descUnfanned = prometheus.NewDesc("orderengine_webhook_events_unfanned",
		"Events not yet fanned out to endpoints (counted up to 1,000,000 at each scrape).", nil, nil)
)

// backlogCap bounds the keys a scrape counts for the backlog gauges.
const backlogCap = 1_000_000

// Describe implements prometheus.Collector.
func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descAttempted, descSucceeded, descFailed, descRetried, descResent, descAbandoned, descDisTotal, descDisabled, descOutstand, descUnfanned} {
		ch <- d
	}
	c.m.stats.latency.Describe(ch)
}

// Collect implements prometheus.Collector.
func (c collector) Collect(ch chan<- prometheus.Metric) {
	s := c.m.Stats()
	for _, v := range []struct {
		d *prometheus.Desc
		n uint64
	}{{descAttempted, s.Attempted}, {descSucceeded, s.Succeeded}, {descFailed, s.Failed}, {descRetried, s.Retried}, {descResent, s.Resent}, {descAbandoned, s.Abandoned}, {descDisTotal, s.DisabledTotal}} {
		ch <- prometheus.MustNewConstMetric(v.d, prometheus.CounterValue, float64(v.n))
	}
	ch <- prometheus.MustNewConstMetric(descDisabled, prometheus.GaugeValue, float64(s.Disabled))
	c.m.stats.latency.Collect(ch)
	// The backlog is read from the store at each scrape (keys only), so
	// it is right across restarts and costs nothing on the delivery path.
	if out, ok, err := c.m.store.Backlog(backlogCap); err == nil && ok {
		ch <- prometheus.MustNewConstMetric(descOutstand, prometheus.GaugeValue, float64(out))
	}
	if unfanned, ok, err := c.m.outbox.Unfanned(backlogCap); err == nil && ok {
		ch <- prometheus.MustNewConstMetric(descUnfanned, prometheus.GaugeValue, float64(unfanned))
	}
}
