package ledger

import (
	"testing"
	"time"
)

// TestForecastCountsRenewingPlans: a 包月 plan running in the closing month
// is paid again next month unless stopped, so the forecast counts it as
// committed, and says so. By hand, October 2026 (31 days): a ¥1,200 4090
// 包月 plan and ¥310 of on-demand use, all in the last week:
//
//	run rate   = 310 ÷ 31 = ¥10.00 a day; last 7 days 310 ÷ 7 = ¥44.29
//	committed  = ¥1,200.00 (the plan, renewing)
//	projected  = 1,200 + 10 × 30 = ¥1,500.00; high 1,200 + 44.2857 × 30 = ¥2,528.57
func TestForecastCountsRenewingPlans(t *testing.T) {
	loc := Shanghai
	oct := Month{Year: 2026, Month: time.October}
	cny := func(yuan int64) Money { return Money{Minor: yuan * 100, Currency: "CNY"} }
	plan := Entry{ID: "p1", GPU: "rtx4090", Cards: 1, Hours: 200, Amount: cny(1200), Kind: Spend, Billing: Monthly, At: time.Date(2026, 10, 6, 0, 0, 0, 0, loc)}
	run := Entry{ID: "r1", GPU: "rtx4090", Cards: 1, Hours: 165, Amount: cny(310), Kind: Spend, Billing: OnDemand, At: time.Date(2026, 10, 28, 0, 0, 0, 0, loc)}
	f, ok := ForecastNext([]Entry{plan, run}, nil, oct, loc, nil)
	if !ok {
		t.Fatal("no forecast")
	}
	if f.Committed != cny(1200) || f.Renewing != cny(1200) || f.Projected != cny(1500) || f.High.Minor != 252857 {
		t.Errorf("committed %s (renewing %s), projected %s, high %s; want ¥1,200.00, ¥1,200.00, ¥1,500.00, ¥2,528.57", f.Committed, f.Renewing, f.Projected, f.High)
	}
}
