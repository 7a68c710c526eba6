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

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/internal/buildinfo"
)

// metrics are the server's Prometheus collectors, in a registry of their
// own (no global state).
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	errors   *prometheus.CounterVec
	streams  *prometheus.GaugeVec
	cache    sync.Map // metricKey → *observer
	errCache sync.Map // errorKey → prometheus.Counter
}

// errorKey names one error series: route template, method and error code
// (all from fixed sets: templates, methods, the catalog).
type errorKey struct {
	route, method string
	code          orderengine.Code
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
	m.errors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "orderengine_http_errors_total",
		Help: "HTTP error answers by route template, method and error code (GET /v1/errors), e.g. the refusals of POST /v1/orders.",
	}, []string{"route", "method", "code"})
	m.streams = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "orderengine_http_streams_open",
		Help: "Server-Sent Events streams open now, by route template.",
	}, []string{"route"})
	build := buildinfo.Get()
	buildInfo := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "orderengine_build_info",
		Help: "The running build: always 1, labelled with its version, commit and Go release (as in GET /v1/config).",
	}, []string{"version", "commit", "goversion"})
	buildInfo.WithLabelValues(build.Version, build.Commit, build.GoVersion).Set(1)
	m.reg.MustRegister(m.requests, m.latency, m.errors, m.streams, buildInfo,
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

// refused counts one error answer. route and method must stay valid, as
// in observe.
func (m *metrics) refused(route, method string, code orderengine.Code) {
	k := errorKey{route, method, code}
	c, ok := m.errCache.Load(k)
	if !ok {
		c, _ = m.errCache.LoadOrStore(k, m.errors.WithLabelValues(route, method, string(code)))
	}
	c.(prometheus.Counter).Inc()
}

func (m *metrics) handler() fiber.Handler {
	return adaptor.HTTPHandler(promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
}

var (
	descIndexerHead    = prometheus.NewDesc("orderengine_indexer_head_block", "Latest head block number the chain node reported.", nil, nil)
	descIndexerCursor  = prometheus.NewDesc("orderengine_indexer_cursor_block", "Last block the indexer applied.", nil, nil)
	descIndexerLag     = prometheus.NewDesc("orderengine_indexer_lag_blocks", "Head minus cursor (includes chain.confirmations).", nil, nil)
	descIndexerReorgs  = prometheus.NewDesc("orderengine_indexer_reorged_blocks_total", "Blocks the indexer rewound on reorgs since start.", nil, nil)
	descIndexerFailing = prometheus.NewDesc("orderengine_indexer_failing", "1 while the indexer's latest poll of the node failed, else 0.", nil, nil)
	descReady          = prometheus.NewDesc("orderengine_ready", "1 when GET /readyz answers 200, else 0.", nil, nil)
)

// chainCollector exports the indexer's progress (nothing before the
// lifecycle runs) and the readiness verdict, read at each scrape.
type chainCollector struct{ s *Server }

func (c chainCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descIndexerHead, descIndexerCursor, descIndexerLag, descIndexerReorgs, descIndexerFailing, descReady} {
		ch <- d
	}
}

func (c chainCollector) Collect(ch chan<- prometheus.Metric) {
	r, err := c.s.readiness()
	ready := 1.0
	if err != nil {
		ready = 0
	}
	ch <- prometheus.MustNewConstMetric(descReady, prometheus.GaugeValue, ready)
	st := r.Indexer
	if st == nil {
		return
	}
	gauge := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	gauge(descIndexerHead, float64(st.Head))
	gauge(descIndexerCursor, float64(st.Cursor))
	gauge(descIndexerLag, float64(st.LagBlocks))
	ch <- prometheus.MustNewConstMetric(descIndexerReorgs, prometheus.CounterValue, float64(st.Reorgs))
	failing := 0.0
	if st.Failing {
		failing = 1
	}
	gauge(descIndexerFailing, failing)
}

// streamOpened and streamClosed count the open streams of a route.
func (m *metrics) streamOpened(route string) { m.streams.WithLabelValues(route).Inc() }
func (m *metrics) streamClosed(route string) { m.streams.WithLabelValues(route).Dec() }
