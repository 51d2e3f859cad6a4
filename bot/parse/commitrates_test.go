package parse

import (
	"strings"
	"testing"
)

// Both rates of a commitment are read: the one beside commitment words is
// the committed rate, the other the on-demand one (price, or rent for
// buy); a discount is a discount, never utilisation.
func TestCommitRatesRead(t *testing.T) {
	p := newParser(t)
	amt := func(m *Money) float64 {
		if m == nil {
			return 0
		}
		return m.Amount
	}
	tests := []struct {
		in                   string
		onDemand, committed  float64 // price or rent; the committed rate
		bill, discount, util float64
	}{
		{in: "8x H100 at $2.49/hr on-demand for 30 days; vs 1-yr reserved at $1.85/hr, how much would we save per month?", onDemand: 2.49, committed: 1.85},
		// "/GPU-hr" is an hourly unit; the committed rate comes first
		{in: "What utilization makes a 1-yr commit at $2.00/GPU-hr beat on-demand at $3.20?", onDemand: 3.20, committed: 2.00},
		// the commitment words after the figure ("on a 1-yr term")
		{in: "We pay $2.85/hr on 24 H100s on demand; CoreWeave offers $2.35 on a 1-yr term. Annual difference?", onDemand: 2.85, committed: 2.35},
		// "vs" ends the committed rate's clause
		{in: "3-yr reserved H200 on Azure at $3.10/GPU-hr for 32 GPUs vs on-demand $10.60 — total commitment and savings over the term?", onDemand: 10.60, committed: 3.10},
		// a month's on-demand bill and 35 % off: no utilisation
		{in: "$38k/mo on 12 A100s on demand; 1-yr reserved is 35% off. Annual saving?", bill: 38000, discount: 0.35},
		{in: "我们按需每卡时 26 元用 16 张 H100，签一年每卡时 18 元，一年能省多少？", onDemand: 26, committed: 18},
		{in: "8张H100按需每卡时2.49美元，一年期预留每卡时1.85美元，每月能省多少？", onDemand: 2.49, committed: 1.85},
		{in: "A100 按量每卡时 20，三年期预留每卡时 9，利用率多少才划算？", onDemand: 20, committed: 9},
		// 七折 pays 70 %: 30 % off; "一半时间" stays the utilisation
		{in: "腾讯云说H20包年能打七折，按量是 ¥26/卡时。我们两台8卡，大概一半时间在跑，值得签一年吗？", onDemand: 26, discount: 0.3, util: 0.5},
		// a utilisation beside a discount stays a utilisation
		{in: "GCP H100 on-demand $3.67/hr, 1-yr CUD is 40% off; we run at 70% utilisation. Worth it?", onDemand: 3.67, discount: 0.4, util: 0.7},
		{in: "H800 按需每卡时 30，包年便宜30%，值得签吗？", onDemand: 30, discount: 0.3},
		// a monthly plan beside an hourly price is the plan, not a committed rate
		{in: "LoRA训练每月大约用300卡时A800，按量每卡时12，包月每卡7000，哪个合算？", onDemand: 12},
		// one hourly price with no commitment words stays the price
		{in: "H100 on-demand $2.49/hr on Lambda, how much for 100 hours?", onDemand: 2.49},
	}
	for _, tc := range tests {
		r := p.Parse(tc.in)
		s := r.Slots
		od := amt(s.Price)
		if s.Rent != nil {
			od = amt(s.Rent)
		}
		if od != tc.onDemand || amt(s.Committed) != tc.committed || amt(s.OnDemandMonthly) != tc.bill || s.Discount != tc.discount || s.Utilization != tc.util {
			t.Errorf("%q (%s): on demand %v, committed %v, bill %v, discount %v, util %v; want %v, %v, %v, %v, %v",
				tc.in, r.Intent, od, amt(s.Committed), amt(s.OnDemandMonthly), s.Discount, s.Utilization,
				tc.onDemand, tc.committed, tc.bill, tc.discount, tc.util)
		}
		for _, n := range s.Notes {
			if strings.Contains(n, "ignored a second") {
				t.Errorf("%q: %s", tc.in, n)
			}
		}
	}
}

func TestSideOf(t *testing.T) {
	tests := []struct {
		text, figure string
		want         rateSide
	}{
		{"1-yr reserved at $1.85/hr, how much", "$1.85/hr", sideCommit},
		{"$2.85/hr on 24 h100s on demand; coreweave", "$2.85/hr", sideOnDemand},
		{"a 1-yr commit at $2.00/gpu-hr beat on-demand at $3.20?", "$2.00/gpu-hr", sideCommit},
		{"a 1-yr commit at $2.00/gpu-hr beat on-demand at $3.20?", "$3.20", sideOnDemand},
		{"3-yr reserved at $3.10 for 32 gpus vs on-demand $10.60", "$3.10", sideCommit},
		{"h100 at $2.49/hr on lambda", "$2.49/hr", sideNone},
		{"按量每卡时12，包月每卡7000", "12", sideOnDemand},
		{"签一年每卡时 18 元", "18 元", sideCommit},
	}
	for _, tc := range tests {
		i := strings.Index(tc.text, tc.figure)
		if got := sideOf(tc.text, i, i+len(tc.figure)); got != tc.want {
			t.Errorf("sideOf(%q, %q) = %d, want %d", tc.text, tc.figure, got, tc.want)
		}
	}
}

func TestReadDiscount(t *testing.T) {
	tests := []struct {
		text string
		off  float64 // share off on demand
		pct  string
	}{
		{"1-yr reserved is 35% off", 0.35, "35"},
		{"a 40% discount", 0.4, "40"},
		{"discount of 25%", 0.25, "25"},
		{"包年便宜30%", 0.3, "30"},
		{"优惠 20%", 0.2, "20"},
		{"能打七折", 0.3, ""},     // pay 70 %
		{"八五折", 0.15, ""},     // pay 85 %
		{"8.5折", 0.15, ""},    // pay 85 %
		{"7折", 0.3, ""},       // pay 70 %
		{"三年折旧", 0, ""},       // depreciation, not a discount
		{"折合每卡每月7900", 0, ""}, // "works out at", not a discount
		{"we run at 70% utilisation", 0, ""},
	}
	for _, tc := range tests {
		off, pct, ok := readDiscount(arabize(strings.ToLower(tc.text)))
		if ok != (tc.off > 0) || off != tc.off || pct != tc.pct {
			t.Errorf("readDiscount(%q) = %v, %q, %v; want %v, %q", tc.text, off, pct, ok, tc.off, tc.pct)
		}
	}
}
