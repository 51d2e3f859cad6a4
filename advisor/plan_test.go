package advisor

import (
	"math"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

// "70b 推理 每天1000万token 用H100 一个月多少钱": 10M tokens a day (prompt +
// answer) of 1,000-in / 500-out requests on H100 at ¥20/card-hour, with the
// same platform's monthly plan at ¥9,000/card-month, by hand from the
// replica's own throughput.
func TestServingPlanTenMillionTokensADayOnH100(t *testing.T) {
	m := testMarket(t,
		hourly("od", "autodl", "h100-sxm", 20, 20, knowledge.CNY, knowledge.OnDemand),
		hourly("spot", "autodl", "h100-sxm", 8, 8, knowledge.CNY, knowledge.Spot),
		knowledge.Offer{Key: "mo", Platform: "autodl", GPU: "h100-sxm", GPUCount: 1, PriceLow: 9000, PriceHigh: 9000, Currency: knowledge.CNY,
			Unit: knowledge.PerMonth, Basis: knowledge.PerGPU, Model: knowledge.Package, ObservedAt: "2026-09-01", Source: "test"})
	res, err := Cost(CostInput{Workload: Workload{ParamsB: 70, Method: Inference}, GPU: "h100", TokensPerDay: 1e7, Currency: knowledge.CNY}, m)
	if err != nil {
		t.Fatal(err)
	}
	// Priced on demand: spot is never chosen for serving unless asked.
	if res.Hourly != 20 || res.Interruptible {
		t.Errorf("hourly = %v (interruptible %v), want ¥20 on demand", res.Hourly, res.Interruptible)
	}
	// The light load is served on the fewest cards: 70B in BF16 needs two
	// 80 GB cards ((141.1 GB + activations) ÷ 2 × 1.05 + 0.8 ≤ 80).
	if res.GPUs != 2 {
		t.Errorf("cards per replica = %d, want 2", res.GPUs)
	}
	// 1e7 ÷ 1,500 tokens per request = 6,666.7 requests a day = 0.07716/s;
	// peak × 3 = 0.2315/s. One replica sustains tokens/s ÷ 500.
	avg := 1e7 / 1500 / 86400
	perReplica := res.TokensPerS / 500
	replicas := int(math.Max(1, math.Ceil(3*avg/perReplica)))
	if res.Replicas != replicas || replicas != 1 {
		t.Errorf("replicas = %d, want %d (hand: 1)", res.Replicas, replicas)
	}
	util := avg / (float64(replicas) * perReplica)
	if !near(res.Utilization, util, 1e-4) {
		t.Errorf("utilization = %v, want %.4f", res.Utilization, util)
	}
	// Always on: replicas × cards × ¥20 × 730 h.
	if want := float64(replicas*res.GPUs) * 20 * 730; !near(res.MonthlyTotal, want, 0.01) {
		t.Errorf("monthly_total = %v, want %.2f", res.MonthlyTotal, want)
	}
	if want := float64(replicas*res.GPUs) * 9000; res.Plan == nil || !near(res.Plan.MonthlyPlan, want, 0.01) {
		t.Errorf("monthly plan = %+v, want ¥%.0f on the same platform", res.Plan, want)
	}
	// $/M at the load: the replica's hourly cost over the tokens it serves.
	if want := float64(res.GPUs) * 20 / (res.TokensPerS * util * 3600) * 1e6; !near(res.Plan.PerMTokens, want, 0.01*want) {
		t.Errorf("per M tokens at load = %v, want %.2f", res.Plan.PerMTokens, want)
	}
	if !hasDefault(res.Inputs.Defaulted, "peak_factor") {
		t.Errorf("peak factor not reported as defaulted: %v", res.Inputs.Defaulted)
	}
}

// A heavy load needs several replicas: 2 requests/s average at peak 3 on
// one 8B replica.
func TestServingPlanScalesReplicas(t *testing.T) {
	m := testMarket(t, hourly("od", "vastai", "rtx4090", 0.4, 0.4, knowledge.USD, knowledge.OnDemand))
	res, err := Cost(CostInput{Workload: Workload{Model: "llama-3.1-8b"}, GPU: "4090", RequestsPerS: 20, InputTokens: 2000, OutputTokens: 1000, Currency: knowledge.USD}, m)
	if err != nil {
		t.Fatal(err)
	}
	perReplica := res.TokensPerS / 1000
	want := int(math.Ceil(60 / perReplica))
	if res.Replicas != want || want < 2 {
		t.Errorf("replicas = %d, want %d (> 1)", res.Replicas, want)
	}
	if u := 20 / (float64(want) * perReplica); !near(res.Utilization, u, 1e-4) || u > 1.0/3+1e-9 {
		t.Errorf("utilization = %v, want %.4f (≤ 1/3 at peak factor 3)", res.Utilization, u)
	}
}

// "我预算5000块能把13b lora跑完吗 10万条数据": 100,000 samples × 512 tokens
// on the cheapest card that holds a 13B LoRA, checked against ¥5,000.
func TestBudgetThirteenBLoRA(t *testing.T) {
	m := testMarket(t,
		hourly("4090", "autodl", "rtx4090", 2, 2, knowledge.CNY, knowledge.OnDemand),
		hourly("a100", "autodl", "a100-80g", 6, 6, knowledge.CNY, knowledge.OnDemand))
	res, err := Cost(CostInput{Workload: Workload{ParamsB: 13, Method: LoRA}, Samples: 1e5, Budget: Money{Amount: 5000}, Currency: knowledge.CNY}, m)
	if err != nil {
		t.Fatal(err)
	}
	// 4 × 13e9 × 5.12e7 tokens = 2.662e18 FLOPs. On 2 × 4090 (30.4 GB does
	// not fit 24 GB) at MFU 0.26: ÷ (165.2e12 × 0.26 × 3600) GPU-h × ¥2; on
	// one A100 at 0.35: ÷ (312e12 × 0.35 × 3600) × ¥6.
	flops := 4 * 13e9 * 1e5 * 512
	on4090 := flops / (165.2e12 * 0.26 * 3600) * 2
	onA100 := flops / (312e12 * 0.35 * 3600) * 6
	want := math.Min(on4090, onA100)
	if !near(res.Total, want, 0.02) {
		t.Errorf("total = %v, want ¥%.2f (4090 ¥%.2f, A100 ¥%.2f)", res.Total, want, on4090, onA100)
	}
	if res.WithinBudget == nil || !*res.WithinBudget || !near(res.BudgetCheck.Left, 5000-want, 0.02) {
		t.Errorf("within_budget = %v, check %+v; want true with ¥%.2f left", res.WithinBudget, res.BudgetCheck, 5000-want)
	}
}

// Over budget: the answer says what share the budget covers and a cheaper
// method that fits.
func TestBudgetOverSuggestsCheaper(t *testing.T) {
	m := testMarket(t,
		hourly("h100", "autodl", "h100-sxm", 20, 20, knowledge.CNY, knowledge.OnDemand),
		hourly("4090", "autodl", "rtx4090", 2, 2, knowledge.CNY, knowledge.OnDemand))
	res, err := Cost(CostInput{Workload: Workload{ParamsB: 7, Method: Full}, GPU: "h100", Tokens: 1e9, Budget: Money{Amount: 500}, Currency: knowledge.CNY}, m)
	if err != nil {
		t.Fatal(err)
	}
	// 6 × 7e9 × 1e9 ÷ (989e12 × 0.35 × 3600) GPU-h × ¥20.
	total := 6 * 7e9 * 1e9 / (989e12 * 0.35 * 3600) * 20
	if !near(res.Total, total, 0.02) || res.WithinBudget == nil || *res.WithinBudget {
		t.Fatalf("total %v within %v, want ¥%.2f over budget", res.Total, res.WithinBudget, total)
	}
	if want := 500 / total; !near(res.BudgetCheck.AffordableShare, want, 1e-3) {
		t.Errorf("affordable share = %v, want %.4f", res.BudgetCheck.AffordableShare, want)
	}
	// A 7B LoRA fits one 4090: 4 × 7e9 × 1e9 ÷
	// (165.2e12 × 0.26 × 3600) = 181 GPU-h × ¥2 = ¥362, within ¥500.
	c := res.BudgetCheck.Cheaper
	if c == nil || c.Total > 500 || c.Method == Full && c.GPU == "h100-sxm" {
		t.Errorf("cheaper = %+v, want another method or card within ¥500", c)
	}
}
