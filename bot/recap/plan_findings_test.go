package recap

import (
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/knowledge"
)

// TestPlanFindingsNeedAMonthsFee (#24 item 4): a plan is weighed against
// on demand only for a one-month fee with recorded hours. A ¥3,000 包月
// RTX 4090 plan on AutoDL that ran 100 h keeps its finding (on demand
// ≈ 100 h × ¥1.88 = ¥188 is cheaper); a ¥36,000 包年 line with the same
// hours is not one month's ¥36,000 fee (the old finding weighed the year's
// amount against one month), and a plan whose hours are unknown says
// nothing about use.
func TestPlanFindingsNeedAMonthsFee(t *testing.T) {
	kb := knowledge.MustShipped()
	nov := ledger.Month{Year: 2026, Month: time.November}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, ledger.Shanghai)
	plan := ledger.Entry{ID: "p1", GPU: "rtx4090", Cards: 1, Hours: 100, Platform: "autodl", Project: "pretrain", Billing: ledger.Monthly,
		Amount: ledger.Money{Minor: 300000, Currency: knowledge.CNY}, Kind: ledger.Spend, At: at, Source: "csv:x"}
	count := func(e ledger.Entry) int {
		in := Input{Team: "T", Month: nov, History: []MonthEntries{{Month: nov, Entries: []ledger.Entry{e}}}, Offers: kb.Offers, Lang: "en"}
		n := 0
		for _, f := range findings(in, Options{KB: kb, Location: ledger.Shanghai}.withDefaults()) {
			if f.Kind == KindUnusedPlan && f.GPU == "rtx4090" {
				n++
			}
		}
		return n
	}
	if got := count(plan); got != 1 {
		t.Fatalf("a ¥3,000 one-month plan used 100 h: %d plan findings, want 1 (the control)", got)
	}
	yearly := plan
	yearly.TermMonths, yearly.Amount.Minor = 12, 3600000
	if got := count(yearly); got != 0 {
		t.Errorf("a ¥36,000 包年 line was weighed as one month's fee: %d findings, want 0", got)
	}
	unknown := plan
	unknown.Hours, unknown.HoursUnknown = 0, true
	if got := count(unknown); got != 0 {
		t.Errorf("a plan with hours unknown got %d findings, want 0", got)
	}
}
