package phrase

import (
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Outcomes of one rephrase, the values of llm_calls_total's outcome label.
const (
	OutcomeOK          = "ok"              // rephrased and passed the guard
	OutcomeRejected    = "rejected"        // rephrased, failed the guard
	OutcomeTimeout     = "timeout"         // no answer within the deadline
	OutcomeRateLimited = "rate_limited"    // 429, after at most one retry
	OutcomeHTTPError   = "http_error"      // any other non-2xx status
	OutcomeBadResponse = "bad_response"    // malformed JSON, no choices, empty text
	OutcomeError       = "error"           // transport and other errors
	OutcomeSkippedBusy = "skipped_busy"    // not tried: every rephrasing slot was taken
	OutcomeSkippedOpen = "skipped_breaker" // not tried: the circuit breaker is open
)

// Metrics counts LLM calls and guard rejections. A nil *Metrics records
// nothing.
type Metrics struct {
	calls      *prometheus.CounterVec
	rejections *prometheus.CounterVec
	latency    prometheus.Histogram
	open       prometheus.Gauge
}

// NewMetrics makes the phrasing metrics and registers them on reg (none when
// reg is nil):
//
//	llm_calls_total{outcome}             rephrase attempts by outcome
//	llm_guard_rejections_total{reason}   guard failures by reason kind
//	llm_latency_seconds                  time spent waiting for the endpoint
//	llm_breaker_open                     1 while rephrasing is paused after repeated endpoint failures
//
// Registering twice on one registry reuses the collectors already there.
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "llm_calls_total",
			Help: "LLM rephrase attempts by outcome (ok, rejected, timeout, rate_limited, http_error, bad_response, error; skipped_busy and skipped_breaker were not sent).",
		}, []string{"outcome"}),
		rejections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "llm_guard_rejections_total",
			Help: "Reasons the number guard rejected an LLM rephrase (one count per reason).",
		}, []string{"reason"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "llm_latency_seconds",
			Help:    "Time spent waiting for the LLM endpoint per rephrase, retries included.",
			Buckets: []float64{0.1, 0.25, 0.5, 1, 2, 4, 8, 16},
		}),
		open: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "llm_breaker_open",
			Help: "1 while LLM rephrasing is skipped because the endpoint failed several times in a row (circuit breaker open).",
		}),
	}
	for _, o := range []string{OutcomeOK, OutcomeRejected, OutcomeTimeout, OutcomeRateLimited, OutcomeHTTPError, OutcomeBadResponse, OutcomeError, OutcomeSkippedBusy, OutcomeSkippedOpen} {
		m.calls.WithLabelValues(o)
	}
	for _, r := range []string{ReasonNumber, ReasonUnit, ReasonEssential, ReasonName, ReasonDate, ReasonEmpty, ReasonClaim, ReasonHeadline} {
		m.rejections.WithLabelValues(r)
	}
	if reg == nil {
		return m, nil
	}
	var err error
	m.calls, err = register(reg, m.calls)
	if err != nil {
		return nil, err
	}
	m.rejections, err = register(reg, m.rejections)
	if err != nil {
		return nil, err
	}
	m.latency, err = register(reg, m.latency)
	if err != nil {
		return nil, err
	}
	m.open, err = register(reg, m.open)
	if err != nil {
		return nil, err
	}
	return m, nil
}

func register[C prometheus.Collector](reg prometheus.Registerer, c C) (C, error) {
	err := reg.Register(c)
	if err == nil {
		return c, nil
	}
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		if old, ok := are.ExistingCollector.(C); ok {
			return old, nil
		}
	}
	return c, err
}

func (m *Metrics) observe(outcome string, d time.Duration, reasons []string) {
	if m == nil {
		return
	}
	m.calls.WithLabelValues(outcome).Inc()
	if d > 0 {
		m.latency.Observe(d.Seconds())
	}
	for _, r := range reasons {
		m.rejections.WithLabelValues(reasonKind(r)).Inc()
	}
}

func (m *Metrics) breakerOpen(open bool) {
	if m == nil {
		return
	}
	if open {
		m.open.Set(1)
	} else {
		m.open.Set(0)
	}
}
