package budget

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/knowledge"
)

// Over-spend thresholds fire like the others: a ¥80,000 budget with
// alerts at 80 and 180 %, ¥148,000 spent (148,000 ÷ 80,000 = 185 %) is
// due the 180 % alert, which covers the 80 %; at ¥140,000 (175 %) only
// the 80 % one. AlertAt(180) = 80,000 × 1.8 = ¥144,000.
func TestOverSpendThresholds(t *testing.T) {
	b := Budget{Project: "orion", Amount: ledger.Money{Minor: 8000000, Currency: knowledge.CNY}, Alerts: []int{80, 180}}
	if got := b.AlertAt(180); got.Minor != 14400000 {
		t.Errorf("AlertAt(180) = %s, want ¥144,000.00", got)
	}
	for _, c := range []struct {
		share float64
		kind  string
	}{{1.85, "180"}, {1.75, "80"}} {
		due := Due(State{Budget: b, Share: c.share})
		if len(due) != 1 || due[0].Kind != c.kind {
			t.Errorf("Due(share %v) = %+v, want one %s %% alert", c.share, due, c.kind)
		}
	}
	if got := overAlertText(b, "en"); !strings.Contains(got, "180 % = ¥144,000.00 spent, ¥64,000.00 over") || strings.Count(got, " = ") != 1 { // 80 % is within the budget: no line
		t.Errorf("overAlertText = %q", got)
	}
	if got := overAlertText(Budget{Amount: b.Amount}, "en"); got != "" {
		t.Errorf("default thresholds (50, 80, 100) need no over-spend line, got %q", got)
	}
}

// 1 to 1000 are thresholds; 0, 1001 and a fraction are refused naming
// the one that is not, with the accepted form.
func TestAlertThresholdsRefused(t *testing.T) {
	if ts, err := ParseAlerts("80,150,500,1000"); err != nil || len(ts) != 4 {
		t.Fatalf("ParseAlerts(80,150,500,1000) = %v, %v", ts, err)
	}
	for _, v := range []string{"0", "80,1001", "92.5"} {
		_, err := ParseAlerts(v)
		if err == nil {
			t.Fatalf("ParseAlerts(%s) accepted", v)
		}
		msg := alertsError("en", v, err).Error()
		bad := v[strings.LastIndex(v, ",")+1:]
		if !strings.Contains(msg, bad+"% is not an alert threshold") || !strings.Contains(msg, "from 1 to 1000") {
			t.Errorf("alertsError(%s) = %q", v, msg)
		}
	}
}
