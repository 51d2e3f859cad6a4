package advisor

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// Commitments priced on the user's own two rates: a committed rate per
// card-hour, an on-demand bill a month, a discount off on demand. Each row
// is worked by hand in its comment.
func TestCommitOwnRatesByHand(t *testing.T) {
	usd := func(v float64) Money { return Money{Amount: v, Currency: knowledge.USD} }
	tests := []struct {
		name                          string
		in                            CommitInput
		saving, monthly, yearly, be   float64
		committedCost, onDemandHourly float64
	}{{
		name: "8 H100s, $2.49 on demand vs $1.85 reserved, full use",
		in:   CommitInput{GPU: "h100-sxm", Cards: 8, Term: "1y", Utilization: 1, OnDemand: usd(2.49), CommittedHourly: usd(1.85), Currency: knowledge.USD},
		// a month: 8 × 730 × (2.49 − 1.85) = 3,737.60; a year ×12 = 44,851.20
		saving: 44851.20, monthly: 3737.60, yearly: 44851.20,
		// 1.85 ÷ 2.49 = 0.74297 → 0.743; committed 8 × 8,760 × 1.85 = 129,648
		be: 0.743, committedCost: 129648, onDemandHourly: 2.49,
	}, {
		name: "no card named: break-even is the rates' ratio",
		in:   CommitInput{Term: "1y", OnDemand: usd(3.20), CommittedHourly: usd(2.00), Currency: knowledge.USD},
		// 2.00 ÷ 3.20 = 0.625; one card, full use: 8,760 × 1.20 = 10,512
		saving: 10512, monthly: 876, yearly: 10512, be: 0.625, committedCost: 17520, onDemandHourly: 3.20,
	}, {
		name: "32 H200s, 3 years, $3.10 vs $10.60",
		in:   CommitInput{GPU: "h200", Cards: 32, Term: "3y", OnDemand: usd(10.60), CommittedHourly: usd(3.10), Currency: knowledge.USD},
		// committed 32 × 3.10 × 26,280 = 2,606,976; saving 32 × 7.50 × 26,280 =
		// 6,307,200; a year 6,307,200 ÷ 3 = 2,102,400; a month ÷ 36 = 175,200
		saving: 6307200, monthly: 175200, yearly: 2102400, be: 0.2925, committedCost: 2606976, onDemandHourly: 10.60,
	}, {
		name: "a $38k on-demand month for 12 A100s, 35% off",
		in:   CommitInput{GPU: "a100-80g", Cards: 12, Term: "1y", OnDemandMonthly: usd(38000), Discount: 0.35, Currency: knowledge.USD},
		// on demand 38,000 ÷ 12 ÷ 730 = 4.33790/card-h; a year 38,000 × 12 ×
		// 0.35 = 159,600; a month 38,000 × 0.35 = 13,300; committed
		// 38,000 × 12 × 0.65 = 296,400
		saving: 159600, monthly: 13300, yearly: 159600, be: 0.65, committedCost: 296400, onDemandHourly: 4.3379,
	}, {
		name: "a discount at half use does not pay",
		in:   CommitInput{GPU: "h20", Cards: 16, Term: "1y", Utilization: 0.5, OnDemand: Money{Amount: 26, Currency: knowledge.CNY}, Discount: 0.3, Currency: knowledge.CNY},
		// committed 26 × 0.7 = 18.20; 16 × 8,760 × (26 × 0.5 − 18.20) = −728,832
		saving: -728832, monthly: -60736, yearly: -728832, be: 0.7, committedCost: 2550912, onDemandHourly: 26,
	}}
	for _, tc := range tests {
		r, err := Commit(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !near(r.Saving, tc.saving, 0.01) || !near(r.SavingMonthly, tc.monthly, 0.01) || !near(r.SavingYearly, tc.yearly, 0.01) ||
			!near(r.BreakevenUtilization, tc.be, 1e-4) || !near(r.CommittedCost, tc.committedCost, 0.01) || !near(r.Chosen.OnDemand, tc.onDemandHourly, 1e-4) {
			t.Errorf("%s: saving %v, a month %v, a year %v, break-even %v, committed %v, on demand %v/card-h; want %v, %v, %v, %v, %v, %v",
				tc.name, r.Saving, r.SavingMonthly, r.SavingYearly, r.BreakevenUtilization, r.CommittedCost, r.Chosen.OnDemand,
				tc.saving, tc.monthly, tc.yearly, tc.be, tc.committedCost, tc.onDemandHourly)
		}
		if r.Chosen.Provider != "given" {
			t.Errorf("%s: provider %q, want the given rates", tc.name, r.Chosen.Provider)
		}
	}
}

// A discount is between 0 and 100 %, and a card is still needed when only
// one side is the user's own.
func TestCommitOwnRatesRefused(t *testing.T) {
	if _, err := Commit(CommitInput{GPU: "h100-sxm", OnDemand: Money{Amount: 3}, Discount: 1.2}); err == nil {
		t.Error("a 120% discount was accepted")
	}
	if _, err := Commit(CommitInput{CommittedHourly: Money{Amount: 2}}); err == nil {
		t.Error("a committed rate alone, with no card, was accepted")
	}
}
