package advisor

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

func cny(a float64) Money { return Money{Amount: a, Currency: knowledge.CNY} }

// says reports whether any assumption's English text contains s.
func says(as []Text, s string) bool {
	for _, a := range as {
		if strings.Contains(a.EN, s) {
			return true
		}
	}
	return false
}

// 8× H20 bought at ¥980,000 a machine against a 包月 of ¥55,000 a
// machine-month (¥6,875 a card), 70 % used, the stated defaults:
//
//	price per card   980000 ÷ 8                        = 122,500
//	depreciation     122500 ÷ 3                        = 40,833.33
//	power per hour   400 W × 1.5 (machine) = 0.6 kW × PUE 1.4 × ¥0.8 = ¥0.672
//	power per year   0.672 × 6132 h (70 % of 8760)     = 4,120.70
//	operations       20 % × 122500                     = 24,500
//	capital          5 % × 122500                      = 6,125
//	owning per year                                    = 75,579.04
//	plan per year    6875 × 12 (every hour paid)       = 82,500
//	payback          122500 ÷ (6875 − 511 h × 0.672 − 30625 ÷ 12)
//	               = 122500 ÷ 3979.52                  = 30.8 months
func TestBuyAgainstAMonthlyPlanByHand(t *testing.T) {
	m := testMarket(t)
	wantSpec(t, m, "h20", "TDP watts", func(g knowledge.GPU) float64 { return g.TDPWatts }, 400)
	r, err := Buy(BuyInput{GPU: "h20", Cards: 8, Purchase: cny(980000), RentMonthly: cny(55000.0 / 8), Utilization: 0.7, Currency: knowledge.CNY}, m)
	if err != nil {
		t.Fatal(err)
	}
	if !r.RentPlan || r.PricePerCard != 122500 || !near(r.OwnPerYear, 75579.04, 0.02) || !near(r.RentPerYear, 82500, 0.02) {
		t.Errorf("Buy(8× H20 vs 包月) plan %v, per card %v, own %v, rent %v; want plan, 122500, 75579.04, 82500", r.RentPlan, r.PricePerCard, r.OwnPerYear, r.RentPerYear)
	}
	if r.Cheaper != "buy" || !near(r.PaybackMonths, 30.8, 0.05) {
		t.Errorf("Buy(8× H20 vs 包月) cheaper %s, payback %v months; want buy, 30.8", r.Cheaper, r.PaybackMonths)
	}
}

// The H20's on-demand rent is UCloud 优云智算's ¥7.5/card-hour
// (cn_cloud_prices.csv, gpu price index, ≈2026-10, medium), a catalogue
// offer since UCloud is a platform (issue #22: the price answer and the
// buy answer now use the same figure). At 50 %: 0.5 × 8760 h × ¥7.5 =
// ¥32,850 a year.
func TestBuyRentFromUCloudsH20(t *testing.T) {
	m := MarketOf(knowledge.MustShipped())
	r, err := Buy(BuyInput{GPU: "h20", Purchase: cny(100000), Utilization: 0.5, Currency: knowledge.CNY}, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.Inputs.Rent.Amount != 7.5 || !near(r.RentPerYear, 32850, 0.01) || r.RentPlan {
		t.Errorf("Buy(h20) rent %v, %v a year, plan %v; want ¥7.5, ¥32,850, by the hour", r.Inputs.Rent.Amount, r.RentPerYear, r.RentPlan)
	}
	if !says(r.Assumptions, "ucloud (on demand)") {
		t.Errorf("Buy(h20) assumptions %v: want UCloud named", r.Assumptions)
	}
}

// No catalogue offer rents an Ascend 910B: the rent is the nearest sourced
// row, 模力方舟 ¥3/card-hour single card (cn_cloud_prices.csv, China price
// source pool, 2026-07-15, low). At 50 %: 0.5 × 8760 h × ¥3 = ¥13,140 a
// year.
func TestBuyRentFromASourcedRow(t *testing.T) {
	m := MarketOf(knowledge.MustShipped())
	r, err := Buy(BuyInput{GPU: "910b", Purchase: cny(120000), Utilization: 0.5, Currency: knowledge.CNY}, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.Inputs.Rent.Amount != 3 || !near(r.RentPerYear, 13140, 0.01) || r.RentPlan {
		t.Errorf("Buy(910b) rent %v, %v a year, plan %v; want ¥3, ¥13,140, by the hour", r.Inputs.Rent.Amount, r.RentPerYear, r.RentPlan)
	}
	if !says(r.Assumptions, "no catalogue offer prices Ascend 910B on-demand") || !says(r.Assumptions, "模力方舟") {
		t.Errorf("Buy(910b) assumptions %v: want the sourced row named", r.Assumptions)
	}
}

// The H200 has no catalogue offer in the shipped data: its cost uses the
// cheapest sourced on-demand row of a provider, Nebius's one-H200 VM at
// $3.50/h (Nebius docs, 2025-10-22, high), below AWS's 8-GPU instance at
// $84.80/h = $10.60 and Oracle's BM.GPU.H200.8 $98/h = $12.25; the
// hyperscalers' market range ($4.50–7.00, Mercatus 2026-05) is no provider.
func TestCostFromASourcedRow(t *testing.T) {
	m := MarketOf(knowledge.MustShipped())
	r, err := Cost(CostInput{Workload: Workload{ParamsB: 7, Method: LoRA}, GPU: "h200", Tokens: 1e6, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.Hourly != 3.5 || r.Offer == nil || r.Offer.Platform != "nebius" {
		t.Errorf("Cost(h200) hourly %v on %+v; want $3.5 on nebius", r.Hourly, r.Offer)
	}
	if !says(r.Assumptions, "no catalogue offer prices H200 SXM on-demand") {
		t.Errorf("Cost(h200) assumptions %v: want the sourced row said", r.Assumptions)
	}
}

// A platform asked about with no figure for the card is said to have none,
// and the market's cheapest provider answers: 阿里云 lists no A800; the
// cheapest catalogue offer is 晨涧云's ¥5.15/card-hour (gpu price index).
func TestCostOnAPlatformWithoutThePrice(t *testing.T) {
	m := MarketOf(knowledge.MustShipped())
	r, err := Cost(CostInput{Workload: Workload{ParamsB: 7, Method: LoRA}, GPU: "a800", Tokens: 1e6, Currency: knowledge.CNY,
		Where: OfferFilter{Platform: "aliyun"}}, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.Hourly != 5.15 || r.Offer.Platform != "chenjianyun" || !says(r.Assumptions, "aliyun has no on-demand price for A800") {
		t.Errorf("Cost(a800 @aliyun) %v on %s, %v; want ¥5.15 on chenjianyun with aliyun's gap said", r.Hourly, r.Offer.Platform, r.Assumptions)
	}
}

// Ascend 910B has no catalogue offer at all. Its 包月 is the cheapest
// sourced plan whose card count is known: the Xiamen market's ¥8,500 a
// card-month (2026-07-15, low); the ¥15,000–18,454 monthly rows of
// 天翼云, 极智算 and 云擎天下 state no card count and price nothing (issue
// #22). Its on-demand side is the sourced 模力方舟 ¥3/card-hour.
// Break-even 8500 ÷ 3 = 2,833.3 h, more than a month has: the plan never
// pays.
func TestMonthlyFromSourcedRows(t *testing.T) {
	m := MarketOf(knowledge.MustShipped())
	r, err := Monthly(MonthlyInput{GPU: "910b", HoursPerMonth: 500, Currency: knowledge.CNY}, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.MonthlyPrice != 8500 || r.Hourly != 3 || r.BreakevenHoursPerMonth != 2833.3 || r.Cheaper != "on_demand" {
		t.Errorf("Monthly(910b) %v/month, %v/h, break-even %v h, %s; want 8500, 3, 2833.3, on_demand", r.MonthlyPrice, r.Hourly, r.BreakevenHoursPerMonth, r.Cheaper)
	}
}

// A commitment priced from the user's own figures (火山引擎 A800, ¥200 a
// machine-hour on demand, ¥56,000 a machine-month committed, 8 cards, 60 %):
// per card ¥25/h and ¥7,000/month = ¥9.589/h.
//
//	1 year:  on demand 8 × 8760 × 0.6 × 25 = 1,051,200
//	         committed 8 × 12 × 7000       =   672,000 → saves 379,200
//	3 years: on demand 8 × 26280 × 0.6 × 25 = 3,153,600
//	         committed 8 × 36 × 7000        = 2,016,000 → saves 1,137,600
//	break-even 9.589 ÷ 25 = 38.36 %
func TestCommitWithGivenPricesByHand(t *testing.T) {
	for _, c := range []struct {
		term        string
		od, cm, sav float64
	}{{"1y", 1051200, 672000, 379200}, {"3y", 3153600, 2016000, 1137600}} {
		r, err := Commit(CommitInput{GPU: "a800", Cards: 8, Term: c.term, Utilization: 0.6, Currency: knowledge.CNY,
			OnDemand: cny(25), Committed: cny(7000), Reserved: knowledge.MustShipped().Procurement.Reserved})
		if err != nil {
			t.Fatal(err)
		}
		if !near(r.OnDemandCost, c.od, 0.01) || !near(r.CommittedCost, c.cm, 0.01) || !near(r.Saving, c.sav, 0.01) || r.Cheaper != "commit" {
			t.Errorf("Commit(a800 %s) = %v / %v / %v %s; want %v / %v / %v commit", c.term, r.OnDemandCost, r.CommittedCost, r.Saving, r.Cheaper, c.od, c.cm, c.sav)
		}
		if !near(r.BreakevenUtilization, 0.3836, 0.0001) || r.Chosen.Provider != "given" {
			t.Errorf("Commit(a800 %s) break-even %v from %q; want 0.3836 from the given prices", c.term, r.BreakevenUtilization, r.Chosen.Provider)
		}
	}
	// Only the on-demand side given and no sourced 1-year H20 price: the
	// committed one is asked for, by name.
	_, err := Commit(CommitInput{GPU: "h20", Cards: 16, Term: "1y", Currency: knowledge.CNY, OnDemand: cny(26), Reserved: knowledge.MustShipped().Procurement.Reserved})
	wantInputErr(t, "Commit(h20 price=26)", err, "monthly")
}

// 1,024 H100s are more than one marketplace listing supplies: the job is
// priced on the cheapest seller of 8-GPU machines in reserved_prices.csv
// (2025 or later, not low confidence): CoreWeave 8× H100 $22–28 an
// instance-hour (Disintermediate, Q1 2026) = $22 ÷ 8 = $2.75/card-hour,
// below Nebius $2.95, Lambda $3.00 and $3.99, AWS $6.88; the $1.5 listing
// is named, not used.
func TestClusterJobPricedOnClusterSellers(t *testing.T) {
	m := testMarket(t, hourly("vast-h100", "vastai", "h100-sxm", 1.5, 1.5, knowledge.USD, knowledge.OnDemand))
	m.Reserved = knowledge.MustShipped().Procurement.Reserved
	r, err := Cost(CostInput{Workload: Workload{ParamsB: 7, Method: Full}, GPU: "h100", GPUs: 1024, Tokens: 1e9, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	if r.Hourly != 2.75 || !says(r.Assumptions, "1024 cards are more than one vastai listing supplies") {
		t.Errorf("Cost(1024× H100) hourly %v, %v; want $2.75 from CoreWeave with the listing named", r.Hourly, r.Assumptions)
	}
	r, err = Cost(CostInput{Workload: Workload{ParamsB: 7, Method: Full}, GPU: "h100", GPUs: 8, Tokens: 1e9, Currency: knowledge.USD}, m)
	if err != nil || r.Hourly != 1.5 {
		t.Errorf("Cost(8× H100) hourly %v, %v; want the $1.5 listing: one machine", r.Hourly, err)
	}
}
