package metrics

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

func TestMetricsAreExposed(t *testing.T) {
	m := New()
	m.Answer("fit", "ok", 3*time.Millisecond)
	m.Answer("fit", "ok", 4*time.Millisecond)
	m.Answer("cost", "input_error", time.Millisecond)
	m.SlackError("chat.postMessage", "ratelimited")
	m.Post("daily", "posted")
	m.LedgerWrite("not_saved")
	offers := 33.0
	m.Gauge("gpubot_catalog_offers", "offers in the current catalogue", func() float64 { return offers })
	out := scrape(t, m)
	for _, want := range []string{
		`gpubot_requests_total{intent="fit",outcome="ok"} 2`,
		`gpubot_requests_total{intent="cost",outcome="input_error"} 1`,
		`gpubot_answer_seconds_count{intent="fit"} 2`,
		`gpubot_slack_api_errors_total{kind="ratelimited",method="chat.postMessage"} 1`,
		`gpubot_scheduled_posts_total{kind="daily",outcome="posted"} 1`,
		`gpubot_ledger_writes_total{outcome="not_saved"} 1`,
		`gpubot_catalog_offers 33`,
		`go_goroutines`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	offers = 40
	if !strings.Contains(scrape(t, m), "gpubot_catalog_offers 40") {
		t.Error("gauge not read at scrape time")
	}
}
