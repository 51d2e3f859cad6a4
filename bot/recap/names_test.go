package recap

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/knowledge"
)

// TestRecapNamesPlatformsAndCards (#24 item 7): the recap names platforms
// and cards the way answers do (knowledge.Base.PlatformNames, GPUName):
// a market provider such as primeintellect (providers.yaml, not
// platforms.yaml) was printed as its raw id in the platform rows and the
// commitments. Ids stay only in pasteable commands (after "@").
func TestRecapNamesPlatformsAndCards(t *testing.T) {
	loc := shanghai(t)
	oct := ledger.Month{Year: 2026, Month: time.October}
	at := time.Date(2026, 10, 5, 12, 0, 0, 0, loc)
	plan := ledger.Entry{ID: "p1", GPU: "h100-sxm", Cards: 8, Platform: "primeintellect", At: time.Date(2026, 10, 1, 9, 0, 0, 0, loc),
		Amount: ledger.Money{Minor: 1200000, Currency: knowledge.USD}, Billing: ledger.Monthly, TermMonths: 12, HoursUnknown: true, Kind: ledger.Spend, Project: "llm"}
	es := []ledger.Entry{plan,
		{ID: "e1", GPU: "h100-sxm", Cards: 1, Hours: 10, Platform: "primeintellect", At: at, Amount: ledger.Money{Minor: 2000, Currency: knowledge.USD}, Billing: ledger.OnDemand, Kind: ledger.Spend, Project: "llm"},
		{ID: "e2", GPU: "a100-80g", Cards: 1, Hours: 10, Platform: "volcengine", At: at, Amount: ledger.Money{Minor: 10000, Currency: knowledge.CNY}, Billing: ledger.OnDemand, Kind: ledger.Spend, Project: "llm"},
	}
	cs := ledger.Held(es, oct.End(loc).Add(-time.Second), loc)
	for lang, want := range map[string][]string{
		"en": {"• Prime Intellect: ", "• Volcano Engine: ", "H100 SXM ×8 on Prime Intellect", "• H100 SXM: "},
		"zh": {"• Prime Intellect：", "• 火山引擎：", "H100 SXM ×8，Prime Intellect", "• H100 SXM："},
	} {
		rc := Compose(Input{Team: "T1", Month: oct, Lang: lang, Now: at, Commitments: cs,
			History: []MonthEntries{{Month: oct.Prev()}, {Month: oct, Entries: es}}}, Options{KB: knowledge.MustShipped(), Location: loc, FX: 7.2})
		text, _ := rc.Render()
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s recap lacks %q:\n%s", lang, w, text)
			}
		}
		if raw := regexp.MustCompile(`(?:^|[^@])\b(primeintellect|volcengine|h100-sxm|a100-80g)\b`).FindString(text); raw != "" {
			t.Errorf("%s recap prints the raw id %q outside a command:\n%s", lang, raw, text)
		}
	}
}
