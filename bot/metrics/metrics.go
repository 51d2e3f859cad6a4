// Package metrics defines gpubot's Prometheus metrics on a registry the
// caller owns (no global default registry), and serves them.
package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the bot's counters, histograms and gauges.
type Metrics struct {
	Registry *prometheus.Registry

	requests     *prometheus.CounterVec
	latency      *prometheus.HistogramVec
	slackErrors  *prometheus.CounterVec
	posts        *prometheus.CounterVec
	ledgerWrites *prometheus.CounterVec
}

// New registers every metric on a fresh registry, with the Go runtime and
// process collectors.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := &Metrics{
		Registry: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gpubot_requests_total", Help: "Answers given, by intent and outcome (ok, input_error, not_saved, error).",
		}, []string{"intent", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "gpubot_answer_seconds", Help: "Time to compute an answer (parse, engine, render), by intent.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1},
		}, []string{"intent"}),
		slackErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gpubot_slack_api_errors_total", Help: "Failed Slack calls by method and kind (ratelimited, server, refused, network).",
		}, []string{"method", "kind"}),
		posts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gpubot_scheduled_posts_total", Help: "Scheduled post runs by kind (daily, recap, refresh) and outcome.",
		}, []string{"kind", "outcome"}),
		ledgerWrites: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gpubot_ledger_writes_total", Help: "Spend ledger writes by outcome (ok, not_saved).",
		}, []string{"outcome"}),
	}
	reg.MustRegister(m.requests, m.latency, m.slackErrors, m.posts, m.ledgerWrites)
	return m
}

// Answer records one answer; it fits (*bot.Bot).Observe.
func (m *Metrics) Answer(intent, outcome string, took time.Duration) {
	m.requests.WithLabelValues(intent, outcome).Inc()
	m.latency.WithLabelValues(intent).Observe(took.Seconds())
}

// SlackError records a failed Slack call; it fits slackpost.Options.OnError.
func (m *Metrics) SlackError(method, kind string) {
	m.slackErrors.WithLabelValues(method, kind).Inc()
}

// Post records a scheduled run.
func (m *Metrics) Post(kind, outcome string) { m.posts.WithLabelValues(kind, outcome).Inc() }

// LedgerWrite records a ledger write.
func (m *Metrics) LedgerWrite(outcome string) { m.ledgerWrites.WithLabelValues(outcome).Inc() }

// Gauge registers a gauge whose value is read at scrape time, e.g. the
// catalogue's age or offer count.
func (m *Metrics) Gauge(name, help string, value func() float64) {
	m.Registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, value))
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{Registry: m.Registry})
}
