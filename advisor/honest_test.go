package advisor

import (
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// honestMarket is a small market with one offer of each kind the rules
// tell apart, all in yuan per card-hour so the choices can be read off by
// hand:
//
//	card      platform        category        kind       ¥/card-hour
//	RTX 4090  cn-market       market range    on demand  1.5–2.5
//	RTX 4090  autodl          CN retail       on demand  1.98
//	RTX 4090  vastai          marketplace     spot       0.9
//	H100 SXM  cn-market       market range    on demand  9.6
//	H100 SXM  tensordock      marketplace     on demand  15
//	H100 SXM  lambda          GPU cloud       on demand  21.5
//	H100 SXM  coreweave       GPU cloud       on demand  35   (market snapshot provider)
//	H100 SXM  aws             hyperscaler     on demand  40
//	H100 SXM  aws             hyperscaler     spot       20
func honestMarket(t *testing.T) Market {
	t.Helper()
	cny := knowledge.CNY
	return testMarket(t,
		hourly("r-4090", "cn-market", "rtx4090", 1.5, 2.5, cny, knowledge.OnDemand),
		hourly("autodl-4090", "autodl", "rtx4090", 1.98, 1.98, cny, knowledge.OnDemand),
		hourly("vast-4090-spot", "vastai", "rtx4090", 0.9, 0.9, cny, knowledge.Spot),
		hourly("r-h100", "cn-market", "h100-sxm", 9.6, 9.6, cny, knowledge.OnDemand),
		hourly("td-h100", "tensordock", "h100-sxm", 15, 15, cny, knowledge.OnDemand),
		hourly("lambda-h100", "lambda", "h100-sxm", 21.5, 21.5, cny, knowledge.OnDemand),
		hourly("cw-h100", "coreweave", "h100-sxm", 35, 35, cny, knowledge.OnDemand),
		hourly("aws-h100", "aws", "h100-sxm", 40, 40, cny, knowledge.OnDemand),
		hourly("aws-h100-spot", "aws", "h100-sxm", 20, 20, cny, knowledge.Spot),
	)
}

// A 3B model in BF16 (about 6 GB of weights) is served from one card on both the
// 4090 and the H100, so every plan's hourly price is one card's price.
func serve3b(persona string, budget float64, spot bool) RecommendInput {
	return RecommendInput{Workload: Workload{ParamsB: 3, Method: Inference}, Persona: persona,
		Budget: Money{Amount: budget, Currency: knowledge.CNY}, Currency: knowledge.CNY, Spot: spot, Limit: 50}
}

func planOf(t *testing.T, r Recommendation, kind string) Plan {
	t.Helper()
	for _, p := range r.Plans {
		if p.Kind == kind {
			return p
		}
	}
	t.Fatalf("no %s plan in %+v", kind, r.Plans)
	return Plan{}
}

// A market range is shown as a range, never ranked or planned as a platform
// to rent; spot never serves unless asked.
func TestRankingSetsAsideRangesAndSpotForServing(t *testing.T) {
	m := honestMarket(t)
	r, err := Recommend(serve3b("", 5000, false), m)
	if err != nil {
		t.Fatal(err)
	}
	rk := r.Rankings[0]
	for _, row := range rk.Rows {
		if IsMarketRange(row.Platform) || row.Interruptible {
			t.Errorf("ranked as rentable: %s on %s (spot %v)", row.GPU, row.Platform, row.Interruptible)
		}
		if row.Cards != 1 {
			t.Fatalf("hand calculation assumes one card per 3B replica, %s has %d", row.GPU, row.Cards)
		}
	}
	// Five rentable on-demand rows: autodl, tensordock, lambda, coreweave, aws.
	if len(rk.Rows) != 5 {
		t.Errorf("want 5 rentable rows, got %d: %+v", len(rk.Rows), rk.Rows)
	}
	aside := map[string]Ranked{}
	for _, a := range rk.Aside {
		aside[a.Offer] = a
	}
	for _, key := range []string{"r-4090", "r-h100", "vast-4090-spot", "aws-h100-spot"} {
		if _, ok := aside[key]; !ok {
			t.Errorf("%s not set aside: %+v", key, rk.Aside)
		}
	}
	if a := aside["r-4090"]; a.PriceHigh != 2.5 || !strings.Contains(a.Note.EN, "range") || !strings.Contains(a.Note.ZH, "区间") {
		t.Errorf("a range keeps its high end and says it is a range: %+v", a)
	}
	for _, p := range r.Plans {
		if IsMarketRange(p.Platform) || p.Interruptible {
			t.Errorf("plan %s priced on %s (spot %v)", p.Kind, p.Platform, p.Interruptible)
		}
	}
	// The budget plan for serving is the best value on demand: the 4090 at
	// autodl (¥1.98) — the 4090's score per yuan beats the H100's at 7.6× the
	// price only if its score is above 100/7.6 = 13, which a card with 30 %
	// of the H100's bandwidth is.
	if b := planOf(t, r, PlanBudget); b.Offer != "autodl-4090" {
		t.Errorf("budget plan: want autodl's 4090 on demand, got %s on %s", b.GPU, b.Platform)
	}

	// Asked for spot, serving may use it: the spot rows are ranked.
	r, err = Recommend(serve3b("", 5000, true), m)
	if err != nil {
		t.Fatal(err)
	}
	var spotRows int
	for _, row := range r.Rankings[0].Rows {
		if row.Interruptible {
			spotRows++
		}
	}
	if spotRows != 2 {
		t.Errorf("with spot: want both spot offers ranked, got %d", spotRows)
	}
}

// The personas, by their rules.
func TestPersonaPlans(t *testing.T) {
	m := honestMarket(t)
	rec := func(in RecommendInput) Recommendation {
		t.Helper()
		r, err := Recommend(in, m)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// Individual: the cheapest capable card on a retail platform. Retail
	// and rentable on demand: autodl ¥1.98, tensordock ¥15, lambda ¥21.5,
	// coreweave ¥35 → autodl's 4090. The range (¥1.5) and the spot (¥0.9)
	// are cheaper and are not chosen.
	ind := rec(serve3b("individual", 5000, false))
	if len(ind.Plans) != 1 || ind.Plans[0].Offer != "autodl-4090" {
		t.Fatalf("individual: want autodl's 4090, got %+v", ind.Plans)
	}
	// Plans scale with the budget: ¥5,000 ÷ (¥1.98 × 100 h) = 25.3 → 25
	// cards run 100 h a month; twice the budget, 50 cards.
	if p := ind.Plans[0]; p.CardsAffordable != 25 || p.MonthlyCost != 198 || !p.WithinBudget {
		t.Errorf("individual at ¥5,000: want ¥198/month, 25 cards affordable, got ¥%v, %d", p.MonthlyCost, p.CardsAffordable)
	}
	if p := rec(serve3b("individual", 10000, false)).Plans[0]; p.CardsAffordable != 50 {
		t.Errorf("individual at ¥10,000: want 50 cards, got %d", p.CardsAffordable)
	}
	// Individual who accepts spot: the 4090 spot at ¥0.9 (vastai is retail).
	if p := rec(serve3b("individual", 5000, true)).Plans[0]; p.Offer != "vast-4090-spot" {
		t.Errorf("individual with spot: want vastai's spot 4090, got %s", p.Offer)
	}

	// Startup serving: on-demand capacity, best value → the same 4090 on
	// autodl, never spot or a range.
	st := rec(serve3b("startup", 5000, false))
	if len(st.Plans) != 1 || st.Plans[0].Kind != PlanBalanced || st.Plans[0].Interruptible || st.Plans[0].Offer != "autodl-4090" {
		t.Errorf("startup serving: want one on-demand plan on autodl, got %+v", st.Plans)
	}

	// Enterprise: only providers with invoices and SLAs, no spot, no
	// marketplace: lambda ¥21.5, coreweave ¥35, aws ¥40 (tensordock and
	// autodl are out). All three are H100s, the fastest card; the best
	// value among equals is lambda's ¥21.5.
	ent := rec(serve3b("enterprise", 5000, true))
	if len(ent.Plans) != 1 || ent.Plans[0].Offer != "lambda-h100" {
		t.Fatalf("enterprise: want lambda's H100 on demand, got %+v", ent.Plans)
	}
	// ¥21.5 × 100 h = ¥2,150 a month: 2 cards within ¥5,000.
	if p := ent.Plans[0]; p.MonthlyCost != 2150 || p.CardsAffordable != 2 {
		t.Errorf("enterprise: want ¥2,150/month and 2 cards, got ¥%v, %d", p.MonthlyCost, p.CardsAffordable)
	}

	// A Chinese cloud counts as contracted; a cheaper marketplace and a
	// spot offer do not: 阿里云's ¥30 H100 wins over tensordock's ¥15 and
	// aws spot's ¥20.
	cn := testMarket(t,
		hourly("td", "tensordock", "h100-sxm", 15, 15, knowledge.CNY, knowledge.OnDemand),
		hourly("spot", "aws", "h100-sxm", 20, 20, knowledge.CNY, knowledge.Spot),
		hourly("ali", "aliyun", "h100-sxm", 30, 30, knowledge.CNY, knowledge.OnDemand))
	r, err := Recommend(serve3b("enterprise", 5000, true), cn)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Plans) != 1 || r.Plans[0].Platform != "aliyun" {
		t.Errorf("enterprise in China: want aliyun, got %+v", r.Plans)
	}
}

// Monthly vs on demand compares one platform's plan with its own on-demand
// price, not with a member price on the same platform.
func TestMonthlyIgnoresMemberPrice(t *testing.T) {
	m := testMarket(t,
		knowledge.Offer{Key: "p-mo", Platform: "autodl", GPU: "rtx4090", GPUCount: 1, PriceLow: 1200, PriceHigh: 1200, Currency: knowledge.CNY,
			Unit: knowledge.PerMonth, Basis: knowledge.PerGPU, Model: knowledge.Package, ObservedAt: "2026-09-01", Source: "test"},
		hourly("p-member", "autodl", "rtx4090", 1.2, 1.2, knowledge.CNY, knowledge.Member),
		hourly("p-od", "autodl", "rtx4090", 2, 2, knowledge.CNY, knowledge.OnDemand))
	res, err := Monthly(MonthlyInput{GPU: "4090", HoursPerMonth: 300, Currency: knowledge.CNY}, m)
	if err != nil {
		t.Fatal(err)
	}
	// Break-even = ¥1,200 ÷ ¥2/h = 600 h a month.
	if res.Hourly != 2 || !near(res.BreakevenHoursPerMonth, 600, 0.01) {
		t.Errorf("want on demand ¥2/h and break-even 600 h, got ¥%v/h and %v h", res.Hourly, res.BreakevenHoursPerMonth)
	}
}

// A cost with no card named answers a card one can rent: a card priced only
// by a market range comes after every provider's offer, even when its
// range's low end is cheaper, and is marked as a range.
func TestCostPrefersOffersOverRanges(t *testing.T) {
	m := testMarket(t,
		hourly("r-4090", "cn-market", "rtx4090", 0.5, 2.5, knowledge.CNY, knowledge.OnDemand),
		hourly("autodl-h100", "autodl", "h100-sxm", 12, 12, knowledge.CNY, knowledge.OnDemand))
	in := CostInput{Workload: Workload{ParamsB: 7, Method: LoRA}, Samples: 10_000, Currency: knowledge.CNY}
	for _, storage := range []float64{0, 10} { // the quick ranking and the full one
		in.StorageGB = storage
		r, err := Cost(in, m)
		if err != nil {
			t.Fatal(err)
		}
		if r.GPU != "h100-sxm" || r.Offer == nil || r.Offer.Platform != "autodl" {
			t.Errorf("storage %v: want autodl's H100, got %s on %+v", storage, r.GPU, r.Offer)
		}
		if len(r.Alternatives) != 2 || r.Alternatives[0].MarketRange || !r.Alternatives[1].MarketRange || r.Alternatives[1].GPU != "rtx4090" {
			t.Errorf("storage %v: want the H100 offer first and the 4090 range last, marked: %+v", storage, r.Alternatives)
		}
	}
}
