package advisor

import (
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// 16 H100s, 1-yr, 70 % utilisation, from the shipped GCP billing-catalog
// rows (Cyclenerd pricing.yml, 2026-07-30): a3-highgpu-8g on demand
// $88.49/h ÷ 8 = $11.06125/card-h; 1-yr CUD $44,810.08/month ÷ 8 ÷ 730 =
// $7.67296/card-h. Break-even 7.67296 ÷ 11.06125 = 69.37 %; discount
// 30.63 %. On demand 16 × 8760 × 0.7 × 11.06125 = $1,085,241.36;
// committed 16 × 8760 × 7.67296 = $1,075,441.92; saving $9,799.44.
func TestCommitH100GCPByHand(t *testing.T) {
	p := knowledge.MustShipped().Procurement
	r, err := Commit(CommitInput{GPU: "h100-sxm", Cards: 16, Term: "1y", Utilization: 0.7, Currency: knowledge.USD, Reserved: p.Reserved, CN: p.CNCloud})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Chosen
	if c.Provider != "GCP" || !near(c.OnDemand, 11.06125, 1e-4) || !near(c.Committed, 7.67296, 1e-4) ||
		r.BreakevenUtilization != 0.6937 || c.Discount != 0.3063 ||
		!near(r.OnDemandCost, 1085241.36, 0.01) || !near(r.CommittedCost, 1075441.92, 0.05) || !near(r.Saving, 9799.44, 0.05) || r.Cheaper != "commit" {
		t.Errorf("H100 1y: %+v; od %v committed %v saving %v", c, r.OnDemandCost, r.CommittedCost, r.Saving)
	}
	if len(r.Pairs) < 2 {
		t.Errorf("want the other providers' pairs listed too, got %d", len(r.Pairs))
	}
	// Ranges stay ranges: CoreWeave "H100 (HGX)" on demand $1.50-3.50 and
	// 1-yr $1.50-2.00 a card-hour (Alpha One Index, Q4 2025) pair at the low
	// ends and keep both high ends.
	for _, p := range r.Pairs {
		if p.Provider == "CoreWeave" && p.Instance == "H100 (HGX)" && (p.OnDemand != 1.5 || p.OnDemandHigh != 3.5 || p.Committed != 1.5 || p.CommittedHigh != 2) {
			t.Errorf("CoreWeave H100 (HGX) pair %+v; want 1.5–3.5 → 1.5–2", p)
		}
	}
	// At 60 % the commitment no longer pays: 16 × 8760 × 0.6 × 11.06125 =
	// $930,206.88 < $1,075,441.92.
	r, _ = Commit(CommitInput{GPU: "h100-sxm", Cards: 16, Term: "1y", Utilization: 0.6, Currency: knowledge.USD, Reserved: p.Reserved})
	if r.Cheaper != "on_demand" || !near(r.OnDemandCost, 930206.88, 0.05) {
		t.Errorf("H100 1y at 60%%: %s, on demand %v; want on_demand, 930206.88", r.Cheaper, r.OnDemandCost)
	}
}

// 包年 A100 40GB on Tencent Cloud at 500 h a month (qcloud-documents): on
// demand ¥28.64/h, 包月 ¥13,748 = ¥18.8329/h; no yearly price, so 包年 =
// 12 × 包月 = ¥164,976 against 12 × 500 × 28.64 = ¥171,840 on demand:
// saving ¥6,864; break-even 18.8329 ÷ 28.64 = 65.76 %.
func TestCommitTencentMonthlyAsYearByHand(t *testing.T) {
	p := knowledge.MustShipped().Procurement
	r, err := Commit(CommitInput{GPU: "a100-40g", Term: "1y", HoursPerMonth: 500, Currency: knowledge.CNY, Reserved: p.Reserved, CN: p.CNCloud, PreferCN: true})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Chosen.CN || r.Chosen.Term != "monthly" || !near(r.CommittedCost, 164976, 0.05) || !near(r.OnDemandCost, 171840, 0.05) ||
		!near(r.Saving, 6864, 0.1) || r.BreakevenUtilization != 0.6576 {
		t.Errorf("Tencent A100 包年: %+v, od %v committed %v saving %v", r.Chosen, r.OnDemandCost, r.CommittedCost, r.Saving)
	}
}

func TestCommitErrors(t *testing.T) {
	for _, in := range []CommitInput{{}, {GPU: "h100-sxm", Term: "5y"}, {GPU: "h100-sxm", Utilization: 1.5}, {GPU: "rtx4090"}} {
		if _, err := Commit(in); err == nil {
			t.Errorf("Commit(%+v): want an input error", in)
		}
	}
}

// Sourced rates per provider and term, priced for the cards and hours
// asked (reserved_prices.csv):
//   - AWS p5.48xlarge on demand $98.32/instance-h (Epoch, 2025-03-17, high)
//     ÷ 8 = $12.29/card-h; 1-yr $52/instance-h (Disintermediate, Q1 2026,
//     medium: beats the low-confidence $77.43 and $2.80-3.00 rows) ÷ 8 =
//     $6.50. No AWS H100 3-yr row.
//   - Azure ND H100 v5 1-yr $2.50-3.50/GPU-h (Alpha One, low).
//   - Lambda "H100 (reserved clusters)" 1-yr $1.85-1.89/GPU-h (low): no
//     on-demand row of that instance, so Commit never pairs it.
//
// 4 p5 nodes = 32 cards a month: on demand 32 × 730 × 12.29 = 287,094.40;
// 1-yr 32 × 730 × 6.50 = 151,840; gap 135,254.40 (= 23,360 × 5.79).
// 2 nodes (16 cards) a year on 1-yr: Azure 16 × 8,760 × 2.50 = 350,400
// (× 3.50 = 490,560); AWS 16 × 8,760 × 6.50 = 911,040; gap 560,640.
func TestPriceTermsByHand(t *testing.T) {
	p := knowledge.MustShipped().Procurement
	sh := PriceTerms(p.Reserved, "h100-sxm", []TermAsk{{"aws", "on_demand"}, {"aws", "1y"}, {"aws", "3y"}}, 32, 730, knowledge.USD, 0)
	if len(sh.Costs) != 2 || !near(sh.Costs[0].Low, 12.29, 1e-9) || !near(sh.Costs[1].Low, 6.5, 1e-9) ||
		!near(sh.Costs[0].Total, 287094.40, 0.005) || !near(sh.Costs[1].Total, 151840, 0.005) || !near(sh.Gap, 135254.40, 0.005) {
		t.Errorf("AWS 32 cards a month: %+v", sh)
	}
	if len(sh.Missing) != 1 || sh.Missing[0] != (TermAsk{"aws", "3y"}) || sh.Order[0] != 1 {
		t.Errorf("AWS 3y missing, 1y cheapest: missing %v order %v", sh.Missing, sh.Order)
	}
	sh = PriceTerms(p.Reserved, "h100-sxm", []TermAsk{{"azure", "1y"}, {"aws", "1y"}}, 16, 8760, knowledge.USD, 0)
	if len(sh.Costs) != 2 || sh.Order[0] != 0 || !near(sh.Costs[0].Total, 350400, 0.005) || !near(sh.Costs[0].TotalHigh, 490560, 0.005) ||
		!near(sh.Costs[1].Total, 911040, 0.005) || !near(sh.Gap, 560640, 0.005) {
		t.Errorf("Azure vs AWS 1y, 16 cards a year: %+v", sh)
	}
	r, ok := SourcedTermRate(p.Reserved, "h100-sxm", "1y", "lambda", knowledge.USD, 0)
	if !ok || r.Provider != "Lambda" || r.Low != 1.85 || r.High != 1.89 {
		t.Errorf("Lambda 1y = %+v, %v; want $1.85-1.89", r, ok)
	}
	if _, ok := SourcedTermRate(p.Reserved, "h100-sxm", "1y", "runpod", knowledge.USD, 0); ok {
		t.Error("RunPod has no sourced 1-year row")
	}
}

// $500,000 a month at Lambda's 1-yr $1.85-1.89/card-h, 730 h: at $1.89 a
// card-month is 1,379.70, floor(500,000 ÷ 1,379.70) = 362 (362.40); at
// $1.85, 1,350.50 → floor(370.23) = 370.
func TestCardsForRangeByHand(t *testing.T) {
	hi, lo := CardsForRange(500000, 1.85, 1.89, 730, 1)
	if hi.Cards != 362 || lo.Cards != 370 || hi.PerCardMonth != 1379.70 || lo.PerCardMonth != 1350.50 {
		t.Errorf("CardsForRange($500k, 1.85-1.89) = %d (%v), %d (%v); want 362, 370", hi.Cards, hi.PerCardMonth, lo.Cards, lo.PerCardMonth)
	}
}
