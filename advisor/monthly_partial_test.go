package advisor

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpubot/gpubot/knowledge"
)

func monthlyPlan(key, platform, gpu string, perCardMonth float64) knowledge.Offer {
	return knowledge.Offer{Key: key, Platform: platform, GPU: gpu, GPUCount: 1, PriceLow: perCardMonth, PriceHigh: perCardMonth, Currency: knowledge.CNY,
		Unit: knowledge.PerMonth, Basis: knowledge.PerGPU, Model: knowledge.Package, ObservedAt: "2026-09-01", Source: "test"}
}

// With no plan for the card anywhere, Monthly refuses (its contract) and
// MonthlyWithoutPlan prices the on-demand half.
func TestMonthlyWithoutPlanHandValues(t *testing.T) {
	cny := func(a float64) Money { return Money{Amount: a, Currency: knowledge.CNY} }
	m := testMarket(t,
		hourly("chenjianyun/a800", "chenjianyun", "a800", 5.15, 5.15, knowledge.CNY, knowledge.OnDemand),
		hourly("x/a100-80g", "x", "a100-80g", 6, 6, knowledge.CNY, knowledge.OnDemand),
		// a plan for the 40GB variant only: never the 80GB card's plan
		monthlyPlan("tencent/a100-40g", "tencent-cloud", "a100-40g", 13748))
	type want struct {
		Hourly, Billed, OnDemand, PaysBelow, High float64
	}
	tests := []struct {
		name string
		in   MonthlyInput
		want want
	}{
		{
			// 8 cards × 500 h × ¥5.15 = ¥20,600; a plan pays at 500 h below
			// 500 × 5.15 = ¥2,575 per card-month.
			name: "A800 on Aliyun, 8 cards 500 h: the cheapest on-demand elsewhere",
			in:   MonthlyInput{GPU: "a800", Platform: "aliyun", Cards: 8, HoursPerMonth: 500, Currency: knowledge.CNY},
			want: want{Hourly: 5.15, Billed: 500, OnDemand: 20600, PaysBelow: 2575},
		},
		{
			// their ¥7.5 × 400 h = ¥3,000; a plan pays below ¥3,000.
			name: "A100 80GB at their rate: the 40GB plan is not used",
			in:   MonthlyInput{GPU: "a100-80g", Platform: "hengyuanyun", HoursPerMonth: 400, Hourly: cny(7.5), Currency: knowledge.CNY},
			want: want{Hourly: 7.5, Billed: 400, OnDemand: 3000, PaysBelow: 3000},
		},
		{
			// 200–600 h at ¥5.15: ¥1,030 and ¥3,090.
			name: "a range of use: both ends on demand",
			in:   MonthlyInput{GPU: "a800", HoursPerMonth: 200, HoursPerMonthHigh: 600, Currency: knowledge.CNY},
			want: want{Hourly: 5.15, Billed: 200, OnDemand: 1030, PaysBelow: 1030, High: 3090},
		},
		{
			name: "no hours: the rate and the formula only",
			in:   MonthlyInput{GPU: "a800", Currency: knowledge.CNY},
			want: want{Hourly: 5.15},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ie *InputError
			if _, err := Monthly(tt.in, m); !errors.As(err, &ie) || ie.Field != "monthly" {
				t.Fatalf("Monthly(%s) err = %v, want the monthly InputError", tt.in.GPU, err)
			}
			r, err := MonthlyWithoutPlan(tt.in, m)
			if err != nil {
				t.Fatal(err)
			}
			got := want{Hourly: r.Hourly, Billed: r.BilledHours, OnDemand: r.OnDemandCost, PaysBelow: r.PlanPaysBelow}
			if r.High != nil {
				got.High = r.High.OnDemandCost
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("MonthlyWithoutPlan(%s) (-want +got):\n%s", tt.name, d)
			}
			if !r.PlanMissing || r.Cheaper != "" || r.MonthlyPrice != 0 || r.BreakevenHoursPerMonth != 0 {
				t.Errorf("PlanMissing %v Cheaper %q MonthlyPrice %v break-even %v, want a half answer without verdict", r.PlanMissing, r.Cheaper, r.MonthlyPrice, r.BreakevenHoursPerMonth)
			}
		})
	}
}

// A range of use prices both ends against the plan.
func TestMonthlyRangeHandValues(t *testing.T) {
	cny := func(a float64) Money { return Money{Amount: a, Currency: knowledge.CNY} }
	m := testMarket(t)
	// ¥3,800 ÷ ¥6.5 = 584.6 h. 200 h: 200 × 6.5 = ¥1,300 < ¥3,800, on
	// demand saves ¥2,500. 600 h: 600 × 6.5 = ¥3,900 > ¥3,800, the plan
	// saves ¥100.
	r, err := Monthly(MonthlyInput{GPU: "l40s", HoursPerMonth: 200, HoursPerMonthHigh: 600, Hourly: cny(6.5), Monthly: cny(3800)}, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.BreakevenHoursPerMonth != 584.6 || r.OnDemandCost != 1300 || r.MonthlyCost != 3800 || r.Cheaper != "on_demand" || r.Saving != 2500 {
		t.Errorf("low end: break-even %v, %v vs %v, %s saves %v; want 584.6, 1300 vs 3800, on_demand saves 2500",
			r.BreakevenHoursPerMonth, r.OnDemandCost, r.MonthlyCost, r.Cheaper, r.Saving)
	}
	want := &MonthlyAt{HoursPerMonth: 600, OnDemandCost: 3900, MonthlyCost: 3800, Cheaper: "monthly", Saving: 100}
	if d := cmp.Diff(want, r.High); d != "" {
		t.Errorf("high end (-want +got):\n%s", d)
	}
	// a high end below the low one is no range
	r, err = Monthly(MonthlyInput{GPU: "l40s", HoursPerMonth: 200, HoursPerMonthHigh: 100, Hourly: cny(6.5), Monthly: cny(3800)}, m)
	if err != nil || r.High != nil || r.Inputs.HoursPerMonthHigh != 0 {
		t.Errorf("high 100 < low 200: High %+v err %v, want none", r.High, err)
	}
}

func TestPlanPricesHandValues(t *testing.T) {
	m := testMarket(t,
		monthlyPlan("autodl/4090-month", "autodl", "rtx4090", 1052),
		monthlyPlan("gongjiyun/4090-month", "gongjiyun", "rtx4090", 1200),
		hourly("autodl/4090", "autodl", "rtx4090", 1.98, 1.98, knowledge.CNY, knowledge.OnDemand))
	tests := []struct {
		name      string
		platforms []string
		cheapest  string
		diff, pct float64
		missing   []string
	}{
		// ¥1,200 − ¥1,052 = ¥148 a card-month; 148 ÷ 1200 = 12.3 %.
		{"both priced", []string{"autodl", "gongjiyun"}, "autodl", 148, 0.123, nil},
		{"one platform without a plan", []string{"autodl", "hengyuanyun"}, "", 0, 0, []string{"hengyuanyun"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := PlanPrices("rtx4090", tt.platforms, knowledge.CNY, 7.2, m)
			if err != nil {
				t.Fatal(err)
			}
			if r.Cheapest != tt.cheapest || r.Difference != tt.diff || r.DifferencePct != tt.pct || !cmp.Equal(r.Missing, tt.missing) {
				t.Errorf("PlanPrices(%v) cheapest %q by %v (%v), missing %v; want %q by %v (%v), missing %v",
					tt.platforms, r.Cheapest, r.Difference, r.DifferencePct, r.Missing, tt.cheapest, tt.diff, tt.pct, tt.missing)
			}
			if r.Plans[0].PerCardMonth != 1052 {
				t.Errorf("AutoDL plan %v, want ¥1,052", r.Plans[0].PerCardMonth)
			}
		})
	}
}
