package http

import (
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus collectors, in a registry of their
// own (no global state).
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	cache    sync.Map // metricKey → *observer
}

type metricKey struct {
	route, method string
	status        int
}

type observer struct {
	count prometheus.Counter
	hist  prometheus.Observer
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "orderengine_http_requests_total",
			Help: "HTTP requests by route template, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "orderengine_http_request_duration_seconds",
			Help:    "HTTP request latency by route template, method and status.",
			Buckets: []float64{0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5},
		}, []string{"route", "method", "status"}),
	}
	m.reg.MustRegister(m.requests, m.latency,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// observe records one request. route and method must be strings that stay
// valid (route templates and constants), as Prometheus keeps them.
func (m *metrics) observe(route, method string, status int, d time.Duration) {
	k := metricKey{route, method, status}
	o, ok := m.cache.Load(k)
	if !ok {
		code := strconv.Itoa(status)
		o, _ = m.cache.LoadOrStore(k, &observer{
			count: m.requests.WithLabelValues(route, method, code),
			hist:  m.latency.WithLabelValues(route, method, code),
		})
	}
	ob := o.(*observer)
	ob.count.Inc()
	ob.hist.Observe(d.Seconds())
}

func (m *metrics) handler() fiber.Handler {
	return adaptor.HTTPHandler(promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
}
