package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/issuefields/issuefields/example/internal/statuswriter"
	"github.com/issuefields/issuefields/example/internal/toolpath"
	"github.com/issuefields/issuefields/webhook"
)

// durationBuckets are the upper bounds, in seconds, of the request duration
// histogram: from 100µs, as a list from memory takes on loopback, to 10s.
var durationBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// Metrics are the counts of one server's requests and webhook deliveries,
// which Serve shows at /metrics in Prometheus's text format, and at
// /debug/vars. They live in a registry of their own, so that servers in one
// process count apart.
type Metrics struct {
	registry     *prometheus.Registry
	routes       *routeNames
	requests     *prometheus.CounterVec
	durations    *prometheus.HistogramVec
	inFlight     prometheus.Gauge
	refusals     prometheus.Counter
	serverErrors prometheus.Counter
	deliveries   *deliveryCollector
}

// New returns Metrics with no request counted, which name the routes of
// the API mounted at prefix ("" for the root) and show the deliveries of
// hooks.
func New(prefix string, hooks *webhook.Notifier) *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		routes:   newRouteNames(prefix),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "issuefields_requests_total",
			Help: "Requests answered, by route and status.",
		}, []string{"route", "status"}),
		durations: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "issuefields_request_duration_seconds",
			Help:    "How long requests took to answer, by route.",
			Buckets: durationBuckets,
		}, []string{"route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "issuefields_requests_in_flight",
			Help: "Requests being served now.",
		}),
		refusals: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "issuefields_write_limit_refusals_total",
			Help: "Writes refused by the secondary rate limit (422 with Retry-After).",
		}),
		serverErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "issuefields_server_errors_total",
			Help: "Requests answered 500 or 503: a fault of the store, or the store being unavailable.",
		}),
		deliveries: &deliveryCollector{hooks: hooks},
	}
	m.registry.MustRegister(m.requests, m.durations, m.inFlight, m.refusals, m.serverErrors, m.deliveries,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Count returns h with each request counted by its route and status, timed,
// and counted in flight while it is served. A 422 with Retry-After counts
// as a refusal of the secondary rate limit on writes, and a 500 or a 503 as
// a server error. A request for the tools' event stream is served and not
// counted at all: it lasts as long as the page that opened it, so it would
// hold a request in flight and add a duration of minutes.
func (m *Metrics) Count(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == toolpath.Events {
			h.ServeHTTP(w, r)
			return
		}
		m.inFlight.Inc()
		defer m.inFlight.Dec()
		route, start := m.routes.name(r), time.Now()
		sw := statuswriter.New(w)
		h.ServeHTTP(sw, r)
		status := sw.Status()
		m.durations.WithLabelValues(route).Observe(time.Since(start).Seconds())
		m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
		switch {
		case status == http.StatusUnprocessableEntity && w.Header().Get("Retry-After") != "":
			m.refusals.Inc()
		case status == http.StatusInternalServerError || status == http.StatusServiceUnavailable:
			m.serverErrors.Inc()
		}
	})
}

// handler returns the handler of /metrics.
func (m *Metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}
