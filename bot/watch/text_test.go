package watch

import (
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/knowledge"
)

// Alerts name providers as answers do: "SaladCloud" and "Prime Intellect"
// (the names on their websites, knowledge/data/providers.yaml), not the
// sources' ids "salad" and "primeintellect", in both languages.
func TestAlertsNameProvidersLikeAnswers(t *testing.T) {
	kb := knowledge.MustShipped()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, lang := range []string{"en", "zh"} {
		w := Watch{ID: "w1", GPU: "h100-sxm", Platform: "salad", Mode: Below, Threshold: 2, Currency: "USD", Lang: lang}
		if got := What(w, kb); !strings.Contains(got, "SaladCloud") || !strings.Contains(got, "H100 SXM") {
			t.Errorf("%s What = %q, want SaladCloud and H100 SXM", lang, got)
		}
		w.Platform = ""
		cp := advisor.CardPrice{Platform: "primeintellect", Low: 1.99, Currency: knowledge.USD, ObservedAt: "2026-12-01T08:00:00Z"}
		got := Message(w, cp, kb, now)
		if !strings.Contains(got, "Prime Intellect") || strings.Contains(got, "primeintellect") {
			t.Errorf("%s alert names the provider by its id: %q", lang, got)
		}
	}
}
