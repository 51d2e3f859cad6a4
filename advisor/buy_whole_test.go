package advisor

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// The purchase as a whole, by hand: all the cards bought, a month and a
// year; a stated hosting fee as the whole running cost; one consumer card
// in the user's own PC without data-centre costs.
func TestBuyWholeByHand(t *testing.T) {
	m := testMarket(t)
	wantSpec(t, m, "h100-sxm", "TDP watts", func(g knowledge.GPU) float64 { return g.TDPWatts }, 700)
	wantSpec(t, m, "l40s", "TDP watts", func(g knowledge.GPU) float64 { return g.TDPWatts }, 350)
	wantSpec(t, m, "rtx4090", "TDP watts", func(g knowledge.GPU) float64 { return g.TDPWatts }, 450)

	// $280,000 for 8 H100s, colo $4,500 a month ($54,000 a year ÷ 8 =
	// $6,750 a card), rent $2.20, 24/7 (730 h a month):
	//   rent avoided 8 × 730 × 2.20 = $12,848 a month
	//   running      $4,500 (power in the fee, no cost of capital added)
	//   payback      280,000 ÷ (12,848 − 4,500) = 33.54 → 33.5 months
	r, err := Buy(BuyInput{GPU: "h100", Cards: 8, Purchase: usd(280000), Rent: usd(2.2), HoursPerMonth: 730,
		Ops: &Money{6750, knowledge.USD}, Hosted: true, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	w := r.Whole
	if w.Units != 8 || w.Purchase != 280000 || !near(w.RentPerMonth, 12848, 0.01) || !near(w.RunningPerMonth, 4500, 0.01) ||
		w.PowerPerMonth != 0 || w.CapitalPerMonth != 0 || !r.PowerIncluded || r.PaybackMonths != 33.5 {
		t.Errorf("Buy(8× H100 colo) whole %+v, payback %v; want 8 cards, $280,000, $12,848 and $4,500 a month, no power or capital, 33.5 months", w, r.PaybackMonths)
	}

	// 8 H200s at $320,000 over 3 years, colo $3,000 a month, rent $3.50 at
	// 80 %: owning 320,000 ÷ 3 + 36,000 = $142,666.67 a year; renting
	// 8 × 3.50 × 8,760 × 0.8 = $196,224; owning saves $53,557.33.
	r, err = Buy(BuyInput{GPU: "h200", Cards: 8, Purchase: usd(320000), Rent: usd(3.5), Utilization: 0.8, Years: 3,
		Ops: &Money{4500, knowledge.USD}, Hosted: true, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	if w := r.Whole; !near(w.OwnPerYear, 142666.67, 0.01) || !near(w.RentPerYear, 196224, 0.01) || !near(w.SavingPerYear, 53557.33, 0.01) || r.Cheaper != "buy" {
		t.Errorf("Buy(8× H200 colo) own %v, rent %v, saving %v, %s; want 142666.67, 196224, 53557.33, buy", w.OwnPerYear, w.RentPerYear, w.SavingPerYear, r.Cheaper)
	}

	// 4 L40S at $9,500 each, rent $0.99 at 70 % (511 h a month), defaults:
	//   rent    4 × 511 × 0.99 = $2,023.56 a month
	//   power   4 × 0.525 kW (350 W × 1.5 host) × 1.4 × 511 × $0.12 = $180.28
	//   ops     4 × 1,900 ÷ 12 = $633.33; capital 4 × 475 ÷ 12 = $158.33
	//   payback 38,000 ÷ (2,023.56 − 971.95) = 36.1 months
	r, err = Buy(BuyInput{GPU: "l40s", Cards: 4, PerCardQuote: true, Purchase: usd(9500), Rent: usd(0.99), Utilization: 0.7, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	if w := r.Whole; w.Purchase != 38000 || !near(w.RentPerMonth, 2023.56, 0.01) || !near(w.PowerPerMonth, 180.28, 0.01) ||
		!near(w.OpsPerMonth, 633.33, 0.01) || !near(w.CapitalPerMonth, 158.33, 0.01) || !near(w.RunningPerMonth, 971.95, 0.01) || r.PaybackMonths != 36.1 {
		t.Errorf("Buy(4× L40S) whole %+v, payback %v; want $38,000, $2,023.56, $180.28 + $633.33 + $158.33 = $971.95, 36.1 months", w, r.PaybackMonths)
	}

	// One RTX 4090 in their own PC at ¥13,000, rent ¥2, 243.33 h a month
	// (8 h a day): 450 W × PUE 1 × ¥0.6 household, no operations.
	//   power   0.45 × 2,920 h × 0.6 = ¥788.4 a year = ¥65.70 a month
	//   capital 5 % × 13,000 = ¥650 a year = ¥54.17 a month
	//   payback 13,000 ÷ (486.67 − 119.87) = 35.4; price alone 26.7
	r, err = Buy(BuyInput{GPU: "4090", OwnPC: true, Purchase: Money{Amount: 13000}, Rent: Money{Amount: 2}, HoursPerMonth: 8 * 365.0 / 12, Currency: knowledge.CNY}, m)
	if err != nil {
		t.Fatal(err)
	}
	if l := r.AnnualLines(); !r.Home || !near(l[1].Value, 788.4, 0.01) || l[2].Value != 0 || !near(r.Whole.RunningPerMonth, 119.87, 0.01) ||
		r.PaybackMonths != 35.4 || r.HardwarePaybackMonths != 26.7 {
		t.Errorf("Buy(4090 own PC) home %v, power %v, ops %v a year, running %v a month, payback %v (%v); want home, 788.4, 0, 119.87, 35.4 (26.7)",
			r.Home, l[1].Value, l[2].Value, r.Whole.RunningPerMonth, r.PaybackMonths, r.HardwarePaybackMonths)
	}
	// Not said to be for their own PC, or in a server: data-centre defaults.
	r, _ = Buy(BuyInput{GPU: "4090", Purchase: Money{Amount: 13000}, Rent: Money{Amount: 2}, Currency: knowledge.CNY}, m)
	if r.Home || r.AnnualLines()[2].Value != 2600 { // 20 % × 13,000
		t.Errorf("Buy(4090) home %v, operations %v; want data-centre defaults, 2600", r.Home, r.AnnualLines()[2].Value)
	}
}
